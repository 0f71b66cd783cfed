/** stop()/start(), the request log, connection handling, and the cli argument parser. */
import net from 'node:net';
import {afterEach, describe, expect, it} from 'vitest';
import {parseSimArgs} from '../../source/sim/cli-args.js';
import {startSimulator, type SimOptions, type Simulator} from '../../source/sim/simulator.js';
import {manualClock, parseCapture, rawRequest} from './helpers.js';
import {refused} from '../helpers/raw-server.js';

const started: Simulator[] = [];

afterEach(async () => {
	await Promise.all(started.splice(0).map((sim) => sim.stop()));
});

async function sim(options: SimOptions = {}): Promise<Simulator> {
	const server = await startSimulator({seed: 3, ...options});
	started.push(server);
	return server;
}

describe('stop() and start()', () => {
	it('stops answering, then listens again on the same port with the miner state kept', async () => {
		const clock = manualClock();
		const server = await sim({clock: clock.clock, warm: true});
		const port = server.port;
		expect(server.url).toBe(`http://127.0.0.1:${port}`);
		const before = (await (await fetch(`${server.url}/1/summary`)).json()) as {uptime: number; results: {shares_good: number}};
		await server.stop();
		expect(server.listening).toBe(false);
		expect(await refused(port)).toBe(true);
		clock.advance(60);
		await server.start();
		expect(server.port).toBe(port);
		const after = (await (await fetch(`${server.url}/1/summary`)).json()) as {uptime: number; results: {shares_good: number}};
		expect(after.uptime).toBe(before.uptime + 60);
		expect(after.results.shares_good).toBeGreaterThanOrEqual(before.results.shares_good);
	});

	it('destroys connections that are still open', async () => {
		const server = await sim();
		const socket = net.connect({host: '127.0.0.1', port: server.port});
		await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
		socket.on('error', () => undefined);
		socket.write('GET /1/summary HTTP/1.1\r\n'); // half a request
		const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
		await server.stop();
		await closed;
	});

	it('binds the given port, and fails to start when it is taken', async () => {
		const first = await sim();
		await expect(startSimulator({port: first.port})).rejects.toThrow(/EADDRINUSE/);
		await first.stop();
		const second = await sim({port: first.port});
		expect(second.port).toBe(first.port);
	});
});

describe('connections', () => {
	it('answers one request per connection and closes it (Connection: close)', async () => {
		const server = await sim();
		const socket = net.connect({host: '127.0.0.1', port: server.port});
		const chunks: Buffer[] = [];
		socket.on('data', (chunk: Buffer) => chunks.push(chunk));
		await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
		socket.on('error', () => undefined);
		// A keep-alive request: the server still closes the connection after its one answer.
		socket.write('GET /1/summary HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
		await new Promise<void>((resolve) => socket.on('close', () => resolve()));
		const text = Buffer.concat(chunks).toString('utf8');
		expect(text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(1);
		expect(parseCapture(text).headers).toContainEqual(['Connection', 'close']);
	});

	it('reads chunked request bodies', async () => {
		const server = await sim({token: 't', restricted: false});
		const socket = net.connect({host: '127.0.0.1', port: server.port});
		const chunks: Buffer[] = [];
		socket.on('data', (chunk: Buffer) => chunks.push(chunk));
		await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
		socket.on('error', () => undefined);
		const body = '{"method":"pause","id":9}';
		socket.write(
			`POST /json_rpc HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
				`${(10).toString(16)}\r\n${body.slice(0, 10)}\r\n${(body.length - 10).toString(16)}\r\n${body.slice(10)}\r\n0\r\n\r\n`,
		);
		await new Promise<void>((resolve) => socket.on('close', () => resolve()));
		expect(JSON.parse(parseCapture(Buffer.concat(chunks).toString('utf8')).body)).toEqual({result: {status: 'OK'}, jsonrpc: '2.0', id: 9});
	});

	it('drops a request it cannot parse without answering', async () => {
		const server = await sim();
		expect(await rawRequest(server.port, {method: 'GET', path: '/1/summary', headers: {'Bad Header': 'x'}})).toBe('');
	});
});

describe('the request log', () => {
	it('records method, raw path, headers, body and status of every request', async () => {
		const server = await sim({token: 'tok'});
		await fetch(`${server.url}/1/summary?x=1`, {headers: {Authorization: 'Bearer tok'}});
		await fetch(`${server.url}/json_rpc`, {
			method: 'POST',
			headers: {Authorization: 'Bearer tok', 'Content-Type': 'application/json'},
			body: '{"method":"pause"}',
		});
		expect(server.requests).toHaveLength(2);
		expect(server.requests[0]).toMatchObject({method: 'GET', path: '/1/summary?x=1', body: '', status: 404});
		expect(server.requests[0]!.headers['authorization']).toBe('Bearer tok');
		expect(server.requests[1]).toMatchObject({method: 'POST', path: '/json_rpc', body: '{"method":"pause"}', status: 403});
	});

	it('keeps only the last 1000', async () => {
		const server = await sim();
		for (let batch = 0; batch < 21; batch++) {
			await Promise.all(Array.from({length: 50}, (_, i) => rawRequest(server.port, {method: 'OPTIONS', path: `/${batch * 50 + i}`})));
		}
		expect(server.requests).toHaveLength(1000);
		const paths = new Set(server.requests.map((r) => r.path));
		expect(paths.size).toBe(1000);
	});
});

describe('xmrig-sim command line', () => {
	it('takes the option forms XMRig accepts', () => {
		const parsed = parseSimArgs([
			'-c',
			'a.json',
			'--http-port=0',
			'--http-access-token',
			'tok',
			'--http-no-restricted',
			'--sim-dialect',
			'5',
			'--sim-warm',
			'-t4',
			'--donate-level',
			'1',
		]);
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		expect(parsed.options).toMatchObject({
			configPath: 'a.json',
			httpPort: 0,
			httpToken: 'tok',
			httpNoRestricted: true,
			httpOption: true,
			dialect: '5',
			warm: true,
			threads: 4,
		});
		expect(parsed.options.warnings).toEqual(["unrecognized option '--donate-level'", "unrecognized option '1'"]);
		expect(parseSimArgs(['--config=b.json', '-cc.json']).ok && parseSimArgs(['-cc.json']).ok).toBe(true);
		const short = parseSimArgs(['-cc.json']);
		expect(short.ok && short.options.configPath).toBe('c.json');
		const legacy = parseSimArgs(['--api-port', '8080', '--api-access-token', 'x']);
		expect(legacy.ok && legacy.options).toMatchObject({apiPort: 8080, apiToken: 'x', httpOption: false});
	});

	it('refuses malformed values', () => {
		expect(parseSimArgs(['--http-port', '70000'])).toEqual({ok: false, error: "invalid --http-port '70000'"});
		expect(parseSimArgs(['--sim-dialect', '3'])).toMatchObject({ok: false});
		expect(parseSimArgs(['-c'])).toMatchObject({ok: false});
		expect(parseSimArgs(['--threads', '0'])).toMatchObject({ok: false});
		expect(parseSimArgs(['--sim-mac', '02:00:00:00:0a'])).toMatchObject({ok: false, error: expect.stringContaining('--sim-mac')});
	});

	it("takes the machine's MAC with --sim-mac", () => {
		const parsed = parseSimArgs(['--sim-mac', '02:00:00:00:00:0A']);
		expect(parsed.ok && parsed.options.mac).toBe('02:00:00:00:00:0A');
	});
});
