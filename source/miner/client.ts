import type http from 'node:http';
import {formatSeconds} from '../text/format.js';
import {MinerError} from './errors.js';
import {createMinerAgent, defaultBodyTimeoutMs, defaultConnectTimeoutMs, defaultHeadersTimeoutMs} from './http-pool.js';
import {Exchange} from './http-exchange.js';
import {networkError, statusError} from './http-errors.js';
import {parseJsonText} from './json-text.js';
import {cleanText} from '../text/clean.js';
import {normalizeMinerUrl, TargetError, type MinerTarget} from './target.js';

/**
 * The HTTP client for one miner's API: GET JSON or text, PUT a config document, POST a JSON-RPC call.
 *
 * - Every failure is a MinerError, mapped from the status code or the socket error. The one exception: when the
 *   caller's signal aborts (or close() is called), the promise rejects with the abort reason (an 'AbortError').
 * - Each request has an overall deadline (default 8 s) on top of the pool's connect/header/body timeouts, so a server
 *   that drips bytes forever still ends. It is a timer of its own (no AbortSignal.any: it leaks with a
 *   long-lived signal, nodejs/node#54614).
 * - Requests go through node:http (http-exchange.ts) on an Agent of this client's own (http-pool.ts).
 *   Bodies are capped (default 1 MiB); unwanted bodies are read and dropped.
 * - `Authorization: Bearer …` is sent only when a token is set: real miners answer 401 to any Authorization header
 *   when they have no token. The token never appears in an error.
 * - Paths are sent exactly as given: XMRig routes on the raw request target, so a query string would be a 404.
 */

export type ClientOptions = {
	connectTimeoutMs?: number;
	headersTimeoutMs?: number;
	bodyTimeoutMs?: number;
	deadlineMs?: number;
	maxBodyBytes?: number;
};

export const defaultDeadlineMs = 8000;
export const defaultMaxBodyBytes = 1024 * 1024;
/** How much of an error answer is read to find the miner's message. */
const errorBodyBytes = 64 * 1024;

type Method = 'GET' | 'PUT' | 'POST';

/** True for the rejection of a request that was cancelled by the caller's signal or by close(). */
export function isAbortError(error: unknown): boolean {
	return typeof error === 'object' && error !== null && (error as {name?: unknown}).name === 'AbortError';
}

/** Whether an HTTP header can carry `token` as it is: printable ASCII only. */
export function sendableToken(token: string): boolean {
	return /^[\u0020-\u007E]+$/u.test(token);
}

function checkToken(token: string | null): string | null {
	if (token === null || token === '') {
		return null;
	}

	if (!sendableToken(token)) {
		throw new TargetError('the access token holds characters that cannot be sent in an HTTP header (printable ASCII only)');
	}

	return token;
}

