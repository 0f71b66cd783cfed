import {describe, expect, it} from 'vitest';
import {MinerError} from '../../source/miner/errors.js';
import type {DialectName, MinerSnapshot} from '../../source/miner/model.js';
import {normalizeSnapshot} from '../../source/miner/normalize.js';
import {captureJson, readSynthetic} from '../helpers/captures.js';

type Json = Record<string, unknown>;

function clone<T>(value: T): T {
	return structuredClone(value);
}

function normalizeError(dialect: DialectName, summary: unknown, perThread: unknown): MinerError {
	try {
		normalizeSnapshot(dialect, summary, perThread);
	} catch (error) {
		expect(error).toBeInstanceOf(MinerError);
		return error as MinerError;
	}

	throw new Error('expected a MinerError');
}

describe('normalizeSnapshot: real 6.26 captures (no pool, no job)', () => {
	const summary2 = captureJson('v6.26/get_2_summary.txt');
	const backends = captureJson('v6.26/get_2_backends.txt');

	it('reads /2/summary + /2/backends', () => {
		const snapshot = normalizeSnapshot('v2', summary2, backends);
		expect(snapshot).toEqual<MinerSnapshot>({
			dialect: 'v2',
			id: 'f800509bdc3fb659',
			workerId: 'realpeer-v6',
			version: '6.26.0',
			kind: 'miner',
			userAgent: 'XMRig/6.26.0 (Linux x86_64) libuv/1.44.2 gcc/12.2.0',
			algo: null,
			uptime: 8,
			paused: false,
			restricted: false,
			donateLevel: 1,
			// 6.22.2+ reports a window with no progress as 0.0: it stays 0, it is not "unknown".
			hashrate: {total: [0, 0, 0], highest: null},
			results: {good: 0, total: 0, rejected: 0, avgTime: null, hashesTotal: 0, best: null, diffCurrent: 0},
			connection: {
				pool: null,
				ip: null,
				uptime: 0,
				ping: null,
				failures: 0,
				tls: null,
				tlsFingerprint: null,
				diff: 0,
				connected: false,
			},
			cpu: {
				brand: 'AMD EPYC',
				cores: 2,
				threads: 2,
				packages: 1,
				aes: true,
				avx2: true,
				x64: true,
				arch: 'x86_64',
				msr: 'ryzen_19h',
				assembly: 'ryzen',
			},
			hugepages: {kind: 'pages', allocated: 0, total: 0},
			resources: {
				rss: 12_742_656,
				memoryFree: 24_749_412_352,
				memoryTotal: 25_276_502_016,
				loadAverage: [1.27, 1.12, 0.51],
				hardwareConcurrency: 2,
			},
			threads: [],
			backends: [
				{
					type: 'cpu',
					enabled: true,
					algo: null,
					profile: null,
					hashrate: null,
					threadCount: 0,
					hugepages: {kind: 'pages', allocated: 0, total: 0},
					memory: 0,
					detail: null,
				},
			],
			perThreadRead: true,
			features: ['api', 'asm', 'http', 'hwloc', 'tls'],
			proxy: null,
		});
	});

	it('reads /1/summary (hugepages a bool) with the pages from /2/backends', () => {
		const snapshot = normalizeSnapshot('v2-legacy-summary', captureJson('v6.26/get_1_summary.txt'), backends);
		expect(snapshot.hugepages).toEqual({kind: 'pages', allocated: 0, total: 0});
		expect(snapshot.dialect).toBe('v2-legacy-summary');
		expect(snapshot.id).toBe('f800509bdc3fb659');
	});

	it('reads /1/summary alone with the hugepages flag', () => {
		const snapshot = normalizeSnapshot('v1-summary-only', captureJson('v6.26/get_api_json.txt'), null);
		expect(snapshot.hugepages).toEqual({kind: 'flag', enabled: true});
		expect(snapshot.threads).toEqual([]);
		expect(snapshot.backends).toEqual([expect.objectContaining({type: 'cpu', threadCount: 0, hashrate: [0, 0, 0]})]);
	});

	it('sees pause and resume', () => {
		const paused = normalizeSnapshot(
			'v2-legacy-summary',
			captureJson('v6.26/get_1_summary_paused.txt'),
			captureJson('v6.26/get_2_backends_paused.txt'),
		);
		expect(paused.paused).toBe(true);
		expect(paused.uptime).toBe(32);
		const resumed = normalizeSnapshot('v2-legacy-summary', captureJson('v6.26/get_1_summary_resumed.txt'), backends);
		expect(resumed.paused).toBe(false);
	});

	it.each([
		'v6.26/get_2_summary_later.txt',
		'v6.26/restricted-notoken/get_2_summary_notoken.txt',
		'v6.26/restricted/get_2_summary_goodtoken.txt',
	])('reads %s', (file) => {
		const snapshot = normalizeSnapshot('v2', captureJson(file), backends);
		expect(snapshot.version).toBe('6.26.0');
		expect(snapshot.hashrate.total).toEqual([0, 0, 0]);
		expect(snapshot.connection.connected).toBe(false);
	});

	it.each([
		['v6.26/get_1_summary_after_put_modified.txt', false],
		['v6.26/get_1_summary_after_set_restricted_via_api.txt', true],
		['v6.26/restricted-notoken/get_1_summary_notoken.txt', true],
	])('reads %s (restricted %s)', (file, restricted) => {
		const snapshot = normalizeSnapshot(
			'v2-legacy-summary',
			captureJson(file),
			captureJson('v6.26/restricted-notoken/get_2_backends_notoken.txt'),
		);
		expect(snapshot.restricted).toBe(restricted);
		expect(snapshot.hugepages).toEqual({kind: 'pages', allocated: 0, total: 0});
	});
});

