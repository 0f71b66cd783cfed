import {afterEach, describe, expect, it} from 'vitest';
import {MinerClient} from '../../source/miner/client.js';
import {detectDialect} from '../../source/miner/dialect.js';
import {MinerError} from '../../source/miner/errors.js';
import {normalizeSnapshot} from '../../source/miner/normalize.js';
import {MinerReader} from '../../source/miner/reader.js';
import {startSimulator, type SimOptions, type Simulator} from '../../source/sim/simulator.js';

/** The client and reader against the simulated miner, in each dialect it speaks. */

const sims: Simulator[] = [];
const clients: MinerClient[] = [];

afterEach(async () => {
	await Promise.all(clients.splice(0).map(async (client) => client.close()));
	await Promise.all(sims.splice(0).map(async (sim) => sim.stop()));
});

async function simulate(options: SimOptions): Promise<Simulator> {
	const sim = await startSimulator({seed: 7, ...options});
	sims.push(sim);
	return sim;
}

function readerFor(sim: Simulator, token: string | null = null): MinerReader {
	const client = new MinerClient({url: sim.url, token});
	clients.push(client);
	return new MinerReader(client);
}

async function failure(promise: Promise<unknown>): Promise<MinerError> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(MinerError);
		return error as MinerError;
	}

	throw new Error('expected a failure');
}

