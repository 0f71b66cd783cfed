import {describe, expect, test} from 'vitest';
import type {KeyLike} from '../../../../source/ui/keys/matcher.js';
import {fleetWants} from '../../../../source/ui/screens/fleet/columns.js';
import {initialFleetUiState, reduce, type FleetEnv, type FleetUiState} from '../../../../source/ui/screens/fleet/reduce.js';
import {fleetRows, fleetTotals} from '../../../../source/ui/screens/fleet/rows.js';
import {makeSnapshot, makeState, NOW} from '../../helpers/state.js';

function envOf(count: number, size = {columns: 100, rows: 16}): FleetEnv {
	const states = Array.from({length: count}, (_, index) => {
		const name = `rig-${String(index + 1).padStart(2, '0')}`;
		return makeState({name, url: `http://127.0.0.1:${18_081 + index}`, snapshot: makeSnapshot({workerId: name})});
	});
	const rows = fleetRows(states, NOW);
	const totals = fleetTotals(states, NOW);
	return {
		rows,
		states,
		now: NOW,
		totals,
		wants: fleetWants(rows, totals),
		hours: false,
		size,
		given: {refreshAll: false, chart: true, events: true},
	};
}

const key = (state: FleetUiState, env: FleetEnv, input: string, flags: KeyLike = {}) =>
	reduce(state, {type: 'key', input, key: flags}, env);

describe("the fleet's steps tell the app what it keeps", () => {
	const env = envOf(5);

	test('a key that moves the selection to another rig tells it; one that leaves it where it is does not', () => {
		const fresh = initialFleetUiState();
		const down = key(fresh, env, 'j');
		expect(down.effects).toEqual([{command: 'select', index: 1}]);
		expect(key(down.state, env, 'k').effects).toEqual([{command: 'select', index: 0}]);
		// At the top already: nothing moved.
		const top = key(down.state, env, 'k').state;
		expect(key(top, env, 'k').effects).toEqual([]);
		// A fresh start that stays pinned (a sort) tells no rig.
		expect(key(fresh, env, 's').effects).toEqual([{command: 'save', saved: {sort: {key: 'state', reversed: false}, filter: ''}}]);
	});

	test('the sort and the filter in force are told when a key changes them, not while a filter is typed', () => {
		let state = initialFleetUiState({selected: 0});
		expect(key(state, env, 'I').effects).toEqual([{command: 'save', saved: {sort: {key: 'listed', reversed: true}, filter: ''}}]);
		state = key(state, env, '/').state;
		const typed = key(state, env, 'r');
		expect(typed.effects).toEqual([]);
		expect(key(typed.state, env, '', {return: true}).effects).toEqual([
			{command: 'save', saved: {sort: {key: 'listed', reversed: false}, filter: 'r'}},
		]);
	});

	test('e tells the rig selected before it leaves for every rig’s events; g and Enter carry their rig', () => {
		const state = initialFleetUiState({selected: 2});
		expect(key(state, env, 'e').effects).toEqual([{command: 'select', index: 2}, {command: 'events'}]);
		expect(key(state, env, 'g').effects).toEqual([{command: 'chart', index: 2}]);
		expect(key(state, env, '', {return: true}).effects).toEqual([{command: 'open', index: 2}]);
		// Nothing picked yet: the fleet opens on its first line again.
		expect(key(initialFleetUiState(), env, 'e').effects).toEqual([{command: 'events'}]);
	});

	test('PgDn moves by the rig rows of the frame for the size in the env', () => {
		const many = envOf(40);
		const state = initialFleetUiState({selected: 0});
		// 100×16: ten rig rows; 100×12: six.
		expect(key(state, many, '', {pageDown: true}).state.selected).toBe(10);
		expect(key(state, {...many, size: {columns: 100, rows: 12}}, '', {pageDown: true}).state.selected).toBe(6);
	});
});

describe('c with rigs marked', () => {
	const env: FleetEnv = {...envOf(5), given: {refreshAll: false, chart: true, events: true, fleetConfig: true}};

	test('opens the fleet config view on the marked rigs, in the session’s order; with none marked it does nothing', () => {
		expect(key(initialFleetUiState(), env, 'c').effects).toEqual([]);
		const marked = {...initialFleetUiState(), marked: new Set([3, 0])};
		expect(key(marked, env, 'c').effects).toEqual([{command: 'fleetConfig', rigs: [0, 3]}]);
	});

	test('the marks come back with the fleet (initialFleetUiState)', () => {
		expect([...initialFleetUiState({kept: {marked: new Set([1, 4]), offset: 0}}).marked]).toEqual([1, 4]);
	});
});
