import {describe, expect, it} from 'vitest';
import type {MinerClient} from '../../source/miner/client.js';
import {MinerError} from '../../source/miner/errors.js';
import {kiloToRate, MAX_PROXY_ROWS} from '../../source/miner/normalize-proxy.js';
import {readProxyMiners} from '../../source/miner/proxy-miners.js';
import {MinerReader} from '../../source/miner/reader.js';
import {captureJson} from '../helpers/captures.js';
import {httpAnswer} from '../helpers/raw-server.js';
import {
	json,
	notFound2,
	notFound6,
	routes626,
	routesProxy626,
	replayMinersForEachTest,
	type ReplayMiner,
	type Routes,
} from './helpers/replay-miner.js';

type Json = Record<string, unknown>;

const replay = replayMinersForEachTest();
const PASSWORD = 'fixture-pool-pass1';

async function proxyWith(routes: Routes, fallback?: string): Promise<ReplayMiner> {
	return replay.start(routes, fallback);
}

function clientFor(miner: ReplayMiner): MinerClient {
	return replay.client(miner, 'proxy-secret-3b7');
}

function readerFor(miner: ReplayMiner): MinerReader {
	return new MinerReader(clientFor(miner));
}

async function failure(promise: Promise<unknown>): Promise<MinerError> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(MinerError);
		return error as MinerError;
	}

	throw new Error('expected a MinerError');
}

const proxySummary = (): Json => captureJson('../xmrig-proxy/v6.26/get_1_summary.txt') as Json;
const proxyWorkers = (): Json => captureJson('../xmrig-proxy/v6.26/get_1_workers.txt') as Json;

function withWorkers(change: (workers: Json) => void): Routes {
	const workers = proxyWorkers();
	change(workers);
	return {...routesProxy626(), 'GET /1/workers': json(workers)};
}

describe('kH/s to H/s', () => {
	it('is exact for the proxy’s two-decimal kH/s (no float noise)', () => {
		expect(kiloToRate(0.95)).toBe(950);
		expect(kiloToRate(0.29)).toBe(290);
		expect(kiloToRate(0.57)).toBe(570);
		expect(kiloToRate(1.18)).toBe(1180);
		expect(kiloToRate(123_456.07)).toBe(123_456_070);
		expect(kiloToRate(0)).toBe(0);
	});
});

