/**
 * The chart's series key (`s`): against a real SQLite store holding an hour of a local miner's polls with sensor
 * readings (and one of a remote rig without), at 80×24 and 200×50 — the title, the legend and the y-axis unit follow
 * the series, the line is the reading's, the sensor's max is its reference line, and a series with nothing stored
 * says so in one line.
 */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {HistoryRecorder} from '../../../../source/history/recorder.js';
import {SessionHistory} from '../../../../source/history/source.js';
import {HistoryStore} from '../../../../source/history/store.js';
import {HistoryStores} from '../../../../source/history/stores.js';
import {LINK, type SampleRow} from '../../../../source/history/tiers.js';
import {HistoryWriter} from '../../../../source/history/writer.js';
import type {SensorReading} from '../../../../source/sensors/types.js';
import {FixedNowContext} from '../../../../source/ui/hooks/use-now.js';
import {ChartView} from '../../../../source/ui/screens/chart/view.js';
import {createStore, makeSnapshot, makeState, NOW} from '../../helpers/state.js';
import {expectFits, linesOf, renderTerminal} from '../../helpers/terminal.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const MINUTE = 60_000;
const POLL_MS = 30_000;
const URL = 'http://127.0.0.1:18088';
const BRAILLE = /[\u2801-\u28FF]/;

/** The reading of the rig at the moment shown (its sensor's max, the clock's max; the chart's series are stored). */
const READING: SensorReading = {
	at: NOW,
	temps: [
		{
			source: 'k10temp',
			package: 0,
			label: 'Tctl',
			celsius: 74,
			max: 95,
			crit: null,
			headline: true,
			file: '/sys/class/hwmon/hwmon2/temp1_input',
		},
	],
	clock: {
		averageMHz: 3800,
		maxMHz: 4200,
		cpus: [0, 1],
		cpusFrom: 'affinity',
		file: '/sys/devices/system/cpu/cpu{0-1}/cpufreq/scaling_cur_freq',
	},
	throttle: null,
	power: {state: 'ok', packages: [], watts: 120},
	hashesPerWatt: 40,
};

/** An hour of polls before NOW: the temperature climbs from 60 to 75 °C, 120 W; none of them with `sensors: false`. */
function sample(t: number, sensors: boolean): SampleRow {
	const base = {t, link: LINK.live, hr10: 4800, hr60: 4800, hr15: 4800, good: 10, total: 10, rejected: 0, pool: 1, paused: 0} as const;
	if (!sensors) return base;
	const temp = 60 + (15 * (t - (NOW - 60 * MINUTE))) / (60 * MINUTE);
	return {...base, temp: Math.round(temp * 10) / 10, tempLimit: 95, mhz: 3800, watts: 120};
}

async function showChart(size: {columns: number; rows: number}, local: boolean) {
	const snapshot = makeSnapshot(local ? {sensors: READING} : {});
	const store = createStore(makeState({snapshot, events: [], lastAttemptAt: NOW, lastSuccessAt: NOW}));
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-chart-series-'));
	const file = path.join(dir, 'rigtop', 'history.sqlite');
	const db = HistoryStore.open({file, now: () => NOW});
	const writer = new HistoryWriter(db, {now: () => NOW, writerId: 1});
	const facts = {apiId: snapshot.id, workerId: snapshot.workerId, kind: 'miner', uptimeS: 3600};
	const observations = [];
	for (let t = NOW - 60 * MINUTE; t < NOW - POLL_MS; t += POLL_MS) {
		observations.push({slot: 0, url: URL, name: 'rig-01', facts, sample: sample(t, local), spacingMs: POLL_MS * 0.75});
	}

	writer.write(observations, []);
	db.close();
	const reopened = HistoryStore.open({file, now: () => NOW});
	const recorder = new HistoryRecorder(reopened, {intervalMs: POLL_MS, now: () => NOW, writerId: 2});
	recorder.watch([store]);
	const source = new SessionHistory({monitor: store, slot: 0, recorder, intervalMs: POLL_MS, capacity: 900});
	const history = new HistoryStores(source, store);
	cleanups.push(() => {
		history.close();
		recorder.close();
		rmSync(dir, {recursive: true, force: true});
	});
	const terminal = await renderTerminal(
		<FixedNowContext.Provider value={NOW}>
			<ChartView store={store} history={history} caps={{close: vi.fn(), quit: vi.fn()}} />
		</FixedNowContext.Provider>,
		size,
	);
	await terminal.waitFor('⠤⠤ hashrate');
	return terminal;
}

/** The plot's lines (those with the y-axis). */
function plotOf(frame: string): string[] {
	return linesOf(frame).filter((line) => /^ {0,4}[\d.]* [┤│]/.test(line));
}

describe.each([
	{columns: 80, rows: 24},
	{columns: 200, rows: 50},
])('the chart’s series at $columns×$rows', ({columns, rows}) => {
	test('s switches to the temperature: title, legend, °C axis, its line and the sensor’s max; on to clock, power, H/W and back', async () => {
		const terminal = await showChart({columns, rows}, true);
		expect(linesOf(terminal.frame()).at(-1)).toContain('s series');
		await terminal.press('s', '⠤⠤ temperature');
		const frame = terminal.frame();
		const lines = linesOf(frame);
		expect(lines[0]).toContain('rig-01 · temperature · last 1 h');
		expect(lines[0]).toMatch(/min 60°C avg 6\d°C max 75°C/);
		expect(lines[1]).toMatch(/^°C {4}⠤⠤ temperature {2}max 95°C$/);
		const plot = plotOf(frame);
		expect(plot.some((line) => BRAILLE.test(line))).toBe(true);
		// The y-axis in degrees, the line climbing: the newest column higher than the oldest.
		expect(plot.some((line) => /^ {0,2}(60|70|80|90) ┤/.test(line))).toBe(true);
		expect(plot.some((line) => / max *$/.test(line))).toBe(true);
		const rowOf = (column: number) => plot.findIndex((line) => BRAILLE.test(line[column] ?? ''));
		expect(rowOf(7)).toBeGreaterThan(rowOf(columns - 10));
		expectFits(terminal, columns, rows);

		// Several keys in one read, as a terminal delivers them typed fast: two on, to the power.
		await terminal.press('ss', '⠤⠤ power');
		expect(linesOf(terminal.frame())[0]).toMatch(/rig-01 · power · last 1 h.*min 120 W avg 120 W max 120 W/);
		await terminal.press('s', '⠤⠤ H/W');
		expect(linesOf(terminal.frame())[1]).toMatch(/^H\/W/);
		await terminal.press('s', '⠤⠤ hashrate');
		expect(linesOf(terminal.frame())[0]).toContain('rig-01 · last 1 h');
		expect(linesOf(terminal.frame())[1]).toMatch(/^kH\/s/);
		expectFits(terminal, columns, rows);
	});

	test('a rig on another machine (nothing but its hashrate recorded): s is not offered and the hashrate stays', async () => {
		const terminal = await showChart({columns, rows}, false);
		expect(linesOf(terminal.frame()).at(-1)).not.toContain('s series');
		await terminal.press('s');
		await terminal.press('j');
		expect(terminal.frame()).toContain('⠤⠤ hashrate');
		expect(terminal.frame()).not.toContain('temperature');
		expect(plotOf(terminal.frame()).some((line) => BRAILLE.test(line))).toBe(true);
		expectFits(terminal, columns, rows);
	});
});
