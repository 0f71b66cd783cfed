/** A sort remembered by its column's id (prefs keep it as a string): the fleet restores it only when it has the column. */
import {describe, expect, test} from 'vitest';
import {initialFleetUiState} from '../../../../source/ui/screens/fleet/reduce.js';

describe("the fleet's sort from the last run", () => {
	test('a sort the fleet has a column for is restored with its filter', () => {
		const ui = initialFleetUiState({saved: {sort: {key: 'hpw', reversed: true}, filter: 'attic'}, restored: true});
		expect(ui.sort).toEqual({key: 'hpw', reversed: true});
		expect(ui.filter).toBe('attic');
		expect(ui.restored).toBe(true);
	});

	test('a sort it has no column for restores nothing, as a damaged value is left out', () => {
		const ui = initialFleetUiState({saved: {sort: {key: 'bogus', reversed: true}, filter: 'attic'}, restored: true});
		expect(ui.sort).toEqual({key: 'listed', reversed: false});
		expect(ui.filter).toBe('');
		expect(ui.restored).toBe(false);
	});
});
