import {describe, expect, it} from 'vitest';
import type {ProxyInfo, ProxyWorker} from '../../source/miner/proxy-model.js';
import {QUIET_MIN_MS, quietThresholdMs, workerQuiet} from '../../source/miner/proxy-quiet.js';
import {defaultDropOptions, deriveEvents, initialDropState} from '../../source/monitor/events.js';
import {deriveProxyEvents, initialProxyEventState, WORKER_DROP_GRACE_MS, type ProxyEventState} from '../../source/monitor/proxy-events.js';
import {makeSnapshot} from '../helpers/snapshot.js';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const HOUR_24 = 24 * 60 * 60_000;

function worker(name: string, rate: number, overrides: Partial<ProxyWorker> = {}): ProxyWorker {
	return {
		name,
		ip: '10.0.0.1',
		connections: 1,
		accepted: 100,
		rejected: 0,
		invalid: 0,
		hashes: 0,
		lastShareAt: NOW - 1000,
		hashrate: [rate, rate, rate, rate, rate],
		...overrides,
	};
}

function proxyInfo(workers: readonly ProxyWorker[] | null, overrides: Partial<ProxyInfo> = {}): ProxyInfo {
	return {
		mode: 'nicehash',
		miners: {now: 3, max: 3},
		workerCount: workers?.length ?? null,
		upstreams: {active: 1, sleep: 0, error: 0, total: 1, ratio: 3},
		results: {
			accepted: 100,
			rejected: 0,
			invalid: 0,
			expired: 0,
			avgTime: 10,
			latency: 40,
			hashesTotal: null,
			hashesDonate: null,
			best: [],
		},
		hashrate: [3000, 3000, 3000, 3000, 3000],
		sinceStart: 3000,
		workers,
		workersMode: 'rig_id',
		...overrides,
	};
}

const snap = (info: ProxyInfo) => makeSnapshot({kind: 'proxy', proxy: info});

function step(state: ProxyEventState, info: ProxyInfo, now: number, reference: number | null = null, restarted = false) {
	return deriveProxyEvents(snap(info), state, {
		now,
		elapsedMs: 1000,
		restarted,
		dropOptions: defaultDropOptions,
		referenceOf: () => reference,
	});
}

describe('workerQuiet: no share for max(5 min, 10 × the proxy average time)', () => {
	it('uses 5 minutes at least, 10 average times above it; never quiet without a connection or a first share', () => {
		expect(quietThresholdMs(proxyInfo([]))).toBe(QUIET_MIN_MS);
		expect(quietThresholdMs(proxyInfo([], {results: {...proxyInfo([]).results, avgTime: 60}}))).toBe(600_000);
		const info = proxyInfo([]);
		expect(workerQuiet(worker('a', 1, {lastShareAt: NOW - QUIET_MIN_MS}), info, NOW)).toBe(true);
		expect(workerQuiet(worker('a', 1, {lastShareAt: NOW - QUIET_MIN_MS + 1}), info, NOW)).toBe(false);
		expect(workerQuiet(worker('a', 1, {lastShareAt: NOW - QUIET_MIN_MS, connections: 0}), info, NOW)).toBe(false);
		expect(workerQuiet(worker('a', 1, {lastShareAt: null}), info, NOW)).toBe(false);
	});
});

