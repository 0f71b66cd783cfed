import {mkdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {createSession, type Session} from '../../source/session/session.js';
import {attachHistory} from '../../source/history/attach.js';
import {HistoryReader} from '../../source/history/read.js';
import {HistoryStore, SCHEMA_VERSION} from '../../source/history/store.js';
import {HistoryWriter} from '../../source/history/writer.js';
import {loadSqlite} from '../../source/history/sqlite.js';
import {storedWorkers, WORKERS_STORED_MAX} from '../../source/history/samples.js';
import {startSimulator} from '../../source/sim/simulator.js';
import type {ProxyInfo, ProxyWorker} from '../../source/miner/proxy-model.js';
import {HistoryRecorder} from '../../source/history/recorder.js';
import {makeSnapshot} from '../helpers/snapshot.js';
import {goodSample, manualClock, observation, openStore, sixFacts, tempDir, until, eventRecord} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

function readStore(file: string) {
	const store = HistoryStore.open({file, readOnly: true});
	cleanups.push(() => store.close());
	return new HistoryReader(store);
}

describe("a proxy's workers in the history store", () => {
	it('a simulated proxy polled N times stores its polls as the proxy and each worker as a subject of its own', async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const sim = await startSimulator({kind: 'proxy', warm: true, workers: 4, lifeEvents: false, seed: 7});
		cleanups.push(async () => sim.stop());
		const session: Session = attachHistory(
			createSession([{url: sim.url, token: null}], 250),
			{mode: 'live', intervalMs: 250},
			() => undefined,
			{file},
		);
		const [proxy] = session.miners;
		if (!proxy) throw new Error('no proxy');
		session.start();
		await until(
			() => (proxy.monitor.getState().snapshot?.proxy?.workers?.length ?? 0) === 4 && proxy.monitor.getState().polls >= 5,
			8000,
			'polls',
		);
		const polls = proxy.monitor.getState().polls;
		const rate1m = proxy.monitor.getState().snapshot?.proxy?.hashrate[0] ?? null;
		await session.close();

		const reader = readStore(file);
		const miners = reader.miners();
		// The workers are not miners: the list holds the proxy alone.
		expect(miners.map((miner) => miner.url)).toEqual([sim.url]);
		const id = miners[0]?.id ?? 0;
		const rows = reader.rows(id, {from: 0, to: Date.now() + 1000});
		expect(rows.length).toBeGreaterThanOrEqual(polls - 2);
		// The proxy's 1 min rate is the rate stored (a miner's 10 s place), not null.
		expect(rows.at(-1)?.hrAvg).not.toBeNull();
		expect(rate1m).not.toBeNull();
		const workers = reader.workers(id);
		expect(workers.map((worker) => worker.name)).toEqual(
			sim
				.workers()
				.map((worker) => worker.name)
				.sort(),
		);
		for (const worker of workers) {
			const stored = reader.rows(worker.id, {from: 0, to: Date.now() + 1000});
			// One row a minute at most (WORKER_SPACING_MS): the session was shorter.
			expect(stored.length).toBeGreaterThanOrEqual(1);
			const simWorker = sim.workers().find((candidate) => candidate.name === worker.name);
			expect(stored.at(-1)?.good).toBeLessThanOrEqual(simWorker?.accepted ?? -1);
			expect(stored.at(-1)?.hrAvg).toBeGreaterThan(0);
			expect(stored.at(-1)?.pool).toBe(1);
			expect(reader.workerOf(id, worker.name)).toBe(worker.id);
		}
	}, 30_000);

	it("makes each worker's minute and ten-minute summaries (min / avg / max of its 1 min rate, its shares)", () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const clock = manualClock(Date.UTC(2026, 10, 20, 12, 0, 0));
		const {store} = openStore(temp.dir, {now: clock.now});
		cleanups.push(() => store.close());
		const writer = new HistoryWriter(store, {now: clock.now});
		const start = clock.now();
		const facts = {apiId: 'proxy-id', workerId: 'sim-proxy', kind: 'proxy', uptimeS: 3600};
		// 3 minutes of polls every 10 s: the proxy's and two workers'.
		for (let i = 0; i < 18; i++) {
			const t = start + i * 10_000;
			clock.set(t);
			const proxyRow = observation(goodSample(t, 5000), facts, {spacingMs: 7500});
			const a = observation(goodSample(t, 1000 + i * 10, {good: 10 + i, total: 12 + i, rejected: 1}), null, {
				spacingMs: 7500,
				worker: 'rig-a',
			});
			const b = observation(goodSample(t, 2000, {good: 5, total: 5, rejected: 0}), null, {spacingMs: 7500, worker: 'rig-b'});
			expect(writer.write([proxyRow, a, b], [])).toBe(true);
		}

		clock.set(start + 11 * 60_000);
		const proxy = writer.minerOf(0) ?? -1;
		writer.summarize([proxy, writer.workerOf(proxy, 'rig-a') ?? -1, writer.workerOf(proxy, 'rig-b') ?? -1], true);
		const minutes = store.all<{t: number; hr_min: number; hr_avg: number; hr_max: number; good: number; total: number; rejected: number}>(
			'SELECT t, hr_min, hr_avg, hr_max, good, total, rejected FROM summary_1m WHERE miner = ? ORDER BY t',
			writer.workerOf(proxy, 'rig-a') ?? -1,
		);
		expect(minutes.map((row) => row.t)).toEqual([start, start + 60_000, start + 120_000]);
		expect(minutes[0]).toMatchObject({hr_min: 1000, hr_max: 1050, hr_avg: 1025, good: 15, total: 17, rejected: 1});
		const tens = store.all<{n: number}>('SELECT n FROM summary_10m WHERE miner = ?', writer.workerOf(proxy, 'rig-b') ?? -1);
		expect(tens).toEqual([{n: 18}]);
	});

	it('a worker name stored raw before text was cleaned is the same worker cleaned: no second row', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const clock = manualClock(Date.UTC(2026, 10, 20, 12, 0, 0));
		const {store} = openStore(temp.dir, {now: clock.now});
		cleanups.push(() => store.close());
		const facts = {apiId: 'proxy-id', workerId: 'sim-proxy', kind: 'proxy', uptimeS: 3600};
		const t = clock.now();
		const old = new HistoryWriter(store, {now: clock.now});
		const raw = 'rig-01\u200b';
		old.write([observation(goodSample(t, 5000), facts), observation(goodSample(t, 1000), null, {worker: raw})], []);
		const proxy = old.minerOf(0) ?? -1;
		const stored = old.workerOf(proxy, raw);
		expect(stored).not.toBeNull();
		clock.set(t + 60_000);
		const today = new HistoryWriter(store, {now: clock.now});
		today.write(
			[observation(goodSample(t + 60_000, 5000), facts), observation(goodSample(t + 60_000, 1000), null, {worker: 'rig-01<200B>'})],
			[],
		);
		expect(today.workerOf(proxy, 'rig-01<200B>')).toBe(stored);
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM proxy_worker')?.n).toBe(1);
	});

	it('writes a worker event under its proxy, named; a worker filter reads it alone', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const {store} = openStore(temp.dir);
		cleanups.push(() => store.close());
		const writer = new HistoryWriter(store);
		const t = Date.now();
		writer.write(
			[observation(goodSample(t, 5000), sixFacts('proxy-id', 'sim-proxy'))],
			[
				eventRecord(t, 'worker-gone', 'worker rig-a gone: no connection', {worker: 'rig-a'}),
				eventRecord(t + 1, 'upstream-error', 'upstreams in error: 1 of 1'),
			],
		);
		const reader = new HistoryReader(store);
		const proxy = writer.minerOf(0) ?? -1;
		expect(reader.events(proxy, {since: 0}).map((event) => [event.kind, event.worker])).toEqual([
			['worker-gone', 'rig-a'],
			['upstream-error', undefined],
		]);
		expect(reader.events(proxy, {since: 0, worker: 'rig-a'}).map((event) => event.text)).toEqual(['worker rig-a gone: no connection']);
		expect(reader.events(proxy, {since: 0, worker: 'rig-b'})).toEqual([]);
	});

	it(`stores at most ${WORKERS_STORED_MAX} workers of a proxy, the connected ones first, the same ones poll after poll`, () => {
		const worker = (name: string, connections: number): ProxyWorker => ({
			name,
			ip: null,
			connections,
			accepted: 0,
			rejected: 0,
			invalid: 0,
			hashes: 0,
			lastShareAt: null,
			hashrate: [1, 1, 1, 1, 1],
		});
		const many = Array.from({length: 3000}, (_, i) => worker(`w-${String(i).padStart(4, '0')}`, i % 2));
		const kept = storedWorkers(many);
		expect(kept).toHaveLength(WORKERS_STORED_MAX);
		expect(kept.every((each) => each.connections === 1)).toBe(true);
		expect(storedWorkers([...many].reverse()).map((each) => each.name)).toEqual(kept.map((each) => each.name));
	});
});

