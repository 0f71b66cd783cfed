/**
 * Routing, pipeline order and answer formats per dialect, over real HTTP: what the captures do not cover
 * (the 5.x dialect, the 2.14 libmicrohttpd dialect, exact-string routing edge cases).
 */
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator, type SimOptions, type Simulator} from '../../source/sim/simulator.js';
import {fixture, keyPaths, manualClock, parseCapture, rawRequest} from './helpers.js';

const started: Simulator[] = [];

afterEach(async () => {
	await Promise.all(started.splice(0).map((sim) => sim.stop()));
});

async function sim(options: SimOptions = {}): Promise<Simulator> {
	const server = await startSimulator({clock: manualClock().clock, seed: 7, ...options});
	started.push(server);
	return server;
}

async function get(server: Simulator, path: string, headers: Record<string, string> = {}): Promise<Response> {
	return fetch(`${server.url}${path}`, {headers});
}

describe("dialect '6' (6.23+)", () => {
	it('answers 404 NOT_FOUND for /1/threads and for anything but the exact path', async () => {
		const server = await sim();
		for (const path of ['/1/threads', '/1/summary?x=1', '/1/summary/', '/1/Summary', '//1/summary', '/']) {
			const response = await get(server, path);
			expect(response.status, path).toBe(404);
			expect(await response.json()).toEqual({status: 404, error: 'NOT_FOUND'});
		}
		for (const path of ['/1/summary', '/2/summary', '/api.json', '/2/backends', '/2/dmi'])
			expect((await get(server, path)).status, path).toBe(200);
	});

	it('answers the favicon with a bare 404 (no CORS, no body)', async () => {
		const server = await sim({token: 'secret'});
		const raw = await rawRequest(server.port, {method: 'GET', path: '/favicon.ico'});
		expect(raw).toBe(fixture('v6.26/get_favicon.txt'));
	});

	it('checks the method before auth: PATCH without a token is 405, not 401', async () => {
		const server = await sim({token: 'secret', restricted: false});
		const raw = await rawRequest(server.port, {method: 'PATCH', path: '/1/config'});
		expect(parseCapture(raw).status).toBe(405);
		expect(JSON.parse(parseCapture(raw).body)).toEqual({status: 405, error: 'METHOD_NOT_ALLOWED'});
	});

	it('closes the connection without an answer for a method llhttp does not know', async () => {
		const server = await sim();
		expect(await rawRequest(server.port, {method: 'FROB', path: '/1/summary'})).toBe('');
		expect(await rawRequest(server.port, {method: 'get', path: '/1/summary'})).toBe('');
		expect(server.requests.at(-1)?.status).toBe(0);
	});

	it('needs Content-Type exactly application/json on every non-GET once unrestricted', async () => {
		const server = await sim({token: 'secret', restricted: false});
		const auth = {Authorization: 'Bearer secret'};
		const statusOf = async (method: string, contentType: string | null): Promise<number> =>
			parseCapture(
				await rawRequest(server.port, {
					method,
					path: '/1/config',
					headers: contentType === null ? auth : {...auth, 'Content-Type': contentType},
					body: '{}',
				}),
			).status;
		expect(await statusOf('PUT', null)).toBe(415);
		expect(await statusOf('PUT', 'application/json; charset=utf-8')).toBe(415);
		expect(await statusOf('PUT', 'Application/JSON')).toBe(415);
		expect(await statusOf('PUT', 'text/plain')).toBe(415);
		expect(await statusOf('POST', 'application/json')).toBe(400);
		expect(await statusOf('DELETE', 'application/json')).toBe(404);
		expect(await statusOf('HEAD', 'application/json')).toBe(404);
	});

	it('accepts the token only as the exact "Bearer <token>" header', async () => {
		const server = await sim({token: 'sécret'});
		const statusWith = async (value: string | null): Promise<number> =>
			(await get(server, '/1/summary', value === null ? {} : {Authorization: value})).status;
		expect(await statusWith(null)).toBe(401);
		expect(await statusWith('Bearer s\u00c3\u00a9cret')).toBe(200); // the UTF-8 bytes of the token, as sent on the wire
		expect(await statusWith('Bearer sécre')).toBe(403);
		expect(await statusWith('bearer sécret')).toBe(403);
		expect(await statusWith('Bearer  sécret')).toBe(403);
		expect(await statusWith('Token sécret')).toBe(403);
	});
});