describe('deriveProxyEvents', () => {
	it('takes the first list as it is: no joined for every worker, one listed without a connection gone already (its return a join)', () => {
		const first = step(initialProxyEventState, proxyInfo([worker('a', 1000), worker('b', 1000, {connections: 0})]), NOW);
		expect(first.events).toEqual([]);
		const later = step(first.state, proxyInfo([worker('a', 1000), worker('b', 1000)]), NOW + 1000);
		expect(later.events).toEqual([{kind: 'worker-joined', severity: 'info', message: 'worker b joined', worker: 'b'}]);
	});

	it('a worker dropped from the list is gone, told once; listed again it is back', () => {
		let state = step(initialProxyEventState, proxyInfo([worker('a', 1000), worker('b', 1000)]), NOW).state;
		const gone = step(state, proxyInfo([worker('a', 1000)]), NOW + 1000);
		expect(gone.events).toEqual([
			{kind: 'worker-gone', severity: 'warn', message: "worker b gone: dropped from the proxy's list", worker: 'b'},
		]);
		state = gone.state;
		expect(step(state, proxyInfo([worker('a', 1000)]), NOW + 2000).events).toEqual([]);
		expect(step(state, proxyInfo([worker('a', 1000), worker('b', 1000)]), NOW + 3000).events.map((event) => event.kind)).toEqual([
			'worker-back',
		]);
	});

	it("a worker's 10 min rate dropping against its own history is a drop (named), and its recovery; a jumpy 1 min rate is none", () => {
		// 2 kH/s for the whole grace: its reference (the monitor's hour of it) says 2 kH/s.
		let now = NOW;
		let state = step(initialProxyEventState, proxyInfo([worker('a', 2000, {lastShareAt: now - 1000})]), NOW).state;
		for (let t = 0; t <= WORKER_DROP_GRACE_MS; t += 1000) {
			now += 1000;
			state = step(state, proxyInfo([worker('a', 2000, {lastShareAt: now - 1000})]), now, 2000).state;
		}

		for (const oneMinute of [0, 0, 0, 9000, 0, 0, 0]) {
			now += 1000;
			const result = step(
				state,
				proxyInfo([worker('a', 2000, {lastShareAt: now - 1000, hashrate: [oneMinute, 2000, 2000, 2000, 2000]})]),
				now,
				2000,
			);
			state = result.state;
			expect(result.events).toEqual([]);
		}

		const drops = [];
		for (let i = 0; i < 3; i++) {
			now += 1000;
			// Its 10 min rate at 0.5 kH/s, its longer windows at 0.6 (the proxy restarted them a while ago): judged against
			// what it did before, its hour as rigtop knows it. Its 1 min rate is whatever the minute's shares made it.
			const result = step(
				state,
				proxyInfo([worker('a', 2000, {lastShareAt: now - 1000, hashrate: [i === 1 ? 9000 : 0, 500, 600, 600, 600]})]),
				now,
				2000,
			);
			state = result.state;
			drops.push(...result.events);
		}

		expect(drops).toEqual([
			{
				kind: 'hashrate-drop',
				severity: 'warn',
				message: 'worker a: 10m hashrate down to 500 H/s, 25.0% of the 1h average (2.00 kH/s)',
				worker: 'a',
			},
		]);
		const recovered = [];
		for (let i = 0; i < 3; i++) {
			now += 1000;
			const result = step(state, proxyInfo([worker('a', 2000, {lastShareAt: now - 1000})]), now, 2000);
			state = result.state;
			recovered.push(...result.events);
		}

		expect(recovered).toEqual([
			{kind: 'hashrate-recovered', severity: 'info', message: 'worker a: 10m hashrate recovered: 2.00 kH/s', worker: 'a'},
		]);
	});

	it('a worker gone and missing for a day is forgotten: its return is a join', () => {
		let state = step(initialProxyEventState, proxyInfo([worker('a', 1000), worker('b', 1000)]), NOW).state;
		state = step(state, proxyInfo([worker('a', 1000)]), NOW + 1000).state;
		state = step(state, proxyInfo([worker('a', 1000, {lastShareAt: NOW + HOUR_24})]), NOW + 1000 + HOUR_24).state;
		expect([...(state.workers?.keys() ?? [])]).toEqual(['a']);
		const back = step(
			state,
			proxyInfo([worker('a', 1000, {lastShareAt: NOW + HOUR_24}), worker('b', 1000, {lastShareAt: NOW + HOUR_24})]),
			NOW + 2000 + HOUR_24,
		);
		expect(back.events.map((event) => [event.kind, event.worker])).toEqual([['worker-joined', 'b']]);
	});

	it('many workers at once are one event of a kind, naming a few', () => {
		const names = Array.from({length: 40}, (_, i) => `w${String(i).padStart(2, '0')}`);
		const state = step(initialProxyEventState, proxyInfo(names.map((name) => worker(name, 1000))), NOW).state;
		const result = step(state, proxyInfo([]), NOW + 1000);
		expect(result.events).toEqual([{kind: 'worker-gone', severity: 'warn', message: '40 workers gone: w00, w01, w02 and 37 more'}]);
	});

	it('after a restart the list fills again without gone or joined, and upstreams in error are told once and recovered', () => {
		const state = step(initialProxyEventState, proxyInfo([worker('a', 1000), worker('b', 1000)]), NOW).state;
		const restarted = step(
			state,
			proxyInfo([], {upstreams: {active: 0, sleep: 0, error: 1, total: 1, ratio: null}}),
			NOW + 1000,
			null,
			true,
		);
		expect(restarted.events.map((event) => [event.kind, event.message])).toEqual([['upstream-error', 'upstreams in error: 1 of 1']]);
		const again = step(
			restarted.state,
			proxyInfo([worker('a', 1000), worker('c', 1000)], {upstreams: {active: 0, sleep: 0, error: 1, total: 1, ratio: null}}),
			NOW + 2000,
		);
		expect(again.events).toEqual([]);
		// Settled: b never came back: gone.
		const settled = step(again.state, proxyInfo([worker('a', 1000), worker('c', 1000)]), NOW + 120_000);
		expect(settled.events.map((event) => [event.kind, event.message])).toEqual([
			['upstream-recovered', 'upstreams recovered: none in error, 1 of 1 active'],
			['worker-gone', "worker b gone: dropped from the proxy's list"],
		]);
	});
});

describe("an xmrig-proxy's rejected shares", () => {
	it("are no event each (every miner behind it rejects now and then); a miner's are", () => {
		const before = makeSnapshot({
			kind: 'proxy',
			proxy: proxyInfo([]),
			results: {...makeSnapshot().results, good: 100, total: 100, rejected: 0},
		});
		const after = {...before, results: {...before.results, total: 103, rejected: 3}};
		const kinds = (prev: typeof before, next: typeof before) =>
			deriveEvents(prev, next, {name: 'rig', drop: initialDropState, elapsedMs: 1000}).events.map((event) => event.kind);
		expect(kinds(before, after)).not.toContain('rejected');
		const miner = {...before, kind: 'miner', proxy: null};
		expect(kinds(miner, {...after, kind: 'miner', proxy: null})).toContain('rejected');
	});
});
