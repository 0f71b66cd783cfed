/**
 * An xmrig-proxy's series, from the real proxy's captures (test/fixtures/xmrig-proxy/v6.26: two real miners behind a
 * real xmrig-proxy 6.26.0): its own names and windows instead of a miner's, per-worker series with their limits, and
 * worker names as label values that never break the exposition.
 */
import {describe, expect, it} from 'vitest';
import type {MinerSnapshot, ProxyWorker} from '../../source/miner/model.js';
import {normalizeSnapshot} from '../../source/miner/normalize.js';
import type {PollStats} from '../../source/monitor/monitor.js';
import type {MonitorState} from '../../source/monitor/types.js';
import {leftOutLine, minerFragments} from '../../source/exporter/collector.js';
import {allFamilies} from '../../source/exporter/families.js';
import {writeExposition} from '../../source/exporter/exposition.js';
import type {WorkersLeftOut} from '../../source/exporter/samples.js';
import type {WorkerMetrics} from '../../source/exporter/worker-metrics.js';
import {captureJson} from '../helpers/captures.js';
import {checkMetrics, parseSamples, select} from './helpers/prometheus.js';

const URL_ = 'http://127.0.0.1:13341';
const stats: PollStats = {failures: 0, restarts: 0, lastDurationMs: 5};
/** When rigtop's poll of the capture finished: 49 s into the proxy's run (its uptime). */
const POLLED_AT = 1_795_671_220_000;

const captured = (): MinerSnapshot =>
	normalizeSnapshot('proxy', captureJson('../xmrig-proxy/v6.26/get_1_summary.txt'), captureJson('../xmrig-proxy/v6.26/get_1_workers.txt'));

function state(snapshot: MinerSnapshot | null): MonitorState {
	return {
		name: 'proxy',
		url: URL_,
		status: snapshot ? 'live' : 'down',
		snapshot,
		lastSuccessAt: snapshot ? POLLED_AT : null,
		lastAttemptAt: POLLED_AT,
		failingSince: snapshot ? null : POLLED_AT,
		consecutiveFailures: snapshot ? 0 : 1,
		error: null,
		recentRates: [],
		sessionAverage: null,
		lastShare: null,
		events: [],
		nextPollAt: null,
		polls: 3,
	};
}

function exposition(snapshot: MinerSnapshot | null, workers?: WorkerMetrics, told?: (left: WorkersLeftOut) => void): string {
	return writeExposition(
		allFamilies,
		[minerFragments('capture-proxy', {getState: () => state(snapshot), getStats: () => stats}, workers, told)],
		'text',
	);
}

/** A snapshot of the capture with these workers instead of its two. */
function withWorkers(workers: readonly ProxyWorker[], mode = 'rig_id'): MinerSnapshot {
	const snapshot = captured();
	return {...snapshot, proxy: {...snapshot.proxy!, workers, workersMode: mode}};
}

const worker = (name: string, rate10m: number): ProxyWorker => ({
	name,
	ip: '10.0.0.9',
	connections: 1,
	accepted: 3,
	rejected: 0,
	invalid: 0,
	hashes: 9000,
	lastShareAt: POLLED_AT - 5000,
	hashrate: [rate10m, rate10m, rate10m, rate10m, rate10m],
});

