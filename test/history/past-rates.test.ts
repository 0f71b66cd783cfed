/**
 * What the store tells the drop detector's reference (history/last-hour.ts, pastRates): the miner's stored last hour,
 * read from a real SQLite file, and a live session seeded from it (attach.ts) reporting a miner that was already
 * slower when the session started.
 */
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {createSession} from '../../source/session/session.js';
import {attachHistory} from '../../source/history/attach.js';
import {pastRates} from '../../source/history/last-hour.js';
import {HistoryRecorder} from '../../source/history/recorder.js';
import {HistoryStore} from '../../source/history/store.js';
import {MinerClient} from '../../source/miner/client.js';
import {MinerReader} from '../../source/miner/reader.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {makeSnapshot, withRates} from '../helpers/snapshot.js';
import {tempDir, until} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function openRecorder(file: string): HistoryRecorder {
	const store = HistoryStore.open({file});
	const recorder = new HistoryRecorder(store, {intervalMs: 2000});
	cleanups.push(() => recorder.close());
	return recorder;
}

const URL = 'http://127.0.0.1:18099';
const MINUTE = 60_000;

describe('pastRates', () => {
	it('the minutes of the stored hour where the miner mined with a pool, unpaused and not just after a pause; null before the store knows it', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const recorder = openRecorder(path.join(temp.dir, 'history.sqlite'));
		const before = Math.floor(Date.now() / MINUTE) * MINUTE;
		const rates = pastRates(recorder, 0);
		expect(rates(before)).toBeNull();

		const read = (at: number, snapshot = withRates([4800, 4800, 4800])) =>
			recorder.recordRead(0, {url: URL, configured: 'rig-01', at, snapshot, link: 'live'});
		// Two hours ago (outside the hour); then 20 minutes mining, a minute paused, the next minute (its 10 s window
		// low 10 s after the resume), 18 more minutes mining, and 10 without a pool.
		read(before - 120 * MINUTE, withRates([9000, 9000, 9000]));
		for (let t = before - 50 * MINUTE; t < before - 30 * MINUTE; t += 20_000) read(t);
		for (let t = before - 30 * MINUTE; t < before - 29 * MINUTE; t += 20_000) read(t, withRates([0, 0, 2000], {paused: true}));
		read(before - 29 * MINUTE + 10_000, withRates([1000, 2000, 2000]));
		for (let t = before - 29 * MINUTE + 20_000; t < before - 10 * MINUTE; t += 20_000) read(t);
		const noPool = makeSnapshot({hashrate: {total: [0, 0, 2000]}, connection: {connected: false, ip: null, uptime: 0}});
		for (let t = before - 10 * MINUTE; t < before; t += 20_000) read(t, noPool);
		// The session's own first poll, at `before`, is not its past.
		read(before, withRates([100, 100, 100]));
		recorder.flush();

		const points = rates(before) ?? [];
		expect(points.map((point) => Math.round(point.rate * 1000) / 1000)).toEqual(Array.from({length: 38}, () => 4800));
		expect(points.map((point) => (point.t - before) / MINUTE)).toEqual([
			...Array.from({length: 20}, (_, i) => i - 50),
			...Array.from({length: 18}, (_, i) => i - 28),
		]);
		expect(points.every((point) => point.samples === 3)).toBe(true);
	});

	it('nothing once history is off', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const recorder = openRecorder(path.join(temp.dir, 'history.sqlite'));
		recorder.store.close();
		expect(recorder.enabled).toBe(false);
		expect(pastRates(recorder, 0)(Date.now())).toEqual([]);
	});
});

describe('a live session seeded from the store', () => {
	it('a miner cut to one thread before rigtop started is reported against its stored hour', async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const token = 'past-rates-token';
		const sim = await startSimulator({warm: true, seed: 3, threads: 4, token, restricted: false, applyDelayMs: 5, timeScale: 4});
		cleanups.push(async () => sim.stop());

		// An earlier rigtop watched it for the last hour at four threads (its reads stored at their times).
		const client = new MinerClient({url: sim.url, token});
		cleanups.push(async () => client.close());
		const full = await new MinerReader(client).read(AbortSignal.timeout(5000));
		expect(full.hashrate.total[0]).toBeGreaterThan(4000);
		const earlier = openRecorder(file);
		const now = Date.now();
		for (let t = now - 58 * MINUTE; t < now - MINUTE; t += 30_000) {
			earlier.recordRead(0, {url: sim.url, configured: 'sim-rig', at: t, snapshot: full, link: 'live'});
		}

		earlier.close();

		// Cut to one thread; its windows start again, then show a quarter of the rate.
		const doc = JSON.parse(sim.configText()) as {cpu: Record<string, unknown>};
		doc.cpu['rx'] = [0];
		const put = await fetch(`${sim.url}/1/config`, {
			method: 'PUT',
			headers: {Authorization: `Bearer ${token}`, 'Content-Type': 'application/json'},
			body: JSON.stringify(doc, null, 4),
		});
		expect(put.status).toBe(204);

		const session = attachHistory(createSession([{url: sim.url, token}], 500), {mode: 'live', intervalMs: 500}, () => undefined, {file});
		cleanups.push(async () => session.close());
		const [miner] = session.miners;
		if (!miner) throw new Error('no miner');
		session.start();
		const drop = () => miner.monitor.getState().events.find((event) => event.kind === 'hashrate-drop');
		await until(() => drop() !== undefined, 30_000, 'the drop');
		const reference = full.hashrate.total[0] ?? 0;
		const message = drop()?.message ?? '';
		expect(message).toMatch(/^hashrate down to \d\.\d\d kH\/s, 2\d\.\d% of the 1h average \((\d\.\d\d) kH\/s\)$/);
		// The reference is the stored rate (the miner's windows never knew it).
		expect(Number(/\((\d\.\d\d) kH\/s\)$/.exec(message)?.[1]) * 1000).toBeCloseTo(reference, -2);
		// Not in the session's first seconds.
		const started = miner.monitor.getState().events[0]?.at ?? 0;
		expect((drop()?.at ?? 0) - started).toBeGreaterThanOrEqual(15_000);
	}, 40_000);
});