describe('normalizeSnapshot: real 2.16 captures', () => {
	it('reads /1/summary + /1/threads', () => {
		const snapshot = normalizeSnapshot('v1', captureJson('v2.16/get_1_summary.txt'), captureJson('v2.16/get_1_threads.txt'));
		expect(snapshot).toMatchObject({
			dialect: 'v1',
			id: 'f757ea84a82d5d91',
			workerId: 'realpeer-v2.16',
			version: '2.16.0-beta',
			kind: 'cpu',
			algo: 'cn',
			uptime: 7,
			paused: null,
			restricted: null,
			resources: null,
			features: [],
			hashrate: {total: [null, null, null], highest: null},
			results: {good: 0, total: 0, rejected: 0, avgTime: null, best: null},
			connection: {pool: null, ip: null, uptime: 0, ping: null, connected: false, tls: null},
			cpu: {brand: 'AMD EPYC', aes: true, x64: true, avx2: null, packages: 1, cores: null},
			// The summary only says false; /1/threads has the pages.
			hugepages: {kind: 'pages', allocated: 0, total: 0},
		});
		expect(snapshot.threads).toEqual([
			{backend: 'cpu', index: 0, hashrate: [null, null, null], intensity: 1, affinity: null, device: null, health: null},
		]);
		expect(snapshot.backends).toEqual([
			{
				type: 'cpu',
				enabled: true,
				algo: 'cn',
				profile: null,
				hashrate: [null, null, null],
				threadCount: 1,
				hugepages: {kind: 'pages', allocated: 0, total: 0},
				memory: 2_097_152,
				detail: null,
			},
		]);
	});

	it.each([
		['v2.16/get_api_json.txt', 'v2.16/get_1_threads.txt'],
		['v2.16/get_1_summary_after_put_modified.txt', 'v2.16/get_1_threads.txt'],
		['v2.16/restricted-notoken/get_1_summary_notoken.txt', 'v2.16/restricted-notoken/get_1_threads_notoken.txt'],
		['v2.16/restricted/get_1_summary_goodtoken.txt', 'v2.16/restricted/get_1_threads_goodtoken.txt'],
	])('reads %s', (summary, threads) => {
		const snapshot = normalizeSnapshot('v1', captureJson(summary), captureJson(threads));
		expect(snapshot.version).toBe('2.16.0-beta');
		expect(snapshot.threads).toHaveLength(1);
	});

	it('reads the 2.16 summary alone, per-thread rates from hashrate.threads', () => {
		const snapshot = normalizeSnapshot('v1-summary-only', captureJson('v2.16/get_1_summary.txt'), null);
		expect(snapshot.hugepages).toEqual({kind: 'flag', enabled: false});
		expect(snapshot.threads).toEqual([
			{backend: 'cpu', index: 0, hashrate: [null, null, null], intensity: null, affinity: null, device: null, health: null},
		]);
	});
});

