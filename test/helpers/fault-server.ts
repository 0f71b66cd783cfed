import type net from 'node:net';
import {readCapture} from './captures.js';
import {httpAnswer, startRawServer, type RawRequest} from './raw-server.js';

/**
 * ONE fault-injecting miner for the reliability tests: a handler on the tests' raw server (raw-server.ts: any byte
 * sequence is possible), whose `mode` can be switched at runtime on the same port, to see rigtop fall into a fault and
 * recover from it.
 *
 * 'healthy' serves the recorded XMRig 6.26 answers (test/fixtures/xmrig/v6.26: /2/summary, /2/backends, /1/summary,
 * 404 NOT_FOUND elsewhere, 401/403 as 6.26 words them when a token is set) with the uptime moving on, plus GET and
 * PUT /1/config (204, the body kept, as 6.x does). Every other mode is one fault; `only` limits a fault to some
 * requests (e.g. the PUT), the rest being served healthy.
 */

export type FaultMode =
	/** Recorded 6.26 answers, uptime moving on. */
	| 'healthy'
	/** The miner restarted: uptime starts again from 0 (the id stays: XMRig's is made from the port, the MAC and the kind); then healthy. */
	| 'restart'
	/** Nothing listens on the port (connection refused). */
	| 'refused'
	/** The request is read, then the connection is reset before any answer. */
	| 'reset-before-answer'
	/** Headers and half the body, then a TCP reset. */
	| 'reset-mid-body'
	/** Accepted, the request read, never answered. */
	| 'no-answer'
	/** The headers and the start of the body, then silence. */
	| 'stall-body'
	/** Headers, then the body one byte at a time, forever. */
	| 'drip'
	| 'status-500'
	| 'status-500-empty'
	| 'status-503'
	| 'status-503-empty'
	/** 200 with an HTML page. */
	| 'html'
	/** 200 with the summary cut short where a NaN was (older 6.x; Content-Length matches the cut text). */
	| 'truncated-json'
	/** 200 with JSON that is not what XMRig sends (fields of the wrong types). */
	| 'wrong-shape'
	/** 200 with NaN and Infinity written as numbers. */
	| 'nan'
	/** 200 with a 50 MB body sent chunked (no Content-Length): the client must stop reading. */
	| 'huge'
	/** 200 announcing 50 MB in Content-Length. */
	| 'huge-announced'
	/** 200 with JSON nested 100,000 deep. */
	| 'deep'
	/** Two complete answers on one socket (as 5.5.1+ is thought to do on /json_rpc). */
	| 'two-responses'
	/** Not HTTP at all: an SSH server's banner. */
	| 'not-http'
	/** The summaries answer 200; /2/backends and /1/threads answer 401 (and likewise below). */
	| 'split-401'
	| 'split-403'
	| 'split-404'
	| 'split-415'
	/** Another HTTP server took the port: HTML 404 for /2/*, its own JSON elsewhere. */
	| 'impostor';

export const faultModes: readonly FaultMode[] = [
	'healthy',
	'restart',
	'refused',
	'reset-before-answer',
	'reset-mid-body',
	'no-answer',
	'stall-body',
	'drip',
	'status-500',
	'status-500-empty',
	'status-503',
	'status-503-empty',
	'html',
	'truncated-json',
	'wrong-shape',
	'nan',
	'huge',
	'huge-announced',
	'deep',
	'two-responses',
	'not-http',
	'split-401',
	'split-403',
	'split-404',
	'split-415',
	'impostor',
];

export type FaultRequest = RawRequest;

/** One connection the server saw, once it closed. */
export type ConnectionRecord = {
	readonly mode: FaultMode;
	/** "METHOD /path", or '' when no complete request arrived. */
	readonly request: string;
	/** Bytes the server managed to hand to the socket before it closed. */
	readonly bytesWritten: number;
	/** Whether the peer closed the connection before the server finished its answer. */
	readonly cutByClient: boolean;
};

export type FaultServerOptions = {
	/** The access token the healthy miner wants (null: none, 6.x default restricted mode). */
	readonly token?: string | null;
	readonly workerId?: string;
	/** Seconds the miner has been up when the server starts. */
	readonly uptime?: number;
	/** Hashrate windows to report (the recorded miner had no job: 0.0). */
	readonly hashrate?: readonly [number | null, number | null, number | null];
	/** The config document served at GET /1/config. Default: the recorded 6.26 one. */
	readonly configText?: string;
	/** Milliseconds between the bytes of 'drip'. */
	readonly dripMs?: number;
	/** The JSON the healthy miner answers to POST /json_rpc, with HTTP 200 (default: no such route, 404). */
	readonly rpcAnswer?: string;
};

