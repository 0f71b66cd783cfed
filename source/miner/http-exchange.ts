import type {IncomingHttpHeaders} from 'node:http';
import type {Dispatcher} from 'undici';
import {MinerError} from './errors.js';
import {networkError} from './http-errors.js';

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

function contentLengthOf(headers: IncomingHttpHeaders): number | null {
	const value = headers['content-length'];
	const text = Array.isArray(value) ? value[0] : value;
	if (text === undefined || !/^\d+$/u.test(text.trim())) {
		return null;
	}

	return Number(text.trim());
}

function sizeText(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
	return bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

/**
 * One request, as a handler of undici's dispatch API: it keeps the status and the body (within the caps) and settles
 * `answer` once. Reading through dispatch rather than `request()` skips a body stream per request, which counts when a
 * fleet of miners is polled every second (`node bench/run.mjs http-client`).
 *
 * `answer` resolves with every answer that has a status, 2xx or not (the caller maps statuses); it rejects with a
 * MinerError when no status came or a wanted body broke off, or with the reason given to abort(). A wanted 2xx body
 * that arrived whole (its Content-Length reached) is kept even if the socket then fails: XMRig 6.x writes its
 * JSON-RPC answer twice on one socket, and the second copy breaks the HTTP parser.
 */
export class Exchange implements Dispatcher.DispatchHandler {
	readonly answer: Promise<Answer>;
	readonly #options: ExchangeOptions;
	#resolve!: (answer: Answer) => void;
	#reject!: (reason: unknown) => void;
	#settled = false;
	#controller: Dispatcher.DispatchController | null = null;
	#abortReason: {reason: unknown} | null = null;
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

	/** End the request now: `answer` rejects with `reason` (unless it has settled already) and the socket is dropped. */
	abort(reason: unknown): void {
		if (this.#settled) {
			return;
		}

		this.#settled = true;
		this.#reject(reason);
		if (this.#controller) {
			this.#controller.abort(reason instanceof Error ? reason : new Error(String(reason)));
		} else {
			// Still waiting for a connection: dropped as soon as it gets one.
			this.#abortReason = {reason};
		}
	}

	onRequestStart(controller: Dispatcher.DispatchController): void {
		this.#controller = controller;
		if (this.#abortReason !== null) {
			const {reason} = this.#abortReason;
			controller.abort(reason instanceof Error ? reason : new Error(String(reason)));
		}
	}

	onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
		if (statusCode < 200) {
			// An informational answer: the real one follows.
			return;
		}

		this.#status = statusCode;
		this.#contentLength = contentLengthOf(headers);
		if (this.#ok && !this.#options.wantBody) {
			// The status is the answer: a body that follows is dropped with the socket (even one that drips forever).
			this.#succeed();
		} else if (this.#capped && this.#contentLength !== null && this.#contentLength > this.#options.maxBodyBytes) {
			this.abort(this.#tooLarge());
		}
	}

	onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
		if (this.#settled) {
			if (!controller.aborted) controller.abort(new Error('the rest of the answer is not wanted'));
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

	onResponseEnd(): void {
		this.#succeed();
	}

	onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
		if (this.#settled) {
			return;
		}

		// With the status known, a broken error body loses nothing that matters.
		const statusIsEnough = this.#status !== 0 && !this.#ok;
		const bodyArrivedWhole = this.#capped && this.#contentLength !== null && this.#received >= this.#contentLength;
		if (statusIsEnough || bodyArrivedWhole) {
			this.#succeed();
			return;
		}

		this.#settled = true;
		this.#reject(networkError(error, this.#status !== 0));
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

		this.#settled = true;
		const body = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
		this.#resolve({status: this.#status, body});
	}
}
