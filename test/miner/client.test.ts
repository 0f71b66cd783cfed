import {getEventListeners} from 'node:events';
import {inspect} from 'node:util';
import {afterEach, describe, expect, it} from 'vitest';
import {isAbortError, MinerClient, type ClientOptions} from '../../source/miner/client.js';
import {MinerError} from '../../source/miner/errors.js';
import {TargetError} from '../../source/miner/target.js';
import {readCapture} from '../helpers/captures.js';
import {answer, freePort, httpAnswer, startRawServer, type RawHandler, type RawServer} from '../helpers/raw-server.js';

const token = 'T0k3n-s3cr3t-value';
const servers: RawServer[] = [];
const clients: MinerClient[] = [];

afterEach(async () => {
	await Promise.all(clients.splice(0).map(async (client) => client.close()));
	await Promise.all(servers.splice(0).map(async (server) => server.close()));
});

async function serve(handler: RawHandler): Promise<RawServer> {
	const server = await startRawServer(handler);
	servers.push(server);
	return server;
}

/** A server answering every request with the same raw bytes. */
async function serveRaw(raw: string): Promise<RawServer> {
	return serve((_request, socket) => {
		answer(socket, raw);
	});
}

function clientFor(server: {url: string}, tokenValue: string | null = null, options: ClientOptions = {}): MinerClient {
	const client = new MinerClient({url: server.url, token: tokenValue}, options);
	clients.push(client);
	return client;
}

async function failure(promise: Promise<unknown>): Promise<MinerError> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(MinerError);
		return error as MinerError;
	}

	throw new Error('expected the request to fail');
}

function expectNoToken(error: unknown): void {
	const minerError = error as MinerError;
	for (const text of [
		minerError.message,
		minerError.detail ?? '',
		minerError.hint,
		minerError.oneLine(),
		String(error),
		inspect(error, {depth: 8}),
	]) {
		expect(text).not.toContain(token);
	}
}

describe('MinerClient requests', () => {
	it('GETs the exact path and parses the JSON of a real 6.26 summary', async () => {
		const capture = readCapture('v6.26/get_2_summary.txt');
		const server = await serveRaw(capture.raw);
		const client = clientFor(server);
		const value = await client.getJson('/2/summary');
		expect(value).toEqual(JSON.parse(capture.body));
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]).toMatchObject({method: 'GET', target: '/2/summary'});
	});

	it('sends Authorization only when a token is set', async () => {
		const server = await serveRaw(readCapture('v6.26/get_2_summary.txt').raw);
		const client = clientFor(server);
		await client.getJson('/2/summary');
		expect(server.requests[0]!.headers).not.toHaveProperty('authorization');
		client.setToken(token);
		await client.getJson('/2/summary');
		expect(server.requests[1]!.headers['authorization']).toBe(`Bearer ${token}`);
		expect(server.requests[1]!.rawHeaders.filter((line) => /^authorization:/iu.test(line))).toEqual([`authorization: Bearer ${token}`]);
		client.setToken('');
		await client.getJson('/2/summary');
		expect(server.requests[2]!.headers).not.toHaveProperty('authorization');
		client.setToken(token);
		client.setToken(null);
		await client.getJson('/2/summary');
		expect(server.requests[3]!.headers).not.toHaveProperty('authorization');
	});

	it('sends the token given at construction', async () => {
		const server = await serveRaw(readCapture('v6.26/get_2_summary.txt').raw);
		await clientFor(server, token).getJson('/2/summary');
		expect(server.requests[0]!.headers['authorization']).toBe(`Bearer ${token}`);
	});

	it('refuses a token that cannot go in a header, without echoing it', () => {
		const bad = `${token}\r\nX-Evil: 1`;
		expect(() => new MinerClient({url: 'http://127.0.0.1:1', token: bad})).toThrow(TargetError);
		const client = new MinerClient({url: 'http://127.0.0.1:1', token: null});
		try {
			client.setToken(bad);
			expect.unreachable();
		} catch (error) {
			expect(error).toBeInstanceOf(TargetError);
			expect((error as Error).message).not.toContain(token);
		}
	});

	it('normalizes the base URL and never adds a query string', async () => {
		const server = await serveRaw(readCapture('v6.26/get_2_summary.txt').raw);
		const client = clientFor({url: `${server.url}/`});
		expect(client.url).toBe(server.url);
		await client.getJson('/2/summary');
		await client.getText('/1/config');
		expect(server.requests.map((request) => request.target)).toEqual(['/2/summary', '/1/config']);
		await expect(client.getJson('/1/summary?x=1')).rejects.toThrow(TypeError);
		await expect(client.getJson('1/summary')).rejects.toThrow(TypeError);
		expect(server.requests).toHaveLength(2);
	});

	it('getText returns the config document byte for byte', async () => {
		const capture = readCapture('v6.26/get_1_config.txt');
		const server = await serveRaw(capture.raw);
		expect(await clientFor(server).getText('/1/config')).toBe(capture.body);
	});

	it('survives many requests in a row on the shared agent', async () => {
		const server = await serveRaw(readCapture('v6.26/get_2_backends.txt').raw);
		const client = clientFor(server);
		for (let i = 0; i < 40; i++) {
			expect(Array.isArray(await client.getJson('/2/backends'))).toBe(true);
		}

		expect(server.requests).toHaveLength(40);
	});
});

