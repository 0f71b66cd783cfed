/**
 * HTTP/1.1 on the wire, by hand, so every byte of an answer is the simulator's choice (node:http would
 * add Date, Content-Length: 0 or chunked framing the real miner never sends). One request per
 * connection, like XMRig: after the answer the socket is closed.
 */

export type WireRequest = {
	readonly method: string;
	/** The raw request target, e.g. "/1/summary?x=1" (XMRig matches it as an exact string). */
	readonly target: string;
	/** Lower-case names; the first occurrence of a repeated header wins (XMRig's std::map insert). */
	readonly headers: ReadonlyMap<string, string>;
	readonly body: Buffer;
};

export type WireResponse = {
	readonly status: number;
	readonly reason: string;
	/** In the order written. */
	readonly headers: readonly (readonly [string, string])[];
	readonly body: string | null;
};

const MAX_HEAD = 80 * 1024;
const MAX_BODY = 64 * 1024 * 1024;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export type ParseState = {readonly kind: 'more'} | {readonly kind: 'invalid'} | {readonly kind: 'done'; readonly request: WireRequest};

/** Incremental parser for one request; feed it chunks until it says done or invalid. */
export class RequestParser {
	private buffer: Buffer = Buffer.alloc(0);
	private head: {method: string; target: string; headers: Map<string, string>; length: number | 'chunked'; bodyStart: number} | null = null;

	push(chunk: Buffer): ParseState {
		this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
		if (!this.head) {
			const end = this.buffer.indexOf('\r\n\r\n');
			if (end === -1) return this.buffer.length > MAX_HEAD ? {kind: 'invalid'} : {kind: 'more'};
			const head = parseHead(this.buffer.subarray(0, end).toString('latin1'));
			if (!head) return {kind: 'invalid'};
			this.head = {...head, bodyStart: end + 4};
		}
		const {method, target, headers, length, bodyStart} = this.head;
		const rest = this.buffer.subarray(bodyStart);
		if (length === 'chunked') {
			const decoded = decodeChunked(rest);
			if (decoded === 'invalid') return {kind: 'invalid'};
			if (decoded === 'more') return rest.length > MAX_BODY ? {kind: 'invalid'} : {kind: 'more'};
			return {kind: 'done', request: {method, target, headers, body: decoded}};
		}
		if (rest.length < length) return {kind: 'more'};
		return {kind: 'done', request: {method, target, headers, body: Buffer.from(rest.subarray(0, length))}};
	}
}

function parseHead(text: string): {method: string; target: string; headers: Map<string, string>; length: number | 'chunked'} | null {
	const lines = text.split('\r\n');
	const requestLine = /^(\S+) (\S+) HTTP\/1\.[01]$/.exec(lines[0] ?? '');
	if (!requestLine || !TOKEN.test(requestLine[1]!)) return null;
	const headers = new Map<string, string>();
	for (const line of lines.slice(1)) {
		const colon = line.indexOf(':');
		if (colon <= 0) return null;
		const name = line.slice(0, colon);
		if (!TOKEN.test(name)) return null;
		const key = name.toLowerCase();
		if (!headers.has(key)) headers.set(key, line.slice(colon + 1).trim());
	}
	const transferEncoding = headers.get('transfer-encoding');
	const contentLength = headers.get('content-length');
	let length: number | 'chunked' = 0;
	if (transferEncoding !== undefined) {
		if (transferEncoding.toLowerCase() !== 'chunked' || contentLength !== undefined) return null;
		length = 'chunked';
	} else if (contentLength !== undefined) {
		if (!/^\d{1,10}$/.test(contentLength)) return null;
		length = Number(contentLength);
		if (length > MAX_BODY) return null;
	}
	return {method: requestLine[1]!, target: requestLine[2]!, headers, length};
}

function decodeChunked(data: Buffer): Buffer | 'more' | 'invalid' {
	const parts: Buffer[] = [];
	let pos = 0;
	for (;;) {
		const lineEnd = data.indexOf('\r\n', pos);
		if (lineEnd === -1) return 'more';
		const sizeText = data.subarray(pos, lineEnd).toString('latin1').split(';')[0]!.trim();
		if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return 'invalid';
		const size = Number.parseInt(sizeText, 16);
		pos = lineEnd + 2;
		if (size === 0) {
			// Trailers (ignored) end with an empty line.
			for (;;) {
				const end = data.indexOf('\r\n', pos);
				if (end === -1) return 'more';
				if (end === pos) return Buffer.concat(parts);
				pos = end + 2;
			}
		}
		if (data.length < pos + size + 2) return 'more';
		parts.push(data.subarray(pos, pos + size));
		if (data[pos + size] !== 0x0d || data[pos + size + 1] !== 0x0a) return 'invalid';
		pos += size + 2;
	}
}

/** Status line, headers in the given order, blank line, body. */
export function serializeResponse(response: WireResponse): Buffer {
	let head = `HTTP/1.1 ${response.status} ${response.reason}\r\n`;
	for (const [name, value] of response.headers) head += `${name}: ${value}\r\n`;
	head += '\r\n';
	return Buffer.from(response.body === null ? head : head + response.body, 'utf8');
}