export type FaultServer = {
	readonly url: string;
	readonly port: number;
	readonly mode: FaultMode;
	/** Switch the behaviour; 'refused' stops listening, leaving it listens again on the same port. */
	setMode(mode: FaultMode, options?: {only?: (request: FaultRequest) => boolean}): Promise<void>;
	/** Every complete request, in order. */
	readonly requests: FaultRequest[];
	/** Every closed connection. */
	readonly connections: ConnectionRecord[];
	/** The id the healthy miner reports now. */
	readonly minerId: string;
	/** The config document as the miner has it (PUT bodies land here). */
	configText: string;
	close(): Promise<void>;
};

const v6 = 'v6.26';
const summary2 = readCapture(`${v6}/get_2_summary.txt`);
const summary1 = readCapture(`${v6}/get_1_summary.txt`);
const backends2 = readCapture(`${v6}/get_2_backends.txt`);
const notFound = readCapture(`${v6}/get_unknown_path.txt`).raw;
const unauthorized = readCapture(`${v6}/get_1_summary_notoken.txt`).raw;
const forbidden = readCapture(`${v6}/get_1_summary_badtoken.txt`).raw;
const recordedConfig = (() => {
	const raw = readCapture(`${v6}/get_1_config.txt`);
	return raw.body;
})();

const fiftyMegabytes = 50 * 1024 * 1024;

/** An answer in 6.x's format; an empty body says so with Content-Length: 0 (a proxy's empty error page). */
function xmrigAnswer(status: number, reason: string, body: string, contentType = 'application/json'): string {
	return httpAnswer(status, body, reason, body === '' ? ['Content-Length: 0'] : [], contentType);
}

function errorBody(status: number, error: string): string {
	return `{\n    "status": ${status},\n    "error": "${error}"\n}`;
}