describe("dialect '5' (5.x, 6.0–6.22)", () => {
	it('speaks title-case reasons and error text', async () => {
		const server = await sim({dialect: '5', token: 'secret'});
		const raw = await rawRequest(server.port, {method: 'GET', path: '/1/summary'});
		expect(raw.startsWith('HTTP/1.1 401 Unauthorized\r\n')).toBe(true);
		expect(JSON.parse(parseCapture(raw).body)).toEqual({status: 401, error: 'Unauthorized'});
		const notFound = await get(server, '/1/threads', {Authorization: 'Bearer secret'});
		expect(notFound.status).toBe(404);
		expect(await notFound.json()).toEqual({status: 404, error: 'Not Found'});
	});

	it('serves the 5.11 summary shape (no ms fields, no x86 details) and /2/dmi only from 6.8.0', async () => {
		const old = await sim({dialect: '5'});
		const summary = (await (await get(old, '/2/summary')).json()) as {
			version: string;
			results: object;
			cpu: object;
			hashrate: {total: unknown[]};
		};
		expect(summary.version).toBe('5.11.4');
		expect(summary.results).not.toHaveProperty('avg_time_ms');
		expect(summary.cpu).not.toHaveProperty('family');
		expect(summary.cpu).toHaveProperty('msr');
		expect(summary.hashrate.total).toEqual([null, null, null]);
		expect((await get(old, '/2/dmi')).status).toBe(404);
		const newer = await sim({dialect: '5', version: '6.20.0'});
		expect((await get(newer, '/2/dmi')).status).toBe(200);
		const later = (await (await get(newer, '/1/summary')).json()) as {cpu: object; results: object};
		expect(later.cpu).toHaveProperty('arch', 'x86_64');
		expect(later.results).toHaveProperty('avg_time_ms');
	});
});

describe("dialect '2' (2.15.1–2.16)", () => {
	it('has no /2/* and no /json_rpc, but serves /1/threads', async () => {
		const server = await sim({dialect: '2', threads: 1, token: 'secret', restricted: false});
		const auth = {Authorization: 'Bearer secret'};
		for (const path of ['/2/summary', '/2/backends', '/2/config', '/2/dmi']) expect((await get(server, path, auth)).status, path).toBe(404);
		const rpc = await fetch(`${server.url}/json_rpc`, {
			method: 'POST',
			headers: {...auth, 'Content-Type': 'application/json'},
			body: '{"method":"pause"}',
		});
		expect(rpc.status).toBe(404);
		expect(await rpc.json()).toEqual({status: 404, error: 'Not Found'});
		const threads = await rawRequest(server.port, {method: 'GET', path: '/1/threads', headers: auth});
		const capture = parseCapture(fixture('v2.16/get_1_threads.txt'));
		// Same document as the real 2.16 (one thread, no job yet), except that the simulated rig got its huge page.
		const expected = capture.body.replace('"hugepages": [\n        0,\n        0\n    ]', '"hugepages": [\n        1,\n        1\n    ]');
		expect(expected).not.toBe(capture.body);
		expect(parseCapture(threads).body).toBe(expected);
	});
});