function checkPath(path: string): void {
	if (!path.startsWith('/') || /[?#\s]/u.test(path)) {
		throw new TypeError(`not an exact API path: ${JSON.stringify(path)}`);
	}
}

function positive(value: number | undefined, fallback: number): number {
	return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The rejection of a request cut short by close(). */
function closedError(): DOMException {
	return new DOMException('the miner client was closed', 'AbortError');
}

export class MinerClient {
	readonly url: string;
	#token: string | null;
	readonly #deadlineMs: number;
	readonly #maxBodyBytes: number;
	readonly #headersTimeoutMs: number;
	readonly #bodyTimeoutMs: number;
	readonly #connectTimeoutMs: number;
	/** Created on the first request, so a client that never asks (a --once against a bad token file…) costs nothing. */
	#agent: http.Agent | null = null;
	readonly #origin: URL;
	readonly #inflight = new Set<Exchange>();
	#closed = false;

	constructor(target: MinerTarget, options: ClientOptions = {}) {
		this.url = normalizeMinerUrl(target.url);
		this.#origin = new URL(this.url);
		this.#token = checkToken(target.token);
		this.#deadlineMs = positive(options.deadlineMs, defaultDeadlineMs);
		this.#maxBodyBytes = positive(options.maxBodyBytes, defaultMaxBodyBytes);
		this.#headersTimeoutMs = positive(options.headersTimeoutMs, defaultHeadersTimeoutMs);
		this.#bodyTimeoutMs = positive(options.bodyTimeoutMs, defaultBodyTimeoutMs);
		this.#connectTimeoutMs = positive(options.connectTimeoutMs, defaultConnectTimeoutMs);
	}

	/** Use a new token from now on (after a token change that applied). null or '' sends no Authorization header. */
	setToken(token: string | null): void {
		this.#token = checkToken(token);
	}

	/** GET a JSON document. */
	async getJson(path: string, signal?: AbortSignal): Promise<unknown> {
		const text = await this.#exchange('GET', path, null, signal);
		return parseJsonText(text, `the answer from ${path}`);
	}

	/** GET the raw body text (a config document, kept byte for byte). */
	async getText(path: string, signal?: AbortSignal): Promise<string> {
		return this.#exchange('GET', path, null, signal);
	}

	/** PUT a JSON document exactly as given. Any 2xx is success: 204 (2.15+), or 200 with an empty body (2.x). */
	async putJsonText(path: string, body: string, signal?: AbortSignal): Promise<void> {
		await this.#exchange('PUT', path, body, signal, false);
	}

	/** POST /json_rpc {"method":…,"id":1}. A JSON-RPC error in the (HTTP 200) answer → MinerError 'bad-request'. */
	async rpc(method: 'pause' | 'resume', signal?: AbortSignal): Promise<void> {
		const text = await this.#exchange('POST', '/json_rpc', JSON.stringify({method, id: 1}), signal);
		const envelope = parseJsonText(text, 'the answer from /json_rpc');
		if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
			throw new MinerError('incompatible', 'the answer from /json_rpc is not a JSON-RPC reply', {status: 200});
		}

		const error = Object.hasOwn(envelope, 'error') ? (envelope as {error: unknown}).error : null;
		if (error !== null && error !== undefined) {
			throw new MinerError('bad-request', `the miner refused ${method}`, {status: 200, detail: this.#rpcErrorText(error)});
		}

		if (!Object.hasOwn(envelope, 'result')) {
			throw new MinerError('incompatible', 'the answer from /json_rpc is not a JSON-RPC reply', {status: 200});
		}
	}

	/** Cancel requests in flight (they reject with an AbortError) and release this client's own sockets. */
	async close(): Promise<void> {
		this.#closed = true;
		for (const exchange of this.#inflight) {
			exchange.abort(closedError());
		}

		this.#inflight.clear();
		const agent = this.#agent;
		this.#agent = null;
		agent?.destroy();
	}

	#rpcErrorText(error: unknown): string | null {
		if (typeof error === 'string') {
			return cleanText(error, 200, this.#token);
		}

		if (typeof error !== 'object' || error === null) {
			return null;
		}

		const {message, code} = error as {message?: unknown; code?: unknown};
		const text = typeof message === 'string' ? message : 'error';
		const suffix = typeof code === 'number' && Number.isFinite(code) ? ` (${code})` : '';
		return cleanText(`${text}${suffix}`, 200, this.#token);
	}

	/** One request → the body text of a 2xx answer ('' when `wantBody` is false). Throws MinerError. */
	async #exchange(method: Method, path: string, body: string | null, signal?: AbortSignal, wantBody = true): Promise<string> {
		checkPath(path);
		if (this.#closed) {
			throw closedError();
		}

		signal?.throwIfAborted();

		const headers: Record<string, string> = {};
		if (this.#token !== null) {
			headers['authorization'] = `Bearer ${this.#token}`;
		}

		if (body !== null) {
			headers['content-type'] = 'application/json';
		}

		const exchange = new Exchange({wantBody, maxBodyBytes: this.#maxBodyBytes, errorBodyBytes});
		const timer = setTimeout(() => {
			exchange.abort(new MinerError('timeout', `no complete answer within ${formatSeconds(this.#deadlineMs)}`));
		}, this.#deadlineMs);
		timer.unref();
		const onCallerAbort = (): void => {
			exchange.abort(signal?.reason);
		};

		signal?.addEventListener('abort', onCallerAbort, {once: true});
		this.#inflight.add(exchange);
		try {
			this.#agent ??= createMinerAgent();
			try {
				exchange.start({
					origin: this.#origin,
					path,
					method,
					headers,
					body,
					agent: this.#agent,
					connectTimeoutMs: this.#connectTimeoutMs,
					headersTimeoutMs: this.#headersTimeoutMs,
					bodyTimeoutMs: this.#bodyTimeoutMs,
				});
			} catch (error) {
				// Failures come through the request's events; a throw here is a request node:http refused outright.
				exchange.abort(networkError(error, false));
			}

			const answer = await exchange.answer;
			if (answer.status < 200 || answer.status > 299) {
				throw statusError(answer.status, path, answer.status === 400 ? this.#errorDetail(answer.body) : null);
			}

			return wantBody ? answer.body.toString('utf8') : '';
		} finally {
			clearTimeout(timer);
			signal?.removeEventListener('abort', onCallerAbort);
			this.#inflight.delete(exchange);
		}
	}

	/** The miner's `error` text from a 400 answer ({"status":400,"error":"…"}), when there is one. 2.x sends none. */
	#errorDetail(body: Buffer): string | null {
		try {
			const value = parseJsonText(body.toString('utf8'));
			const text = typeof value === 'object' && value !== null && Object.hasOwn(value, 'error') ? (value as {error: unknown}).error : null;
			return typeof text === 'string' && text.trim() !== '' ? cleanText(text, 200, this.#token) : null;
		} catch {
			return null;
		}
	}
}
