/**
 * The simulated xmrig-proxy over a real loopback socket: every captured answer of a real xmrig-proxy 6.26.0
 * (test/fixtures/xmrig-proxy/v6.26) byte for byte with only the live numbers masked, auth, 404s, the config
 * PUT round trip, and the proxy's life over simulated time (rates, workers joining, leaving, going quiet,
 * upstream errors).
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterEach, describe, expect, it} from 'vitest';
import {parseSimArgs} from '../../source/sim/cli-args.js';
import {startSimulator, type ProxyMinerSpec, type ProxySimOptions, type ProxySimulator} from '../../source/sim/simulator.js';
import {manualClock, parseCapture, rawRequest, waitFor} from './helpers.js';

const CAPTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/xmrig-proxy/v6.26');
const capture = (name: string): string => readFileSync(path.join(CAPTURES, name), 'utf8');
const TOKEN = 'proxy-secret-3b7';

const started: ProxySimulator[] = [];
afterEach(async () => {
	await Promise.all(started.splice(0).map((sim) => sim.stop()));
});

async function proxy(options: Omit<ProxySimOptions, 'kind'> = {}): Promise<ProxySimulator> {
	const sim = await startSimulator({kind: 'proxy', seed: 7, lifeEvents: false, ...options});
	started.push(sim);
	return sim;
}

/** The two miners of the capture. */
const CAPTURED_MINERS: ProxyMinerSpec[] = [
	{
		name: 'rig-6.26',
		user: 'wallet-6.26',
		password: 'fixture-pool-pass1',
		agent: 'XMRig/6.26.0 (Linux x86_64) libuv/1.44.2 gcc/12.2.0',
		hashrate: 550,
	},
	{
		name: 'rig-5.11',
		user: 'wallet-5.11',
		password: 'fixture-pool-pass1',
		agent: 'XMRig/5.11.4 (Linux x86_64) libuv/1.44.2 gcc/12.2.0',
		hashrate: 450,
	},
];

/** Numbers outside strings become I (integer) or F (written with a point); the API id and Content-Length too. */
function mask(raw: string): string {
	const split = raw.indexOf('\r\n\r\n');
	const head = raw.slice(0, split).replace(/Content-Length: \d+/, 'Content-Length: N');
	const body = raw
		.slice(split)
		.replace(/"id": "[0-9a-f]{16}"/, '"id": "ID"')
		.replaceAll(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) =>
			token.startsWith('"') ? token : /[.eE]/.test(token) ? 'F' : 'I',
		);
	return head + body;
}

type Summary = {
	uptime: number;
	kind: string;
	hashrate: {total: number[]};
	miners: {now: number; max: number};
	workers: number;
	upstreams: {active: number; sleep: number; error: number; total: number; ratio: number};
	results: {accepted: number; rejected: number; invalid: number; avg_time: number; latency: number; hashes_total: number; best: number[]};
};
type WorkerRow = [string, string, number, number, number, number, number, number, number, number, number, number, number];
type Workers = {hashrate: {total: number[]}; mode: string; workers: WorkerRow[]};
type Miners = {format: string[]; miners: (string | number)[][]};

async function get<T>(sim: ProxySimulator, target: string, token: string | null = null): Promise<T> {
	const raw = await rawRequest(sim.port, {method: 'GET', path: target, headers: token === null ? {} : {Authorization: `Bearer ${token}`}});
	const answer = parseCapture(raw);
	expect(answer.status, `${target}: ${raw.slice(0, 200)}`).toBe(200);
	return JSON.parse(answer.body) as T;
}

