/**
 * The dashboard with a miner's history (a real SQLite store holding a night, helpers/history.ts): the sparkline
 * filled from the store at once, several rows tall on a tall terminal; the events pane with the stored events, dated;
 * `g` and `e` opening the chart and the event view, from the dashboard and from the fleet, Esc coming back.
 */
import {stripVTControlCharacters} from 'node:util';
import {afterEach, describe, expect, test} from 'vitest';
import {SessionHistory} from '../../../../source/history/source.js';
import {HistoryStores, type MinerHistory} from '../../../../source/history/stores.js';
import {App} from '../../../../source/ui/app.js';
import {FixedNowContext} from '../../../../source/ui/hooks/use-now.js';
import {Dashboard} from '../../../../source/ui/screens/dashboard/view.js';
import {createStore, makeSnapshot, makeState, makeThreads, NOW, type TestStore} from '../../helpers/state.js';
import {nightHistory, POLL_MS} from '../../helpers/history.js';
import {KEYS, linesOf, renderTerminal, tick} from '../../helpers/terminal.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

const BRAILLE = /[\u2801-\u28FF]/;

function fresh(overrides = {}) {
	// A rigtop just started: its own samples are none yet, its event log holds its first event.
	return makeState({
		snapshot: makeSnapshot({threads: makeThreads(4)}),
		recentRates: [],
		events: [],
		lastAttemptAt: NOW,
		lastSuccessAt: NOW,
		...overrides,
	});
}

/** A rigtop just started on a miner whose store holds a night (closed after the test). */
function withNight(overrides = {}) {
	const store = createStore(fresh(overrides));
	const night = nightHistory(store);
	cleanups.push(() => night.close());
	return {store, history: night.history};
}

/** The dashboard over a miner's store and history, in a terminal of `size` (default 80×24). */
async function showDashboard(store: TestStore, history: MinerHistory, size?: {columns: number; rows: number}) {
	return renderTerminal(
		<FixedNowContext.Provider value={NOW}>
			<Dashboard store={store} caps={{quit: () => {}}} history={history} />
		</FixedNowContext.Provider>,
		size,
	);
}

/** The hashrate pane's lines (the left half of the first stats row). */
function hashratePane(frame: string, columns = 80): string[] {
	const lines = linesOf(frame);
	const top = lines.findIndex((line) => line.includes('╭ Hashrate'));
	const bottom = lines.findIndex((line, index) => index > top && line.startsWith('╰'));
	return lines.slice(top, bottom + 1).map((line) => line.slice(0, Math.floor(columns / 2)));
}

describe('the dashboard with history', () => {
	test('80×24: the sparkline is filled from the store at once, "since 1d", over the pane’s whole width', async () => {
		const {store, history} = withNight();
		const terminal = await showDashboard(store, history);
		await terminal.waitFor('Hashrate since 1d'); // the store is read from the second frame on
		const pane = hashratePane(terminal.frame());
		expect(pane[0]).toContain('Hashrate since 1d');
		const spark = pane.slice(3, -1).map((line) => line.slice(2, -2));
		expect(spark.join('')).not.toContain('collecting samples');
		// The night is longer than the pane is wide: the line starts at its left edge and reaches its right one.
		const last = spark.at(-1) ?? '';
		expect(last).toHaveLength(36);
		expect(last.slice(0, 2)).toMatch(BRAILLE);
		expect(last.at(-1)).toMatch(BRAILLE);
		// The four hours rigtop was not running are a gap in it.
		expect(last.trim()).toMatch(/\S +\S/);
	});

	test('the events pane lists the stored events from before this session, dated when not today', async () => {
		const {store, history} = withNight();
		const terminal = await showDashboard(store, history, {
			columns: 120,
			rows: 40,
		});
		const frame = terminal.frame();
		expect(frame).toContain('10:30 config apply: applied 1 change');
		expect(frame).toContain('00:12 back up · down Mar 13 23:54–00:12, 18m');
		expect(frame).toContain('Mar 13 23:54 down: connection refused');
	});

	test('200×50 with 4 threads: the sparkline grows to several rows instead of blank lines, events fill the rest', async () => {
		const {store, history} = withNight();
		const terminal = await showDashboard(store, history, {
			columns: 200,
			rows: 50,
		});
		await terminal.waitFor('Hashrate since 1d');
		const frame = terminal.frame();
		const pane = hashratePane(frame, 200);
		const sparkRows = pane.slice(3, -1).filter((line) => BRAILLE.test(line));
		expect(sparkRows).toHaveLength(8);
		const lines = linesOf(frame);
		expect(lines).toHaveLength(49);
		// Below the threads: every stored event (ten), then the footer.
		const afterThreads = lines.slice(lines.findLastIndex((line) => line.startsWith('╰')) + 1, -1);
		expect(afterThreads.filter((line) => line.trim() !== '')).toHaveLength(10);
		for (const line of linesOf(stripVTControlCharacters(frame))) expect(line.length).toBeLessThanOrEqual(200);
	});

	test("the first frame does not wait for the store: the monitor's samples, then the stored line a frame later", async () => {
		const {store, history} = withNight();
		const terminal = await showDashboard(store, history);
		await terminal.waitFor('Hashrate since 1d');
		const first = stripVTControlCharacters(terminal.frames[0] ?? '');
		expect(first).toContain('╭ Hashrate');
		expect(first).not.toContain('since 1d');
	});

	test('a poll is drawn in one frame, with the sparkline read for it (its store reads before the screen redraws)', async () => {
		const {store, history} = withNight();
		const terminal = await showDashboard(store, history);
		await terminal.waitFor('Hashrate since 1d');
		await tick();
		const before = terminal.frames.length;
		for (let i = 1; i <= 5; i++) {
			store.set({lastAttemptAt: NOW + i * 1000, lastSuccessAt: NOW + i * 1000, polls: 10 + i});
			await tick();
		}

		expect(terminal.frames.length - before).toBe(5);
		// The newest answer is for the last poll (its key ends with the poll's time).
		expect(history.sparkline.getState()[0]?.key.endsWith(`:${NOW + 5000}`)).toBe(true);
	});

	test('a dashboard opened again on the same history (from the fleet) draws the stored line in its first frame', async () => {
		const {store, history} = withNight();
		const once = await showDashboard(store, history);
		await once.waitFor('Hashrate since 1d');
		once.unmount();
		const again = await showDashboard(store, history);
		expect(stripVTControlCharacters(again.frames[0] ?? '')).toContain('Hashrate since 1d');
	});

	test('with history off: the session’s samples, since this session began, and the pane says it is collecting at first', async () => {
		const store = createStore(fresh({lastAttemptAt: NOW - 10 * POLL_MS}));
		const history = new HistoryStores(
			new SessionHistory({monitor: store, slot: 0, recorder: null, intervalMs: POLL_MS, capacity: 100}),
			store,
		);
		cleanups.push(() => history.close());
		const terminal = await showDashboard(store, history);
		await terminal.waitFor(/Hashrate since \d+m/);
		expect(hashratePane(terminal.frame())[0]).toMatch(/Hashrate since \d+m/);
		for (let i = 9; i >= 0; i--) store.set({lastAttemptAt: NOW - i * POLL_MS, lastSuccessAt: NOW - i * POLL_MS});
		await terminal.waitFor(BRAILLE);
	});
});