describe('a proxy from the real capture', () => {
	it("serves the proxy's own series, in H/s and seconds, and none of a miner's", async () => {
		const text = exposition(captured());
		const samples = parseSamples(text);
		const one = (metric: string, where: Record<string, string> = {}) =>
			select(samples, metric, {miner: 'capture-proxy', ...where}).map((sample) => sample.value);

		expect(one('xmrig_up')).toEqual([1]);
		expect(select(samples, 'xmrig_miner_info')[0]!.labels).toMatchObject({
			kind: 'proxy',
			version: '6.26.0',
			worker_id: 'capture-proxy',
			dialect: 'proxy',
		});
		expect(select(samples, 'xmrig_proxy_info')[0]!.labels).toMatchObject({mode: 'nicehash'});
		// kH/s in the capture ([0.95, 0.09, 0.01, 0.0, 0.0, 1.18]), H/s out.
		const windows = Object.fromEntries(select(samples, 'xmrig_proxy_hashrate_hashes_per_second').map((s) => [s.labels['window'], s.value]));
		expect(windows).toEqual({'1m': 950, '10m': 90, '1h': 10, '12h': 0, '24h': 0});
		expect(one('xmrig_proxy_hashrate_average_hashes_per_second')).toEqual([1180]);
		expect(one('xmrig_proxy_miners')).toEqual([2]);
		expect(one('xmrig_proxy_miners_max')).toEqual([2]);
		expect(one('xmrig_proxy_workers')).toEqual([2]);
		expect(one('xmrig_proxy_upstreams', {state: 'active'})).toEqual([1]);
		expect(one('xmrig_proxy_upstreams', {state: 'sleep'})).toEqual([0]);
		expect(one('xmrig_proxy_upstreams', {state: 'error'})).toEqual([0]);
		expect(one('xmrig_proxy_upstream_connections')).toEqual([1]);
		const shares = Object.fromEntries(select(samples, 'xmrig_proxy_shares_total').map((s) => [s.labels['result'], s.value]));
		expect(shares).toEqual({accepted: 20, rejected: 3, invalid: 0, expired: 0});
		expect(one('xmrig_proxy_hashes_total')).toEqual([60_000]);
		expect(one('xmrig_proxy_hashes_donated_total')).toEqual([0]);
		expect(one('xmrig_proxy_share_time_average_seconds')).toEqual([2]);
		expect(one('xmrig_proxy_share_latency_seconds')).toEqual([0.001]);
		expect(one('xmrig_proxy_share_difficulty_best')).toEqual([22_760]);
		expect(one('xmrig_uptime_seconds')).toEqual([49]);
		// Started 49 s before the poll.
		expect(one('xmrig_start_time_seconds')).toEqual([Math.round(POLLED_AT / 1000 - 49)]);
		expect(one('xmrig_last_success_timestamp_seconds')).toEqual([POLLED_AT / 1000]);

		// None of a miner's meaningless series: no 10s/60s/15m windows, no miner shares, no pool, no huge pages.
		for (const name of [
			'xmrig_hashrate_hashes_per_second',
			'xmrig_hashrate_highest_hashes_per_second',
			'xmrig_shares_total',
			'xmrig_shares_good_total',
			'xmrig_shares_rejected_total',
			'xmrig_hashes_total',
			'xmrig_pool_connected',
			'xmrig_pool_failures_total',
			'xmrig_share_difficulty_best',
			'xmrig_paused',
		])
			expect(select(samples, name), name).toEqual([]);

		const check = await checkMetrics(text);
		expect(check.stdout + check.stderr).toBe('');
		expect(check.code).toBe(0);
	});

	it("serves each worker's rates by window, shares by result, hashes, connections and last share time", () => {
		const samples = parseSamples(exposition(captured()));
		const of = (metric: string, where: Record<string, string>) =>
			select(samples, metric, {miner: 'capture-proxy', ...where}).map((sample) => sample.value);
		// ["rig-6.26", "127.0.0.1", 1, 11, 1, 0, 33000, 1795671211412, 0.55, 0.05, 0.0, 0.0, 0.0]
		expect(of('xmrig_proxy_worker_connections', {worker: 'rig-6.26'})).toEqual([1]);
		expect(of('xmrig_proxy_worker_shares_total', {worker: 'rig-6.26', result: 'accepted'})).toEqual([11]);
		expect(of('xmrig_proxy_worker_shares_total', {worker: 'rig-6.26', result: 'rejected'})).toEqual([1]);
		expect(of('xmrig_proxy_worker_shares_total', {worker: 'rig-6.26', result: 'invalid'})).toEqual([0]);
		expect(of('xmrig_proxy_worker_hashes_total', {worker: 'rig-6.26'})).toEqual([33_000]);
		expect(of('xmrig_proxy_worker_last_share_timestamp_seconds', {worker: 'rig-6.26'})).toEqual([1_795_671_211.412]);
		expect(of('xmrig_proxy_worker_hashrate_hashes_per_second', {worker: 'rig-6.26', window: '1m'})).toEqual([550]);
		expect(of('xmrig_proxy_worker_hashrate_hashes_per_second', {worker: 'rig-5.11', window: '10m'})).toEqual([40]);
		expect(of('xmrig_proxy_worker_shares_total', {worker: 'rig-5.11', result: 'rejected'})).toEqual([2]);
		expect(select(samples, 'xmrig_proxy_worker_hashrate_hashes_per_second')).toHaveLength(10);
		expect(of('xmrig_exporter_proxy_workers_omitted', {})).toEqual([0]);
	});

	it('a proxy that cannot be read serves up 0 and nothing of its own or its workers', () => {
		const text = exposition(null);
		expect(text).toContain('xmrig_up{miner="capture-proxy",url="http://127.0.0.1:13341"} 0');
		expect(text).not.toContain('xmrig_proxy_');
	});

	it('a worker the proxy no longer lists has no series from that poll on', () => {
		const before = parseSamples(exposition(withWorkers([worker('stays', 100), worker('leaves', 200)])));
		expect(select(before, 'xmrig_proxy_worker_connections').map((s) => s.labels['worker'])).toEqual(['stays', 'leaves']);
		const after = exposition(withWorkers([worker('stays', 100)]));
		expect(after).not.toContain('worker="leaves"');
		expect(select(parseSamples(after), 'xmrig_proxy_worker_connections').map((s) => s.labels['worker'])).toEqual(['stays']);
	});
});

