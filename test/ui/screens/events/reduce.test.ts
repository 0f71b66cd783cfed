/** The event view's pure half: scrolling against the list's length and page size given at dispatch. */
import {describe, expect, test} from 'vitest';
import {SCREEN_KEYMAP} from '../../../../source/ui/keys/bindings.js';
import {footerOf} from '../../../../source/ui/screens/contract.js';
import {availability} from '../../../../source/ui/screens/events/availability.js';
import {initialEventViewState, offsetOf, reduce} from '../../../../source/ui/screens/events/reduce.js';

const key = (input: string, special: Record<string, boolean> = {}) => ({type: 'key' as const, input, key: special});

describe('the event view reducer', () => {
	test('reading older events, new ones come in above: the first event shown stays the same event', () => {
		let state = initialEventViewState();
		state = reduce(state, key('j'), {count: 10, pageSize: 6}).state;
		state = reduce(state, key('j'), {count: 10, pageSize: 6}).state;
		expect(offsetOf(state, 10)).toBe(2);
		// Two more events: the same event is now the fourth newest.
		expect(offsetOf(state, 12)).toBe(4);
		// At the newest, new events show at once.
		expect(offsetOf(initialEventViewState(), 12)).toBe(0);
	});

	test('pages and ends by the page size in the env; never past the list', () => {
		const env = {count: 10, pageSize: 6};
		expect(offsetOf(reduce(initialEventViewState(), key('', {pageDown: true}), env).state, 10)).toBe(6);
		expect(offsetOf(reduce(initialEventViewState(), key('G'), env).state, 10)).toBe(4);
		expect(reduce(initialEventViewState(), key('', {upArrow: true}), env).state).toEqual(initialEventViewState());
		expect(reduce(initialEventViewState(), key('j'), {count: 0, pageSize: 6}).state).toEqual(initialEventViewState());
		expect(reduce(initialEventViewState(), key('q'), env).effects).toEqual(['quit']);
	});

	test('its footer comes from its availability', () => {
		expect(footerOf(SCREEN_KEYMAP, availability(initialEventViewState())).map((hint) => hint.label)).toEqual([
			'quit',
			'help',
			'back',
			'scroll',
		]);
	});
});
