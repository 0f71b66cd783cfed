import {STATUS_CODES} from 'node:http';
import type {Delivery} from '../types.js';

/** A channel's request: everything fetch needs except the signal. */
export type ChannelRequest = {
	readonly url: string;
	readonly method?: string;
	readonly headers?: Readonly<Record<string, string>>;
	readonly body?: string;
};

/** What to tell the user to fix for a 4xx of this service (one short phrase), or undefined for the general one. */
export type FixFor = (status: number, body: string) => string | undefined;

/** Answers are read up to this much (an error's JSON, a Retry-After in the body); the rest is dropped. */
const MAX_BODY = 64 * 1024;

const GENERAL_FIX: Readonly<Record<number, string>> = {
	400: 'the service refused the message',
	401: "check the URL's credentials",
	403: "check the URL's credentials and access",
	404: "check the URL's path",
	405: 'check the method',
	410: 'the service removed this endpoint',
	413: 'the message is too large',
};

function statusWords(status: number): string {
	return (STATUS_CODES[status] ?? 'error').toLowerCase();
}

/** Retry-After as ms from now: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when neither. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
	if (value === null) return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const when = Date.parse(text);
	if (Number.isNaN(when)) return undefined;
	return Math.max(0, when - now);
}

/** A 429's wait said in the body instead (Discord's `retry_after`, Telegram's `parameters.retry_after`), in seconds. */
function bodyRetryAfterMs(body: string): number | undefined {
	try {
		const parsed = JSON.parse(body) as {retry_after?: unknown; parameters?: {retry_after?: unknown}};
		const seconds = typeof parsed.retry_after === 'number' ? parsed.retry_after : parsed.parameters?.retry_after;
		return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
	} catch {
		return undefined;
	}
}

/** Why a request got no answer, in words (the error's code, never its message: undici's may hold the URL). */
function networkReason(error: unknown, signal: AbortSignal): string {
	if (signal.aborted) return 'no answer in time';
	const cause = (error as {cause?: {code?: unknown}} | undefined)?.cause;
	const code = typeof cause?.code === 'string' ? cause.code : undefined;
	switch (code) {
		case 'ECONNREFUSED':
			return 'connection refused';
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return 'host not found';
		case 'ECONNRESET':
		case 'UND_ERR_SOCKET':
			return 'connection closed before the answer';
		case 'ETIMEDOUT':
		case 'UND_ERR_CONNECT_TIMEOUT':
		case 'UND_ERR_HEADERS_TIMEOUT':
		case 'UND_ERR_BODY_TIMEOUT':
			return 'no answer in time';
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return 'network unreachable';
		case undefined:
			return 'network error';
		default:
			return /^[A-Z0-9_]{2,40}$/.test(code)
				? code.includes('CERT') || code.includes('TLS')
					? `TLS: ${code}`
					: `network error (${code})`
				: 'network error';
	}
}

async function readBody(response: Response): Promise<string> {
	if (!response.body) return '';
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	try {
		while (size < MAX_BODY) {
			const {done, value} = await reader.read();
			if (done) break;
			chunks.push(value);
			size += value.byteLength;
		}
	} finally {
		await reader.cancel().catch(() => undefined);
	}
	return Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY);
}

/**
 * Makes one request and reads the service's answer as a Delivery: 2xx ok; 408, 429, 5xx, no answer, a refused or
 * broken connection: try again (429's Retry-After, or the body's retry_after, as retryAfterMs; a 503's or another
 * failure's Retry-After too: RFC 9110 §10.2.3, how long the service expects to be unavailable); any other answer: do
 * not (a reason naming the fix). Never throws; bounded by the signal. The reason holds the service's name, the status,
 * its words and the fix, never the URL (its path and query hold the secrets).
 */
export async function deliver(
	service: string,
	request: ChannelRequest,
	signal: AbortSignal,
	fixFor?: FixFor,
	/** A service that answers 2xx for a failure (healthchecks' "OK (not found)"): the fix it means, or undefined. */
	refuse2xx?: (body: string) => string | undefined,
): Promise<Delivery> {
	const started = performance.now();
	const ms = (): number => Math.round(performance.now() - started);
	if (signal.aborted) return {ok: false, retry: true, ms: 0, reason: `${service}: no answer in time`};
	let response: Response;
	try {
		response = await fetch(request.url, {
			method: request.method ?? 'POST',
			headers: {'user-agent': 'rigtop', ...request.headers},
			...(request.body === undefined ? {} : {body: request.body}),
			signal,
			redirect: 'manual',
		});
	} catch (error) {
		return {ok: false, retry: true, ms: ms(), reason: `${service}: ${networkReason(error, signal)}`};
	}
	const status = response.status;
	let body = '';
	try {
		body = await readBody(response);
	} catch (error) {
		if (status >= 200 && status < 300) return {ok: true, status, ms: ms()};
		if (signal.aborted) return {ok: false, retry: true, status, ms: ms(), reason: `${service}: ${networkReason(error, signal)}`};
	}
	const head = `${service}: ${status} ${statusWords(status)}`;
	if (status >= 200 && status < 300) {
		const refused = refuse2xx?.(body);
		return refused === undefined
			? {ok: true, status, ms: ms()}
			: {ok: false, retry: false, status, ms: ms(), reason: `${head}: ${refused}`};
	}
	if (status === 408 || status === 429 || status >= 500) {
		// The header on any of them (RFC 9110 §10.2.3); a 429's wait may also be in the body (Discord, Telegram).
		const header = retryAfterMs(response.headers.get('retry-after'));
		const after = status === 429 ? (header ?? bodyRetryAfterMs(body)) : header;
		return {
			ok: false,
			retry: true,
			status,
			ms: ms(),
			reason: `${head}: ${status === 429 ? 'too many messages, waiting' : 'the service failed, retrying'}`,
			...(after === undefined ? {} : {retryAfterMs: after}),
		};
	}
	if (status >= 300 && status < 400) return {ok: false, retry: false, status, ms: ms(), reason: `${head}: the URL moved: check it`};
	const fix = fixFor?.(status, body) ?? GENERAL_FIX[status] ?? "check the channel's URL";
	return {ok: false, retry: false, status, ms: ms(), reason: `${head}: ${fix}`};
}

/** A Delivery for a channel that could not even make its request (a bug of ours: it must not throw). */
export function failed(service: string, error: unknown): Delivery {
	return {ok: false, retry: false, ms: 0, reason: `${service}: ${error instanceof Error ? error.name : 'error'} preparing the request`};
}

/** Cuts text to at most `max` UTF-16 units, ending with '…' when cut. */
export function cut(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The notice as plain text: its title, then its body. */
export function plainText(notice: {readonly title: string; readonly body: string}): string {
	return notice.body ? `${notice.title}\n${notice.body}` : notice.title;
}

/** Basic authorization's header value. */
export function basicAuth(user: string, password: string): string {
	return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** A POST of a JSON payload. */
export function jsonPost(url: string, payload: unknown, headers: Readonly<Record<string, string>> = {}): ChannelRequest {
	return {url, headers: {'content-type': 'application/json', ...headers}, body: JSON.stringify(payload)};
}