describe('MinerClient status mapping (real answers)', () => {
	it.each([
		['v6.26/get_1_summary_notoken.txt', 'unauthorized', 401],
		['v2.16/get_1_summary_notoken.txt', 'unauthorized', 401],
		['v6.26/notoken-unrestricted/get_2_summary_goodtoken.txt', 'unauthorized', 401],
		['v6.26/get_1_summary_badtoken.txt', 'forbidden', 403],
		['v2.16/get_1_summary_badtoken.txt', 'forbidden', 403],
		['v6.26/get_1_summary_query_string.txt', 'not-found', 404],
		['v2.16/get_2_summary.txt', 'not-found', 404],
		['v6.26/patch_1_config.txt', 'method-not-allowed', 405],
		['v6.26/put_1_config_no_content_type.txt', 'unsupported-media-type', 415],
		['v6.26/put_1_config_empty_object.txt', 'bad-request', 400],
	] as const)('%s → %s', async (file, kind, status) => {
		const server = await serveRaw(readCapture(file).raw);
		const error = await failure(clientFor(server, token).getJson('/2/summary'));
		expect(error.kind).toBe(kind);
		expect(error.status).toBe(status);
		expectNoToken(error);
	});

	it('keeps the miner message of a 400 as the detail', async () => {
		const server = await serveRaw(readCapture('v6.26/put_1_config_badjson.txt').raw);
		const error = await failure(clientFor(server, token).putJsonText('/1/config', '{,}'));
		expect(error.kind).toBe('bad-request');
		expect(error.detail).toBe('Missing a name for object member.');
		expect(error.oneLine()).toContain('Missing a name for object member.');
	});

	it('has no detail for a 2.x empty error body', async () => {
		const server = await serveRaw(httpAnswer(400, '', 'Bad Request', ['Content-Type: application/json']));
		const error = await failure(clientFor(server).putJsonText('/1/config', '{}'));
		expect(error.kind).toBe('bad-request');
		expect(error.detail).toBeNull();
	});

	it('strips control characters, cuts, and masks the token in a 400 detail', async () => {
		const text = `bad \u001B[2J token ${token} ${'x'.repeat(400)}`;
		const server = await serveRaw(httpAnswer(400, JSON.stringify({status: 400, error: text}), 'BAD_REQUEST'));
		const error = await failure(clientFor(server, token).putJsonText('/1/config', '{}'));
		expect(error.detail).not.toContain('\u001B');
		expect(error.detail!.length).toBeLessThanOrEqual(200);
		expect(error.detail).toContain('token ***');
		expectNoToken(error);
	});

	it.each([
		[500, 'Internal Server Error', 'server-error'],
		[503, 'Service Unavailable', 'server-error'],
		[302, 'Found', 'server-error'],
		[413, 'Payload Too Large', 'too-large'],
	] as const)('maps HTTP %i to %s', async (status, reason, kind) => {
		const server = await serveRaw(httpAnswer(status, '', reason, ['Location: /elsewhere']));
		const error = await failure(clientFor(server).getJson('/2/summary'));
		expect(error.kind).toBe(kind);
		expect(error.status).toBe(status);
	});
});