describe('reading a real xmrig-proxy 6.26', () => {
	it('is found as a proxy and read with its own numbers, units and windows', async () => {
		const proxy = await proxyWith(routesProxy626());
		const reader = readerFor(proxy);
		const snapshot = await reader.read();
		expect(reader.dialect).toEqual({name: 'proxy', summaryPath: '/1/summary', threadsPath: '/1/workers'});
		expect(snapshot).toMatchObject({
			dialect: 'proxy',
			kind: 'proxy',
			version: '6.26.0',
			workerId: 'capture-proxy',
			algo: null,
			uptime: 49,
			paused: null,
			hashrate: {total: [null, 950, null], highest: null},
			results: {good: 20, total: 23, rejected: 3, avgTime: 2, best: 22_760},
			connection: {connected: true, failures: 0, pool: null},
			threads: [],
			backends: [],
			perThreadRead: true,
		});
		expect(snapshot.proxy).toEqual({
			mode: 'nicehash',
			miners: {now: 2, max: 2},
			workerCount: 2,
			upstreams: {active: 1, sleep: 0, error: 0, total: 1, ratio: 2},
			results: {
				accepted: 20,
				rejected: 3,
				invalid: 0,
				expired: 0,
				avgTime: 2,
				latency: 1,
				hashesTotal: 60_000,
				hashesDonate: 0,
				best: [22_760, 20_833, 9591, 8519, 8509, 8036, 6585, 6319, 5968, 5517],
			},
			hashrate: [950, 90, 10, 0, 0],
			sinceStart: 1180,
			workers: [
				{
					name: 'rig-6.26',
					ip: '127.0.0.1',
					connections: 1,
					accepted: 11,
					rejected: 1,
					invalid: 0,
					hashes: 33_000,
					lastShareAt: 1_795_671_211_412,
					hashrate: [550, 50, 0, 0, 0],
				},
				{
					name: 'rig-5.11',
					ip: '127.0.0.1',
					connections: 1,
					accepted: 9,
					rejected: 2,
					invalid: 0,
					hashes: 27_000,
					lastShareAt: 1_795_671_216_258,
					hashrate: [400, 40, 0, 0, 0],
				},
			],
			workersMode: 'rig_id',
		});
	});

	it('reads /1/summary and /1/workers per poll, and the summary alone when asked', async () => {
		const proxy = await proxyWith(routesProxy626());
		const reader = readerFor(proxy);
		await reader.read();
		proxy.requests.length = 0;
		const full = await reader.read();
		expect(proxy.seen().sort()).toEqual(['GET /1/summary', 'GET /1/workers']);
		expect(full.proxy?.workers).toHaveLength(2);
		proxy.requests.length = 0;
		const summaryOnly = await reader.read(undefined, {perThread: false});
		expect(proxy.seen()).toEqual(['GET /1/summary']);
		expect(summaryOnly.perThreadRead).toBe(false);
		expect(summaryOnly.dialect).toBe('proxy');
		expect(summaryOnly.proxy?.workers).toBeNull();
		expect(summaryOnly.proxy?.workersMode).toBeNull();
		expect(summaryOnly.proxy?.workerCount).toBe(2);
	});

	it('is a proxy whichever summary path answers (only /1/summary)', async () => {
		const routes: Routes = {...routesProxy626(), 'GET /2/summary': notFound6};
		const proxy = await proxyWith(routes);
		const snapshot = await readerFor(proxy).read();
		expect(snapshot.dialect).toBe('proxy');
		expect(snapshot.proxy?.workers).toHaveLength(2);
	});

	it('reads a proxy with workers off: 404 or mode "none" gives no list, not an error', async () => {
		const gone = await proxyWith({...routesProxy626(), 'GET /1/workers': notFound6});
		const reader = readerFor(gone);
		const first = await reader.read();
		expect(first.proxy?.workers).toBeNull();
		expect(first.proxy?.hashrate[0]).toBe(950);
		const again = await reader.read();
		expect(again.dialect).toBe('proxy');
		expect(again.proxy?.workers).toBeNull();

		const off = await proxyWith(
			withWorkers((workers) => {
				workers['mode'] = 'none';
				workers['workers'] = [];
			}),
		);
		const snapshot = await readerFor(off).read();
		expect(snapshot.proxy?.workers).toBeNull();
		expect(snapshot.proxy?.workersMode).toBe('none');
	});

	it('keeps no pool password of a proxy that groups workers by password', async () => {
		const proxy = await proxyWith(
			withWorkers((workers) => {
				workers['mode'] = 'password';
				const rows = workers['workers'] as unknown[][];
				for (const row of rows) row[0] = PASSWORD;
			}),
		);
		const snapshot = await readerFor(proxy).read();
		expect(snapshot.proxy?.workersMode).toBe('password');
		expect(snapshot.proxy?.workers?.map((worker) => worker.name)).toEqual(['worker 1', 'worker 2']);
		expect(snapshot.proxy?.workers?.[1]?.accepted).toBe(9);
		expect(JSON.stringify(snapshot)).not.toContain(PASSWORD);
	});

	it('keeps an empty list of a proxy that groups workers but has none yet', async () => {
		const proxy = await proxyWith(withWorkers((workers) => (workers['workers'] = [])));
		const snapshot = await readerFor(proxy).read();
		expect(snapshot.proxy?.workers).toEqual([]);
		expect(snapshot.proxy?.workersMode).toBe('rig_id');
	});

	it('finds the proxy again after it restarted, and a proxy that replaced a miner', async () => {
		const proxy = await proxyWith(routes626());
		const reader = readerFor(proxy);
		expect((await reader.read()).dialect).toBe('v2');
		proxy.setRoutes(routesProxy626());
		const replaced = await reader.read();
		expect(replaced.dialect).toBe('proxy');
		expect(replaced.proxy?.workers).toHaveLength(2);

		const restarted = proxySummary();
		restarted['uptime'] = 3;
		proxy.setRoutes({...routesProxy626(), 'GET /1/summary': json(restarted), 'GET /2/summary': json(restarted)});
		proxy.requests.length = 0;
		const after = await reader.read();
		expect(after.uptime).toBe(3);
		expect(proxy.seen()).toContain('GET /2/summary');
		proxy.requests.length = 0;
		await reader.read();
		expect(proxy.seen().sort()).toEqual(['GET /1/summary', 'GET /1/workers']);
	});

	it('gives the auth errors of a miner', async () => {
		const proxy = await proxyWith({}, httpAnswer(401, '{\n    "status": 401,\n    "error": "UNAUTHORIZED"\n}', 'UNAUTHORIZED'));
		const error = await failure(readerFor(proxy).read());
		expect(error.kind).toBe('unauthorized');
	});
});

