import {request, type Dispatcher} from 'undici';
import {MinerError} from './errors.js';
import {
	createMinerAgent,
	defaultBodyTimeoutMs,
	defaultConnectTimeoutMs,
	defaultHeadersTimeoutMs,
	sharedAgent,
} from './http-agent.js';
import {networkError, statusError} from './http-errors.js';
import {parseJsonText, sanitizeText} from './json-text.js';
import {normalizeMinerUrl, UsageError, type MinerTarget} from './target.js';

/**
 * The HTTP client for one miner's API: GET JSON or text, PUT a config document, POST a JSON-RPC call.
 *
 * - Every failure is a MinerError, mapped from the status code or the socket error. The one exception: when the
 *   caller's signal aborts (or close() is called), the promise rejects with the abort reason (an 'AbortError').
 * - Each request has an overall deadline (default 8 s) on top of the Agent's connect/header/body timeouts, so a server
 *   that drips bytes forever still ends. It uses its own AbortController and timer (no AbortSignal.any: it leaks on
 *   Node 20 with a long-lived signal).
 * - Bodies are capped (default 1 MiB) and always consumed or discarded.
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

function checkToken(token: string | null): string | null {
	if (token === null || token === '') {
		return null;
	}

	if (!/^[\u0020-\u007E]+$/u.test(token)) {
		throw new UsageError('the access token holds characters that cannot be sent in an HTTP header (printable ASCII only)');
	}

	return token;
}

function checkPath(path: string): void {
	if (!path.startsWith('/') || /[?#\s]/u.test(path)) {
		throw new TypeError(`not an exact API path: ${JSON.stringify(path)}`);
	}
}

function contentLengthOf(headers: Record<string, string | string[] | undefined>): number | null {
	const value = headers['content-length'];
	const text = Array.isArray(value) ? value[0] : value;
	if (text === undefined || !/^\d+$/u.test(text.trim())) {
		return null;
	}

	return Number(text.trim());
}

function positive(value: number | undefined, fallback: number): number {
	return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Drop an unwanted body (bounded by undici's dump limit). The status already said what mattered, so a socket
 * failure while discarding changes nothing. */
async function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
	try {
		await body.dump();
	} catch {
		// Nothing to do: the answer's status is known.
	}
}

