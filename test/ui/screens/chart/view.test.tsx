/**
 * The full-screen chart (`g`) against a real SQLite store holding a night (helpers/history.ts), at 80×24 and 200×60:
 * axes, the outage shaded and the gap left blank, the markers under the chart, the keys, a poll and a resize redrawn.
 */
import {afterEach, describe, expect, test, vi} from 'vitest';
import {SessionHistory} from '../../../../source/history/source.js';
import {HistoryStores} from '../../../../source/history/stores.js';
import {chartPoints, plotColumns, Y_AXIS_WIDTH} from '../../../../source/ui/screens/chart/model.js';
import {ChartView} from '../../../../source/ui/screens/chart/view.js';
import {FixedNowContext} from '../../../../source/ui/hooks/use-now.js';
import {createStore, makeSnapshot, makeState, NOW} from '../../helpers/state.js';
import {at, NIGHT, nightHistory, POLL_MS} from '../../helpers/history.js';
import {expectFits, KEYS, linesOf, renderTerminal} from '../../helpers/terminal.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

const LEFT = '\u001B[D';
const BRAILLE = /[\u2801-\u28FF]/;

function monitorState() {
	const snapshot = makeSnapshot({hashrate: {total: [4810, 4805, 4790], highest: 5010}});
	return makeState({snapshot, events: [], recentRates: [], sessionAverage: 4803, lastAttemptAt: NOW, lastSuccessAt: NOW});
}

async function showChart(size: {columns: number; rows: number}) {
	const store = createStore(monitorState());
	const night = nightHistory(store);
	cleanups.push(() => night.close());
	const onClose = vi.fn();
	const onQuit = vi.fn();
	const terminal = await renderTerminal(
		<FixedNowContext.Provider value={NOW}>
			<ChartView store={store} history={night.history} caps={{close: onClose, quit: onQuit}} />
		</FixedNowContext.Provider>,
		size,
	);
	return {terminal, store, onClose, onQuit};
}

/** The plot's lines (those with the y-axis), the axis row under them and the time labels under that. */
function parts(frame: string) {
	const lines = linesOf(frame);
	const plot = lines.filter((line) => /^ {0,4}[\d.]* [┤│]/.test(line));
	const axisIndex = lines.findIndex((line) => line.includes('└'));
	return {lines, plot, axis: lines[axisIndex] ?? '', labels: lines[axisIndex + 1] ?? ''};
}

/** The text column of a time in a chart `columns` wide showing [from, to). */
function columnOf(t: number, from: number, to: number, columns: number): number {
	return Y_AXIS_WIDTH + Math.floor(((t - from) / (to - from)) * plotColumns(columns));
}

/** [from, to) of a live chart: its buckets on a grid of their width (history/stores.ts, chartWindow). */
function spanOf(spanMs: number, columns: number): {from: number; to: number} {
	const step = spanMs / chartPoints(columns, spanMs, POLL_MS);
	const to = Math.ceil(NOW / step) * step;
	return {from: to - spanMs, to};
}