describe('per-worker series: limits', () => {
	const many = [worker('slow', 10), worker('fast', 900), worker('mid', 500), worker('zero', 0), worker('also-mid', 500)];

	it('--worker-metrics-limit keeps the highest 10 min rates (ties by name) and says which were left out', () => {
		const told: WorkersLeftOut[] = [];
		const samples = parseSamples(exposition(withWorkers(many), {enabled: true, limit: 3}, (left) => told.push(left)));
		const served = select(samples, 'xmrig_proxy_worker_connections').map((s) => s.labels['worker']);
		// In the proxy's own order.
		expect(served).toEqual(['fast', 'mid', 'also-mid']);
		expect(select(samples, 'xmrig_exporter_proxy_workers_omitted')[0]?.value).toBe(2);
		expect(told).toEqual([{reason: 'limit', listed: 5, limit: 3, omitted: ['slow', 'zero']}]);
		expect(leftOutLine('proxy-1', told[0]!)).toBe(
			'proxy-1: 5 workers, more than --worker-metrics-limit 3: the 2 with the lowest 10 min hashrate have no per-worker series ("slow", "zero"); xmrig_exporter_proxy_workers_omitted counts them at each scrape',
		);
	});

	it('within the limit nothing is told', () => {
		const told: WorkersLeftOut[] = [];
		exposition(withWorkers(many), {enabled: true, limit: 5}, (left) => told.push(left));
		expect(told).toEqual([]);
	});

	it('--no-worker-metrics: no per-worker series, the proxy its own', () => {
		const text = exposition(withWorkers(many), {enabled: false, limit: 1000});
		expect(text).not.toContain('xmrig_proxy_worker_');
		expect(text).not.toContain('xmrig_exporter_proxy_workers_omitted');
		expect(text).toContain('xmrig_proxy_shares_total{miner="capture-proxy",result="accepted"} 20');
	});

	it('workers grouped by pool password: their names are passwords, so none is served', () => {
		const told: WorkersLeftOut[] = [];
		const text = exposition(withWorkers([worker('hunter2-pool-pass', 100)], 'password'), undefined, (left) => told.push(left));
		expect(text).not.toContain('hunter2-pool-pass');
		expect(text).not.toContain('xmrig_proxy_worker_');
		expect(told).toEqual([{reason: 'password-mode', listed: 1}]);
		expect(leftOutLine('p', told[0]!)).not.toContain('hunter2');
	});
});

