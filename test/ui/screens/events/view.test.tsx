/**
 * The event view (`e`) against a real SQLite store holding a night (helpers/history.ts): the stored events before
 * this session with their dates, outages with their span, scrolling, new events while reading, history off.
 */
import {stripVTControlCharacters} from 'node:util';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {SessionHistory} from '../../../../source/history/source.js';
import {HistoryStores} from '../../../../source/history/stores.js';
import type {MinerEvent} from '../../../../source/monitor/types.js';
import type {Store} from '../../../../source/monitor/store.js';
import {EventView, wrapText} from '../../../../source/ui/screens/events/view.js';
import {FixedNowContext} from '../../../../source/ui/hooks/use-now.js';
import {createStore, makeEvent, makeState, NOW} from '../../helpers/state.js';
import {nightHistory, POLL_MS} from '../../helpers/history.js';
import {KEYS, linesOf, renderTerminal} from '../../helpers/terminal.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

async function showEvents(size: {columns: number; rows: number}) {
	const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW}));
	const night = nightHistory(store);
	cleanups.push(() => night.close());
	const onClose = vi.fn();
	const onQuit = vi.fn();
	const terminal = await renderTerminal(
		<FixedNowContext.Provider value={NOW}>
			<EventView sources={[{name: 'rig-01', store, history: night.history}]} title="rig-01" caps={{close: onClose, quit: onQuit}} />
		</FixedNowContext.Provider>,
		size,
	);
	return {terminal, store, onClose, onQuit};
}

describe('the event view', () => {
	test('every stored event, newest first, dated when not today; the outage with its span and length', async () => {
		const {terminal} = await showEvents({columns: 80, rows: 24});
		const lines = linesOf(terminal.frame());
		expect(lines[0]).toContain('rig-01 · events');
		expect(lines[0]).toContain('10 events since Mar 13 10:00');
		const list = lines.slice(1, 11).map((line) => line.trim());
		expect(list[0]).toBe('10:30         config apply: applied 1 change');
		expect(list).toContain('00:12         back up · down Mar 13 23:54–00:12, 18m');
		expect(list).toContain('Mar 13 23:54  down: connection refused');
		expect(list.at(-1)).toBe('Mar 13 10:00  watching rig-01, XMRig 6.26.0');
		expect(lines.at(-2)).toContain('1–10 of 10, newest first');
		expect(lines.at(-1)).toMatch(/q quit {2}\? help {2}Esc back {2}↑↓ scroll/);
		for (const frame of terminal.frames) {
			for (const line of linesOf(stripVTControlCharacters(frame))) expect(line.length).toBeLessThanOrEqual(80);
			expect(linesOf(stripVTControlCharacters(frame)).length).toBeLessThanOrEqual(23);
		}
	});

	test('scrolls with ↓ j PgDn End, back with ↑ Home; the line under the list says where it is', async () => {
		const {terminal} = await showEvents({columns: 80, rows: 10});
		// 9 lines: title, 6 events, the position, the footer.
		expect(terminal.frame()).toContain('1–6 of 10, newest first · ↓ older');
		await terminal.press(KEYS.down, '2–7 of 10');
		await terminal.press('j', '3–8 of 10');
		await terminal.press(KEYS.pageDown, '9–10 of 10');
		await terminal.press(KEYS.home, '1–6 of 10');
		await terminal.press('G', '5–10 of 10');
		expect(terminal.frame()).toContain('Mar 13 10:00  watching rig-01');
		await terminal.press(KEYS.up, '4–9 of 10');
	});

	test('a new event while reading older ones comes in above: the lines on screen stay where they are', async () => {
		const {terminal, store} = await showEvents({columns: 80, rows: 10});
		await terminal.press('j', '2–7 of 10');
		const before = linesOf(terminal.frame()).slice(1, 7);
		store.set({events: [{...makeEvent(1, 0, 'share rejected: low difficulty', 'warn'), at: NOW}]});
		await terminal.waitFor('11 events');
		expect(linesOf(terminal.frame()).slice(1, 7)).toEqual(before);
		expect(terminal.frame()).toContain('3–8 of 11');
		await terminal.press(KEYS.home, '1–6 of 11');
		expect(terminal.frame()).toContain('12:00         share rejected: low difficulty');
	});

	test('Esc closes, q quits, ? shows the keys', async () => {
		const {terminal, onClose, onQuit} = await showEvents({columns: 80, rows: 24});
		await terminal.press('?', 'scroll to older events');
		await terminal.press(KEYS.escape, 'newest first');
		await terminal.press(KEYS.escape);
		await vi.waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
		await terminal.press('q');
		await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
	});

	test('at 200×60 a long message is whole, and every rig of a fleet is named on its lines', async () => {
		const a = createStore(makeState({name: 'garage-rig', events: [], lastAttemptAt: NOW}));
		const night = nightHistory(a);
		cleanups.push(() => night.close());
		const b = createStore(makeState({name: 'attic', events: [makeEvent(1, 5, 'down: connection refused', 'error')]}));
		const memory = new HistoryStores(new SessionHistory({monitor: b, slot: 0, recorder: null, intervalMs: POLL_MS, capacity: 10}), b);
		cleanups.push(() => memory.close());
		const terminal = await renderTerminal(
			<FixedNowContext.Provider value={NOW}>
				<EventView
					sources={[
						{name: 'garage-rig', store: a, history: night.history},
						{name: 'attic', store: b, history: memory},
					]}
					title="all rigs"
					caps={{close: () => {}, quit: () => {}}}
				/>
			</FixedNowContext.Provider>,
			{columns: 200, rows: 60},
		);
		const frame = terminal.frame();
		expect(frame).toContain('all rigs · events');
		expect(frame).toMatch(/11:55 {9}attic {7}down: connection refused/);
		expect(frame).toMatch(/Mar 13 23:54 {2}garage-rig {2}down: connection refused/);
		// One of the rigs has no store: the title says its events are this session's only.
		expect(linesOf(frame)[0]).toContain('· history off');
	});
});