describe.each([
	{columns: 80, rows: 24},
	{columns: 200, rows: 60},
])('the chart at $columns×$rows', ({columns, rows}) => {
	test('the last hour: a braille line over the whole width, a y-axis with its unit, clock labels, min/avg/max', async () => {
		const {terminal} = await showChart({columns, rows});
		const frame = terminal.frame();
		const {lines, plot, axis, labels} = parts(frame);
		expect(lines[0]).toContain('rig-01 · last 1 h');
		// The dip to 2.4 kH/s at 11:20 is in the span's min; the max is the highest 10 s rate.
		expect(lines[0]).toMatch(/min 2\.40 avg 4\.\d\d max 4\.86 kH\/s/);
		expect(lines[1]).toMatch(/^kH\/s {2}⠤⠤ hashrate {2}15m 4\.79 {2}session 4\.80$/);
		// A reference line is labelled right of the plot.
		expect(plot.some((line) => / (15m|session) *$/.test(line))).toBe(true);
		// Every row the plot can have: the terminal less title, legend, axis, labels and footer.
		expect(plot).toHaveLength(rows - 1 - 5);
		expect(plot.at(-1)).toMatch(/^ {3}0 ┤/);
		expect(plot.filter((line) => line.includes('┤')).length).toBeGreaterThanOrEqual(3);
		expect(axis).toMatch(/^ {5}└[─┴]+$/);
		for (const clock of ['11:10', '11:30', '11:50']) expect(labels).toContain(clock);
		const {from, to} = spanOf(3_600_000, columns);
		// The line runs from the first column to the last (a poll every 30 s, every bucket has one).
		const drawn = (t: number) => plot.some((line) => BRAILLE.test(line[columnOf(t, from, to, columns)] ?? ''));
		expect(drawn(from + 60_000)).toBe(true);
		expect(drawn(NOW - 60_000)).toBe(true);
		// The dip is drawn lower than the rest.
		const lowest = (t: number) => plot.findLastIndex((line) => BRAILLE.test(line[columnOf(t, from, to, columns)] ?? ''));
		expect(lowest(at(14, 11, 22))).toBeGreaterThan(lowest(at(14, 11, 40)) + 2);
		expect(linesOf(frame).at(-1)).toMatch(/q quit {2}\? help {2}Esc back {2}\+- zoom {2}←→ time/);
		expectFits(terminal, columns, rows);
	});

	test('24 hours: the outage shaded, the night rigtop was not running blank, markers under the chart, midnight dated', async () => {
		const {terminal} = await showChart({columns, rows});
		await terminal.press('4', 'last 24 h');
		const {lines, plot, axis, labels} = parts(terminal.frame());
		const {from, to} = spanOf(24 * 3_600_000, columns);
		const column = (t: number) => columnOf(t, from, to, columns);
		// A column inside the outage is shaded from top to bottom (but where the line of the bucket before, sharing the
		// cell at this zoom, passes); the gap's columns are blank.
		const inside = [];
		for (let t = NIGHT.downFrom; t < NIGHT.downTo; t += 60_000) inside.push(column(t));
		const shaded = (c: number) =>
			plot.every((line) => line[c] === '░' || BRAILLE.test(line[c] ?? '')) &&
			plot.filter((line) => line[c] === '░').length >= plot.length - 2;
		expect(inside.some((c) => shaded(c))).toBe(true);
		for (const line of plot) expect(line[column(at(14, 4))] ?? ' ').toBe(' ');

		expect(plot.some((line) => BRAILLE.test(line[column(at(13, 18))] ?? ''))).toBe(true);
		// The pause drops the line to 0.
		expect(plot.at(-1)?.[column(at(14, 9, 5))]).toMatch(BRAILLE);
		expect(axis[column(NIGHT.restarted)]).toBe('R');
		expect(axis[column(NIGHT.poolLost)]).toBe('L');
		expect(axis[column(NIGHT.paused)]).toBe('P');
		expect(axis[column(NIGHT.config)]).toBe('C');
		expect(labels).toContain('Mar 14');
		// The legend says what the shading and each marker mean (on a second line where one is too short).
		const legend = `${lines[1]} ${lines[2]}`;
		expect(legend).toContain('░ down');
		for (const name of ['R restart', 'L pool lost', 'P paused', 'C config']) expect(legend).toContain(name);
		expect(plot).toHaveLength(rows - 1 - 5 - (lines[2]?.startsWith(' '.repeat(6)) === true ? 1 : 0));
		expectFits(terminal, columns, rows);
	});

	test('a new poll is drawn at once, and a resize redraws the chart at the new size', async () => {
		const {terminal, store} = await showChart({columns, rows});
		const snapshot = makeSnapshot({hashrate: {total: [9100, 4805, 4790], highest: 9100}});
		store.set({snapshot, lastAttemptAt: NOW - 1000, lastSuccessAt: NOW - 1000});
		await terminal.waitFor(/max 9\.10 kH\/s/);
		terminal.resize(columns - 20, rows - 4);
		await vi.waitFor(() => expect(parts(terminal.frame()).plot).toHaveLength(rows - 4 - 1 - 5));
		for (const line of linesOf(terminal.frame())) expect(line.length).toBeLessThanOrEqual(columns - 20);
		expectFits(terminal, columns, rows);
	});
});