function size(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
	return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

function seconds(ms: number): string {
	return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

export class MinerClient {
	readonly url: string;
	#token: string | null;
	readonly #deadlineMs: number;
	readonly #maxBodyBytes: number;
	readonly #headersTimeoutMs: number;
	readonly #bodyTimeoutMs: number;
	readonly #dispatcher: Dispatcher;
	readonly #ownAgent: Dispatcher | null;
	readonly #inflight = new Set<AbortController>();
	#closed = false;

	constructor(target: MinerTarget, options: ClientOptions = {}) {
		this.url = normalizeMinerUrl(target.url);
		this.#token = checkToken(target.token);
		this.#deadlineMs = positive(options.deadlineMs, defaultDeadlineMs);
		this.#maxBodyBytes = positive(options.maxBodyBytes, defaultMaxBodyBytes);
		this.#headersTimeoutMs = positive(options.headersTimeoutMs, defaultHeadersTimeoutMs);
		this.#bodyTimeoutMs = positive(options.bodyTimeoutMs, defaultBodyTimeoutMs);
		const connectTimeoutMs = positive(options.connectTimeoutMs, defaultConnectTimeoutMs);
		// Header and body timeouts are set per request; only a different connect timeout needs an Agent of its own.
		this.#ownAgent = connectTimeoutMs === defaultConnectTimeoutMs ? null : createMinerAgent(connectTimeoutMs);
		this.#dispatcher = this.#ownAgent ?? sharedAgent();
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
		for (const controller of this.#inflight) {
			controller.abort();
		}

		this.#inflight.clear();
		if (this.#ownAgent) {
			await this.#ownAgent.close();
		}
	}

	#rpcErrorText(error: unknown): string | null {
		if (typeof error === 'string') {
			return sanitizeText(error, 200, this.#token);
		}

		if (typeof error !== 'object' || error === null) {
			return null;
		}

		const {message, code} = error as {message?: unknown; code?: unknown};
		const text = typeof message === 'string' ? message : 'error';
		const suffix = typeof code === 'number' && Number.isFinite(code) ? ` (${code})` : '';
		return sanitizeText(`${text}${suffix}`, 200, this.#token);
	}

	/** One request → the body text of a 2xx answer ('' when `wantBody` is false). Throws MinerError. */
	async #exchange(method: Method, path: string, body: string | null, signal?: AbortSignal, wantBody = true): Promise<string> {
		checkPath(path);
		if (this.#closed) {
			throw new DOMException('the miner client was closed', 'AbortError');
		}

		signal?.throwIfAborted();

		const controller = new AbortController();
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			controller.abort();
		}, this.#deadlineMs);
		timer.unref();
		const onCallerAbort = (): void => {
			controller.abort();
		};

		signal?.addEventListener('abort', onCallerAbort, {once: true});
		this.#inflight.add(controller);

		const headers: Record<string, string> = {};
		if (this.#token !== null) {
			headers['authorization'] = `Bearer ${this.#token}`;
		}

		if (body !== null) {
			headers['content-type'] = 'application/json';
		}

		let afterHeaders = false;
		try {
			const response = await request(`${this.url}${path}`, {
				dispatcher: this.#dispatcher,
				method,
				headers,
				body,
				signal: controller.signal,
				headersTimeout: this.#headersTimeoutMs,
				bodyTimeout: this.#bodyTimeoutMs,
			});
			afterHeaders = true;
			const status = response.statusCode;
			if (status < 200 || status > 299) {
				const detail = status === 400 ? await this.#errorDetail(response.body) : null;
				if (status !== 400) {
					await discard(response.body);
				}

				throw statusError(status, path, detail);
			}

			if (!wantBody) {
				await discard(response.body);
				return '';
			}

			return await this.#readCapped(response.body, contentLengthOf(response.headers));
		} catch (error) {
			if (error instanceof MinerError) {
				throw error;
			}

			if (this.#closed && !timedOut) {
				throw new DOMException('the miner client was closed', 'AbortError');
			}

			if (signal?.aborted && !timedOut) {
				throw signal.reason;
			}

			if (timedOut) {
				throw new MinerError('timeout', `no complete answer within ${seconds(this.#deadlineMs)}`, {cause: error});
			}

			throw networkError(error, afterHeaders);
		} finally {
			clearTimeout(timer);
			signal?.removeEventListener('abort', onCallerAbort);
			this.#inflight.delete(controller);
		}
	}

	/** Read a 2xx body up to the cap. A body that arrived whole is kept even if the socket then fails (6.x JSON-RPC
	 * writes its answer twice on one socket). */
	async #readCapped(body: Dispatcher.ResponseData['body'], contentLength: number | null): Promise<string> {
		const cap = this.#maxBodyBytes;
		if (contentLength !== null && contentLength > cap) {
			body.destroy();
			throw new MinerError('too-large', `the answer is larger than ${size(cap)}`);
		}

		const chunks: Buffer[] = [];
		let received = 0;
		try {
			for await (const chunk of body) {
				const buffer = chunk as Buffer;
				received += buffer.length;
				if (received > cap) {
					body.destroy();
					throw new MinerError('too-large', `the answer is larger than ${size(cap)}`);
				}

				chunks.push(buffer);
			}
		} catch (error) {
			if (error instanceof MinerError || contentLength === null || received < contentLength) {
				throw error;
			}
		}

		return Buffer.concat(chunks).toString('utf8');
	}

	/** The miner's `error` text from a 400 answer ({"status":400,"error":"…"}), when there is one. 2.x sends none. */
	async #errorDetail(body: Dispatcher.ResponseData['body']): Promise<string | null> {
		const chunks: Buffer[] = [];
		let received = 0;
		try {
			for await (const chunk of body) {
				const buffer = chunk as Buffer;
				chunks.push(buffer);
				received += buffer.length;
				if (received >= errorBodyBytes) {
					body.destroy();
					break;
				}
			}
		} catch {
			// The status is what matters; a broken error body only loses the detail.
		}

		try {
			const value = parseJsonText(Buffer.concat(chunks).toString('utf8'));
			const text =
				typeof value === 'object' && value !== null && Object.hasOwn(value, 'error') ? (value as {error: unknown}).error : null;
			return typeof text === 'string' && text.trim() !== '' ? sanitizeText(text, 200, this.#token) : null;
		} catch {
			return null;
		}
	}
}