/**
 * A 2.x proxy (src/api/ApiRouter.cpp at 2.8 – 2.14): every GET path but /1/workers, /1/miners, /1/config and
 * /1/resources answers the summary; only /1/summary has the upstreams in full (elsewhere the active count); `algo`
 * is the configured algorithm; no `restricted`, `resources` or `features`.
 */
function proxy2Summary(full: boolean): Json {
	return {
		id: '5a1b2c3d4e5f6071',
		worker_id: 'old-proxy',
		version: '2.14.1',
		kind: 'proxy',
		algo: 'cryptonight',
		mode: 'nicehash',
		ua: 'xmrig-proxy/2.14.1 (Linux x86_64) libuv/1.24.1 gcc/8.2.0',
		uptime: 7200,
		donate_level: 2,
		donated: 0,
		hashrate: {total: [12.34, 12.01, 11.9, 5.5, 2.75, 14.2]},
		miners: {now: 4, max: 5},
		workers: 3,
		upstreams: full ? {active: 1, sleep: 1, error: 1, total: 3, ratio: 4} : 1,
		results: {
			accepted: 400,
			rejected: 4,
			invalid: 1,
			expired: 2,
			avg_time: 18,
			latency: 95,
			hashes_total: 4_000_000,
			hashes_donate: 80_000,
			best: [900_000, 50_000, 0, 0, 0, 0, 0, 0, 0, 0],
		},
	};
}

describe('older proxies', () => {
	it('reads a 2.x proxy that answers every other path with its summary', async () => {
		const workers = {
			hashrate: {total: [12.34, 12.01, 11.9, 5.5, 2.75, 14.2]},
			mode: 'rig_id',
			workers: [['rig-a', '10.0.0.5', 2, 300, 3, 1, 3_000_000, 1_600_000_000_000, 8.01, 8.0, 7.9, 3.3, 1.65]],
		};
		const proxy = await proxyWith(
			{'GET /1/summary': json(proxy2Summary(true)), 'GET /1/workers': json(workers)},
			json(proxy2Summary(false)),
		);
		const reader = readerFor(proxy);
		const snapshot = await reader.read();
		expect(snapshot.dialect).toBe('proxy');
		expect(snapshot.algo).toBe('cryptonight');
		expect(snapshot.restricted).toBeNull();
		expect(snapshot.resources).toBeNull();
		expect(snapshot.hashrate.total).toEqual([null, 12_340, null]);
		expect(snapshot.proxy?.upstreams).toEqual({active: 1, sleep: 1, error: 1, total: 3, ratio: 4});
		expect(snapshot.connection).toMatchObject({connected: true, failures: 1, ping: 95});
		expect(snapshot.proxy?.hashrate).toEqual([12_340, 12_010, 11_900, 5500, 2750]);
		expect(snapshot.proxy?.results.best).toEqual([900_000, 50_000]);
		expect(snapshot.proxy?.workers?.[0]).toMatchObject({name: 'rig-a', connections: 2, hashrate: [8010, 8000, 7900, 3300, 1650]});
		proxy.requests.length = 0;
		await reader.read();
		expect(proxy.seen().sort()).toEqual(['GET /1/summary', 'GET /1/workers']);
	});

	it('reads a 2.4 proxy (the summary on every path, upstreams a count, no workers list)', async () => {
		const summary = proxy2Summary(false);
		delete summary['mode'];
		delete summary['algo'];
		delete summary['workers'];
		summary['hashrate'] = {total: [1.5, 1.4, 1.3, 1.2, 1.1]};
		const proxy = await proxyWith({}, json(summary));
		const snapshot = await readerFor(proxy).read();
		expect(snapshot.dialect).toBe('proxy');
		expect(snapshot.proxy).toMatchObject({
			upstreams: null,
			workers: null,
			workersMode: null,
			workerCount: null,
			sinceStart: null,
			mode: null,
		});
		expect(snapshot.proxy?.hashrate).toEqual([1500, 1400, 1300, 1200, 1100]);
		expect(snapshot.connection.connected).toBe(true);
		expect(snapshot.connection.failures).toBeNull();
	});

	it('reads a 2.x proxy whose 404s say "Not Found"', async () => {
		const proxy = await proxyWith({'GET /1/summary': json(proxy2Summary(true))}, notFound2);
		const snapshot = await readerFor(proxy).read();
		expect(snapshot.dialect).toBe('proxy');
		expect(snapshot.proxy?.workers).toBeNull();
	});
});

