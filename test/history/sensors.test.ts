/**
 * A local miner's sensor readings in the history store (schema version 3): stored with each poll, summarized per
 * minute and per 10 minutes as min / avg / max like the hashrate, null for a rig without them, read back by series()
 * and rows(); a version 2 store migrated when opened for writing (every row kept) and read as it is when read only.
 */
import {mkdirSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {HistoryReader} from '../../source/history/read.js';
import {HistoryRecorder} from '../../source/history/recorder.js';
import {sampleOf, sensorColumns} from '../../source/history/samples.js';
import {loadSqlite} from '../../source/history/sqlite.js';
import {HistoryStore, SCHEMA_VERSION} from '../../source/history/store.js';
import {decodeSummarySensors, encodeSummarySensors, summarizeSamples, type SampleRow} from '../../source/history/tiers.js';
import {HistoryWriter} from '../../source/history/writer.js';
import type {SensorReading, TempSensor} from '../../source/sensors/types.js';
import {makeSnapshot} from '../helpers/snapshot.js';
import {goodSample, manualClock, observation, sixFacts, tempDir} from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const MINUTE = 60_000;

function temp(celsius: number, options: Partial<TempSensor> = {}): TempSensor {
	return {
		source: 'k10temp',
		package: 0,
		label: 'Tctl',
		celsius,
		max: 95,
		crit: null,
		headline: true,
		file: '/sys/class/hwmon/hwmon2/temp1_input',
		...options,
	};
}

/** A reading as the sensors reader makes one for a local miner: two packages, the clock, package watts, H/W. */
function reading(at: number, options: {celsius?: number; watts?: number | null; mhz?: number} = {}): SensorReading {
	const watts = options.watts === undefined ? 120 : options.watts;
	return {
		at,
		temps: [
			temp(options.celsius ?? 70.125),
			temp((options.celsius ?? 70.125) + 5, {label: 'Tccd1', headline: false, max: null}),
			temp((options.celsius ?? 70.125) - 10, {package: 1, max: 90}),
		],
		clock: {
			averageMHz: options.mhz ?? 3812.4,
			maxMHz: 4200,
			cpus: [0, 1, 2, 3],
			cpusFrom: 'affinity',
			file: '/sys/devices/system/cpu/cpu{0-3}/cpufreq/scaling_cur_freq',
		},
		throttle: null,
		power:
			watts === null
				? {state: 'denied', message: 'energy_uj is readable by root only'}
				: {state: 'ok', packages: [{package: 0, name: 'package-0', watts, file: '/sys/class/powercap/intel-rapl:0/energy_uj'}], watts},
		hashesPerWatt: watts === null ? null : 4800 / watts,
	};
}

function sensorSample(t: number, celsius: number, extra: Partial<SampleRow> = {}): SampleRow {
	return goodSample(t, 4800, {temp: celsius, tempLimit: 95, mhz: 3800, watts: 120, ...extra});
}

describe('a sensor reading as stored', () => {
	it('takes the hottest package headline and its max, the clock, the package watts and H/W, rounded', () => {
		const row = sampleOf(makeSnapshot({sensors: reading(1000)}), 1000);
		expect(row).toMatchObject({temp: 70.1, tempLimit: 95, mhz: 3812, watts: 120});
		// Not the hotter Tccd1 (not a headline), and package 1's own limit goes with package 1's temperature.
		expect(sensorColumns({...reading(1000), temps: [temp(60), temp(81.5, {package: 1, max: 90})]})).toMatchObject({
			temp: 81.5,
			tempLimit: 90,
		});
	});

	it('is null where nothing was read: no powercap, no sensors at all (a remote rig)', () => {
		expect(sampleOf(makeSnapshot({sensors: reading(1000, {watts: null})}), 1000)).toMatchObject({temp: 70.1, watts: null});
		const remote = sampleOf(makeSnapshot(), 1000);
		expect(remote.temp ?? null).toBeNull();
		expect(remote.watts ?? null).toBeNull();
	});
});

describe('tiers of the sensor readings', () => {
	it('summarize min / avg / max per bucket, weighted by the polls that had each reading', () => {
		const rows = [
			sensorSample(0, 60),
			sensorSample(10_000, 70, {watts: null}),
			sensorSample(20_000, 80, {watts: 100}),
			goodSample(30_000, 4800),
		];
		const [minute] = summarizeSamples(rows, MINUTE);
		expect(minute?.sensors?.temp).toEqual({n: 3, min: 60, avg: 70, max: 80});
		expect(minute?.sensors?.watts).toEqual({n: 2, min: 100, avg: 110, max: 120});
		expect(minute?.sensors?.tempLimit).toBe(95);
		// H/W is the hashrate over the watts, over the polls that had both.
		expect(minute?.sensors?.hpw).toEqual({n: 2, min: 40, avg: 44, max: 48});
		// As stored and read back, the same.
		expect(decodeSummarySensors(encodeSummarySensors(minute?.sensors ?? null))).toEqual(minute?.sensors);
		// A bucket of a remote rig has no sensors at all.
		expect(summarizeSamples([goodSample(0, 4800)], MINUTE)[0]?.sensors).toBeNull();
	});

	it('are kept in the store per poll, per minute and per 10 minutes, and read back by series() and rows()', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const clock = manualClock(Date.UTC(2026, 10, 20, 12, 0, 0));
		const store = HistoryStore.open({file: path.join(temp.dir, 'rigtop', 'history.sqlite'), now: clock.now});
		cleanups.push(() => store.close());
		const writer = new HistoryWriter(store, {now: clock.now});
		const start = clock.now();
		// 30 minutes at a poll every 10 s: the temperature climbs from 50 °C by 1 °C a minute (6 polls each).
		for (let t = start; t < start + 30 * MINUTE; t += 10_000) {
			clock.set(t);
			const minute = Math.floor((t - start) / MINUTE);
			writer.write([observation(sensorSample(t, 50 + minute + ((t / 10_000) % 6) / 10), sixFacts('id-a'), {spacingMs: 7500})], []);
		}

		clock.set(start + 31 * MINUTE);
		writer.summarize([writer.minerOf(0) ?? -1], true);
		const miner = writer.minerOf(0) ?? -1;
		const stored = (table: string, t: number) =>
			decodeSummarySensors(
				store.get<{sensors: string | null}>(`SELECT sensors FROM ${table} WHERE miner = ? AND t = ?`, miner, t)?.sensors,
			);
		const one = stored('summary_1m', start + 5 * MINUTE);
		expect(one?.temp).toMatchObject({n: 6, min: 55, max: 55.5});
		expect(one?.temp?.avg).toBeCloseTo(55.25, 6);
		expect(one?.tempLimit).toBe(95);
		expect(one?.watts?.avg).toBe(120);
		const ten = stored('summary_10m', start + 10 * MINUTE);
		expect(ten?.temp).toMatchObject({n: 60, min: 60, max: 69.5});
		expect(ten?.temp?.avg).toBeCloseTo(64.75, 6);

		const reader = new HistoryReader(store);
		const series = reader.series(miner, {from: start, to: start + 30 * MINUTE, points: 3});
		expect(series.points.map((point) => point.sensors?.temp?.min)).toEqual([50, 60, 70]);
		expect(series.points.map((point) => point.sensors?.temp?.max)).toEqual([59.5, 69.5, 79.5]);
		expect(series.points.every((point) => point.sensors?.clock?.avg === 3800 && point.sensors.hpw?.avg === 40)).toBe(true);
		const rows = reader.rows(miner, {from: start, to: start + 30 * MINUTE});
		expect(rows.length).toBeGreaterThan(0);
		expect(rows.every((row) => row.sensors?.temp !== null && row.sensors?.tempLimit === 95)).toBe(true);
	});

	it('cost a remote rig only nulls: its rows read back with no sensors', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const clock = manualClock();
		const store = HistoryStore.open({file: path.join(temp.dir, 'rigtop', 'history.sqlite'), now: clock.now});
		cleanups.push(() => store.close());
		const writer = new HistoryWriter(store, {now: clock.now});
		const start = clock.now();
		for (let t = start; t < start + 3 * MINUTE; t += 10_000) {
			clock.set(t);
			writer.write([observation(goodSample(t, 4800), sixFacts('id-remote'), {spacingMs: 7500})], []);
		}

		clock.set(start + 4 * MINUTE);
		writer.summarize([writer.minerOf(0) ?? -1], true);
		const miner = writer.minerOf(0) ?? -1;
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM sample WHERE miner = ? AND sensors IS NULL', miner)?.n).toBe(18);
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM summary_1m WHERE miner = ? AND sensors IS NULL', miner)?.n).toBe(3);
		const series = new HistoryReader(store).series(miner, {from: start, to: start + 3 * MINUTE, points: 3});
		expect(series.points.every((point) => point.live > 0 && point.sensors === undefined)).toBe(true);
	});

	it('are recorded from a snapshot with sensors, through the recorder, and read before the flush', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const store = HistoryStore.open({file: path.join(temp.dir, 'rigtop', 'history.sqlite')});
		const recorder = new HistoryRecorder(store, {intervalMs: 1000, flushMs: 60_000});
		cleanups.push(() => recorder.close());
		const at = Date.now();
		const read = {url: 'http://127.0.0.1:18080', name: 'rig-01', link: 'live' as const};
		recorder.recordRead(0, {...read, at: at - 1000, snapshot: makeSnapshot({sensors: reading(at - 1000, {celsius: 66})})});
		expect(recorder.flush()).toBe(true);
		recorder.recordRead(0, {...read, at, snapshot: makeSnapshot({sensors: reading(at, {celsius: 72})})});
		const miner = recorder.readMinerOf(0) ?? -1;
		// The second poll waits for the flush: a read includes it from memory.
		const series = recorder.reader.series(miner, {from: at - 2000, to: at + 1000, points: 1});
		expect(series.points[0]?.sensors?.temp).toEqual({n: 2, min: 66, avg: 69, max: 72});
		expect(recorder.flush()).toBe(true);
		// One column: the hottest package's °C, its sensor's max, MHz, W (H/W is made from W and the hashrate).
		expect(store.all<{sensors: string}>('SELECT sensors FROM sample WHERE miner = ? ORDER BY t', miner)).toEqual([
			{sensors: '66,95,3812,120'},
			{sensors: '72,95,3812,120'},
		]);
	});
});