describe('the captured answers of a real xmrig-proxy 6.26.0', () => {
	const requests: {file: string; method: string; path: string; auth: 'good' | 'bad' | 'none'; body?: string}[] = [
		{file: 'get_1_summary.txt', method: 'GET', path: '/1/summary', auth: 'good'},
		{file: 'get_2_summary.txt', method: 'GET', path: '/2/summary', auth: 'good'},
		{file: 'get_api_json.txt', method: 'GET', path: '/api.json', auth: 'good'},
		{file: 'get_1_workers.txt', method: 'GET', path: '/1/workers', auth: 'good'},
		{file: 'get_1_miners.txt', method: 'GET', path: '/1/miners', auth: 'good'},
		{file: 'get_1_config.txt', method: 'GET', path: '/1/config', auth: 'good'},
		{file: 'get_2_config.txt', method: 'GET', path: '/2/config', auth: 'good'},
		{file: 'get_1_threads.txt', method: 'GET', path: '/1/threads', auth: 'good'},
		{file: 'get_2_backends.txt', method: 'GET', path: '/2/backends', auth: 'good'},
		{file: 'get_1_doesnotexist.txt', method: 'GET', path: '/1/doesnotexist', auth: 'good'},
		{file: 'get_1_summary_notoken.txt', method: 'GET', path: '/1/summary', auth: 'none'},
		{file: 'get_1_summary_badtoken.txt', method: 'GET', path: '/1/summary', auth: 'bad'},
		{file: 'post_json_rpc_pause.txt', method: 'POST', path: '/json_rpc', auth: 'good', body: '{"id":1,"jsonrpc":"2.0","method":"pause"}'},
	];

	it('answers every captured path with the same bytes but for the live numbers', async () => {
		const clock = manualClock();
		const configText = parseCapture(capture('get_1_config.txt')).body;
		const sim = await proxy({
			configText,
			port: 0,
			clock: clock.clock,
			workerId: 'capture-proxy',
			miners: CAPTURED_MINERS,
			rejectEvery: 7,
			diff: 3000,
		});
		clock.advance(49);
		for (const request of requests) {
			const headers: Record<string, string> = {};
			if (request.auth !== 'none') headers['Authorization'] = `Bearer ${request.auth === 'good' ? TOKEN : 'wrong-token-xyz'}`;
			if (request.body !== undefined) headers['Content-Type'] = 'application/json';
			const raw = await rawRequest(sim.port, {
				method: request.method,
				path: request.path,
				headers,
				...(request.body === undefined ? {} : {body: request.body}),
			});
			const theirs = capture(request.file);
			const live = parseCapture(theirs).status === 200 && /summary|api\.json|workers|miners/.test(request.path);
			if (live) expect(mask(raw), request.file).toBe(mask(theirs));
			else expect(raw, request.file).toBe(theirs);
		}
	});

	it('gives the capture numbers for the capture shares: 1m over a 48 s uptime under-reports, the sixth is the uptime average', async () => {
		const clock = manualClock();
		const miners = CAPTURED_MINERS.map((miner) => ({...miner, hashrate: 0}));
		const sim = await proxy({clock: clock.clock, miners, diff: 3000, rejectEvery: 0, epochMs: 1_795_671_160_000});
		clock.advance(10);
		sim.submitShares('rig-6.26', 6);
		sim.submitShares('rig-5.11', 4);
		sim.rejectShares(1);
		sim.submitShares('rig-5.11');
		clock.advance(20);
		sim.submitShares('rig-6.26', 5);
		sim.rejectShares(2);
		sim.submitShares('rig-6.26');
		sim.submitShares('rig-5.11');
		sim.submitShares('rig-5.11', 4);
		clock.advance(19); // uptime 49: twelve ticks closed
		sim.submitShares('rig-5.11'); // still pending, as one was in the capture
		const theirs = (name: string): unknown => JSON.parse(parseCapture(capture(name)).body);
		const summary = await get<Summary>(sim, '/1/summary');
		const captured = theirs('get_1_summary.txt') as Summary;
		expect(summary.hashrate).toEqual(captured.hashrate);
		expect(summary.uptime).toBe(captured.uptime);
		expect({...summary.results, best: [], latency: 0}).toEqual({...captured.results, best: [], latency: 0});
		const workers = await get<Workers>(sim, '/1/workers');
		const strip = (rows: WorkerRow[]): unknown[] => rows.map((row) => [...row.slice(0, 7), ...row.slice(8)]);
		expect(strip(workers.workers)).toEqual(strip((theirs('get_1_workers.txt') as Workers).workers));
		expect(workers.workers[1]![7]).toBe(1_795_671_160_000 + 49_000);
	});

	it('carries each miner pool password in /1/miners, as the real proxy does', async () => {
		const sim = await proxy({token: TOKEN, restricted: false, workers: 3});
		const miners = await get<Miners>(sim, '/1/miners', TOKEN);
		expect(miners.format[7]).toBe('password');
		expect(miners.miners).toHaveLength(3);
		expect(miners.miners.map((row) => row[7])).toEqual(['sim-pool-pass-1', 'sim-pool-pass-2', 'sim-pool-pass-3']);
		const own = await proxy({miners: [{name: 'x', password: 'hunter2-pool'}]});
		expect((await get<Miners>(own, '/1/miners')).miners[0]![7]).toBe('hunter2-pool');
	});
});