describe('opening the chart and the event view', () => {
	test('from the dashboard: g opens the chart, e the events, Esc comes back to the dashboard', async () => {
		const {store, history} = withNight();
		const terminal = await renderTerminal(<App miners={[{store, history}]} onQuit={() => {}} now={NOW} />);
		expect(linesOf(terminal.frame()).at(-1)).toContain('g chart  e events');
		await terminal.press('g', 'rig-01 · last 1 h');
		await terminal.press(KEYS.escape, 'Hashrate since 1d');
		await terminal.press('e', 'rig-01 · events');
		expect(terminal.frame()).toContain('Mar 13 23:54  down: connection refused');
		await terminal.press(KEYS.escape, 'Hashrate since 1d');
	});

	test('from the fleet: g opens the selected rig’s chart, e every rig’s events; Esc comes back to the fleet', async () => {
		const {store: a, history: night} = withNight({name: 'rig-a'});
		const b = createStore(fresh({name: 'rig-b', snapshot: makeSnapshot({id: 'other', workerId: 'rig-b'})}));
		const memory = new HistoryStores(new SessionHistory({monitor: b, slot: 1, recorder: null, intervalMs: POLL_MS, capacity: 10}), b);
		cleanups.push(() => memory.close());
		const opened: (number | null)[] = [];
		const terminal = await renderTerminal(
			<App
				miners={[
					{store: a, history: night},
					{store: b, history: memory},
				]}
				onQuit={() => {}}
				now={NOW}
				fleetThrottleMs={0}
				onOpenChange={(index) => opened.push(index)}
			/>,
			{columns: 100, rows: 30},
		);
		expect(linesOf(terminal.frame()).at(-1)).toContain('g chart  e events');
		await terminal.press(KEYS.down);
		await terminal.press('g', 'rig-b · last 10 min'); // a few polls known: the span that holds them
		await terminal.waitFor('history off'); // the chart's store answers on the next turn
		expect(terminal.frame()).toContain('history off: this session only');
		await terminal.press(KEYS.escape, 'Enter open');
		await terminal.press(KEYS.up);
		await terminal.press('g', 'rig-a · last 1 h');
		await terminal.press(KEYS.escape, 'Enter open');
		await terminal.press('e', 'all rigs · events');
		await terminal.waitFor('rig-a'); // the event view's store answers on the next turn
		expect(terminal.frame()).toMatch(/Mar 13 23:54 {2}rig-a {2}down: connection refused/);
		await terminal.press(KEYS.escape, 'Enter open');
		// The fleet's screens leave the fleet's polling as it was: no rig's dashboard was opened.
		expect(opened.every((index) => index === null)).toBe(true);
	});
});