describe('a lying proxy', () => {
	const rows: ReadonlyArray<[string, unknown[]]> = [
		['a short row', ['rig', '127.0.0.1', 1, 2]],
		['a name that is not text', [42, '127.0.0.1', 1, 11, 1, 0, 33_000, 1, 0.5, 0.05, 0, 0, 0]],
		['a negative count', ['rig', '127.0.0.1', 1, -11, 1, 0, 33_000, 1, 0.5, 0.05, 0, 0, 0]],
		['a rate that is text', ['rig', '127.0.0.1', 1, 11, 1, 0, 33_000, 1, '0.5', 0.05, 0, 0, 0]],
		['a negative rate', ['rig', '127.0.0.1', 1, 11, 1, 0, 33_000, 1, 0.5, -0.05, 0, 0, 0]],
		['an ip that is a number', ['rig', 7, 1, 11, 1, 0, 33_000, 1, 0.5, 0.05, 0, 0, 0]],
	];
	for (const [what, row] of rows) {
		it(`refuses a worker row with ${what} in one clear line`, async () => {
			const proxy = await proxyWith(withWorkers((workers) => (workers['workers'] = [row])));
			const error = await failure(readerFor(proxy).read());
			expect(error.kind).toBe('incompatible');
			expect(error.message).toMatch(/^the answer from \/1\/workers is not xmrig-proxy's: worker row 1 /u);
			expect(error.oneLine()).not.toContain('\n');
		});
	}

	it('refuses a list of workers longer than any real one', async () => {
		// Compact, so that it stays under the client's 1 MiB cap on an answer.
		const row = ['r', null, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
		const body = JSON.stringify({mode: 'rig_id', workers: Array.from({length: MAX_PROXY_ROWS + 1}, () => row)});
		const proxy = await proxyWith({...routesProxy626(), 'GET /1/workers': httpAnswer(200, body)});
		const error = await failure(readerFor(proxy).read());
		expect(error.message).toContain(`${MAX_PROXY_ROWS + 1} workers`);
	});

	it('refuses NaN in a workers answer as not JSON', async () => {
		const body = '{"mode": "rig_id", "workers": [["rig", "127.0.0.1", 1, 1, 0, 0, 1, 1, NaN, 0, 0, 0, 0]]}';
		const proxy = await proxyWith({...routesProxy626(), 'GET /1/workers': httpAnswer(200, body)});
		const error = await failure(readerFor(proxy).read());
		expect(error.kind).toBe('bad-payload');
	});

	it('reads a summary of wrong types as unknowns, never as a crash', async () => {
		const summary = proxySummary();
		summary['hashrate'] = {total: ['fast', -1, null, 1, 1e308]};
		summary['upstreams'] = 'many';
		summary['miners'] = {now: -3, max: 'x'};
		summary['results'] = {accepted: -5, rejected: '3', best: 'none', avg_time: -1, latency: null};
		summary['uptime'] = -10;
		const proxy = await proxyWith({...routesProxy626(), 'GET /1/summary': json(summary), 'GET /2/summary': json(summary)});
		const snapshot = await readerFor(proxy).read();
		expect(snapshot.dialect).toBe('proxy');
		expect(snapshot.uptime).toBeNull();
		expect(snapshot.proxy?.hashrate).toEqual([null, null, null, 1000, null]);
		expect(snapshot.proxy?.miners).toEqual({now: 0, max: 0});
		expect(snapshot.proxy?.upstreams).toBeNull();
		expect(snapshot.proxy?.results).toMatchObject({accepted: 0, rejected: 0, best: [], avgTime: null, latency: null});
		expect(snapshot.connection.connected).toBe(false);
		expect(snapshot.results).toMatchObject({good: 0, total: 0, rejected: 0});
	});
});

describe('/1/miners', () => {
	it('reads every miner by the format column names, and keeps no password', async () => {
		const proxy = await proxyWith(routesProxy626());
		const list = await readProxyMiners(clientFor(proxy));
		expect(list).toEqual([
			{
				id: 1,
				ip: '127.0.0.1',
				tx: 1703,
				rx: 2945,
				state: 2,
				diff: 3000,
				user: 'wallet-6.26',
				rigId: 'rig-6.26',
				agent: 'XMRig/6.26.0 (Linux x86_64) libuv/1.44.2 gcc/12.2.0',
			},
			{
				id: 2,
				ip: '127.0.0.1',
				tx: 1654,
				rx: 2693,
				state: 2,
				diff: 3000,
				user: 'wallet-5.11',
				rigId: 'rig-5.11',
				agent: 'XMRig/5.11.4 (Linux x86_64) libuv/1.44.2 gcc/12.2.0',
			},
		]);
		expect(JSON.stringify(list)).not.toContain(PASSWORD);
		for (const miner of list) {
			expect(Object.values(miner)).not.toContain(PASSWORD);
			expect(Object.keys(miner)).not.toContain('password');
		}
	});

	it('follows the columns wherever the format puts them', async () => {
		const document = {
			format: ['agent', 'password', 'rig_id', 'id', 'user', 'ip', 'state', 'diff', 'tx', 'rx'],
			miners: [['XMRig/6.26.0', PASSWORD, 'rig-x', 7, 'wallet', '10.1.1.1', 2, 5000, 10, 20]],
		};
		const proxy = await proxyWith({'GET /1/miners': json(document)});
		const [miner] = await readProxyMiners(clientFor(proxy));
		expect(miner).toEqual({
			id: 7,
			ip: '10.1.1.1',
			tx: 10,
			rx: 20,
			state: 2,
			diff: 5000,
			user: 'wallet',
			rigId: 'rig-x',
			agent: 'XMRig/6.26.0',
		});
		expect(JSON.stringify(miner)).not.toContain(PASSWORD);
	});

	it('names no value of a lying row in its error, so no password gets out', async () => {
		const lies: unknown[][] = [
			[1, '127.0.0.1', 1703, 2945, 2, 3000, 'wallet', PASSWORD, 'rig', 'agent', PASSWORD],
			[PASSWORD, '127.0.0.1', 1703, 2945, 2, 3000, 'wallet', PASSWORD, 'rig', 'agent'],
			[1, '127.0.0.1', 1703, 2945, 2, 3000, PASSWORD.length, PASSWORD, {pass: PASSWORD}, 'agent'],
		];
		const format = (captureJson('../xmrig-proxy/v6.26/get_1_miners.txt') as Json)['format'];
		for (const row of lies) {
			const proxy = await proxyWith({'GET /1/miners': json({format, miners: [row]})});
			const error = await failure(readProxyMiners(clientFor(proxy)));
			expect(error.kind).toBe('incompatible');
			const shown = `${error.message} ${error.oneLine()} ${error.detail ?? ''} ${JSON.stringify(error)} ${String(error.stack)}`;
			expect(shown).not.toContain(PASSWORD);
		}
	});

	it('refuses an answer that is not a miners list', async () => {
		const proxy = await proxyWith({'GET /1/miners': json({miners: 'all'})});
		const error = await failure(readProxyMiners(clientFor(proxy)));
		expect(error.message).toBe("the answer from /1/miners is not xmrig-proxy's: no format and miners lists");
	});
});