describe('reading the simulated miner', () => {
	it.each([
		['6', 'v2', '6.26.0', ['GET /2/summary', 'GET /2/backends']],
		['5', 'v2', '5.11.4', ['GET /2/summary', 'GET /2/backends']],
		['2', 'v1', '2.16.0-beta', ['GET /2/summary', 'GET /2/backends', 'GET /1/summary', 'GET /1/threads']],
		['2.14', 'v1', '2.14.4', ['GET /2/summary', 'GET /2/backends', 'GET /1/summary', 'GET /1/threads']],
	] as const)('dialect %s → %s', async (dialect, name, version, paths) => {
		const sim = await simulate({dialect, warm: true});
		const reader = readerFor(sim);
		const snapshot = await reader.read();
		expect(snapshot).toMatchObject({dialect: name, version, workerId: 'sim-rig'});
		expect(snapshot.threads).toHaveLength(4);
		expect(snapshot.hashrate.total.every((rate) => rate !== null && rate > 0)).toBe(true);
		expect(snapshot.connection.connected).toBe(true);
		expect(snapshot.hugepages?.kind).toBe('pages');
		expect(sim.requests.map((request) => `${request.method} ${request.path}`).sort()).toEqual([...paths].sort());
		// No Authorization header without a token, and no query strings.
		expect(sim.requests.every((request) => !('authorization' in request.headers) && !request.path.includes('?'))).toBe(true);
		await reader.read();
		expect(sim.requests).toHaveLength(paths.length + 2);
	});

	it.each([
		['6', false, false],
		['6', true, true],
		['5', false, false],
		['5', true, true],
		['2', false, false],
		['2.14', true, false],
	] as const)('keeps null windows null and zero windows 0 (dialect %s, warm %s, paused %s)', async (dialect, warm, paused) => {
		const sim = await simulate({dialect, warm});
		if (paused) sim.pause();
		const client = new MinerClient({url: sim.url, token: null});
		clients.push(client);
		const found = await detectDialect(client, undefined);
		const raw = (found.summary as {hashrate: {total: unknown[]}}).hashrate.total;
		const snapshot = normalizeSnapshot(found.dialect.name, found.summary, found.perThread);
		expect(snapshot.hashrate.total).toEqual(raw.map((rate) => (typeof rate === 'number' ? rate : null)));
		expect(snapshot.paused).toBe(dialect === '6' || dialect === '5' ? paused : null);
	});

	it('sees a pause and a resume sent over JSON-RPC', async () => {
		const sim = await simulate({dialect: '6', warm: true, token: 'sim-token', restricted: false});
		const reader = readerFor(sim, 'sim-token');
		expect((await reader.read()).paused).toBe(false);
		await reader.client.rpc('pause');
		expect((await reader.read()).paused).toBe(true);
		await reader.client.rpc('resume');
		expect((await reader.read()).paused).toBe(false);
		const rpc = sim.requests.filter((request) => request.path === '/json_rpc');
		expect(rpc.map((request) => request.body)).toEqual(['{"method":"pause","id":1}', '{"method":"resume","id":1}']);
		expect(rpc.every((request) => request.headers['content-type'] === 'application/json')).toBe(true);
	});

	it('survives JSON-RPC answers written twice on one socket', async () => {
		const sim = await simulate({dialect: '6', token: 'sim-token', restricted: false, duplicateRpcAnswers: true});
		const client = new MinerClient({url: sim.url, token: 'sim-token'});
		clients.push(client);
		await client.rpc('pause');
		await client.rpc('resume');
	});

	it('maps a restricted miner refusing pause to forbidden, and 2.16 (no /json_rpc) to not-found', async () => {
		const restricted = await simulate({dialect: '6', token: 'sim-token'});
		const client6 = new MinerClient({url: restricted.url, token: 'sim-token'});
		clients.push(client6);
		expect((await failure(client6.rpc('pause'))).kind).toBe('forbidden');
		const old = await simulate({dialect: '2', token: 'sim-token', restricted: false});
		const client2 = new MinerClient({url: old.url, token: 'sim-token'});
		clients.push(client2);
		expect((await failure(client2.rpc('pause'))).kind).toBe('not-found');
	});

	it('needs the token when the miner has one, and refuses a wrong one', async () => {
		const sim = await simulate({dialect: '6', token: 'sim-token'});
		expect((await failure(readerFor(sim).read())).kind).toBe('unauthorized');
		expect((await failure(readerFor(sim, 'wrong').read())).kind).toBe('forbidden');
		expect((await readerFor(sim, 'sim-token').read()).dialect).toBe('v2');
	});

	it('gets 401 for a token sent to a 6.x miner that has none', async () => {
		const sim = await simulate({dialect: '6'});
		expect((await failure(readerFor(sim, 'unneeded').read())).kind).toBe('unauthorized');
	});

	it('detects again after the miner restarts, once', async () => {
		const sim = await simulate({dialect: '6', warm: true});
		const reader = readerFor(sim);
		const before = await reader.read();
		sim.restartMiner();
		const after = await reader.read();
		expect(after.uptime).toBeLessThan(before.uptime ?? 0);
		expect(after.results.good).toBe(0);
		// First read (2), the read that noticed the restart (2 + 2 for one detection).
		expect(sim.requests).toHaveLength(6);
		await reader.read();
		expect(sim.requests).toHaveLength(8);
	});

	it('keeps the dialect while the API is away, and reads on when it is back', async () => {
		const sim = await simulate({dialect: '2', warm: true});
		const reader = readerFor(sim);
		await reader.read();
		await sim.stop();
		const error = await failure(reader.read());
		expect(error.kind).toBe('unreachable');
		expect(error.message).toBe('connection refused');
		expect(reader.dialect?.name).toBe('v1');
		await sim.start();
		const count = sim.requests.length;
		expect((await reader.read()).dialect).toBe('v1');
		expect(sim.requests.length - count).toBe(2);
	});

	it('sees the pool go away and come back', async () => {
		const sim = await simulate({dialect: '6', warm: true});
		const reader = readerFor(sim);
		sim.dropPool();
		expect((await reader.read()).connection.connected).toBe(false);
		sim.restorePool();
		expect((await reader.read()).connection.connected).toBe(true);
	});

	it.each(['6', '2.14'] as const)('round-trips the config document on dialect %s', async (dialect) => {
		const sim = await simulate({dialect, token: 'sim-token', restricted: false});
		const client = new MinerClient({url: sim.url, token: 'sim-token'});
		clients.push(client);
		const text = await client.getText('/1/config');
		expect(text).toBe(sim.configText());
		await client.putJsonText('/1/config', text);
		const put = sim.requests.find((request) => request.method === 'PUT')!;
		expect(put.body).toBe(text);
		expect(put.status).toBe(dialect === '6' ? 204 : 200);
	});

	it('reports a PUT of broken JSON as bad-request with the miner message', async () => {
		const sim = await simulate({dialect: '6', token: 'sim-token', restricted: false});
		const client = new MinerClient({url: sim.url, token: 'sim-token'});
		clients.push(client);
		const error = await failure(client.putJsonText('/1/config', '{,}'));
		expect(error.kind).toBe('bad-request');
		expect(error.detail).toMatch(/\S/u);
		expect(error.oneLine()).not.toContain('sim-token');
	});
});
