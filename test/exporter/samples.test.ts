import {describe, expect, it} from 'vitest';
import {MinerError} from '../../source/miner/errors.js';
import type {DialectName, MinerSnapshot} from '../../source/miner/model.js';
import {normalizeSnapshot} from '../../source/miner/normalize.js';
import type {PollStats} from '../../source/monitor/monitor.js';
import type {LinkStatus, MonitorState} from '../../source/monitor/types.js';
import {minerFragments} from '../../source/exporter/collector.js';
import {allFamilies, minerFamilies} from '../../source/exporter/families.js';
import {writeExposition} from '../../source/exporter/exposition.js';
import {minerSamples, WINDOWS} from '../../source/exporter/samples.js';
import {captureJson, readSynthetic} from '../helpers/captures.js';
import {checkMetrics, parseSamples, select} from './helpers/prometheus.js';

const URL_ = 'http://10.0.0.5:8080';
const stats: PollStats = {failures: 2, restarts: 1, lastDurationMs: 12};

function state(snapshot: MinerSnapshot | null, status: LinkStatus = 'live', error: MinerError | null = null): MonitorState {
	return {
		name: 'rig-01',
		url: URL_,
		status,
		snapshot,
		lastSuccessAt: snapshot ? 1 : null,
		lastAttemptAt: 1,
		failingSince: status === 'live' ? null : 1,
		consecutiveFailures: status === 'live' ? 0 : 1,
		error,
		recentRates: [],
		sessionAverage: null,
		lastShare: null,
		events: [],
		nextPollAt: null,
		polls: 7,
	};
}

/** One snapshot per dialect rigtop reads, normalized from recorded (or, where no recording can show it, synthetic) payloads. */
const dialects: ReadonlyArray<{name: string; dialect: DialectName; summary: unknown; perThread: unknown}> = [
	{
		name: '6.26 live CPU+GPU (/2/summary + /2/backends)',
		dialect: 'v2',
		summary: readSynthetic('v6-live-summary.json'),
		perThread: readSynthetic('v6-live-backends.json'),
	},
	{
		name: '6.26 recorded (/2/summary + /2/backends)',
		dialect: 'v2',
		summary: captureJson('v6.26/get_2_summary.txt'),
		perThread: captureJson('v6.26/get_2_backends.txt'),
	},
	{
		name: '6.x without /2/summary (/1/summary + /2/backends)',
		dialect: 'v2-legacy-summary',
		summary: readSynthetic('v6-live-summary-v1.json'),
		perThread: readSynthetic('v6-live-backends.json'),
	},
	{
		name: '2.16 recorded (/1/summary + /1/threads)',
		dialect: 'v1',
		summary: captureJson('v2.16/get_1_summary.txt'),
		perThread: captureJson('v2.16/get_1_threads.txt'),
	},
	{
		name: '2.14 (/1/summary + /1/threads)',
		dialect: 'v1',
		summary: readSynthetic('v2.14-summary.json'),
		perThread: readSynthetic('v2.14-threads.json'),
	},
	{
		name: 'xmrig-nvidia 2.14 (/1/summary + /1/threads, health in the summary)',
		dialect: 'v1',
		summary: readSynthetic('nvidia-2.14-summary.json'),
		perThread: readSynthetic('nvidia-2.14-threads.json'),
	},
	{name: '2.5 (/1/summary alone)', dialect: 'v1-summary-only', summary: readSynthetic('v2.5-summary.json'), perThread: null},
];