describe('normalizeSnapshot: live-shaped 6.x payloads', () => {
	const summary = readSynthetic('v6-live-summary.json');
	const backends = readSynthetic('v6-live-backends.json');

	it('reads filled windows, shares and a TLS pool connection', () => {
		const snapshot = normalizeSnapshot('v2', summary, backends);
		expect(snapshot.hashrate).toEqual({total: [14_523.45, 14_510.02, null], highest: 14_601.77});
		expect(snapshot.results).toEqual({
			good: 87,
			total: 88,
			rejected: 1,
			avgTime: 82.345,
			hashesTotal: 20_891_234,
			best: 9_120_331,
			diffCurrent: 240_123,
		});
		expect(snapshot.connection).toEqual({
			pool: 'pool.example.org:443',
			ip: '203.0.113.7',
			uptime: 7180,
			ping: 58,
			failures: 1,
			tls: 'TLSv1.3',
			tlsFingerprint: 'ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12',
			diff: 240_123,
			connected: true,
		});
		expect(snapshot.algo).toBe('rx/0');
		expect(snapshot.hugepages).toEqual({kind: 'pages', allocated: 1168, total: 1168});
		expect(snapshot.cpu).toMatchObject({cores: 8, threads: 16, x64: true});
	});

	it('reads CPU, OpenCL and CUDA threads with intensity, affinity, device and health', () => {
		const snapshot = normalizeSnapshot('v2', summary, backends);
		expect(snapshot.threads).toHaveLength(6);
		expect(snapshot.threads.slice(0, 4).map((thread) => [thread.backend, thread.index, thread.intensity, thread.affinity])).toEqual([
			['cpu', 0, 1, 0],
			['cpu', 1, 1, 2],
			['cpu', 2, 1, 4],
			['cpu', 3, 1, null],
		]);
		expect(snapshot.threads[0]!.hashrate).toEqual([2280.1, 2278.9, null]);
		expect(snapshot.threads[4]).toEqual({
			backend: 'opencl',
			index: 0,
			hashrate: [3100.2, 3099.9, null],
			intensity: 1536,
			affinity: null,
			device: 'AMD Radeon RX 580 Series',
			health: {temperature: 64, power: 118, clock: 1340, memClock: 2000, fan: 1850},
		});
		expect(snapshot.threads[5]).toEqual({
			backend: 'cuda',
			index: 0,
			hashrate: [2300.26, 2294.68, null],
			intensity: null,
			affinity: 6,
			device: 'NVIDIA GeForce RTX 3060',
			health: {temperature: 58, power: 112, clock: 1777, memClock: 7501, fan: 47},
		});
	});

	it('describes each backend', () => {
		const snapshot = normalizeSnapshot('v2', summary, backends);
		expect(snapshot.backends.map((backend) => [backend.type, backend.enabled, backend.threadCount, backend.detail])).toEqual([
			['cpu', true, 4, null],
			['opencl', true, 1, 'AMD Accelerated Parallel Processing'],
			['cuda', true, 1, 'CUDA 12.4 (driver 12.4)'],
		]);
		expect(snapshot.backends[0]).toMatchObject({
			algo: 'rx/0',
			profile: 'rx',
			hashrate: [9123, 9115.43, null],
			hugepages: {kind: 'pages', allocated: 1168, total: 1168},
			memory: 8_388_608,
		});
		expect(snapshot.backends[1]!.hugepages).toBeNull();
	});

	it('keeps disabled backends, without threads or hashrate', () => {
		const list = clone(backends) as Json[];
		list[1] = {type: 'opencl', enabled: false, algo: null, profile: null, platform: null};
		list[2] = {type: 'cuda', enabled: false, algo: null, profile: null};
		const snapshot = normalizeSnapshot('v2', summary, list);
		expect(snapshot.threads).toHaveLength(4);
		expect(snapshot.backends.slice(1)).toEqual([
			{
				type: 'opencl',
				enabled: false,
				algo: null,
				profile: null,
				hashrate: null,
				threadCount: 0,
				hugepages: null,
				memory: null,
				detail: null,
			},
			{
				type: 'cuda',
				enabled: false,
				algo: null,
				profile: null,
				hashrate: null,
				threadCount: 0,
				hugepages: null,
				memory: null,
				detail: null,
			},
		]);
	});

	it('takes hugepages from the backends when /1/summary only has a bool', () => {
		const snapshot = normalizeSnapshot('v2-legacy-summary', readSynthetic('v6-live-summary-v1.json'), backends);
		expect(snapshot.hugepages).toEqual({kind: 'pages', allocated: 1168, total: 1168});
		// Per-thread data comes from the backends, not from hashrate.threads.
		expect(snapshot.threads.map((thread) => thread.backend)).toEqual(['cpu', 'cpu', 'cpu', 'cpu', 'opencl', 'cuda']);
	});

	it('keeps null windows null (5.x, or a window not filled yet) and 0.0 windows 0', () => {
		const s = clone(summary) as Json;
		s['hashrate'] = {total: [null, null, null], highest: null};
		expect(normalizeSnapshot('v2', s, backends).hashrate).toEqual({total: [null, null, null], highest: null});
		s['hashrate'] = {total: [0.0, 0.0, null], highest: 14_601.77};
		expect(normalizeSnapshot('v2', s, backends).hashrate).toEqual({total: [0, 0, null], highest: 14_601.77});
	});

	it('reads 64_bit before the deprecated x64', () => {
		const s = clone(summary) as Json;
		(s['cpu'] as Json)['64_bit'] = false;
		expect(normalizeSnapshot('v2', s, backends).cpu.x64).toBe(false);
		delete (s['cpu'] as Json)['64_bit'];
		expect(normalizeSnapshot('v2', s, backends).cpu.x64).toBe(true);
		delete (s['cpu'] as Json)['x64'];
		expect(normalizeSnapshot('v2', s, backends).cpu.x64).toBeNull();
	});

	it('reads id "" and pool "" as null, ping 0 as null, all-zero best as null', () => {
		const s = clone(summary) as Json;
		s['id'] = '';
		(s['connection'] as Json)['pool'] = '';
		(s['connection'] as Json)['ping'] = 0;
		(s['results'] as Json)['best'] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
		const snapshot = normalizeSnapshot('v2', s, backends);
		expect(snapshot.id).toBeNull();
		expect(snapshot.connection.pool).toBeNull();
		expect(snapshot.connection.ping).toBeNull();
		expect(snapshot.results.best).toBeNull();
	});

	it('is not connected once the pool IP is gone, even though the pool name stays', () => {
		const s = clone(summary) as Json;
		(s['connection'] as Json)['ip'] = null;
		(s['connection'] as Json)['uptime'] = 0;
		const snapshot = normalizeSnapshot('v2', s, backends);
		expect(snapshot.connection).toMatchObject({pool: 'pool.example.org:443', ip: null, connected: false});
	});
});

