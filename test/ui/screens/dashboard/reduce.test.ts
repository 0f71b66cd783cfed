import {describe, expect, test} from 'vitest';
import {type KeyLike} from '../../../../source/ui/keys/matcher.js';
import {minerFacts, THREADS_HIDDEN} from '../../../../source/ui/screens/dashboard/availability.js';
import {initialState, reduce, threadsOffsetOf} from '../../../../source/ui/screens/dashboard/reduce.js';
import type {DashboardEnv, DashboardState, FrozenMoment, Given} from '../../../../source/ui/screens/dashboard/state.js';
import {makeSnapshot, makeState, NOW} from '../../helpers/state.js';

/** What the app gave: pause, resume and poll now (no config view, no fleet, no interval, no history). */
const given: Given = {config: false, pause: true, resume: true, refresh: true, back: false, interval: false, chart: false, events: false};
/** A miner that does not say whether it is paused (before 4.4): pause and resume both work. */
const mining = minerFacts(makeState({snapshot: makeSnapshot({paused: null})}));

/** What f holds: the miner's state, its shares and the clock of the moment. */
const MOMENT: FrozenMoment = {state: makeState(), at: NOW};

/** The dashboard's env for a threads pane of `pageSize` rows and `threadCount` threads. */
function envOf(pageSize = 7, threadCount = 16, overrides: Partial<DashboardEnv> = {}): DashboardEnv {
	return {
		miner: mining,
		given,
		readOnly: false,
		tokenGiven: true,
		threads: threadCount > pageSize ? 'scrolls' : 'fits',
		tooSmall: false,
		pageSize,
		threadCount,
		helpMax: 0,
		intervalMs: null,
		moment: () => MOMENT,
		...overrides,
	};
}

describe('dashboard reducer', () => {
	const start = (): DashboardState => initialState();
	const step = (state: DashboardState, input: string, key: KeyLike = {}, env = envOf()) => reduce(state, {type: 'key', input, key}, env);
	const press = (state: DashboardState, input: string, key: KeyLike = {}, env = envOf()) => step(state, input, key, env).state;

	test('f holds the moment the env gives, in the state; f again lets it go; other keys keep it', () => {
		let moments = 0;
		const env = envOf(7, 16, {
			moment() {
				moments++;
				return {...MOMENT, at: NOW + moments};
			},
		});
		const held = step(start(), 'f', {}, env);
		expect(held.effects).toEqual([]);
		expect(held.state.frozen).toEqual({...MOMENT, at: NOW + 1});
		const scrolled = press(held.state, 'j', {}, env);
		expect(scrolled.frozen).toBe(held.state.frozen);
		const released = step(scrolled, 'f', {}, env);
		expect(released.effects).toEqual([]);
		expect(released.state.frozen).toBeNull();
		expect(moments).toBe(1);
	});

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
		// Not while the threads pane is off screen (a short terminal: s says why), nor under the help.
		const hidden = press(start(), 's', {}, envOf(7, 16, {threads: 'hidden'}));
		expect(hidden.threadSort).toEqual(start().threadSort);
		expect(hidden.message?.text).toBe(THREADS_HIDDEN);
		const help = press(start(), '?');
		expect(press(help, 's')).toBe(help);
	});

	test('a key that changes nothing returns the same state (no re-render)', () => {
		const state = start();
		const all = envOf(20, 16);
		expect(press(state, '', {downArrow: true}, all)).toBe(state);
		expect(press(state, 'x', {}, all)).toBe(state);
		// The same viewport again (the env of the next frame) is no action at all: nothing to reduce.
		expect(reduce(state, {type: 'clearMessage'}, all).state).toBe(state);
	});

	test('a bigger viewport pulls the offset back', () => {
		const state = press(start(), 'G');
		expect(state.threadsOffset).toBe(9);
		expect(threadsOffsetOf(state, envOf(12, 16))).toBe(4);
		expect(threadsOffsetOf(state, envOf(12, 4))).toBe(0);
		// And the next key scrolls from the row shown, not from the one scrolled to before.
		expect(press(state, 'k', {}, envOf(12, 16)).threadsOffset).toBe(3);
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
		const expired = reduce(asked.state, {type: 'clearMessage'}, envOf()).state;
		expect(expired.asking).toBeNull();
		expect(step(expired, 'y').effects).toEqual([]);
		expect(step(start(), 'r').effects).toEqual(['resume']);
	});

	test('a y that comes after the miner stopped allowing a pause says why instead', () => {
		const asked = step(start(), 'p').state;
		// The miner went down while the question was on screen: the env of the answer says so.
		const down = envOf(7, 16, {miner: minerFacts(makeState({status: 'down', snapshot: makeSnapshot({paused: null})}))});
		const answered = step(asked, 'y', {}, down);
		expect(answered.effects).toEqual([]);
		expect(answered.state.message?.text).toBe('the miner is not answering (down): nothing can be sent to it now');
	});
});