describe('MinerClient bodies', () => {
	it.each([
		['HTML', httpAnswer(200, '<html><body>It works!</body></html>'), /is an HTML page, not XMRig's API/u],
		['plain text', httpAnswer(200, 'It works!'), /not JSON/u],
		['a truncated document', httpAnswer(200, '{"hashrate": {"total": [81'), /cut short/u],
		['NaN', httpAnswer(200, '{"hashrate": {"total": [NaN, 0, 0]}}'), /cut short|not valid/u],
		['deep nesting', httpAnswer(200, '['.repeat(100_000) + ']'.repeat(100_000)), /nested too deeply/u],
		['an empty body', httpAnswer(200, ''), /empty/u],
	])('2xx with %s → bad-payload', async (_name, raw, message) => {
		const server = await serveRaw(raw);
		const error = await failure(clientFor(server).getJson('/2/summary'));
		expect(error.kind).toBe('bad-payload');
		expect(error.message).toMatch(message);
	});

	it('refuses a body announced larger than the cap without reading it', async () => {
		const server = await serve((_request, socket) => {
			socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n[');
		});
		const started = Date.now();
		const error = await failure(clientFor(server).getJson('/2/summary'));
		expect(error.kind).toBe('too-large');
		expect(Date.now() - started).toBeLessThan(2000);
	});

	it('stops reading a chunked body past the cap', async () => {
		const server = await serve((_request, socket) => {
			socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
			const chunk = 'x'.repeat(16 * 1024);
			const timer = setInterval(() => {
				if (socket.destroyed || !socket.writable) {
					clearInterval(timer);
					return;
				}

				socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
			}, 1);
			socket.on('close', () => clearInterval(timer));
		});
		const error = await failure(clientFor(server, null, {maxBodyBytes: 64 * 1024}).getJson('/2/summary'));
		expect(error.kind).toBe('too-large');
	});

	it('accepts a body of exactly the cap', async () => {
		const body = `"${'a'.repeat(998)}"`;
		const server = await serveRaw(httpAnswer(200, body));
		expect(await clientFor(server, null, {maxBodyBytes: 1000}).getJson('/x')).toHaveLength(998);
	});
});

describe('MinerClient network failures', () => {
	it('maps a refused connection to unreachable "connection refused"', async () => {
		const client = clientFor({url: `http://127.0.0.1:${await freePort()}`}, token);
		const error = await failure(client.getJson('/2/summary'));
		expect(error.kind).toBe('unreachable');
		expect(error.message).toBe('connection refused');
		expect(error.transient).toBe(true);
		expectNoToken(error);
	});

	it('maps a connection closed before an answer to unreachable', async () => {
		const server = await serve((_request, socket) => {
			socket.end();
		});
		const error = await failure(clientFor(server).getJson('/2/summary'));
		expect(error.kind).toBe('unreachable');
		expect(error.message).toMatch(/closed/u);
	});

	it('maps a reset to unreachable "connection reset"', async () => {
		const server = await serve((_request, socket) => {
			socket.resetAndDestroy();
		});
		const error = await failure(clientFor(server).getJson('/2/summary'));
		expect(error.kind).toBe('unreachable');
		expect(error.message).toMatch(/reset|closed/u);
	});

	it('maps a body cut short by the connection closing to bad-payload', async () => {
		const server = await serveRaw('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"id": "abc",');
		const error = await failure(clientFor(server).getJson('/2/summary'));
		expect(error.kind).toBe('bad-payload');
		expect(error.message).toMatch(/cut short/u);
	});

	it('maps an answer that is not HTTP to incompatible', async () => {
		const server = await serveRaw('{"id":1,"jsonrpc":"2.0","method":"job"}\n');
		const error = await failure(clientFor(server).getJson('/2/summary'));
		expect(error.kind).toBe('incompatible');
	});

	it('ends a server that never answers at the deadline', async () => {
		const server = await serve(() => {
			// Never answer.
		});
		const started = Date.now();
		const error = await failure(clientFor(server, null, {deadlineMs: 300}).getJson('/2/summary'));
		expect(error.kind).toBe('timeout');
		expect(error.message).toMatch(/within 0\.3s$/u);
		expect(Date.now() - started).toBeLessThan(3000);
	});

	it('ends a server that drips bytes forever at the deadline', async () => {
		const server = await serve((_request, socket) => {
			socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
			const timer = setInterval(() => {
				if (socket.writable) socket.write('1\r\n \r\n');
			}, 30);
			socket.on('close', () => clearInterval(timer));
		});
		const started = Date.now();
		const error = await failure(clientFor(server, null, {deadlineMs: 400}).getJson('/2/summary'));
		expect(error.kind).toBe('timeout');
		expect(Date.now() - started).toBeGreaterThanOrEqual(380);
		expect(Date.now() - started).toBeLessThan(3000);
	});

	it('maps the headers timeout to timeout', async () => {
		const server = await serve(() => {
			// Never answer.
		});
		const error = await failure(clientFor(server, null, {headersTimeoutMs: 200, deadlineMs: 5000}).getJson('/2/summary'));
		expect(error.kind).toBe('timeout');
		expect(error.message).toMatch(/headers/u);
	});
});

describe('MinerClient cancellation', () => {
	it('rejects with the caller abort reason and leaves no listener behind', async () => {
		const server = await serve(() => {
			// Never answer.
		});
		const client = clientFor(server);
		const controller = new AbortController();
		const pending = client.getJson('/2/summary', controller.signal);
		await expect.poll(() => server.requests.length).toBe(1);
		controller.abort();
		const error = await pending.then(
			() => null,
			(reason: unknown) => reason,
		);
		expect(isAbortError(error)).toBe(true);
		expect(error).toBe(controller.signal.reason);
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	});

	it('rejects at once, without a request, when the signal is already aborted', async () => {
		const server = await serveRaw(readCapture('v6.26/get_2_summary.txt').raw);
		const controller = new AbortController();
		controller.abort();
		await expect(clientFor(server).getJson('/2/summary', controller.signal)).rejects.toSatisfy(isAbortError);
		expect(server.requests).toHaveLength(0);
	});

	it('does not pile listeners on a long-lived signal', async () => {
		const server = await serveRaw(readCapture('v6.26/get_2_backends.txt').raw);
		const client = clientFor(server);
		const app = new AbortController();
		for (let i = 0; i < 20; i++) {
			await client.getJson('/2/backends', app.signal);
		}

		await failure(clientFor({url: `http://127.0.0.1:${await freePort()}`}).getJson('/2/backends', app.signal));
		expect(getEventListeners(app.signal, 'abort')).toHaveLength(0);
	});

	it('close() cancels requests in flight and refuses new ones', async () => {
		const server = await serve(() => {
			// Never answer.
		});
		const client = new MinerClient({url: server.url, token: null}, {connectTimeoutMs: 1000});
		const pending = client.getJson('/2/summary').then(
			() => null,
			(reason: unknown) => reason,
		);
		await expect.poll(() => server.requests.length).toBe(1);
		await client.close();
		expect(isAbortError(await pending)).toBe(true);
		await expect(client.getJson('/2/summary')).rejects.toSatisfy(isAbortError);
	});
});

describe('MinerClient writes', () => {
	it('PUTs the body as is with Content-Type exactly application/json; 204 is success', async () => {
		const server = await serveRaw(readCapture('v6.26/put_1_config_same.txt').raw);
		const body = '{\n    "api": {"id": null},\n    "colors": true\n}\n';
		await clientFor(server, token).putJsonText('/1/config', body);
		const request = server.requests[0]!;
		expect(request).toMatchObject({method: 'PUT', target: '/1/config', body});
		expect(request.rawHeaders.filter((line) => /^content-type:/iu.test(line))).toEqual(['content-type: application/json']);
		expect(request.headers['content-length']).toBe(String(Buffer.byteLength(body)));
		expect(request.headers['authorization']).toBe(`Bearer ${token}`);
	});

	it('takes 2.x "200 with an empty body" as success', async () => {
		const server = await serveRaw(httpAnswer(200, '', 'OK', ['Content-Type: application/json']));
		await expect(clientFor(server, token).putJsonText('/1/config', '{}')).resolves.toBeUndefined();
	});

	it.each([
		['v6.26/put_1_config_badtoken.txt', 'forbidden'],
		['v6.26/put_1_config_notoken.txt', 'unauthorized'],
		['v6.26/put_1_config_no_content_type.txt', 'unsupported-media-type'],
		['v2.16/put_1_config_badjson.txt', 'bad-request'],
	] as const)('maps a failed PUT (%s) to %s', async (file, kind) => {
		const server = await serveRaw(readCapture(file).raw);
		const error = await failure(clientFor(server, token).putJsonText('/1/config', '{}'));
		expect(error.kind).toBe(kind);
		expectNoToken(error);
	});
});

describe('MinerClient JSON-RPC', () => {
	it('POSTs {"method":"pause","id":1} to /json_rpc and accepts the real OK reply', async () => {
		const server = await serveRaw(readCapture('v6.26/post_json_rpc_pause.txt').raw);
		await clientFor(server, token).rpc('pause');
		const request = server.requests[0]!;
		expect(request).toMatchObject({method: 'POST', target: '/json_rpc', body: '{"method":"pause","id":1}'});
		expect(request.rawHeaders.filter((line) => /^content-type:/iu.test(line))).toEqual(['content-type: application/json']);
	});

	it('sends resume', async () => {
		const server = await serveRaw(readCapture('v6.26/post_json_rpc_resume.txt').raw);
		await clientFor(server, token).rpc('resume');
		expect(server.requests[0]!.body).toBe('{"method":"resume","id":1}');
	});

	it.each([
		['v6.26/post_json_rpc_unknown_method.txt', 'Method not found (-32601)'],
		['v6.26/post_json_rpc_no_method.txt', 'Invalid Request (-32600)'],
		['v6.26/post_json_rpc_badjson.txt', 'Parse error (-32700)'],
	])('maps a JSON-RPC error (%s) to bad-request with its message', async (file, detail) => {
		const server = await serveRaw(readCapture(file).raw);
		const error = await failure(clientFor(server, token).rpc('pause'));
		expect(error.kind).toBe('bad-request');
		expect(error.status).toBe(200);
		expect(error.detail).toBe(detail);
	});

	it.each([
		['v2.16/post_json_rpc_pause.txt', 'not-found'],
		['v6.26/post_json_rpc_notoken.txt', 'unauthorized'],
		['v6.26/post_json_rpc_badtoken.txt', 'forbidden'],
		['v6.26/notoken-unrestricted/post_json_rpc_pause_goodtoken.txt', 'unauthorized'],
		['v6.26/post_json_rpc_no_content_type.txt', 'unsupported-media-type'],
	] as const)('maps %s to %s', async (file, kind) => {
		const server = await serveRaw(readCapture(file).raw);
		expect((await failure(clientFor(server, token).rpc('pause'))).kind).toBe(kind);
	});

	it('maps a 200 that is not a JSON-RPC reply to incompatible', async () => {
		const server = await serveRaw(readCapture('v6.26/get_2_summary.txt').raw);
		expect((await failure(clientFor(server, token).rpc('pause'))).kind).toBe('incompatible');
	});

	it('accepts the reply when 6.x writes it twice on one socket', async () => {
		const raw = readCapture('v6.26/post_json_rpc_pause.txt').raw;
		const server = await serveRaw(raw + raw);
		await expect(clientFor(server, token).rpc('pause')).resolves.toBeUndefined();
	});

	it('accepts the reply when the second copy arrives later or is garbage', async () => {
		const raw = readCapture('v6.26/post_json_rpc_pause.txt').raw;
		let calls = 0;
		const server = await serve((_request, socket) => {
			calls++;
			const tail = calls === 1 ? raw.slice(0, 40) : 'garbage\r\n\r\n';
			socket.write(raw);
			setTimeout(() => {
				socket.end(tail);
			}, 20);
		});
		const client = clientFor(server, token);
		await expect(client.rpc('pause')).resolves.toBeUndefined();
		await expect(client.rpc('resume')).resolves.toBeUndefined();
		// Let the late bytes arrive: nothing may blow up after the call returned.
		await new Promise((resolve) => {
			setTimeout(resolve, 60);
		});
	});
});
