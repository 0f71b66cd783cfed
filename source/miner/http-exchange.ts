import type http from 'node:http';
import type {Socket} from 'node:net';
import {MinerError} from './errors.js';
import {networkError} from './http-errors.js';
import {nodeHttp} from './http-pool.js';

/** A miner's answer: its status and (the kept part of) its body. */
export type Answer = {
	readonly status: number;
	readonly body: Buffer;
};

export type ExchangeOptions = {
	/** Whether a 2xx body is wanted. When not, it is dropped, and a socket failure after a 2xx status changes nothing. */
	readonly wantBody: boolean;
	/** Most bytes of a wanted 2xx body; more ends the request with MinerError 'too-large'. */
	readonly maxBodyBytes: number;
	/** Bytes kept of an error answer's body (to find the miner's message); the rest is read and dropped. */
	readonly errorBodyBytes: number;
};

/** What to send, where, and the socket-level limits (http-pool.ts). */
export type ExchangeRequest = {
	readonly origin: URL;
	readonly path: string;
	readonly method: string;
	readonly headers: Record<string, string>;
	readonly body: string | null;
	readonly agent: http.Agent;
	readonly connectTimeoutMs: number;
	readonly headersTimeoutMs: number;
	readonly bodyTimeoutMs: number;
};

function contentLengthOf(headers: http.IncomingHttpHeaders): number | null {
	const text = headers['content-length'];
	if (text === undefined || !/^\d+$/u.test(text.trim())) {
		return null;
	}

	return Number(text.trim());
}