describe('auth and routing', () => {
	it('is restricted by default: GET /1/config and PUT are 403, the summary and workers are open', async () => {
		const sim = await proxy();
		expect((await get<Summary>(sim, '/1/summary')).kind).toBe('proxy');
		expect((await get<Workers>(sim, '/1/workers')).mode).toBe('rig_id');
		expect(parseCapture(await rawRequest(sim.port, {method: 'GET', path: '/1/config'})).status).toBe(403);
		const put = await rawRequest(sim.port, {
			method: 'PUT',
			path: '/1/config',
			headers: {'Content-Type': 'application/json'},
			body: sim.configText(),
		});
		expect(parseCapture(put).status).toBe(403);
	});

	it('asks for the token when one is set and answers 404 for the miner routes', async () => {
		const sim = await proxy({token: 'abc', restricted: false});
		expect(parseCapture(await rawRequest(sim.port, {method: 'GET', path: '/1/workers'})).status).toBe(401);
		expect(
			parseCapture(await rawRequest(sim.port, {method: 'GET', path: '/1/miners', headers: {Authorization: 'Bearer abd'}})).status,
		).toBe(403);
		for (const target of ['/1/threads', '/2/backends', '/2/dmi', '/1/workers/']) {
			const answer = parseCapture(await rawRequest(sim.port, {method: 'GET', path: target, headers: {Authorization: 'Bearer abc'}}));
			expect(answer.status, target).toBe(404);
			expect(answer.reason).toBe('NOT_FOUND');
		}
	});
});

describe('config GET and PUT', () => {
	const put = (sim: ProxySimulator, body: string): Promise<string> =>
		rawRequest(sim.port, {
			method: 'PUT',
			path: '/2/config',
			headers: {Authorization: 'Bearer t', 'Content-Type': 'application/json'},
			body,
		});

	it('serves its document, takes a new one (204, applied after the watcher), and regroups workers', async () => {
		const sim = await proxy({
			token: 't',
			restricted: false,
			applyDelayMs: 20,
			miners: [
				{name: 'a', user: 'u1'},
				{name: 'b', user: 'u1'},
				{name: 'c', user: 'u2'},
			],
		});
		const before = parseCapture(await rawRequest(sim.port, {method: 'GET', path: '/1/config', headers: {Authorization: 'Bearer t'}}));
		expect(before.body).toBe(sim.configText());
		expect(JSON.parse(before.body)).toMatchObject({http: {port: sim.port, 'access-token': 't', restricted: false}, workers: true});
		const next = before.body.replace('"workers": true', '"workers": "user"').replace('"worker-id": "sim-proxy"', '"worker-id": "edge-1"');
		expect(parseCapture(await put(sim, next)).status).toBe(204);
		expect(sim.fileText()).toBe(next);
		await waitFor(() => sim.configText() === next, 2000, 'the PUT applied');
		const after = parseCapture(await rawRequest(sim.port, {method: 'GET', path: '/1/config', headers: {Authorization: 'Bearer t'}}));
		expect(after.body).toBe(next);
		const workers = await get<Workers>(sim, '/1/workers', 't');
		expect(workers.mode).toBe('user');
		expect(workers.workers.map((row) => [row[0], row[2]])).toEqual([
			['u1', 2],
			['u2', 1],
		]);
		expect((await get<{worker_id: string}>(sim, '/1/summary', 't')).worker_id).toBe('edge-1');
	});

	it('refuses what the proxy would refuse, keeping the old document', async () => {
		const sim = await proxy({token: 't', restricted: false});
		const old = sim.configText();
		const broken = parseCapture(await put(sim, '{"mode": "nicehash",'));
		expect(broken.status).toBe(400);
		expect(JSON.parse(broken.body)).toMatchObject({status: 400, error: expect.stringMatching(/.+/)});
		expect(parseCapture(await put(sim, '{"mode": "simple", "pools": []}')).status).toBe(400);
		expect(parseCapture(await put(sim, '[1, 2]')).status).toBe(400);
		expect(sim.configText()).toBe(old);
		expect(sim.fileText()).toBe(old);
	});
});

