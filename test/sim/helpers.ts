/**
 * Test helpers for the simulator: reading the recorded captures (test/fixtures/sim, copied from real
 * XMRig 6.26 / 2.16 / 2.14 runs), a raw-socket HTTP client for byte-exact comparisons, and polling.
 */
import {readFileSync} from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/sim');

export function fixture(relative: string): string {
	return readFileSync(path.join(FIXTURES, relative), 'utf8');
}

export type Capture = {
	readonly status: number;
	readonly reason: string;
	readonly headers: readonly (readonly [string, string])[];
	readonly head: string;
	readonly body: string;
	readonly raw: string;
};

/** Splits `curl -i` output (or raw response bytes) into status, headers and body. */
export function parseCapture(raw: string): Capture {
	const split = raw.indexOf('\r\n\r\n');
	const head = split === -1 ? raw : raw.slice(0, split + 4);
	const body = split === -1 ? '' : raw.slice(split + 4);
	const lines = head.split('\r\n').filter((line) => line !== '');
	const match = /^HTTP\/1\.1 (\d{3}) (.*)$/.exec(lines[0] ?? '');
	if (!match) throw new Error(`not an HTTP response: ${JSON.stringify(raw.slice(0, 80))}`);
	const headers = lines.slice(1).map((line) => {
		const colon = line.indexOf(':');
		return [line.slice(0, colon), line.slice(colon + 1).trim()] as const;
	});
	return {status: Number(match[1]), reason: match[2]!, headers, head, body, raw};
}

export type IndexRow = {
	readonly name: string;
	readonly method: string;
	readonly path: string;
	/** good / bad / none / nobearer, or a literal Authorization value. */
	readonly auth: string;
	readonly contentType: string | null;
	readonly bodyFile: string | null;
	readonly status: number;
};

/** Reads a capture folder's index.tsv: one row per request, in the order sent. */
export function readIndex(relative: string): IndexRow[] {
	return fixture(relative)
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => {
			const [name, method, requestPath, auth, contentType, bodyFile, status] = line.split('\t');
			return {
				name: name!,
				method: method!,
				path: requestPath!,
				auth: auth!,
				contentType: contentType === '-' ? null : contentType!,
				bodyFile: bodyFile === '-' ? null : bodyFile!,
				status: Number(status),
			};
		});
}

/** The Authorization header the capture script sent for an index row's auth column. */
export function authorization(auth: string, goodToken: string): string | null {
	switch (auth) {
		case 'none':
			return null;
		case 'good':
			return `Bearer ${goodToken}`;
		case 'bad':
			return 'Bearer wrongtoken';
		case 'nobearer':
			return goodToken;
		default:
			return auth;
	}
}

export type RawRequest = {
	readonly method: string;
	readonly path: string;
	readonly headers?: Readonly<Record<string, string>>;
	readonly body?: string;
};

/** Sends one request over a plain socket and returns every byte the server wrote before closing. */
export function rawRequest(port: number, request: RawRequest): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = net.connect({host: '127.0.0.1', port});
		const chunks: Buffer[] = [];
		const body = request.body === undefined ? null : Buffer.from(request.body, 'utf8');
		let head = `${request.method} ${request.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n`;
		for (const [name, value] of Object.entries(request.headers ?? {})) head += `${name}: ${value}\r\n`;
		if (body) head += `Content-Length: ${body.length}\r\n`;
		head += '\r\n';
		socket.on('connect', () => socket.write(body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1')));
		socket.on('data', (chunk: Buffer) => chunks.push(chunk));
		socket.on('error', reject);
		socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
		socket.setTimeout(5000, () => socket.destroy(new Error('raw request timed out')));
	});
}

/** Polls `check` until it returns true (or throws after `timeoutMs`). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await check()) return;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

/** Every key path of a JSON value in document order ("results.best[]"), for shape comparisons. */
export function keyPaths(value: unknown, prefix = ''): string[] {
	if (Array.isArray(value)) {
		const element = value.find((item) => item !== null && typeof item === 'object');
		return [prefix + '[]', ...(element === undefined ? [] : keyPaths(element, prefix + '[]'))];
	}
	if (value !== null && typeof value === 'object') {
		return Object.entries(value).flatMap(([key, member]) => {
			const at = prefix === '' ? key : `${prefix}.${key}`;
			return [at, ...keyPaths(member, at)];
		});
	}
	return [];
}

/** A manual clock for deterministic simulated time: advance it, then look at the simulator. */
export function manualClock(): {clock: () => number; advance: (seconds: number) => void} {
	let now = 0;
	return {clock: () => now, advance: (seconds) => (now += seconds * 1000)};
}