describe("the session's notices", () => {
	test('are listed among the stored events, as rigtop’s when several rigs are', async () => {
		const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW}));
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		const list: readonly MinerEvent[] = [
			{seq: 1, at: NOW - 60_000, kind: 'action', severity: 'warn', message: 'history: the disk is full; history off'},
		];
		const notices: Store<readonly MinerEvent[]> = {subscribe: () => () => {}, getState: () => list};
		const terminal = await renderTerminal(
			<FixedNowContext.Provider value={NOW}>
				<EventView
					sources={[
						{name: 'rig-01', store, history: night.history},
						{name: 'rig-02', store, history: night.history},
					]}
					title="all rigs"
					caps={{close: () => {}, quit: () => {}}}
					notices={notices}
				/>
			</FixedNowContext.Provider>,
			{columns: 100, rows: 30},
		);
		const lines = linesOf(terminal.frame());
		expect(lines.find((line) => line.includes('history: the disk is full'))).toMatch(/rigtop +history: the disk is full; history off/);
	});
});

describe('with history off', () => {
	test('this session’s events, and it says so', async () => {
		const store = createStore(makeState({events: [makeEvent(1, 30, 'watching rig-01'), makeEvent(2, 2, 'paused')]}));
		const history = new HistoryStores(
			new SessionHistory({monitor: store, slot: 0, recorder: null, intervalMs: POLL_MS, capacity: 10}),
			store,
		);
		cleanups.push(() => history.close());
		const terminal = await renderTerminal(
			<FixedNowContext.Provider value={NOW}>
				<EventView sources={[{name: 'rig-01', store, history}]} title="rig-01" caps={{close: () => {}, quit: () => {}}} />
			</FixedNowContext.Provider>,
		);
		expect(linesOf(terminal.frame())[0]).toContain('2 events since 11:30 · history off');
		expect(linesOf(terminal.frame())[1]).toContain('11:58  paused');
	});
});

test('long texts wrap at words, a word longer than a line is cut', () => {
	expect(wrapText('pool lost: pool.example.org:443 after a very long time', 20)).toEqual([
		'pool lost:',
		'pool.example.org:443',
		'after a very long',
		'time',
	]);
	expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
	// In terminal cells: a CJK character takes 2, a combining mark none; a cut falls between grapheme clusters.
	expect(wrapText('矿机矿机矿 ünïcødé', 4)).toEqual(['矿机', '矿机', '矿', 'ünïc', 'ødé']);
	expect(wrapText('u\u0308u\u0308 矿', 5)).toEqual(['u\u0308u\u0308 矿']);
});