function sizeText(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
	return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

/** An error with one of the codes http-errors.ts maps (the socket-level limits and failures node:http does not name). */
function coded(code: string, message: string): Error {
	return Object.assign(new Error(message), {code});
}

/**
 * One request on node:http: it keeps the status and the body (within the caps) and settles `answer` once.
 *
 * `answer` resolves with every answer that has a status, 2xx or not (the caller maps statuses); it rejects with a
 * MinerError when no status came or a wanted body broke off, or with the reason given to abort(). A wanted 2xx body
 * that arrived whole (its Content-Length reached) is kept even if the socket then fails: XMRig 6.x writes its
 * JSON-RPC answer twice on one socket, and the second copy breaks the HTTP parser.
 */
export class Exchange {
	readonly answer: Promise<Answer>;
	readonly #options: ExchangeOptions;
	#resolve!: (answer: Answer) => void;
	#reject!: (reason: unknown) => void;
	#settled = false;
	#request: http.ClientRequest | null = null;
	#response: http.IncomingMessage | null = null;
	readonly #timers: NodeJS.Timeout[] = [];
	#socket: Socket | null = null;
	#status = 0;
	#contentLength: number | null = null;
	readonly #chunks: Buffer[] = [];
	#received = 0;
	#kept = 0;

	constructor(options: ExchangeOptions) {
		this.#options = options;
		this.answer = new Promise<Answer>((resolve, reject) => {
			this.#resolve = resolve;
			this.#reject = reject;
		});
	}

	/** Sends the request. May throw when node:http refuses it outright (the caller maps that). */
	start(request: ExchangeRequest): void {
		if (this.#settled) {
			return;
		}

		const outgoing = nodeHttp.request({
			protocol: request.origin.protocol,
			hostname: request.origin.hostname.replace(/^\[|\]$/gu, ''),
			port: request.origin.port === '' ? 80 : Number(request.origin.port),
			path: request.path,
			method: request.method,
			headers: request.body === null ? request.headers : {...request.headers, 'content-length': String(Buffer.byteLength(request.body))},
			agent: request.agent,
		});
		this.#request = outgoing;
		// After the answer settled, a late failure (the second copy of a 6.x JSON-RPC answer…) changes nothing.
		outgoing.on('error', (error) => {
			this.#onError(error);
		});
		outgoing.on('socket', (socket: Socket) => {
			this.#socket = socket;
			if (socket.connecting) {
				const timer = this.#timer(request.connectTimeoutMs, () => {
					this.#fail(coded('CONNECT_TIMEOUT', 'connect timed out'));
				});
				socket.once('connect', () => {
					clearTimeout(timer);
				});
			}
		});
		const headersTimer = this.#timer(request.headersTimeoutMs, () => {
			this.#fail(coded('HEADERS_TIMEOUT', 'timed out waiting for headers'));
		});
		outgoing.on('response', (response: http.IncomingMessage) => {
			clearTimeout(headersTimer);
			this.#onResponse(response, request.bodyTimeoutMs);
		});
		outgoing.end(request.body ?? undefined);
	}

	/** End the request now: `answer` rejects with `reason` (unless it has settled already) and the socket is dropped. */
	abort(reason: unknown): void {
		if (this.#settled) {
			return;
		}

		this.#settle();
		this.#reject(reason);
	}

	#onResponse(response: http.IncomingMessage, bodyTimeoutMs: number): void {
		if (this.#settled) {
			response.destroy();
			return;
		}

		this.#response = response;
		this.#status = response.statusCode ?? 0;
		this.#contentLength = contentLengthOf(response.headers);
		if (this.#ok && !this.#options.wantBody) {
			// The status is the answer: a body that follows is dropped with the socket (even one that drips forever).
			this.#succeed();
			return;
		}

		if (this.#capped && this.#contentLength !== null && this.#contentLength > this.#options.maxBodyBytes) {
			this.abort(this.#tooLarge());
			return;
		}

		response.setTimeout(bodyTimeoutMs, () => {
			this.#fail(coded('BODY_TIMEOUT', 'timed out reading the body'));
		});
		response.on('data', (chunk: Buffer) => {
			this.#onData(chunk);
		});
		response.on('end', () => {
			this.#succeed();
		});
		response.on('error', (error) => {
			this.#onError(error);
		});
		response.on('close', () => {
			if (!response.complete) this.#onError(coded('CUT_SHORT', 'the connection closed mid-answer'));
		});
	}

	#onData(chunk: Buffer): void {
		if (this.#settled) {
			return;
		}

		this.#received += chunk.length;
		if (this.#capped) {
			if (this.#received > this.#options.maxBodyBytes) {
				this.abort(this.#tooLarge());
				return;
			}

			this.#chunks.push(chunk);
		} else if (!this.#ok && this.#kept < this.#options.errorBodyBytes) {
			const part = chunk.subarray(0, this.#options.errorBodyBytes - this.#kept);
			this.#chunks.push(part);
			this.#kept += part.length;
		}
	}

	#onError(error: Error): void {
		if (this.#settled) {
			return;
		}

		// The whole answer was parsed before the failure (a second copy of it after the first, say): its body is
		// still in the response stream, and its 'end' settles the exchange.
		if (this.#response?.complete === true) {
			return;
		}

		// With the status known, a broken error body loses nothing that matters.
		const statusIsEnough = this.#status !== 0 && !this.#ok;
		const bodyArrivedWhole = this.#capped && this.#contentLength !== null && this.#received >= this.#contentLength;
		if (statusIsEnough || bodyArrivedWhole) {
			this.#succeed();
			return;
		}

		// node:http calls a connection the server closed (its side ended) before any answer a reset ("socket hang up").
		const closedEarly = this.#status === 0 && this.#socket?.readableEnded === true && (error as {code?: unknown}).code === 'ECONNRESET';
		this.#fail(closedEarly ? coded('CLOSED_BEFORE_ANSWER', 'the connection closed before an answer') : error);
	}

	/** Rejects with the MinerError for `error` (a socket failure or one of the limits above). */
	#fail(error: Error): void {
		if (this.#settled) {
			return;
		}

		this.#settle();
		this.#reject(networkError(error, this.#status !== 0));
	}

	#timer(ms: number, onTimeout: () => void): NodeJS.Timeout {
		const timer = setTimeout(onTimeout, ms);
		this.#timers.push(timer);
		return timer;
	}

	/** Marks the exchange settled: its timers stop, and a request still open is dropped with its socket. */
	#settle(): void {
		this.#settled = true;
		for (const timer of this.#timers) clearTimeout(timer);
		const request = this.#request;
		if (request !== null && !(this.#response?.complete ?? false)) request.destroy();
	}

	get #ok(): boolean {
		return this.#status >= 200 && this.#status <= 299;
	}

	/** A 2xx answer whose body is wanted: kept whole, within the cap. */
	get #capped(): boolean {
		return this.#ok && this.#options.wantBody;
	}

	#tooLarge(): MinerError {
		return new MinerError('too-large', `the answer is larger than ${sizeText(this.#options.maxBodyBytes)}`);
	}

	#succeed(): void {
		if (this.#settled) {
			return;
		}

		this.#settle();
		const body = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
		this.#resolve({status: this.#status, body});
	}
}