describe('a store from before workers were kept (schema version 1)', () => {
	/** The version 1 schema, as rigtop wrote it before this change. */
	const V1 = `
CREATE TABLE miner (miner INTEGER PRIMARY KEY, api_id TEXT UNIQUE, worker TEXT, host TEXT NOT NULL, url TEXT NOT NULL, name TEXT NOT NULL, kind TEXT, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL);
CREATE INDEX miner_worker ON miner (worker, host);
CREATE INDEX miner_url ON miner (url);
CREATE TABLE sample (miner INTEGER NOT NULL, t INTEGER NOT NULL, link INTEGER NOT NULL, hr10 REAL, hr60 REAL, hr15 REAL, good INTEGER, total INTEGER, rejected INTEGER, pool INTEGER, paused INTEGER, PRIMARY KEY (miner, t)) WITHOUT ROWID;
CREATE TABLE summary_1m (miner INTEGER NOT NULL, t INTEGER NOT NULL, n INTEGER NOT NULL, live INTEGER NOT NULL, hr_n INTEGER NOT NULL, pool INTEGER NOT NULL, paused INTEGER NOT NULL, link INTEGER NOT NULL, hr_min REAL, hr_avg REAL, hr_max REAL, hr60 REAL, hr15 REAL, good INTEGER, total INTEGER, rejected INTEGER, PRIMARY KEY (miner, t)) WITHOUT ROWID;
CREATE TABLE summary_10m (miner INTEGER NOT NULL, t INTEGER NOT NULL, n INTEGER NOT NULL, live INTEGER NOT NULL, hr_n INTEGER NOT NULL, pool INTEGER NOT NULL, paused INTEGER NOT NULL, link INTEGER NOT NULL, hr_min REAL, hr_avg REAL, hr_max REAL, hr60 REAL, hr15 REAL, good INTEGER, total INTEGER, rejected INTEGER, PRIMARY KEY (miner, t)) WITHOUT ROWID;
CREATE TABLE event (id INTEGER PRIMARY KEY, miner INTEGER NOT NULL, t INTEGER NOT NULL, kind TEXT NOT NULL, severity TEXT NOT NULL, text TEXT NOT NULL, writer INTEGER NOT NULL);
CREATE INDEX event_miner_t ON event (miner, t);
INSERT INTO miner VALUES (1, 'old-id', 'old-rig', '127.0.0.1', 'http://127.0.0.1:18080', 'old-rig', 'miner', 1000, 2000);
INSERT INTO sample VALUES (1, 1500, 0, 900, 900, 900, 1, 1, 0, 1, 0);
INSERT INTO event (miner, t, kind, severity, text, writer) VALUES (1, 1500, 'down', 'warn', 'down: connection refused', 1);
PRAGMA application_id = 1919382640;
PRAGMA user_version = 1;
`;

	function makeV1(dir: string): string {
		const file = path.join(dir, 'rigtop', 'history.sqlite');
		const {DatabaseSync} = loadSqlite();
		mkdirSync(path.dirname(file), {recursive: true});
		const db = new DatabaseSync(file);
		db.exec(V1);
		db.close();
		return file;
	}

	it('is read as it is by rigtop history (read only: nothing migrated)', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = makeV1(temp.dir);
		const store = HistoryStore.open({file, readOnly: true});
		cleanups.push(() => store.close());
		expect(store.enabled).toBe(true);
		const reader = new HistoryReader(store);
		expect(reader.events(1, {since: 0}).map((event) => event.kind)).toEqual(['down']);
		expect(reader.workers(1)).toEqual([]);
		expect(reader.events(1, {since: 0, worker: 'rig-a'})).toEqual([]);
		expect(store.get<{user_version: number}>('PRAGMA user_version')?.user_version).toBe(1);
		expect(store.enabled).toBe(true);
	});

	it('opened for writing, gains the workers table and the event column, keeps what it held, and stores workers', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = makeV1(temp.dir);
		const notices: string[] = [];
		const store = HistoryStore.open({file, notify: (line) => notices.push(line)});
		cleanups.push(() => store.close());
		expect(store.enabled).toBe(true);
		expect(notices).toEqual([]);
		expect(store.get<{user_version: number}>('PRAGMA user_version')?.user_version).toBe(SCHEMA_VERSION);
		const reader = new HistoryReader(store);
		expect(reader.miners().map((miner) => miner.name)).toEqual(['old-rig']);
		expect(reader.events(1, {since: 0}).map((event) => event.text)).toEqual(['down: connection refused']);
		const writer = new HistoryWriter(store);
		const t = Date.now();
		expect(
			writer.write(
				[
					observation(goodSample(t, 5000), sixFacts('proxy-id', 'sim-proxy'), {url: 'http://127.0.0.1:3333'}),
					observation(goodSample(t, 500), null, {url: 'http://127.0.0.1:3333', worker: 'rig-a'}),
				],
				[eventRecord(t, 'worker-joined', 'worker rig-a joined', {url: 'http://127.0.0.1:3333', worker: 'rig-a'})],
			),
		).toBe(true);
		const proxy = writer.minerOf(0) ?? -1;
		expect(reader.workers(proxy).map((worker) => worker.name)).toEqual(['rig-a']);
		expect(reader.events(proxy, {since: 0, worker: 'rig-a'}).map((event) => event.kind)).toEqual(['worker-joined']);
		store.close();
		// Opened again: already version 2, nothing to do.
		const again = HistoryStore.open({file});
		cleanups.push(() => again.close());
		expect(again.enabled).toBe(true);
		expect(new HistoryReader(again).workers(proxy)).toHaveLength(1);
	});

	it('a version 2 store without its workers table is damaged: set aside, a fresh one started', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = makeV1(temp.dir);
		const {DatabaseSync} = loadSqlite();
		const db = new DatabaseSync(file);
		db.exec('PRAGMA user_version = 2');
		db.close();
		const notices: string[] = [];
		const store = HistoryStore.open({file, notify: (line) => notices.push(line)});
		cleanups.push(() => store.close());
		expect(store.enabled).toBe(true);
		expect(notices.join('\n')).toMatch(/damaged \(its proxy_worker table is missing\)/);
		expect(new HistoryReader(store).miners()).toEqual([]);
	});
});