describe('rates, shares and life over simulated time', () => {
	it('computes kH/s windows as the proxy does: window sums over the whole window, the sixth over the uptime', async () => {
		const clock = manualClock();
		const sim = await proxy({clock: clock.clock, miners: [{name: 'solo', hashrate: 20_000}], diff: 10_000, rejectEvery: 0});
		clock.advance(120);
		const summary = await get<Summary>(sim, '/1/summary');
		const hashes = summary.results.hashes_total;
		expect(hashes).toBeGreaterThan(1_000_000);
		const floor2 = (value: number): number => Math.floor(value * 100) / 100;
		// At a 4-second boundary every accepted share is in a closed tick.
		expect(summary.hashrate.total[1]).toBe(floor2(hashes / 600_000));
		expect(summary.hashrate.total[2]).toBe(floor2(hashes / 3_600_000));
		expect(summary.hashrate.total[4]).toBe(floor2(hashes / 86_400_000));
		expect(summary.hashrate.total[5]).toBe(floor2(hashes / 120_000));
		expect(summary.hashrate.total[0]).toBeGreaterThan(10);
		expect(summary.hashrate.total[0]).toBeLessThan(30);
		const [row] = (await get<Workers>(sim, '/1/workers')).workers;
		expect(row![6]).toBe(hashes);
		expect(row!.slice(8)).toEqual(summary.hashrate.total.slice(0, 5));
		expect(summary.results.avg_time).toBe(Math.floor(120 / summary.results.accepted));
		expect(summary.results.best[0]).toBeGreaterThanOrEqual(10_000);
		expect(summary.upstreams).toEqual({active: 1, sleep: 0, error: 0, total: 1, ratio: 1});
	});

	it('rejects every Nth share and counts rejected and invalid per worker', async () => {
		const clock = manualClock();
		const sim = await proxy({clock: clock.clock, workers: 4, rejectEvery: 5, diff: 5000});
		clock.advance(600);
		const summary = await get<Summary>(sim, '/1/summary');
		const total = summary.results.accepted + summary.results.rejected;
		expect(summary.results.rejected).toBe(Math.floor(total / 5));
		const rows = (await get<Workers>(sim, '/1/workers')).workers;
		expect(rows.reduce((sum, row) => sum + row[4], 0)).toBe(summary.results.rejected);
		expect(rows.reduce((sum, row) => sum + row[3], 0)).toBe(summary.results.accepted);
		expect(rows.reduce((sum, row) => sum + row[5], 0)).toBe(summary.results.invalid);
		sim.rejectShares(3);
		const before = summary.results.rejected;
		clock.advance(600);
		expect((await get<Summary>(sim, '/1/summary')).results.rejected).toBeGreaterThanOrEqual(before + 3);
	});

	it('a quiet worker stays connected with its last hash time frozen; a dropped one keeps its row', async () => {
		const clock = manualClock();
		const sim = await proxy({clock: clock.clock, workers: 3, epochMs: 1_800_000_000_000});
		clock.advance(300);
		sim.quietWorker('rig-02', 900);
		const quietAt = (await get<Workers>(sim, '/1/workers')).workers[1]!;
		clock.advance(600);
		let rows = (await get<Workers>(sim, '/1/workers')).workers;
		expect(rows[1]![2]).toBe(1);
		expect(rows[1]![3]).toBe(quietAt[3]);
		expect(rows[1]![7]).toBe(quietAt[7]);
		expect(rows[1]![8]).toBe(0); // nothing over the last minute
		expect(rows[0]![7]).toBeGreaterThan(quietAt[7]);
		expect(sim.workers()[1]!.quiet).toBe(true);
		clock.advance(600);
		expect((await get<Workers>(sim, '/1/workers')).workers[1]![3]).toBeGreaterThan(quietAt[3]);

		sim.dropWorker('rig-03');
		clock.advance(60);
		const summary = await get<Summary>(sim, '/1/summary');
		expect(summary.miners).toEqual({now: 2, max: 3});
		expect(summary.workers).toBe(3);
		rows = (await get<Workers>(sim, '/1/workers')).workers;
		expect(rows[2]![2]).toBe(0);
		expect((await get<Miners>(sim, '/1/miners')).miners.map((row) => row[8])).toEqual(['rig-01', 'rig-02']);
		expect(sim.connectMiner({name: 'rig-03'})).toBe('rig-03');
		expect(sim.connectMiner({name: 'rig-09', ip: '10.0.0.99'})).toBe('rig-09');
		rows = (await get<Workers>(sim, '/1/workers')).workers;
		expect(rows.map((row) => [row[0], row[2]])).toEqual([
			['rig-01', 1],
			['rig-02', 1],
			['rig-03', 1],
			['rig-09', 1],
		]);
		expect((await get<Summary>(sim, '/1/summary')).miners).toEqual({now: 4, max: 4});
	});

	it('an upstream in error stops every share, then comes back', async () => {
		const clock = manualClock();
		const sim = await proxy({clock: clock.clock, workers: 3});
		clock.advance(120);
		sim.failUpstream();
		const failed = await get<Summary>(sim, '/1/summary');
		expect(failed.upstreams).toEqual({active: 0, sleep: 0, error: 1, total: 1, ratio: 0});
		clock.advance(300);
		const later = await get<Summary>(sim, '/1/summary');
		expect(later.results.accepted).toBe(failed.results.accepted);
		expect(later.hashrate.total[0]).toBe(0);
		sim.restoreUpstream();
		expect((await get<Summary>(sim, '/1/summary')).upstreams).toEqual({active: 1, sleep: 0, error: 0, total: 1, ratio: 3});
		clock.advance(300);
		expect((await get<Summary>(sim, '/1/summary')).results.accepted).toBeGreaterThan(failed.results.accepted);

		sim.failUpstream(60);
		clock.advance(30);
		expect((await get<Summary>(sim, '/1/summary')).upstreams.error).toBe(1);
		clock.advance(60);
		expect((await get<Summary>(sim, '/1/summary')).upstreams.error).toBe(0);
	});

	it('crosses a jump of weeks at once and still has every window made of real ticks', async () => {
		const clock = manualClock();
		const sim = await proxy({clock: clock.clock, workers: 2, rejectEvery: 0});
		clock.advance(60);
		const early = await get<Summary>(sim, '/1/summary');
		clock.advance(30 * 86400);
		const later = await get<Summary>(sim, '/1/summary');
		expect(later.uptime).toBe(30 * 86400 + 60);
		expect(later.results.accepted).toBeGreaterThan(early.results.accepted + 10_000);
		const [m1, m10, h1, h12, h24, all] = later.hashrate.total as [number, number, number, number, number, number];
		for (const value of [m1, m10, h1, h12, h24]) expect(value).toBeGreaterThan(0);
		expect(h24 / all).toBeGreaterThan(0.8);
		expect(h24 / all).toBeLessThan(1.2);
		expect(later.results.hashes_total / 1000 / later.uptime).toBeCloseTo(all, 0);
	});

	it('a restarted proxy starts from zero with the miners that were connected', async () => {
		const clock = manualClock();
		const sim = await proxy({clock: clock.clock, workers: 3, warm: true});
		sim.dropWorker('rig-02');
		clock.advance(30);
		const before = await get<Summary>(sim, '/1/summary');
		expect(before.workers).toBe(3);
		sim.restartProxy();
		let after = await get<Summary>(sim, '/1/summary');
		expect(after.uptime).toBe(0);
		expect(after.results.accepted).toBe(0);
		expect(after.hashrate.total).toEqual([0, 0, 0, 0, 0, 0]);
		expect(after.miners).toEqual({now: 2, max: 2});
		expect((await get<Workers>(sim, '/1/workers')).workers.map((row) => row[0])).toEqual(['rig-01', 'rig-03']);
		clock.advance(600);
		after = await get<Summary>(sim, '/1/summary');
		expect(after.uptime).toBe(600);
		expect(after.results.accepted).toBeGreaterThan(0);
		expect(after.hashrate.total[1]).toBeGreaterThan(0);
	});

	it('left alone, workers join, leave, fall quiet and the upstream fails and recovers', async () => {
		const clock = manualClock();
		const sim = await proxy({clock: clock.clock, workers: 6, lifeEvents: true, seed: 11});
		const seen = {left: false, joined: false, quiet: false, upstreamError: false, recovered: false};
		for (let minute = 0; minute < 3 * 24 * 60; minute += 2) {
			clock.advance(120);
			const summary = await get<Summary>(sim, '/1/summary');
			const views = sim.workers();
			if (views.some((w) => w.connections === 0)) seen.left = true;
			if (summary.workers > 6) seen.joined = true;
			if (views.some((w) => w.quiet && w.connections > 0)) seen.quiet = true;
			if (summary.upstreams.error > 0) seen.upstreamError = true;
			else if (seen.upstreamError) seen.recovered = true;
			if (Object.values(seen).every(Boolean)) break;
		}
		expect(seen).toEqual({left: true, joined: true, quiet: true, upstreamError: true, recovered: true});
	});

	it('starts warm with every window full, and the same seed gives the same proxy', async () => {
		const a = await proxy({warm: true, seed: 5, epochMs: 1_800_000_000_000, clock: manualClock().clock, lifeEvents: true});
		const b = await proxy({warm: true, seed: 5, epochMs: 1_800_000_000_000, clock: manualClock().clock, lifeEvents: true});
		const summary = await get<Summary>(a, '/1/summary');
		expect(summary.uptime).toBeGreaterThanOrEqual(3 * 24 * 3600);
		const [m1, m10, h1, h12, h24, all] = summary.hashrate.total as [number, number, number, number, number, number];
		for (const value of [m1, m10, h1, h12, h24, all]) expect(value).toBeGreaterThan(0);
		// Full windows agree with each other within noise (each under-reports only while shorter than the uptime).
		expect(h24 / all).toBeGreaterThan(0.7);
		expect(h24 / all).toBeLessThan(1.3);
		expect(summary.results.accepted).toBeGreaterThan(10_000);
		expect(summary.results.avg_time).toBe(Math.floor(summary.uptime / summary.results.accepted));
		const rowsA = await rawRequest(a.port, {method: 'GET', path: '/1/workers'});
		const rowsB = await rawRequest(b.port, {method: 'GET', path: '/1/workers'});
		expect(parseCapture(rowsA).body).toBe(parseCapture(rowsB).body);
	});
});

describe('command line', () => {
	it('parses --sim-kind and --sim-workers, refusing what it does not know', () => {
		const parsed = parseSimArgs(['--sim-kind', 'proxy', '--sim-workers=12']);
		expect(parsed.ok && parsed.options.kind).toBe('proxy');
		expect(parsed.ok && parsed.options.workers).toBe(12);
		const miner = parseSimArgs([]);
		expect(miner.ok && miner.options.kind).toBe('miner');
		expect(parseSimArgs(['--sim-kind', 'pool'])).toEqual({ok: false, error: "unknown --sim-kind 'pool' (miner or proxy)"});
		expect(parseSimArgs(['--sim-workers', '-1'])).toEqual({ok: false, error: 'invalid --sim-workers'});
	});
});
