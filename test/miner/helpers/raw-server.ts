import net from 'node:net';

/**
 * A loopback TCP server that speaks just enough HTTP/1.1 to read requests, and answers with raw bytes chosen by the
 * test: exact captures from real miners (reason phrases like NOT_FOUND and all), broken answers, answers written
 * twice, or nothing at all. Every request is recorded.
 */

export type RawRequest = {
	readonly method: string;
	/** The raw request target, exactly as sent. */
	readonly target: string;
	/** Header names lowercased; repeated headers joined with ', '. */
	readonly headers: Readonly<Record<string, string>>;
	/** The raw header lines as sent (name: value), to check exact spelling. */
	readonly rawHeaders: readonly string[];
	readonly body: string;
};

/** Write the answer (and end or keep the socket as the test wants). */
export type RawHandler = (request: RawRequest, socket: net.Socket) => void;

export type RawServer = {
	readonly url: string;
	readonly port: number;
	readonly requests: RawRequest[];
	/** Replace the handler (e.g. "the miner restarted as another version"). */
	setHandler(handler: RawHandler): void;
	close(): Promise<void>;
};

function parseHead(head: string): {method: string; target: string; headers: Record<string, string>; rawHeaders: string[]} {
	const [requestLine = '', ...lines] = head.split('\r\n');
	const [method = '', target = ''] = requestLine.split(' ');
	const headers: Record<string, string> = {};
	for (const line of lines) {
		const colon = line.indexOf(':');
		if (colon <= 0) continue;
		const name = line.slice(0, colon).trim().toLowerCase();
		const value = line.slice(colon + 1).trim();
		headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
	}

	return {method, target, headers, rawHeaders: lines.filter((line) => line !== '')};
}

export async function startRawServer(initial: RawHandler, port = 0): Promise<RawServer> {
	let handler = initial;
	const requests: RawRequest[] = [];
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => {
			// The client may reset; nothing to do.
		});
		let buffered = Buffer.alloc(0);
		let done = false;
		socket.on('data', (chunk: Buffer) => {
			if (done) return;
			buffered = Buffer.concat([buffered, chunk]);
			const end = buffered.indexOf('\r\n\r\n');
			if (end === -1) return;
			const head = parseHead(buffered.subarray(0, end).toString('latin1'));
			const length = Number(head.headers['content-length'] ?? '0');
			const bodyBytes = buffered.subarray(end + 4);
			if (bodyBytes.length < length) return;
			done = true;
			const request: RawRequest = {...head, body: bodyBytes.subarray(0, length).toString('utf8')};
			requests.push(request);
			handler(request, socket);
		});
	});
	await new Promise<void>((resolve) => {
		server.listen(port, '127.0.0.1', resolve);
	});
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('no port');
	return {
		url: `http://127.0.0.1:${address.port}`,
		port: address.port,
		requests,
		setHandler(next) {
			handler = next;
		},
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
			});
		},
	};
}

/** An XMRig-style answer: CORS headers, Connection: close, Content-Length and Content-Type only with a body. */
export function httpAnswer(status: number, body: string, reason = 'OK', extraHeaders: readonly string[] = []): string {
	const lines = [
		`HTTP/1.1 ${status} ${reason}`,
		'Access-Control-Allow-Headers: Authorization, Content-Type',
		'Access-Control-Allow-Methods: GET, PUT, POST, DELETE',
		'Access-Control-Allow-Origin: *',
		'Connection: close',
		...extraHeaders,
	];
	if (body !== '') {
		lines.push(`Content-Length: ${Buffer.byteLength(body)}`, 'Content-Type: application/json');
	}

	return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

export function jsonAnswer(value: unknown, status = 200, reason = 'OK'): string {
	return httpAnswer(status, JSON.stringify(value, null, 4), reason);
}

/** Write the answer and close, as XMRig does. */
export function answer(socket: net.Socket, raw: string): void {
	socket.end(raw);
}
