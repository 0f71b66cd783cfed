/**
 * Numbers that move like a real rig, read over HTTP with simulated time stepped by hand: hashrate windows
 * filling, totals, highest, shares, the pool connection, pause, drop/restore, restart, warm start.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator, type SimOptions, type Simulator} from '../../source/sim/simulator.js';
import {manualClock, waitFor} from './helpers.js';

const started: Simulator[] = [];

afterEach(async () => {
	await Promise.all(started.splice(0).map((sim) => sim.stop()));
});

type Summary = {
	id: string;
	uptime: number;
	paused: boolean;
	algo: string | null;
	resources: {memory: {free: number; total: number; resident_set_memory: number}; load_average: number[]; hardware_concurrency: number};
	results: {
		diff_current: number;
		shares_good: number;
		shares_total: number;
		avg_time: number;
		avg_time_ms: number;
		hashes_total: number;
		best: number[];
	};
	connection: {
		pool: string;
		ip: string | null;
		uptime: number;
		ping: number;
		failures: number;
		tls: string | null;
		'tls-fingerprint': string | null;
		diff: number;
		algo: string | null;
	};
	hashrate: {total: (number | null)[]; highest: number | null; threads?: (number | null)[][]};
	hugepages: boolean | number[];
};

async function sim(
	options: SimOptions = {},
): Promise<{server: Simulator; advance: (s: number) => void; summary: (path?: string) => Promise<Summary>}> {
	const clock = manualClock();
	const server = await startSimulator({seed: 42, clock: clock.clock, ...options});
	started.push(server);
	return {
		server,
		advance: clock.advance,
		summary: async (path = '/1/summary') => (await (await fetch(`${server.url}${path}`)).json()) as Summary,
	};
}

describe('a cold start', () => {
	it('connects, starts its threads, then fills the 10 s, 60 s and 15 min windows in turn', async () => {
		const {advance, summary} = await sim();
		let s = await summary();
		expect(s.algo).toBeNull();
		expect(s.connection).toMatchObject({pool: '', ip: null, uptime: 0});
		expect(s.hashrate).toEqual({total: [0, 0, 0], highest: null, threads: []});
		expect(s.hugepages).toBe(true); // 0 of 0 pages

		advance(1.5);
		s = await summary();
		expect(s.algo).toBe('rx/0');
		expect(s.connection).toMatchObject({pool: 'pool.example.org:443', tls: 'TLSv1.3', algo: 'rx/0'});
		expect(s.connection.ip).toMatch(/^203\.0\.113\.\d+$/);
		expect(s.connection['tls-fingerprint']).toMatch(/^[0-9a-f]{64}$/);
		expect(s.results.diff_current).toBeGreaterThan(0);

		advance(1.5); // threads started at 2 s (RandomX dataset ready)
		s = await summary();
		expect(s.hashrate.threads).toHaveLength(4);
		expect(s.hashrate.total).toEqual([null, null, null]);
		expect(s.hashrate.highest).toBeNull();

		advance(10);
		s = await summary();
		expect(s.hashrate.total[0]).toBeGreaterThan(3000);
		expect(s.hashrate.total.slice(1)).toEqual([null, null]);
		expect(s.hashrate.highest).toBeGreaterThan(0);

		advance(60);
		s = await summary();
		expect(s.hashrate.total[1]).toBeGreaterThan(3000);
		expect(s.hashrate.total[2]).toBeNull();

		advance(840);
		s = await summary();
		expect(s.hashrate.total[2]).toBeGreaterThan(3000);
		for (let i = 0; i < 3; i++) {
			const sum = s.hashrate.threads!.reduce((acc, thread) => acc + thread[i]!, 0);
			expect(Math.abs(sum - s.hashrate.total[i]!)).toBeLessThan(0.05);
		}
		expect(s.hashrate.highest!).toBeGreaterThanOrEqual(s.hashrate.total[0]!);
		expect(s.uptime).toBe(913);
	});

	it("'5' reports null totals before any thread runs", async () => {
		const {summary} = await sim({dialect: '5'});
		expect((await summary()).hashrate.total).toEqual([null, null, null]);
	});

	it('with timeScale the windows fill in real time too', async () => {
		const server = await startSimulator({seed: 1, timeScale: 100});
		started.push(server);
		const total = async (): Promise<(number | null)[]> =>
			((await (await fetch(`${server.url}/2/summary`)).json()) as Summary).hashrate.total;
		await waitFor(async () => ((await total())[0] ?? 0) > 0, 5000, '10 s window');
		// Connect (1 s), threads (1 s), then a full 10 s window of simulated time had to pass.
		expect(server.simTime()).toBeGreaterThanOrEqual(12);
	});
});

describe('shares and the pool', () => {
	it('earns shares at random, tens of seconds apart, with a sorted top 10', async () => {
		const {advance, summary} = await sim();
		advance(3600);
		const s = await summary();
		const {results} = s;
		expect(results.shares_good).toBeGreaterThan(40);
		expect(results.shares_good).toBeLessThan(400);
		expect(results.shares_total).toBeGreaterThanOrEqual(results.shares_good);
		expect(results.avg_time).toBeGreaterThan(5);
		expect(results.avg_time).toBeLessThan(90);
		expect(results.avg_time_ms).toBeGreaterThanOrEqual(results.avg_time * 1000);
		const perShare = results.hashes_total / results.shares_good;
		expect(perShare).toBeGreaterThan(results.diff_current * 0.5);
		expect(perShare).toBeLessThan(results.diff_current * 2);
		expect([...results.best].sort((a, b) => b - a)).toEqual(results.best);
		expect(results.best[9]).toBeGreaterThanOrEqual(results.diff_current);
		expect(s.connection.ping).toBeGreaterThan(0);
	});

	it('rejectShares(n) rejects the next n shares', async () => {
		const {server, advance, summary} = await sim();
		advance(600);
		const before = (await summary()).results;
		server.rejectShares(3);
		advance(900);
		const after = (await summary()).results;
		const rejected = after.shares_total - after.shares_good - (before.shares_total - before.shares_good);
		expect(rejected).toBeGreaterThanOrEqual(3);
		expect(after.shares_good).toBeGreaterThan(before.shares_good);
	});

	it('dropPool: no ip, uptime 0, pool and algo kept, shares and hashing stop; restorePool reconnects', async () => {
		const {server, advance, summary} = await sim({warm: true});
		const up = await summary();
		server.dropPool();
		advance(30);
		const down = await summary();
		expect(down.connection).toMatchObject({pool: up.connection.pool, ip: null, uptime: 0, diff: 0, tls: null, algo: 'rx/0'});
		expect(down.connection.failures).toBe(up.connection.failures + 1);
		expect(down.algo).toBe('rx/0');
		expect(down.paused).toBe(false);
		expect(down.hashrate.total[0]).toBe(0);
		advance(1200);
		expect((await summary()).results.shares_total).toBe(down.results.shares_total);
		server.restorePool();
		advance(20);
		const back = await summary();
		expect(back.connection.ip).toBe(up.connection.ip);
		expect(back.connection.uptime).toBe(20);
		expect(back.hashrate.total[0]).toBeGreaterThan(0);
	});

	it('derives its id from the port, the MAC and the kind, as XMRig does: another MAC on the same port is another id', async () => {
		const a = await sim({mac: '02:00:00:00:00:0a'});
		const port = a.server.port;
		const idA = (await a.summary()).id;
		expect(idA).toMatch(/^[0-9a-f]{16}$/);
		await a.server.stop();
		const again = await sim({mac: '02:00:00:00:00:0a', port, warm: true, workerId: 'other-name'});
		expect((await again.summary()).id).toBe(idA);
		await again.server.stop();
		const b = await sim({mac: '02:00:00:00:00:0b', port});
		expect((await b.summary()).id).not.toBe(idA);
		const elsewhere = await sim({mac: '02:00:00:00:00:0a'});
		expect((await elsewhere.summary()).id).not.toBe(idA);
	});

	it('restartMiner: uptime 0, windows null, shares 0, same id; the pool comes back after a moment', async () => {
		const {server, advance, summary} = await sim({warm: true});
		const before = await summary();
		server.restartMiner();
		const after = await summary();
		expect(after.id).toBe(before.id);
		expect(after.uptime).toBe(0);
		expect(after.results).toMatchObject({shares_good: 0, shares_total: 0, hashes_total: 0, best: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]});
		expect(after.connection).toMatchObject({ip: null, failures: 0, uptime: 0});
		expect(after.hashrate).toEqual({total: [0, 0, 0], highest: null, threads: []});
		advance(3);
		const reconnected = await summary();
		expect(reconnected.connection.ip).not.toBeNull();
		expect(reconnected.hashrate.total).toEqual([null, null, null]);
	});
});

describe('a warm rig (the demo)', () => {
	it('has been up for days with full windows, shares and a connected pool', async () => {
		const {summary} = await sim({warm: true});
		const s = await summary('/2/summary');
		expect(s.uptime).toBeGreaterThan(3 * 86400);
		expect(s.hashrate.total.every((v) => typeof v === 'number' && v > 3000)).toBe(true);
		expect(s.hashrate.highest).toBeGreaterThan(3000);
		expect(s.results.shares_good).toBeGreaterThan(3000);
		expect(s.results.best.every((v) => v > 0)).toBe(true);
		expect(s.connection.ip).not.toBeNull();
		expect(s.connection.uptime).toBeGreaterThan(0);
		expect(s.hugepages).toEqual([1172, 1172]);
		expect(s.resources.memory.resident_set_memory).toBeGreaterThan(2e9);
		expect(s.resources.memory.free).toBeLessThan(s.resources.memory.total);
		expect(s.resources.load_average.every((v) => v > 3 && v < 6)).toBe(true);
		expect(s.resources.hardware_concurrency).toBe(8);
	});

	it('crosses a long unobserved span quickly and stays sane', async () => {
		const {advance, summary} = await sim({warm: true});
		const before = await summary();
		advance(7 * 86400);
		const started = performance.now();
		const after = await summary();
		expect(performance.now() - started).toBeLessThan(2000);
		expect(after.uptime - before.uptime).toBe(7 * 86400);
		expect(after.results.shares_good).toBeGreaterThan(before.results.shares_good + 10_000);
		expect(after.hashrate.total.every((v) => typeof v === 'number' && v > 3000)).toBe(true);
	});

	it('is the same rig for the same seed and the same times', async () => {
		const a = await sim({warm: true, seed: 9});
		const b = await sim({warm: true, seed: 9});
		a.advance(300);
		b.advance(300);
		const strip = ({id: _id, ...rest}: Summary): Omit<Summary, 'id'> => rest;
		expect(strip(await a.summary())).toEqual(strip(await b.summary()));
	});
});

describe('2.x rigs', () => {
	it("'2' reports every configured thread, sums the known windows, and keeps CryptoNight rates", async () => {
		const {server, advance, summary} = await sim({dialect: '2', threads: 2});
		advance(1.5 + 11);
		const s = await summary();
		expect(s.algo).toBe('cn/r');
		expect(s.hashrate.threads).toHaveLength(2);
		expect(s.hashrate.total[0]).toBeGreaterThan(300);
		expect(s.hashrate.total[0]).toBeLessThan(600);
		expect(s.hashrate.total.slice(1)).toEqual([null, null]);
		const threads = (await (await fetch(`${server.url}/1/threads`)).json()) as {
			hugepages: number[];
			threads: {hashrate: (number | null)[]}[];
		};
		expect(threads.hugepages).toEqual([2, 2]);
		expect(threads.threads.map((t) => t.hashrate[0] !== null)).toEqual([true, true]);
	});
});