const htmlPage = [
	'<!DOCTYPE html>',
	'<html>',
	'<head><title>Welcome to nginx!</title></head>',
	'<body>',
	'<h1>Welcome to nginx!</h1>',
	'<p>If you see this page, the nginx web server is successfully installed.</p>',
	'</body>',
	'</html>',
	'',
].join('\n');

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
	const token = options.token ?? null;
	const workerId = options.workerId ?? 'fault-rig';
	const dripMs = options.dripMs ?? 20;
	let mode: FaultMode = 'healthy';
	let only: ((request: FaultRequest) => boolean) | null = null;
	let processStart = Date.now();
	let uptimeAtStart = options.uptime ?? 3600;
	const connections: ConnectionRecord[] = [];
	const timers = new Set<NodeJS.Timeout>();

	const minerId = () => 'f800509bdc3fb659';
	const uptime = () => uptimeAtStart + Math.floor((Date.now() - processStart) / 1000);

	/** A recorded summary body with this miner's id, worker id, uptime and hashrate. */
	const liveSummary = (body: string): string => {
		let text = body
			.replace(/"id": "[0-9a-f]+"/u, `"id": "${minerId()}"`)
			.replace(/"worker_id": "[^"]*"/u, `"worker_id": "${workerId}"`)
			.replace(/"uptime": \d+/u, `"uptime": ${uptime()}`);
		if (options.hashrate) {
			const rates = options.hashrate.map((rate) => (rate === null ? 'null' : rate.toFixed(1))).join(', ');
			text = text.replace(/"total": \[[^\]]*\]/u, `"total": [${rates}]`);
		}

		return text;
	};

	const state = {configText: options.configText ?? recordedConfig};

	/** The healthy miner's answer to one request. */
	const healthy = (request: FaultRequest): string => {
		const auth = request.headers['authorization'];
		if (token === null ? auth !== undefined : auth === undefined) return unauthorized;
		if (token !== null && auth !== `Bearer ${token}`) return forbidden;
		const route = `${request.method} ${request.target}`;
		switch (route) {
			case 'GET /2/summary':
				return xmrigAnswer(200, 'OK', liveSummary(summary2.body));
			case 'GET /1/summary':
				return xmrigAnswer(200, 'OK', liveSummary(summary1.body));
			case 'GET /2/backends':
				return backends2.raw;
			case 'GET /1/config':
			case 'GET /2/config':
				return xmrigAnswer(200, 'OK', state.configText);
			case 'PUT /1/config':
			case 'PUT /2/config': {
				if (request.headers['content-type'] !== 'application/json')
					return xmrigAnswer(415, 'UNSUPPORTED_MEDIA_TYPE', errorBody(415, 'UNSUPPORTED_MEDIA_TYPE'));
				try {
					JSON.parse(request.body);
				} catch {
					return xmrigAnswer(400, 'BAD_REQUEST', errorBody(400, 'Missing a name for object member.'));
				}

				state.configText = request.body;
				return xmrigAnswer(204, 'NO_CONTENT', '');
			}

			case 'POST /json_rpc':
				return options.rpcAnswer === undefined ? notFound : xmrigAnswer(200, 'OK', options.rpcAnswer);

			default:
				return notFound;
		}
	};

	const isThreadsPath = (target: string) => target === '/2/backends' || target === '/1/threads';

	const record = (socket: net.Socket, servedAs: FaultMode, request: string, finished: () => boolean) => {
		socket.on('close', () => {
			connections.push({mode: servedAs, request, bytesWritten: socket.bytesWritten, cutByClient: !finished()});
		});
	};

	const later = (fn: () => void, ms: number) => {
		const timer = setTimeout(() => {
			timers.delete(timer);
			fn();
		}, ms);
		timers.add(timer);
	};

	/** Writes `total` bytes (chunked or with Content-Length) as fast as the peer takes them, stopping when it goes. */
	const pump = (socket: net.Socket, total: number, chunked: boolean, done: () => void) => {
		const piece = Buffer.alloc(64 * 1024, 0x31); // '1' digits: a JSON number that never ends
		let sent = 0;
		const step = (): void => {
			while (sent < total && !socket.destroyed && socket.writable) {
				const size = Math.min(piece.length, total - sent);
				const data = size === piece.length ? piece : piece.subarray(0, size);
				const framed = chunked ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
				sent += size;
				if (!socket.write(framed)) {
					socket.once('drain', step);
					return;
				}
			}

			if (sent >= total && !socket.destroyed) {
				socket.end(chunked ? '0\r\n\r\n' : '');
				done();
			}
		};

		step();
	};

	/** Serve one complete request in the current mode. */
	const serve = (request: FaultRequest, socket: net.Socket) => {
		const current: FaultMode = only === null || only(request) ? mode : 'healthy';
		let finished = false;
		const finish = () => {
			finished = true;
		};

		record(socket, current, `${request.method} ${request.target}`, () => finished);
		const end = (raw: string | Buffer) => {
			finish();
			socket.end(raw);
		};

		switch (current) {
			case 'healthy':
			case 'restart':
			case 'refused': {
				end(healthy(request));
				return;
			}

			case 'reset-before-answer': {
				socket.resetAndDestroy();
				return;
			}

			case 'reset-mid-body': {
				const answer = healthy(request);
				socket.write(answer.slice(0, answer.indexOf('\r\n\r\n') + 4 + 300));
				later(() => socket.resetAndDestroy(), 20);
				return;
			}

			case 'no-answer': {
				return;
			}

			case 'stall-body': {
				const answer = healthy(request);
				socket.write(answer.slice(0, answer.indexOf('\r\n\r\n') + 4 + 100));
				return;
			}

			case 'drip': {
				socket.write(
					'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n',
				);
				const timer = setInterval(() => {
					if (socket.destroyed) {
						clearInterval(timer);
						timers.delete(timer);
						return;
					}

					socket.write('1\r\n \r\n');
				}, dripMs);
				timers.add(timer);
				socket.on('close', () => {
					clearInterval(timer);
					timers.delete(timer);
				});
				return;
			}

			case 'status-500': {
				end(xmrigAnswer(500, 'INTERNAL_SERVER_ERROR', errorBody(500, 'INTERNAL_SERVER_ERROR')));
				return;
			}

			case 'status-500-empty': {
				end(xmrigAnswer(500, 'Internal Server Error', ''));
				return;
			}

			case 'status-503': {
				end(
					xmrigAnswer(503, 'Service Unavailable', '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>\n', 'text/html'),
				);
				return;
			}

			case 'status-503-empty': {
				end(xmrigAnswer(503, 'Service Unavailable', ''));
				return;
			}

			case 'html': {
				end(xmrigAnswer(200, 'OK', htmlPage, 'text/html'));
				return;
			}

			case 'truncated-json': {
				const answer = healthy(request);
				const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
				// rapidjson stopped writing at the NaN: the body ends there, and Content-Length says so.
				const at = body.indexOf('"hashrate"');
				const cut = at === -1 ? body.slice(0, Math.floor(body.length / 2)) : `${body.slice(0, at)}"hashrate": {\n        "total": [`;
				end(xmrigAnswer(200, 'OK', cut));
				return;
			}

			case 'wrong-shape': {
				const body = isThreadsPath(request.target)
					? '{\n    "type": "cpu",\n    "threads": 4\n}'
					: JSON.stringify(
							{id: minerId(), uptime: `${uptime()} s`, hashrate: {total: '1.2 kH/s'}, results: [1, 2], connection: 'up'},
							null,
							4,
						);
				end(xmrigAnswer(200, 'OK', body));
				return;
			}

			case 'nan': {
				const answer = healthy(request);
				const body = answer
					.slice(answer.indexOf('\r\n\r\n') + 4)
					.replace(/"total": \[[^\]]*\]/u, '"total": [NaN, Infinity, -Infinity]')
					.replace(/"highest": [^,\n]+/u, '"highest": NaN');
				end(xmrigAnswer(200, 'OK', body));
				return;
			}

			case 'huge':
			case 'huge-announced': {
				const chunked = current === 'huge';
				socket.write(
					chunked
						? 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
						: `HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${fiftyMegabytes}\r\n\r\n`,
				);
				pump(socket, fiftyMegabytes, chunked, finish);
				return;
			}

			case 'deep': {
				const depth = 100_000;
				end(xmrigAnswer(200, 'OK', `${'['.repeat(depth)}${']'.repeat(depth)}`));
				return;
			}

			case 'two-responses': {
				const answer = healthy(request);
				end(answer + answer);
				return;
			}

			case 'not-http': {
				end('Protocol mismatch.\n');
				return;
			}

			case 'split-401':
			case 'split-403':
			case 'split-404':
			case 'split-415': {
				if (!isThreadsPath(request.target)) {
					end(healthy(request));
					return;
				}

				const answers = {
					'split-401': unauthorized,
					'split-403': forbidden,
					'split-404': notFound,
					'split-415': xmrigAnswer(415, 'UNSUPPORTED_MEDIA_TYPE', errorBody(415, 'UNSUPPORTED_MEDIA_TYPE')),
				} as const;
				end(answers[current]);
				return;
			}

			case 'impostor': {
				if (request.target.startsWith('/2/')) {
					end(
						xmrigAnswer(
							404,
							'Not Found',
							[
								'<html>',
								'<head><title>404 Not Found</title></head>',
								'<body>',
								'<center><h1>404 Not Found</h1></center>',
								'<hr><center>nginx/1.24.0</center>',
								'</body>',
								'</html>',
								'',
							].join('\r\n'),
							'text/html',
						),
					);
					return;
				}

				end(
					xmrigAnswer(
						200,
						'OK',
						'{"status":"ok","service":"node-exporter","uptime":51234,"version":"1.8.2","checks":[{"name":"disk","ok":true}]}',
					),
				);
			}
		}
	};

	const server = await startRawServer(serve, {
		onConnection(socket) {
			// An SSH server speaks first.
			if (mode === 'not-http' && only === null) socket.write('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n');
		},
	});
	const api: FaultServer = {
		get url() {
			return server.url;
		},
		get port() {
			return server.port;
		},
		get mode() {
			return mode;
		},
		get minerId() {
			return minerId();
		},
		get configText() {
			return state.configText;
		},
		set configText(text: string) {
			state.configText = text;
		},
		requests: server.requests,
		connections,
		async setMode(next, modeOptions = {}) {
			if (next === 'restart') {
				processStart = Date.now();
				uptimeAtStart = 0;
			}

			mode = next;
			only = modeOptions.only ?? null;
			if (next === 'refused' && only === null) await server.stopListening();
			else await server.listen();
		},
		async close() {
			for (const timer of timers) clearTimeout(timer);
			timers.clear();
			await server.close();
		},
	};
	return api;
}
