/** POST /json_rpc: envelopes, what pause/resume/stop do to the rig, and the optional doubled answer. */
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator, type SimOptions, type Simulator} from '../../source/sim/simulator.js';
import {manualClock, parseCapture, rawRequest} from './helpers.js';

const started: Simulator[] = [];

afterEach(async () => {
	await Promise.all(started.splice(0).map((sim) => sim.stop()));
});

const AUTH = {Authorization: 'Bearer rpc'};

async function sim(options: SimOptions = {}): Promise<Simulator> {
	const server = await startSimulator({token: 'rpc', restricted: false, seed: 5, ...options});
	started.push(server);
	return server;
}

async function rpc(server: Simulator, body: string): Promise<unknown> {
	const response = await fetch(`${server.url}/json_rpc`, {method: 'POST', headers: {...AUTH, 'Content-Type': 'application/json'}, body});
	expect(response.status).toBe(200);
	return response.json();
}

async function summary(
	server: Simulator,
): Promise<{paused: boolean; hashrate: {total: (number | null)[]}; results: {shares_total: number}}> {
	return (await (await fetch(`${server.url}/2/summary`, {headers: AUTH})).json()) as never;
}

describe('JSON-RPC envelopes', () => {
	it('echoes any id and answers errors inside HTTP 200', async () => {
		const server = await sim();
		expect(await rpc(server, '{"id": "x-1", "method": "pause"}')).toEqual({result: {status: 'OK'}, jsonrpc: '2.0', id: 'x-1'});
		expect(await rpc(server, '{"id": {"n": [1]}, "method": "resume"}')).toEqual({result: {status: 'OK'}, jsonrpc: '2.0', id: {n: [1]}});
		expect(await rpc(server, '{"method": "start"}')).toEqual({
			error: {code: -32601, message: 'Method not found'},
			jsonrpc: '2.0',
			id: null,
		});
		expect(await rpc(server, '{"id": 3, "method": ""}')).toEqual({
			error: {code: -32600, message: 'Invalid Request'},
			jsonrpc: '2.0',
			id: 3,
		});
		expect(await rpc(server, '{"id": 3, "method": 42}')).toEqual({
			error: {code: -32600, message: 'Invalid Request'},
			jsonrpc: '2.0',
			id: 3,
		});
		expect(await rpc(server, '[1]')).toEqual({error: {code: -32600, message: 'Invalid Request'}, jsonrpc: '2.0', id: null});
		expect(await rpc(server, '{"id": 3, "method": ')).toEqual({error: {code: -32700, message: 'Parse error'}, jsonrpc: '2.0', id: null});
	});

	it('writes a fractional id back as a double', async () => {
		const server = await sim();
		const raw = await rawRequest(server.port, {
			method: 'POST',
			path: '/json_rpc',
			headers: {...AUTH, 'Content-Type': 'application/json'},
			body: '{"id": 2.0, "method": "pause"}',
		});
		expect(parseCapture(raw).body).toContain('"id": 2.0');
	});

	it('is a plain HTTP 403 while restricted, not an envelope', async () => {
		const server = await sim({restricted: true});
		const response = await fetch(`${server.url}/json_rpc`, {
			method: 'POST',
			headers: {...AUTH, 'Content-Type': 'application/json'},
			body: '{"method":"pause"}',
		});
		expect(response.status).toBe(403);
		expect(await response.json()).toEqual({status: 403, error: 'FORBIDDEN'});
	});

	it('can send each answer twice on the socket, as XMRig 5.5.1+ is thought to', async () => {
		const server = await sim({duplicateRpcAnswers: true});
		const raw = await rawRequest(server.port, {
			method: 'POST',
			path: '/json_rpc',
			headers: {...AUTH, 'Content-Type': 'application/json'},
			body: '{"method":"resume"}',
		});
		const first = parseCapture(raw);
		const length = Number(first.headers.find(([name]) => name === 'Content-Length')?.[1]);
		const single = first.head + first.body.slice(0, length);
		expect(JSON.parse(first.body.slice(0, length))).toEqual({result: {status: 'OK'}, jsonrpc: '2.0', id: null});
		expect(raw).toBe(single + single);
		// A client that stops at Content-Length still gets one good answer.
		const response = await fetch(`${server.url}/json_rpc`, {
			method: 'POST',
			headers: {...AUTH, 'Content-Type': 'application/json'},
			body: '{"method":"pause","id":1}',
		});
		expect(await response.json()).toEqual({result: {status: 'OK'}, jsonrpc: '2.0', id: 1});
	});
});

describe('what the methods do', () => {
	it("pause: summary says paused, windows fall to 0.0 ('6'), shares stop; resume brings it back", async () => {
		const clock = manualClock();
		const server = await sim({clock: clock.clock, warm: true});
		expect((await summary(server)).paused).toBe(false);
		await rpc(server, '{"method":"pause"}');
		const paused = await summary(server);
		expect(paused.paused).toBe(true);
		clock.advance(12);
		const later = await summary(server);
		expect(later.hashrate.total[0]).toBe(0);
		clock.advance(600);
		expect((await summary(server)).results.shares_total).toBe(paused.results.shares_total);
		await rpc(server, '{"method":"resume"}');
		clock.advance(12);
		const resumed = await summary(server);
		expect(resumed.paused).toBe(false);
		expect(resumed.hashrate.total[0]).toBeGreaterThan(0);
	});

	it("pause on '5': a window with no progress reads null", async () => {
		const clock = manualClock();
		const server = await sim({dialect: '5', clock: clock.clock, warm: true});
		await rpc(server, '{"method":"pause"}');
		clock.advance(12);
		const total = (await summary(server)).hashrate.total;
		expect(total[0]).toBeNull();
		expect(total[2]).toBeGreaterThan(0);
	});

	it('stop: the CPU threads stop until the next job from the pool', async () => {
		const clock = manualClock();
		const server = await sim({clock: clock.clock, warm: true});
		await rpc(server, '{"method":"stop"}');
		const backends = (await (await fetch(`${server.url}/2/backends`, {headers: AUTH})).json()) as [Record<string, unknown>];
		expect(backends[0]).not.toHaveProperty('threads');
		expect((await summary(server)).hashrate.total).toEqual([0, 0, 0]);
		clock.advance(1800);
		const again = (await (await fetch(`${server.url}/2/backends`, {headers: AUTH})).json()) as [{threads?: unknown[]}];
		expect(again[0].threads).toHaveLength(4);
	});
});