describe('normalizeSnapshot: 2.14 CPU miner', () => {
	const summary = readSynthetic('v2.14-summary.json');
	const threads = readSynthetic('v2.14-threads.json');

	it('reads the summary and /1/threads', () => {
		const snapshot = normalizeSnapshot('v1', summary, threads);
		expect(snapshot).toMatchObject({
			version: '2.14.4',
			kind: 'cpu',
			uptime: null,
			algo: 'cn/r',
			donateLevel: 5,
			hashrate: {total: [812.4, 810.9, null], highest: 820.1},
			results: {good: 12, total: 13, rejected: 1, avgTime: 31, best: 181_000, diffCurrent: 25_000},
			// No connection.ip before 2.15.4: connected means a connection that has an age.
			connection: {pool: 'pool.example.org:3333', ip: null, uptime: 372, ping: 64, connected: true, diff: 25_000},
			cpu: {brand: 'Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz', packages: 1, x64: true},
			hugepages: {kind: 'pages', allocated: 4, total: 4},
		});
		expect(snapshot.threads.map((thread) => [thread.intensity, thread.affinity, thread.hashrate[0]])).toEqual([
			[1, 0, 203.1],
			[1, 1, 203],
			[2, 2, 203.2],
			[1, null, 203.1],
		]);
		expect(snapshot.backends).toEqual([
			{
				type: 'cpu',
				enabled: true,
				algo: 'cn/r',
				profile: null,
				hashrate: [812.4, 810.9, null],
				threadCount: 4,
				hugepages: {kind: 'pages', allocated: 4, total: 4},
				memory: 8_388_608,
				detail: null,
			},
		]);
	});

	it('is disconnected when the connection has no age', () => {
		const s = clone(summary) as Json;
		(s['connection'] as Json)['uptime'] = 0;
		expect(normalizeSnapshot('v1', s, threads).connection.connected).toBe(false);
	});

	it('falls back to hashrate.threads when a thread has no hashrate', () => {
		const t = clone(threads) as {threads: Json[]};
		delete t.threads[1]!['hashrate'];
		expect(normalizeSnapshot('v1', summary, t).threads[1]!.hashrate).toEqual([203, 202.8, null]);
	});
});