describe('hostile worker names', () => {
	it('quotes, backslashes, line feeds and 10 kB names are escaped, kept apart, and read back; promtool accepts it', async () => {
		const long = 'x'.repeat(10_240);
		const names = ['rig "quoted"', 'back\\slash', 'line\nfeed} 1\nxmrig_up{miner="fake"} 1', long, `${long}y`, 'ünïcødé ✓'];
		// Through the reader, as the proxy would send them.
		const document = {
			mode: 'rig_id',
			workers: names.map((name) => [name, '10.0.0.1', 1, 2, 0, 0, 6000, POLLED_AT - 1000, 1, 1, 1, 1, 1]),
		};
		const snapshot = normalizeSnapshot('proxy', captureJson('../xmrig-proxy/v6.26/get_1_summary.txt'), document);
		const text = exposition(snapshot);
		const samples = parseSamples(text);
		// Nothing a name holds makes a line of its own.
		expect(select(samples, 'xmrig_up')).toHaveLength(1);
		const served = select(samples, 'xmrig_proxy_worker_connections').map((s) => s.labels['worker']!);
		expect(served).toHaveLength(names.length);
		expect(new Set(served).size).toBe(names.length);
		expect(served).toContain('rig "quoted"');
		expect(served).toContain('back\\slash');
		expect(served).toContain('ünïcødé ✓');
		expect(text).toContain('worker="rig \\"quoted\\""');
		expect(text).toContain('worker="back\\\\slash"');
		// The reader cut the long names (the two share their first 119 characters): told apart, none over 130.
		for (const name of served) expect(name.length).toBeLessThan(130);
		const check = await checkMetrics(text);
		expect(check.stdout + check.stderr).toBe('');
		expect(check.code).toBe(0);
	});

	it('two workers whose names clean alike: the one with the lower ip keeps the name, in whatever order the proxy lists them', () => {
		// Whitespace runs collapse when names are cleaned: `rig  01` from 10.0.0.7 and `rig 01` from 10.0.0.2 are both `rig 01`.
		const rows = [
			['rig  01', '10.0.0.7', 1, 2, 0, 0, 6000, POLLED_AT - 1000, 700, 700, 700, 700, 700],
			['rig 01', '10.0.0.2', 1, 2, 0, 0, 6000, POLLED_AT - 1000, 5000, 5000, 5000, 5000, 5000],
			['rig 01 (2)', '10.0.0.5', 1, 2, 0, 0, 6000, POLLED_AT - 1000, 9, 9, 9, 9, 9],
		];
		const series = (listed: unknown[][]) => {
			const snapshot = normalizeSnapshot('proxy', captureJson('../xmrig-proxy/v6.26/get_1_summary.txt'), {mode: 'rig_id', workers: listed});
			expect(snapshot.proxy!.workers!.filter((each) => each.name === 'rig 01')).toHaveLength(2);
			const samples = select(parseSamples(exposition(snapshot)), 'xmrig_proxy_worker_hashrate_hashes_per_second').filter(
				(s) => s.labels['window'] === '1m',
			);
			// Each label with the ip of the worker whose rate it holds.
			const ipOf = new Map(snapshot.proxy!.workers!.map((each) => [each.hashrate[0], each.ip]));
			return Object.fromEntries(samples.map((s) => [s.labels['worker']!, ipOf.get(s.value)]));
		};

		const expected = {'rig 01': '10.0.0.2', 'rig 01 (2)': '10.0.0.5', 'rig 01 (3)': '10.0.0.7'};
		expect(series(rows)).toEqual(expected);
		expect(series([...rows].reverse())).toEqual(expected);
	});

	it('a name with a line feed that reached the writer unsanitized is still escaped', async () => {
		const text = exposition(withWorkers([worker('evil\n# TYPE xmrig_up counter\nxmrig_up 9', 1)]));
		expect(text).toContain('worker="evil\\n# TYPE xmrig_up counter\\nxmrig_up 9"');
		expect(select(parseSamples(text), 'xmrig_up').map((s) => s.value)).toEqual([1]);
		expect((await checkMetrics(text)).code).toBe(0);
	});
});