describe('every dialect maps to the same names', () => {
	for (const {name, dialect, summary, perThread} of dialects) {
		it(name, async () => {
			const snapshot = normalizeSnapshot(dialect, summary, perThread);
			const text = writeExposition(
				allFamilies,
				[minerFragments('rig-01', {getState: () => state(snapshot), getStats: () => stats})],
				'text',
			);
			const samples = parseSamples(text);
			const one = (metric: string, where: Record<string, string> = {}) => select(samples, metric, {miner: 'rig-01', ...where});

			// What every dialect has, under the same name.
			expect(one('xmrig_up')).toEqual([{name: 'xmrig_up', labels: {miner: 'rig-01', url: URL_}, value: 1}]);
			expect(one('xmrig_poll_error')).toEqual([]);
			expect(one('xmrig_miner_info')[0]!.labels).toMatchObject({
				url: URL_,
				worker_id: snapshot.workerId ?? '',
				version: snapshot.version ?? '',
				algo: snapshot.algo ?? '',
				dialect,
			});
			for (const [index, window] of WINDOWS.entries()) {
				const rate = snapshot.hashrate.total[index];
				expect(one('xmrig_hashrate_hashes_per_second', {window}).map((sample) => sample.value)).toEqual(rate === null ? [] : [rate]);
			}

			expect(one('xmrig_shares_good_total')[0]!.value).toBe(snapshot.results.good);
			expect(one('xmrig_shares_total')[0]!.value).toBe(snapshot.results.total);
			expect(one('xmrig_shares_rejected_total')[0]!.value).toBe(snapshot.results.total - snapshot.results.good);
			expect(one('xmrig_pool_connected')[0]!.value).toBe(snapshot.connection.connected ? 1 : 0);
			expect(one('xmrig_exporter_polls_total')[0]!.value).toBe(7);
			expect(one('xmrig_exporter_poll_failures_total')[0]!.value).toBe(2);
			expect(one('xmrig_exporter_poll_duration_seconds')[0]!.value).toBe(0.012);
			expect(one('xmrig_restarts_total')[0]!.value).toBe(1);

			// Per thread, per backend: one series per thread and window the miner reported.
			for (const thread of snapshot.threads) {
				for (const [index, window] of WINDOWS.entries()) {
					const rate = thread.hashrate[index];
					expect(
						one('xmrig_thread_hashrate_hashes_per_second', {backend: thread.backend, thread: String(thread.index), window}).map(
							(sample) => sample.value,
						),
					).toEqual(rate === null ? [] : [rate]);
				}
			}

			expect(one('xmrig_backend_enabled').map((sample) => sample.labels['backend'])).toEqual(
				snapshot.backends.map((backend) => backend.type),
			);

			// Huge pages: the pair where the dialect has it, else the flag.
			if (snapshot.hugepages?.kind === 'pages') {
				expect(one('xmrig_hugepages_allocated_pages')[0]!.value).toBe(snapshot.hugepages.allocated);
				expect(one('xmrig_hugepages_requested_pages')[0]!.value).toBe(snapshot.hugepages.total);
				expect(one('xmrig_hugepages_enabled')).toEqual([]);
			} else if (snapshot.hugepages?.kind === 'flag') {
				expect(one('xmrig_hugepages_enabled')[0]!.value).toBe(snapshot.hugepages.enabled ? 1 : 0);
				expect(one('xmrig_hugepages_allocated_pages')).toEqual([]);
			}

			// What a version does not report is no series (never a 0).
			expect(one('xmrig_paused').map((sample) => sample.value)).toEqual(snapshot.paused === null ? [] : [snapshot.paused ? 1 : 0]);
			expect(one('xmrig_uptime_seconds').map((sample) => sample.value)).toEqual(snapshot.uptime === null ? [] : [snapshot.uptime]);
			expect(one('xmrig_pool_ping_seconds').map((sample) => sample.value)).toEqual(
				snapshot.connection.ping === null ? [] : [snapshot.connection.ping / 1000],
			);

			// Every name the output uses is a declared family's.
			const declared = new Set(allFamilies.map((family) => family.sample));
			for (const sample of samples) expect(declared).toContain(sample.name);

			// The real promtool accepts it, lint included.
			const check = await checkMetrics(text);
			expect(check.stdout + check.stderr).toBe('');
			expect(check.code).toBe(0);
		});
	}

	it('GPU threads report their device temperature and power (6.x backends, the 2.x nvidia fork)', () => {
		for (const [summary, perThread, dialect] of [
			[readSynthetic('v6-live-summary.json'), readSynthetic('v6-live-backends.json'), 'v2'],
			[readSynthetic('nvidia-2.14-summary.json'), readSynthetic('nvidia-2.14-threads.json'), 'v1'],
		] as const) {
			const snapshot = normalizeSnapshot(dialect, summary, perThread);
			const gpus = snapshot.threads.filter((thread) => thread.health?.temperature != null);
			expect(gpus.length).toBeGreaterThan(0);
			const samples = minerSamples({miner: 'rig', state: state(snapshot), stats});
			const temperatures = samples.filter((sample) => sample.family === 'gpuTemperature');
			expect(temperatures.map((sample) => sample.value)).toEqual(gpus.map((thread) => thread.health!.temperature));
			expect(temperatures.map((sample) => sample.labels)).toEqual(gpus.map((thread) => [thread.backend, String(thread.index)]));
		}
	});
});