describe('normalizeSnapshot: GPU forks', () => {
	const summary = readSynthetic('nvidia-2.14-summary.json');

	it('reads xmrig-nvidia: threads from /1/threads, devices and health from the summary', () => {
		const snapshot = normalizeSnapshot('v1', summary, readSynthetic('nvidia-2.14-threads.json'));
		expect(snapshot.kind).toBe('nvidia');
		expect(snapshot.hugepages).toEqual({kind: 'flag', enabled: false});
		expect(snapshot.threads).toEqual([
			{
				backend: 'nvidia',
				index: 0,
				hashrate: [640.2, 639.1, 635],
				intensity: null,
				affinity: null,
				device: 'GeForce GTX 1070',
				health: {temperature: 67, power: 121, clock: 1835, memClock: 4006, fan: 55},
			},
			{
				backend: 'nvidia',
				index: 1,
				hashrate: [570.3, 569.23, 564.9],
				intensity: null,
				affinity: 3,
				device: 'GeForce GTX 1060 6GB',
				health: {temperature: 71, power: 98, clock: 1822, memClock: 4004, fan: 62},
			},
		]);
		expect(snapshot.backends).toEqual([
			expect.objectContaining({
				type: 'nvidia',
				threadCount: 2,
				hashrate: [1210.5, 1208.33, 1199.9],
				hugepages: {kind: 'flag', enabled: false},
			}),
		]);
		expect(snapshot.connection.connected).toBe(true);
	});

	it('reads xmrig-amd: intensity, no health', () => {
		const s = clone(summary) as Json;
		s['kind'] = 'amd';
		delete s['health'];
		const snapshot = normalizeSnapshot('v1', s, readSynthetic('amd-2.14-threads.json'));
		expect(snapshot.threads).toEqual([
			{backend: 'amd', index: 0, hashrate: [780.5, 779.9, 775.02], intensity: 1024, affinity: null, device: null, health: null},
		]);
	});

	it('reads the nvidia summary alone, with devices from health[]', () => {
		const snapshot = normalizeSnapshot('v1-summary-only', summary, null);
		expect(snapshot.threads.map((thread) => [thread.backend, thread.device, thread.health?.temperature])).toEqual([
			['nvidia', 'GeForce GTX 1070', 67],
			['nvidia', 'GeForce GTX 1060 6GB', 71],
		]);
	});
});