describe('chart keys', () => {
	test('1–5 pick the span, + and - zoom, ← goes back in time and End comes back, Esc closes, q quits', async () => {
		const {terminal, onClose, onQuit} = await showChart({columns: 80, rows: 24});
		await terminal.press('1', 'last 10 min');
		await terminal.press('5', 'last 7 days');
		await terminal.press('+', 'last 24 h');
		await terminal.press('-', 'last 7 days');
		await terminal.press('2', 'last 1 h');
		await terminal.press(LEFT, /rig-01 · 10:\d\d–11:\d\d/);
		// Half an hour back: the title says the span shown, the footer offers to come back.
		expect(linesOf(terminal.frame())[0]).toMatch(/rig-01 · 10:\d\d–11:\d\d/);
		expect(linesOf(terminal.frame()).at(-1)).toContain('End now');
		await terminal.press('h');
		await terminal.press('h');
		expect(linesOf(terminal.frame())[0]).toMatch(/rig-01 · 09:\d\d–10:\d\d/);
		await terminal.press(KEYS.end, 'last 1 h');
		await terminal.press('?', 'Keys');
		expect(terminal.frame()).toContain('span: 10 min, 1 h, 6 h, 24 h, 7 days');
		await terminal.press(KEYS.escape, '⠤⠤ hashrate');
		expect(onClose).not.toHaveBeenCalled();
		await terminal.press(KEYS.escape);
		await vi.waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
		await terminal.press('q');
		await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
	});

	test('moving back stops at the first thing stored: some of the span is always on screen', async () => {
		const {terminal} = await showChart({columns: 80, rows: 24});
		await terminal.press('4', 'last 24 h');
		for (let i = 0; i < 6; i++) await terminal.press(LEFT);
		// The night began Mar 13 10:00: half a 24 h span after it is the oldest end.
		expect(linesOf(terminal.frame())[0]).toMatch(/rig-01 · Mar 12 2\d:\d\d–Mar 13 2\d:\d\d/);
	});
});

describe('with history off', () => {
	test('the chart draws this session’s polls from memory and says so', async () => {
		const store = createStore(monitorState());
		const history = new HistoryStores(
			new SessionHistory({monitor: store, slot: 0, recorder: null, intervalMs: POLL_MS, capacity: 100}),
			store,
		);
		cleanups.push(() => history.close());
		for (let i = 10; i >= 1; i--) store.set({lastAttemptAt: NOW - i * POLL_MS, lastSuccessAt: NOW - i * POLL_MS});
		const terminal = await renderTerminal(
			<FixedNowContext.Provider value={NOW}>
				<ChartView store={store} history={history} caps={{close: () => {}, quit: () => {}}} />
			</FixedNowContext.Provider>,
		);
		// Five minutes seen, no span chosen: the chart opens on the 10 minutes that hold them, not an hour.
		await terminal.waitFor('last 10 min');
		const frame = terminal.frame();
		expect(linesOf(frame)[1]).toContain('history off: this session only');
		const {plot} = parts(frame);
		const {from, to} = spanOf(600_000, 80);
		expect(plot.some((line) => BRAILLE.test(line[columnOf(NOW - 2 * POLL_MS, from, to, 80)] ?? ''))).toBe(true);
		expect(plot.some((line) => BRAILLE.test(line[columnOf(NOW - 8 * 60_000, from, to, 80)] ?? ''))).toBe(false);
		await terminal.press('2', 'last 1 h');
		await terminal.press('1', 'last 10 min');
		await terminal.press(LEFT);
		await terminal.press(LEFT);
		// Nothing in memory that far back: it says so instead of an empty grid.
		expect(terminal.frame()).toContain('last 10 min');
	});

	test('a span with nothing in it says so', async () => {
		const store = createStore(monitorState());
		const history = new HistoryStores(
			new SessionHistory({monitor: store, slot: 0, recorder: null, intervalMs: POLL_MS, capacity: 100}),
			store,
		);
		cleanups.push(() => history.close());
		const terminal = await renderTerminal(
			<FixedNowContext.Provider value={NOW + 3 * 3_600_000}>
				<ChartView store={store} history={history} caps={{close: () => {}, quit: () => {}}} />
			</FixedNowContext.Provider>,
		);
		expect(terminal.frame()).toContain('nothing seen in this span yet (history is off: this session only)');
	});
});

test('a terminal too small for a chart says what it needs', async () => {
	const {terminal} = await showChart({columns: 28, rows: 8});
	expect(terminal.frame().replaceAll(/\s+/g, ' ')).toContain('terminal too small for the chart — need 30×9');
	expectFits(terminal, 28, 8);
});

test('too small even for that sentence (16×5), it is cut at its lines and ends in "…"', async () => {
	const {terminal} = await showChart({columns: 16, rows: 5});
	const lines = linesOf(terminal.frame()).filter((line) => line.trim() !== '');
	const said = lines.filter((line) => /terminal|small|chart/.test(line));
	expect(said.length).toBeGreaterThan(0);
	expect(said.at(-1)?.trimEnd()).toMatch(/…$/);
	expect(terminal.frame()).not.toContain('30×9');
	expectFits(terminal, 16, 5);
});