describe('a store of version 2 (before the sensors)', () => {
	/** The version 2 schema, as rigtop wrote it before this change, with rows in every table. */
	const V2 = `
CREATE TABLE miner (miner INTEGER PRIMARY KEY, api_id TEXT UNIQUE, worker TEXT, host TEXT NOT NULL, url TEXT NOT NULL, name TEXT NOT NULL, kind TEXT, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL);
CREATE INDEX miner_worker ON miner (worker, host);
CREATE INDEX miner_url ON miner (url);
CREATE TABLE sample (miner INTEGER NOT NULL, t INTEGER NOT NULL, link INTEGER NOT NULL, hr10 REAL, hr60 REAL, hr15 REAL, good INTEGER, total INTEGER, rejected INTEGER, pool INTEGER, paused INTEGER, PRIMARY KEY (miner, t)) WITHOUT ROWID;
CREATE TABLE summary_1m (miner INTEGER NOT NULL, t INTEGER NOT NULL, n INTEGER NOT NULL, live INTEGER NOT NULL, hr_n INTEGER NOT NULL, pool INTEGER NOT NULL, paused INTEGER NOT NULL, link INTEGER NOT NULL, hr_min REAL, hr_avg REAL, hr_max REAL, hr60 REAL, hr15 REAL, good INTEGER, total INTEGER, rejected INTEGER, PRIMARY KEY (miner, t)) WITHOUT ROWID;
CREATE TABLE summary_10m (miner INTEGER NOT NULL, t INTEGER NOT NULL, n INTEGER NOT NULL, live INTEGER NOT NULL, hr_n INTEGER NOT NULL, pool INTEGER NOT NULL, paused INTEGER NOT NULL, link INTEGER NOT NULL, hr_min REAL, hr_avg REAL, hr_max REAL, hr60 REAL, hr15 REAL, good INTEGER, total INTEGER, rejected INTEGER, PRIMARY KEY (miner, t)) WITHOUT ROWID;
CREATE TABLE event (id INTEGER PRIMARY KEY, miner INTEGER NOT NULL, t INTEGER NOT NULL, kind TEXT NOT NULL, severity TEXT NOT NULL, text TEXT NOT NULL, writer INTEGER NOT NULL, worker TEXT);
CREATE INDEX event_miner_t ON event (miner, t);
CREATE TABLE proxy_worker (miner INTEGER PRIMARY KEY, proxy INTEGER NOT NULL, name TEXT NOT NULL, UNIQUE (proxy, name));
INSERT INTO miner VALUES (1, 'old-id', 'old-rig', '127.0.0.1', 'http://127.0.0.1:18080', 'old-rig', 'miner', 1000, 9000000);
INSERT INTO miner VALUES (2, NULL, NULL, '127.0.0.1', 'http://127.0.0.1:3333#worker=w1', 'w1', 'proxy-worker', 1000, 9000000);
INSERT INTO proxy_worker VALUES (2, 1, 'w1');
INSERT INTO summary_10m VALUES (1, 0, 60, 60, 60, 60, 0, 0, 800, 900, 1000, 900, 900, 5, 5, 0);
INSERT INTO summary_10m VALUES (1, 600000, 60, 59, 59, 59, 0, 2, 850, 905, 990, 900, 900, 9, 9, 0);
INSERT INTO summary_1m VALUES (1, 1200000, 6, 6, 6, 6, 0, 0, 880, 910, 940, 900, 900, 10, 10, 0);
INSERT INTO summary_1m VALUES (1, 1260000, 6, 6, 6, 6, 0, 0, 870, 905, 930, 900, 900, 11, 11, 0);
INSERT INTO sample VALUES (1, 1320000, 0, 900, 900, 900, 12, 12, 0, 1, 0);
INSERT INTO sample VALUES (1, 1330000, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO sample VALUES (2, 1320000, 0, 300, NULL, 300, 4, 4, 0, 1, 0);
INSERT INTO event (miner, t, kind, severity, text, writer) VALUES (1, 1330000, 'down', 'warn', 'down: connection refused', 1);
INSERT INTO event (miner, t, kind, severity, text, writer, worker) VALUES (1, 1320000, 'worker-joined', 'info', 'worker w1 joined', 1, 'w1');
PRAGMA application_id = 1919382640;
PRAGMA user_version = 2;
`;
	const TABLES = ['miner', 'sample', 'summary_1m', 'summary_10m', 'event', 'proxy_worker'] as const;

	function makeV2(dir: string): string {
		const file = path.join(dir, 'rigtop', 'history.sqlite');
		const {DatabaseSync} = loadSqlite();
		mkdirSync(path.dirname(file), {recursive: true});
		const db = new DatabaseSync(file);
		db.exec(V2);
		db.close();
		return file;
	}

	/** Every row of every table, as SQLite returns it (the columns a version 2 store has). */
	function dump(file: string): Record<string, unknown[]> {
		const {DatabaseSync} = loadSqlite();
		const db = new DatabaseSync(file, {readOnly: true});
		try {
			const v2Columns: Record<string, string> = {
				miner: 'miner, api_id, worker, host, url, name, kind, first_seen, last_seen',
				sample: 'miner, t, link, hr10, hr60, hr15, good, total, rejected, pool, paused',
				summary_1m: 'miner, t, n, live, hr_n, pool, paused, link, hr_min, hr_avg, hr_max, hr60, hr15, good, total, rejected',
				summary_10m: 'miner, t, n, live, hr_n, pool, paused, link, hr_min, hr_avg, hr_max, hr60, hr15, good, total, rejected',
			};
			return Object.fromEntries(
				TABLES.map((table) => [table, db.prepare(`SELECT ${v2Columns[table] ?? '*'} FROM ${table} ORDER BY 1, 2`).all()]),
			);
		} finally {
			db.close();
		}
	}

	it('opened for writing, becomes the current version keeping every row, and then stores sensor readings', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = makeV2(temp.dir);
		const before = dump(file);
		expect(before['sample']).toHaveLength(3);
		const notices: string[] = [];
		const store = HistoryStore.open({file, notify: (line) => notices.push(line)});
		cleanups.push(() => store.close());
		expect(store.enabled).toBe(true);
		expect(notices).toEqual([]);
		expect(store.get<{user_version: number}>('PRAGMA user_version')?.user_version).toBe(SCHEMA_VERSION);
		expect(store.hasSensors).toBe(true);
		expect(dump(file)).toEqual(before);
		// The old rows read the new columns as null.
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM summary_10m WHERE sensors IS NULL')?.n).toBe(2);
		const reader = new HistoryReader(store);
		const old = reader.series(1, {from: 0, to: 1_340_000, points: 4});
		expect(old.points.some((point) => point.live > 0)).toBe(true);
		expect(old.points.every((point) => point.sensors === undefined)).toBe(true);
		expect(reader.workers(1).map((worker) => worker.name)).toEqual(['w1']);

		const writer = new HistoryWriter(store);
		const t = Date.now();
		expect(writer.write([observation(sensorSample(t, 77), sixFacts('old-id', 'old-rig'))], [])).toBe(true);
		expect(writer.minerOf(0)).toBe(1);
		expect(reader.series(1, {from: t - 1000, to: t + 1000, points: 1}).points[0]?.sensors?.temp).toEqual({n: 1, min: 77, avg: 77, max: 77});
		store.close();
		// Opened again: already the current version, nothing to do.
		const again = HistoryStore.open({file});
		cleanups.push(() => again.close());
		expect(again.get<{user_version: number}>('PRAGMA user_version')?.user_version).toBe(SCHEMA_VERSION);
		expect(again.get<{n: number}>("SELECT count(*) AS n FROM sample WHERE sensors LIKE '77,%'")?.n).toBe(1);
	});

	it('read only (rigtop history), is read as it is: nothing migrated, rows and series without sensors', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = makeV2(temp.dir);
		const store = HistoryStore.open({file, readOnly: true});
		cleanups.push(() => store.close());
		expect(store.enabled).toBe(true);
		expect(store.hasSensors).toBe(false);
		const reader = new HistoryReader(store);
		const rows = reader.rows(1, {from: 0, to: 1_340_000});
		expect(rows.map((row) => row.resolution)).toEqual([600_000, 600_000, 60_000, 60_000, 0, 0]);
		expect(rows.every((row) => row.sensors === null)).toBe(true);
		expect(reader.series(1, {from: 0, to: 1_340_000, points: 10}).points.filter((point) => point.samples > 0).length).toBeGreaterThan(0);
		expect(store.get<{user_version: number}>('PRAGMA user_version')?.user_version).toBe(2);
		expect(store.enabled).toBe(true);
	});
});