describe('normalizeSnapshot: 2.4 – 2.5 summary only', () => {
	it('reads per-thread rates from hashrate.threads and keeps 0.0 windows', () => {
		const snapshot = normalizeSnapshot('v1-summary-only', readSynthetic('v2.5-summary.json'), null);
		expect(snapshot.hashrate.total).toEqual([310.5, 309.8, 0]);
		expect(snapshot.threads.map((thread) => thread.hashrate)).toEqual([
			[155.3, 154.9, 0],
			[155.2, 154.9, 0],
		]);
		expect(snapshot.hugepages).toEqual({kind: 'flag', enabled: true});
		expect(snapshot.cpu.packages).toBe(2);
	});
});

describe('normalizeSnapshot: hostile or broken input', () => {
	const summary = readSynthetic('v6-live-summary.json');
	const backends = readSynthetic('v6-live-backends.json');

	it.each([null, [], 'summary', 42, true])('refuses a summary that is not an object (%j)', (value) => {
		expect(normalizeError('v2', value, backends).kind).toBe('incompatible');
	});

	it('refuses per-thread documents of the wrong JSON type', () => {
		expect(normalizeError('v2', summary, {threads: []}).kind).toBe('incompatible');
		expect(normalizeError('v2-legacy-summary', summary, null).kind).toBe('incompatible');
		expect(normalizeError('v1', summary, []).kind).toBe('incompatible');
		expect(normalizeError('nonsense' as DialectName, summary, []).kind).toBe('incompatible');
	});

	it('reads mistyped fields as null and ignores unknown ones', () => {
		const s = {
			id: 7,
			worker_id: ['rig'],
			uptime: '7',
			paused: 'no',
			hashrate: {total: 'fast', highest: -1, threads: 'many'},
			results: {shares_good: -5, shares_total: 'x', best: 'top', avg_time: null},
			connection: {pool: 3, ip: 5, ping: -1, uptime: 'long'},
			cpu: 'AMD',
			resources: {memory: [], load_average: [1, 'x', 3]},
			features: ['api', 3, null],
			hugepages: [1],
			surprise: {deeply: {nested: true}},
		};
		const snapshot = normalizeSnapshot('v2', s, [{type: 'cpu', threads: 'x', hashrate: {}}, 'junk', {type: 5}, null]);
		expect(snapshot).toMatchObject({
			id: null,
			workerId: null,
			uptime: null,
			paused: null,
			hashrate: {total: [null, null, null], highest: null},
			results: {good: 0, total: 0, rejected: 0, best: null},
			connection: {pool: null, ip: null, ping: null, uptime: null, connected: false},
			cpu: {brand: null, x64: null},
			resources: {rss: null, loadAverage: null},
			features: ['api'],
			hugepages: null,
			threads: [],
		});
		expect(snapshot.backends).toEqual([
			{type: 'cpu', enabled: false, algo: null, profile: null, hashrate: null, threadCount: 0, hugepages: null, memory: null, detail: null},
		]);
	});

	it('reads numbers too large for a double (1e400 → Infinity) as null', () => {
		const s = JSON.parse('{"uptime": 1e400, "hashrate": {"total": [1e400, -1e400, 5]}, "results": {}}') as unknown;
		const snapshot = normalizeSnapshot('v1-summary-only', s, null);
		expect(snapshot.uptime).toBeNull();
		expect(snapshot.hashrate.total).toEqual([null, null, 5]);
	});

	it('never reads through the prototype', () => {
		const s = JSON.parse('{"__proto__": {"uptime": 5, "id": "x"}, "hashrate": {"total": []}, "results": {}}') as unknown;
		const snapshot = normalizeSnapshot('v1-summary-only', s, null);
		expect(snapshot.uptime).toBeNull();
		expect(snapshot.id).toBeNull();
	});

	it('handles huge arrays without spreading them onto the stack', () => {
		const s = clone(summary) as Json;
		(s['results'] as Json)['best'] = Array.from({length: 300_000}, (_, i) => i);
		expect(normalizeSnapshot('v2', s, backends).results.best).toBe(299_999);
	});
});
