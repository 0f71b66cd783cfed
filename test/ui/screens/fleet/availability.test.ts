import {describe, expect, test} from 'vitest';
import {SCREEN_KEYMAP} from '../../../../source/ui/keys/bindings.js';
import {keysLabel, type KeyLike} from '../../../../source/ui/keys/matcher.js';
import {READ_ONLY_MESSAGE} from '../../../../source/config/session.js';
import {commandOf, footerOf} from '../../../../source/ui/screens/contract.js';
import {availability, fleetHelp, type FleetGiven} from '../../../../source/ui/screens/fleet/availability.js';
import {initialFleetUiState, type FleetUiState} from '../../../../source/ui/screens/fleet/reduce.js';

const NOTHING: FleetGiven = {refreshAll: false, chart: false, events: false};
const EVERYTHING: FleetGiven = {refreshAll: true, chart: true, events: true};

const browsing = initialFleetUiState();
const filtered: FleetUiState = {...browsing, filter: 'garage'};
const typing: FleetUiState = {...browsing, prompt: {text: 'gar', caret: 3}};
const helping: FleetUiState = {...browsing, help: true};

const ESCAPE: KeyLike = {escape: true};

const footer = (state: FleetUiState, given: FleetGiven) => footerOf(SCREEN_KEYMAP, availability(state, {given})).map((hint) => hint.label);

describe("the fleet's availability", () => {
	test('the context follows the mode: the help, the filter being typed, the table', () => {
		expect(availability(helping, {given: NOTHING}).context).toBe('help');
		expect(availability(typing, {given: NOTHING}).context).toBe('fleetFilter');
		expect(availability(browsing, {given: NOTHING}).context).toBe('fleet');
	});

	test('R, g and e work only when the app gave them; the fleet refuses nothing', () => {
		for (const given of [NOTHING, EVERYTHING]) {
			const keys = availability(browsing, {given});
			expect(keys.refused.size).toBe(0);
			expect(keys.works.has('refreshAll')).toBe(given.refreshAll);
			expect(keys.works.has('chart')).toBe(given.chart);
			expect(keys.works.has('events')).toBe(given.events);
			expect(commandOf(SCREEN_KEYMAP, keys, 'R', {})).toEqual(given.refreshAll ? {command: 'refreshAll'} : null);
			expect(footer(browsing, given).includes('refresh')).toBe(given.refreshAll);
		}
	});

	test('Esc clears a filter in force, and is neither in the footer nor a key without one', () => {
		expect(commandOf(SCREEN_KEYMAP, availability(browsing, {given: NOTHING}), '', ESCAPE)).toBeNull();
		expect(footer(browsing, NOTHING)).not.toContain('clear filter');
		expect(commandOf(SCREEN_KEYMAP, availability(filtered, {given: NOTHING}), '', ESCAPE)).toEqual({command: 'clearFilter'});
		expect(footer(filtered, NOTHING)).toContain('clear filter');
		// While typing, Esc clears what is typed; with the help open, it closes the help.
		expect(commandOf(SCREEN_KEYMAP, availability(typing, {given: NOTHING}), '', ESCAPE)).toEqual({command: 'filterClear'});
		expect(commandOf(SCREEN_KEYMAP, availability(helping, {given: NOTHING}), '', ESCAPE)).toEqual({command: 'back'});
	});

	test('every key the footer offers works, in every mode', () => {
		for (const state of [browsing, filtered, typing, helping]) {
			for (const given of [NOTHING, EVERYTHING]) {
				const keys = availability(state, {given});
				for (const hint of footerOf(SCREEN_KEYMAP, keys)) {
					const binding = SCREEN_KEYMAP.bindings.find(
						(entry) => entry.footer === hint.label && entry.contexts.includes(keys.context) && keys.works.has(entry.command),
					);
					expect(binding, `${keys.context}: ${hint.label}`).toBeDefined();
				}
			}
		}
	});

	test("the help lists the table's and the typed filter's keys the app gave, whatever the mode; not the help's own", () => {
		const given = fleetHelp(NOTHING).map((entry) => entry.description);
		expect(given).toContain('clear the filter');
		expect(given).toContain('while typing a filter: keep it (it edits as in the config view)');
		expect(given).toContain("open the selected rig's dashboard");
		expect(given).not.toContain('close this help');
		expect(given).not.toContain('poll every rig now');
		const all = fleetHelp(EVERYTHING);
		expect(all.length).toBeGreaterThan(given.length);
		expect(all.every((entry) => entry.available)).toBe(true);
		const chart = SCREEN_KEYMAP.bindings.find((binding) => binding.command === 'chart');
		expect(all.map((entry) => entry.keys)).toContain(keysLabel(chart!));
	});
});

describe('c: the fleet config view of the marked rigs', () => {
	const given: FleetGiven = {...EVERYTHING, fleetConfig: true};
	const marked: FleetUiState = {...browsing, marked: new Set([0, 2])};

	test('works only with rigs marked (with none, c is not the fleet’s key: it does nothing, as before)', () => {
		expect(commandOf(SCREEN_KEYMAP, availability(browsing, {given}), 'c', {})).toBeNull();
		expect(commandOf(SCREEN_KEYMAP, availability(marked, {given}), 'c', {})).toEqual({command: 'config'});
		expect(footer(marked, given)).toContain('config');
		expect(footer(browsing, given)).not.toContain('config');
		// Not given by the app: never offered.
		expect(commandOf(SCREEN_KEYMAP, availability(marked, {given: EVERYTHING}), 'c', {})).toBeNull();
	});

	test('--read-only offers none of it: c says why', () => {
		expect(commandOf(SCREEN_KEYMAP, availability(marked, {given, readOnly: true}), 'c', {})).toEqual({refused: READ_ONLY_MESSAGE});
		expect(commandOf(SCREEN_KEYMAP, availability(browsing, {given, readOnly: true}), 'c', {})).toBeNull();
	});
});