describe('a proxy with thousands of workers', () => {
	it(`stores ${WORKERS_STORED_MAX} of them from one poll, in the poll's one write, and no ip`, () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const store = HistoryStore.open({file});
		const recorder = new HistoryRecorder(store, {intervalMs: 1000});
		const workers: ProxyWorker[] = Array.from({length: 3000}, (_, i) => ({
			name: `w-${String(i).padStart(4, '0')}`,
			ip: `10.9.${Math.floor(i / 250)}.${i % 250}`,
			connections: 1,
			accepted: i,
			rejected: 0,
			invalid: 0,
			hashes: 0,
			lastShareAt: null,
			hashrate: [1000, 1000, 1000, 1000, 1000],
		}));
		const snapshot = makeSnapshot({kind: 'proxy', id: 'big-proxy', workerId: 'big-proxy', proxy: bigProxy(workers)});
		recorder.recordRead(0, {url: 'http://127.0.0.1:3333', configured: 'big-proxy', at: Date.now(), snapshot, link: 'live'});
		const before = store.get<{n: number}>('SELECT count(*) AS n FROM miner')?.n;
		expect(recorder.flush()).toBe(true);
		expect(before).toBe(0);
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM proxy_worker')?.n).toBe(WORKERS_STORED_MAX);
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM sample WHERE miner IN (SELECT miner FROM proxy_worker)')?.n).toBe(
			WORKERS_STORED_MAX,
		);
		recorder.close();
		const bytes = readFileSync(file);
		expect(bytes.includes('10.9.0.1')).toBe(false);
	});
});

function bigProxy(workers: readonly ProxyWorker[]): ProxyInfo {
	return {
		mode: 'nicehash',
		miners: {now: workers.length, max: workers.length},
		workerCount: workers.length,
		upstreams: {active: 1, sleep: 0, error: 0, total: 1, ratio: workers.length},
		results: {accepted: 1, rejected: 0, invalid: 0, expired: 0, avgTime: 1, latency: 1, hashesTotal: null, hashesDonate: null, best: []},
		hashrate: [3e6, 3e6, 3e6, 3e6, 3e6],
		sinceStart: 3e6,
		workers,
		workersMode: 'rig_id',
	};
}