describe("dialect '2.14' (libmicrohttpd)", () => {
	const config = (): string => fixture('v2.14-configs/config_main_as_autosaved_on_start.json');

	it('reads the older api section of a real 2.14 config file', async () => {
		const server = await sim({dialect: '2.14', configText: config(), port: 0, threads: 1});
		// token "testtoken", restricted false in that file
		expect((await get(server, '/1/summary')).status).toBe(401);
		const ok = await get(server, '/1/summary', {Authorization: 'Bearer testtoken'});
		expect(ok.status).toBe(200);
		const summary = (await ok.json()) as Record<string, unknown>;
		expect(keyPaths(summary)).toEqual([
			'id',
			'worker_id',
			'version',
			'kind',
			'ua',
			'cpu',
			'cpu.brand',
			'cpu.aes',
			'cpu.x64',
			'cpu.sockets',
			'algo',
			'hugepages',
			'donate_level',
			'hashrate',
			'hashrate.total',
			'hashrate.total[]',
			'hashrate.highest',
			'hashrate.threads',
			'hashrate.threads[]',
			'hashrate.threads[][]',
			'results',
			'results.diff_current',
			'results.shares_good',
			'results.shares_total',
			'results.avg_time',
			'results.hashes_total',
			'results.best',
			'results.best[]',
			'results.error_log',
			'results.error_log[]',
			'connection',
			'connection.pool',
			'connection.uptime',
			'connection.ping',
			'connection.failures',
			'connection.error_log',
			'connection.error_log[]',
		]);
		expect(summary['worker_id']).toBe('realpeer-v2.14');
		expect(summary['version']).toBe('2.14.4');
		expect((await get(server, '/1/config', {Authorization: 'Bearer testtoken'})).status).toBe(200);
		expect(await (await get(server, '/1/config', {Authorization: 'Bearer testtoken'})).text()).toBe(config());
	});

	it('answers errors with empty bodies and its own headers', async () => {
		const server = await sim({dialect: '2.14', token: 'secret'});
		const raw = await rawRequest(server.port, {method: 'GET', path: '/1/summary', headers: {Authorization: 'Bearer nope'}});
		expect(raw).toBe(
			'HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: GET, PUT\r\n' +
				'Access-Control-Allow-Headers: Authorization, Content-Type\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
		);
		expect(parseCapture(await rawRequest(server.port, {method: 'GET', path: '/1/summary'})).status).toBe(401);
	});

	it('ignores an Authorization header when no token is set, and is then always restricted', async () => {
		const server = await sim({dialect: '2.14', token: null, restricted: false});
		expect((await get(server, '/1/summary', {Authorization: 'Bearer anything'})).status).toBe(200);
		expect((await get(server, '/1/config')).status).toBe(403);
		const put = await rawRequest(server.port, {
			method: 'PUT',
			path: '/1/config',
			headers: {'Content-Type': 'application/json'},
			body: '{}',
		});
		expect(parseCapture(put).status).toBe(403);
	});

	it('answers the summary for every other GET path, query strings included', async () => {
		const server = await sim({dialect: '2.14'});
		for (const path of ['/', '/anything', '/2/summary', '/favicon.ico', '/1/summary?x=1']) {
			const response = await get(server, path);
			expect(response.status, path).toBe(200);
			expect(((await response.json()) as {kind: string}).kind, path).toBe('cpu');
		}
		const threads = (await (await get(server, '/1/threads?x')).json()) as {threads: unknown[]};
		expect(threads.threads).toHaveLength(4);
	});

	it('allows only GET, PUT and OPTIONS, and caps a PUT body at 32 KiB', async () => {
		const server = await sim({dialect: '2.14', token: 'secret', restricted: false});
		const auth = {Authorization: 'Bearer secret'};
		for (const method of ['POST', 'DELETE', 'PATCH', 'HEAD']) {
			expect(parseCapture(await rawRequest(server.port, {method, path: '/1/config', headers: auth})).status, method).toBe(405);
		}
		const options = parseCapture(await rawRequest(server.port, {method: 'OPTIONS', path: '/1/summary'}));
		expect(options.status).toBe(200);
		expect(options.headers).toContainEqual(['Access-Control-Allow-Methods', 'GET, PUT']);
		const json = {...auth, 'Content-Type': 'application/json'};
		expect(parseCapture(await rawRequest(server.port, {method: 'PUT', path: '/1/config', headers: auth, body: '{}'})).status).toBe(415);
		const big = `{"pad": "${'x'.repeat(33_000)}"}`;
		expect(parseCapture(await rawRequest(server.port, {method: 'PUT', path: '/1/config', headers: json, body: big})).status).toBe(413);
		expect(parseCapture(await rawRequest(server.port, {method: 'PUT', path: '/1/summary', headers: json, body: '{}'})).status).toBe(404);
	});

	it('answers PUT /1/config with 200 and an empty body, taken or not', async () => {
		const server = await sim({dialect: '2.14', token: 'secret', restricted: false, applyDelayMs: 10});
		const json = {Authorization: 'Bearer secret', 'Content-Type': 'application/json'};
		const before = server.configText();
		for (const body of ['{bad', '{}', '[]']) {
			const answer = parseCapture(await rawRequest(server.port, {method: 'PUT', path: '/1/config', headers: json, body}));
			expect(answer.status, body).toBe(200);
			expect(answer.body).toBe('');
		}
		expect(server.configText()).toBe(before);
		expect(server.fileText()).toBe(before);
		const changed = before.replace('"donate-level": 1', '"donate-level": 3');
		expect(parseCapture(await rawRequest(server.port, {method: 'PUT', path: '/1/config', headers: json, body: changed})).status).toBe(200);
		expect(server.fileText()).toBe(changed);
	});

	it('reports null for windows that have not filled, never 0', async () => {
		const server = await sim({dialect: '2.14'});
		const summary = (await (await get(server, '/1/summary')).json()) as {hashrate: {total: unknown[]; highest: unknown}};
		expect(summary.hashrate.total).toEqual([null, null, null]);
		expect(summary.hashrate.highest).toBeNull();
	});
});
