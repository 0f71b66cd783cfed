import {describe, expect, test} from 'vitest';
import {dashboardReducer, initialUiState, type DashboardUiState} from '../../../../source/ui/screens/dashboard/reduce.js';
import {type Capability, type KeyLike} from '../../../../source/ui/keys/matcher.js';

describe('dashboard reducer', () => {
	const offered = new Set<Capability>(['pause', 'resume', 'refresh', 'threads']);
	const start = (pageSize = 7, threadCount = 16): DashboardUiState => initialUiState({offered, pageSize, threadCount});
	const step = (state: DashboardUiState, input: string, key: KeyLike = {}) => dashboardReducer(state, {type: 'key', input, key});
	const press = (state: DashboardUiState, input: string, key: KeyLike = {}) => step(state, input, key).state;
	const viewport = (state: DashboardUiState, pageSize: number, threadCount: number) =>
		dashboardReducer(state, {type: 'viewport', pageSize, threadCount}).state;

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
		state = press(state, '', {home: true});
		expect(state.threadsOffset).toBe(0);
		state = press(state, 'k');
		expect(state.threadsOffset).toBe(0);
		state = press(state, 'G');
		expect(state.threadsOffset).toBe(9);
	});

	test('s sorts the threads by the next column, I reverses it; either shows the first row', () => {
		let state = press(start(), 'G');
		expect(state.threadSort).toEqual({key: 'index', reversed: false});
		state = press(state, 's');
		expect(state.threadSort).toEqual({key: '10s', reversed: false});
		expect(state.threadsOffset).toBe(0);
		state = press(press(state, 'G'), 'I');
		expect(state.threadSort).toEqual({key: '10s', reversed: true});
		expect(state.threadsOffset).toBe(0);
		for (const key of ['60s', '15m', 'index', '10s']) {
			state = press(state, 's');
			// A new column starts in its natural order (rates lowest first).
			expect(state.threadSort).toEqual({key, reversed: false});
		}

		expect(step(state, 's').effects).toEqual([]);
		// Not while the threads pane is off screen (a short terminal), nor under the help.
		const hidden = initialUiState({offered: new Set<Capability>(['pause']), pageSize: 7, threadCount: 16});
		expect(press(hidden, 's')).toBe(hidden);
		const help = press(start(), '?');
		expect(press(help, 's')).toBe(help);
	});

	test('a key that changes nothing returns the same state (no re-render)', () => {
		const state = start(20, 16);
		expect(press(state, '', {downArrow: true})).toBe(state);
		expect(press(state, 'x')).toBe(state);
		expect(viewport(state, 20, 16)).toBe(state);
	});

	test('a bigger viewport pulls the offset back', () => {
		let state = press(start(), 'G');
		expect(state.threadsOffset).toBe(9);
		state = viewport(state, 12, 16);
		expect(state.threadsOffset).toBe(4);
		state = viewport(state, 12, 4);
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

	test('app commands are effects, one per key, and change no state', () => {
		const state = start();
		expect(step(state, 'R')).toEqual({state, effects: ['refresh']});
		expect(step(state, 'c').effects).toEqual([]); // config was not offered: ignored
		expect(step(state, 'q')).toEqual({state, effects: ['quit']});
		expect(step(state, '', {downArrow: true}).effects).toEqual([]);
	});

	test('p asks first: y pauses, any other key (n, Esc, a stray letter) does not; r resumes at once', () => {
		const asked = step(start(), 'p');
		expect(asked.effects).toEqual([]);
		expect(asked.state.asking).toBe('pause');
		expect(step(asked.state, 'y')).toEqual({state: {...asked.state, asking: null}, effects: ['pause']});
		for (const [input, key] of [
			['n', {}],
			['', {escape: true}],
			['x', {}],
			['p', {}],
			['q', {}],
		] as const) {
			const answered = step(asked.state, input, key);
			expect(answered.effects).toEqual([]);
			expect(answered.state.asking).toBeNull();
			expect(answered.state.message?.text).toBe('not paused: mining goes on');
		}

		// Unanswered, the question goes away (the view's timer) and a later y does nothing.
		const expired = dashboardReducer(asked.state, {type: 'clearMessage'}).state;
		expect(expired.asking).toBeNull();
		expect(step(expired, 'y').effects).toEqual([]);
		expect(step(start(), 'r').effects).toEqual(['resume']);
	});

	test('a y that comes after the miner stopped allowing a pause says why instead', () => {
		const asked = step(start(), 'p').state;
		const refused = dashboardReducer(asked, {
			type: 'offered',
			offered: new Set<Capability>(['resume', 'refresh', 'threads']),
			refusals: new Map([['pause', 'the miner is not answering (down): nothing can be sent to it now']]),
		}).state;
		const answered = step(refused, 'y');
		expect(answered.effects).toEqual([]);
		expect(answered.state.message?.text).toBe('the miner is not answering (down): nothing can be sent to it now');
	});
});
