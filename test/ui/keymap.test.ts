import {describe, expect, test} from 'vitest';
import {
	availableCommands,
	dashboardReducer,
	initialUiState,
	type ActionCommand,
	type DashboardUiState,
} from '../../source/ui/dashboard-reducer.js';
import {commandFor, footerHints, helpEntries, KEYMAP, type CommandName, type KeyLike} from '../../source/ui/keymap.js';

const everything = new Set<CommandName>(KEYMAP.map((binding) => binding.command));

describe('keymap', () => {
	test('maps keys to commands on the dashboard', () => {
		expect(commandFor('q', {}, 'dashboard', everything)).toBe('quit');
		expect(commandFor('c', {ctrl: true}, 'dashboard', everything)).toBe('quit');
		expect(commandFor('c', {}, 'dashboard', everything)).toBe('config');
		expect(commandFor('?', {}, 'dashboard', everything)).toBe('help');
		expect(commandFor('p', {}, 'dashboard', everything)).toBe('pause');
		expect(commandFor('r', {}, 'dashboard', everything)).toBe('resume');
		expect(commandFor('R', {}, 'dashboard', everything)).toBe('refresh');
		expect(commandFor('', {downArrow: true}, 'dashboard', everything)).toBe('threadsDown');
		expect(commandFor('j', {}, 'dashboard', everything)).toBe('threadsDown');
		expect(commandFor('k', {}, 'dashboard', everything)).toBe('threadsUp');
		expect(commandFor('', {pageDown: true}, 'dashboard', everything)).toBe('pageDown');
		expect(commandFor('', {end: true}, 'dashboard', everything)).toBe('threadsBottom');
		expect(commandFor('x', {}, 'dashboard', everything)).toBeNull();
	});

	test('a Ctrl chord is not its plain letter, and the help screen takes fewer keys', () => {
		expect(commandFor('p', {ctrl: true}, 'dashboard', everything)).toBeNull();
		expect(commandFor('p', {}, 'help', everything)).toBeNull();
		expect(commandFor('', {downArrow: true}, 'help', everything)).toBeNull();
		expect(commandFor('', {escape: true, meta: true}, 'help', everything)).toBe('back');
		expect(commandFor('q', {}, 'help', everything)).toBe('quit');
	});

	test('commands that are not available do nothing', () => {
		const basic = new Set<CommandName>(['quit', 'help']);
		expect(commandFor('c', {}, 'dashboard', basic)).toBeNull();
		expect(commandFor('p', {}, 'dashboard', basic)).toBeNull();
		expect(commandFor('q', {}, 'dashboard', basic)).toBe('quit');
	});

	test('no key is bound twice on one screen', () => {
		for (const screen of ['dashboard', 'help'] as const) {
			const seen = new Set<string>();
			for (const binding of KEYMAP.filter((entry) => entry.screens.includes(screen))) {
				for (const spec of binding.keys) {
					const id = JSON.stringify(spec);
					expect(seen.has(id), `${id} on ${screen}`).toBe(false);
					seen.add(id);
				}
			}
		}
	});

	test('the footer comes from the same table and hides what is not shown', () => {
		const hints = footerHints('dashboard', new Set<CommandName>(['quit', 'help', 'pause', 'threadsUp', 'threadsDown']));
		expect(hints.map((hint) => `${hint.keys} ${hint.label}`)).toEqual(['q quit', '? help', 'p pause', '↑↓ threads']);
		expect(footerHints('help', new Set<CommandName>(['quit', 'help', 'back'])).map((hint) => hint.keys)).toEqual(['q', '?', 'Esc']);
	});

	test('help lists every binding and marks the unavailable ones', () => {
		const entries = helpEntries(new Set<CommandName>(['quit', 'help']));
		expect(entries).toHaveLength(KEYMAP.length);
		expect(entries.find((entry) => entry.keys === 'q, Ctrl+C')?.available).toBe(true);
		expect(entries.find((entry) => entry.keys === 'p')?.available).toBe(false);
	});
});

describe('dashboard reducer', () => {
	const actions = new Set<ActionCommand>(['quit', 'pause']);
	const start = (pageSize = 7, threadCount = 16): DashboardUiState => initialUiState({actions, pageSize, threadCount});
	const press = (state: DashboardUiState, input: string, key: KeyLike = {}) => dashboardReducer(state, {type: 'key', input, key});

	test('scrolls threads within bounds', () => {
		let state = start();
		state = press(state, '', {downArrow: true});
		expect(state.threadsOffset).toBe(1);
		state = press(state, '', {pageDown: true});
		expect(state.threadsOffset).toBe(8);
		state = press(state, '', {pageDown: true});
		expect(state.threadsOffset).toBe(9);
		state = press(state, 'j');
		expect(state.threadsOffset).toBe(9);
		state = press(state, 'g');
		expect(state.threadsOffset).toBe(0);
		state = press(state, 'k');
		expect(state.threadsOffset).toBe(0);
		state = press(state, 'G');
		expect(state.threadsOffset).toBe(9);
	});

	test('a key that changes nothing returns the same state (no re-render)', () => {
		const state = start(20, 16);
		expect(press(state, '', {downArrow: true})).toBe(state);
		expect(press(state, 'x')).toBe(state);
		expect(dashboardReducer(state, {type: 'viewport', pageSize: 20, threadCount: 16})).toBe(state);
	});

	test('a bigger viewport pulls the offset back', () => {
		let state = press(start(), 'G');
		expect(state.threadsOffset).toBe(9);
		state = dashboardReducer(state, {type: 'viewport', pageSize: 12, threadCount: 16});
		expect(state.threadsOffset).toBe(4);
		state = dashboardReducer(state, {type: 'viewport', pageSize: 12, threadCount: 4});
		expect(state.threadsOffset).toBe(0);
	});

	test('help opens and closes; thread keys do nothing while it is open', () => {
		let state = press(start(), '?');
		expect(state.help).toBe(true);
		const before = state;
		state = press(state, '', {downArrow: true});
		expect(state).toBe(before);
		state = press(state, '', {escape: true});
		expect(state.help).toBe(false);
		state = press(press(state, '?'), '?');
		expect(state.help).toBe(false);
	});

	test('app commands are queued in order, each numbered once', () => {
		let state = start();
		state = press(state, 'p');
		state = press(state, 'c'); // config was not given: ignored
		state = press(state, 'q');
		expect(state.outbox).toEqual([
			{seq: 1, command: 'pause'},
			{seq: 2, command: 'quit'},
		]);
	});

	test('the outbox is bounded', () => {
		let state = start();
		for (let index = 0; index < 40; index++) state = press(state, 'p');
		expect(state.outbox).toHaveLength(16);
		expect(state.outbox.at(-1)?.seq).toBe(40);
	});

	test('available commands always include navigation and help', () => {
		const available = availableCommands(new Set<ActionCommand>(['quit']));
		expect(available.has('help')).toBe(true);
		expect(available.has('threadsDown')).toBe(true);
		expect(available.has('pause')).toBe(false);
	});
});