describe('a miner that cannot be read', () => {
	const snapshot = normalizeSnapshot('v2', readSynthetic('v6-live-summary.json'), readSynthetic('v6-live-backends.json'));
	const cases: ReadonlyArray<[string, MonitorState, string]> = [
		['before its first poll', state(null, 'connecting'), 'connecting'],
		[
			'stale (the last poll failed, the last values kept for the screen)',
			state(snapshot, 'stale', new MinerError('timeout', 'no answer within 8 s')),
			'timeout',
		],
		['down', state(snapshot, 'down', new MinerError('unreachable', 'connection refused')), 'unreachable'],
		['needing the user', state(snapshot, 'error', new MinerError('unauthorized', 'the miner wants a token')), 'unauthorized'],
	];
	for (const [name, current, reason] of cases) {
		it(`${name}: up 0, the reason, rigtop's own counts, and nothing else`, () => {
			const samples = minerSamples({miner: 'rig', state: current, stats});
			// The last good poll's time stays (how stale the miner is), once there was one.
			const own = current.lastSuccessAt === null ? [] : ['lastSuccess'];
			expect(samples.map((sample) => sample.family).sort()).toEqual([...own, 'pollDuration', 'pollError', 'pollFailures', 'polls', 'up']);
			if (current.lastSuccessAt !== null)
				expect(samples.find((sample) => sample.family === 'lastSuccess')?.value).toBe(current.lastSuccessAt / 1000);
			expect(samples.find((sample) => sample.family === 'up')?.value).toBe(0);
			expect(samples.find((sample) => sample.family === 'pollError')?.labels).toEqual([reason]);
		});
	}

	it('label values keep what the miner sent, escaped (quotes, backslashes, line feeds), and read back the same', async () => {
		// The rig's name as given (a line feed in it), the worker id as the miner's text is read (cleaned: one line).
		const odd = 'rig "one"\nline\\two ✓';
		const worker = 'rig "one" line\\two ✓';
		const snapshot = normalizeSnapshot(
			'v2',
			{...(readSynthetic('v6-live-summary.json') as object), worker_id: odd},
			readSynthetic('v6-live-backends.json'),
		);
		const text = writeExposition(allFamilies, [minerFragments(odd, {getState: () => state(snapshot), getStats: () => stats})], 'text');
		expect(text).toContain('miner="rig \\"one\\"\\nline\\\\two ✓"');
		expect(text).toContain('worker_id="rig \\"one\\" line\\\\two ✓"');
		const info = select(parseSamples(text), 'xmrig_miner_info')[0]!;
		expect(info.labels).toMatchObject({miner: odd, worker_id: worker});
		expect((await checkMetrics(text)).code).toBe(0);
	});

	it('every per-miner family is one the catalog declares with the label names it writes', () => {
		for (const family of Object.values(minerFamilies)) expect(family.name).toMatch(/^xmrig_[a-z_]+$/);
	});
});
