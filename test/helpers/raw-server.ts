import net from 'node:net';

/**
 * THE raw HTTP server of the tests: a loopback TCP server that speaks just enough HTTP/1.1 to read
 * requests, and answers with raw bytes chosen by the test — exact captures from real miners (reason
 * phrases like NOT_FOUND and all), broken answers, answers written twice, or nothing at all. Every
 * complete request is recorded. It can stop listening and listen again on the same port (a miner
 * that goes away and comes back). The fault-injecting miner (fault-server.ts) and the replaying one
 * (test/miner/helpers/replay-miner.ts) are handlers on it.
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

export type RawServerOptions = {
	/** Default 0: a free port. */
	readonly port?: number;
	/** Told of each connection before any byte is read (a server that speaks first, connection records). */
	readonly onConnection?: (socket: net.Socket) => void;
};

export type RawServer = {
	readonly url: string;
	readonly port: number;
	readonly requests: RawRequest[];
	readonly listening: boolean;
	/** Replace the handler (e.g. "the miner restarted as another version"). */
	setHandler(handler: RawHandler): void;
	/** Closes the port and every open connection (connections are refused until `listen`). */
	stopListening(): Promise<void>;
	/** Listens again, on the same port. */
	listen(): Promise<void>;
	close(): Promise<void>;
};

/** A request head bigger than this without its end is dropped (no server reads forever). */
const MAX_HEAD_BYTES = 64 * 1024;

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

export async function startRawServer(initial: RawHandler, options: RawServerOptions = {}): Promise<RawServer> {
	let handler = initial;
	let port = options.port ?? 0;
	const requests: RawRequest[] = [];
	const sockets = new Set<net.Socket>();
	const onConnection = (socket: net.Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => {
			// The client may reset or go away; nothing to do.
		});
		options.onConnection?.(socket);
		let buffered = Buffer.alloc(0);
		let done = false;
		socket.on('data', (chunk: Buffer) => {
			if (done) return;
			buffered = Buffer.concat([buffered, chunk]);
			const end = buffered.indexOf('\r\n\r\n');
			if (end === -1) {
				if (buffered.length > MAX_HEAD_BYTES) socket.destroy();
				return;
			}

			const head = parseHead(buffered.subarray(0, end).toString('latin1'));
			const length = Number(head.headers['content-length'] ?? '0');
			const bodyBytes = buffered.subarray(end + 4);
			if (bodyBytes.length < length) return;
			done = true;
			const request: RawRequest = {...head, body: bodyBytes.subarray(0, length).toString('utf8')};
			requests.push(request);
			handler(request, socket);
		});
	};

	let server: net.Server | null = null;
	const listen = async (): Promise<void> => {
		if (server) return;
		const next = net.createServer(onConnection);
		await new Promise<void>((resolve, reject) => {
			next.once('error', reject);
			next.listen(port, '127.0.0.1', () => {
				next.off('error', reject);
				resolve();
			});
		});
		const address = next.address();
		if (address === null || typeof address === 'string') throw new Error('no port');
		port = address.port;
		server = next;
	};

	const stopListening = async (): Promise<void> => {
		const current = server;
		server = null;
		for (const socket of sockets) socket.destroy();
		if (current) {
			await new Promise<void>((resolve) => {
				current.close(() => resolve());
			});
		}
	};

	await listen();
	return {
		get url() {
			return `http://127.0.0.1:${port}`;
		},
		get port() {
			return port;
		},
		get listening() {
			return server !== null;
		},
		requests,
		setHandler(next) {
			handler = next;
		},
		stopListening,
		listen,
		close: stopListening,
	};
}

/**
 * An XMRig-style answer: CORS headers, Connection: close, and Content-Length and Content-Type only
 * with a body (as the 6.26 captures show, a 204 has neither).
 */
export function httpAnswer(
	status: number,
	body: string,
	reason = 'OK',
	extraHeaders: readonly string[] = [],
	contentType = 'application/json',
): string {
	const lines = [
		`HTTP/1.1 ${status} ${reason}`,
		'Access-Control-Allow-Headers: Authorization, Content-Type',
		'Access-Control-Allow-Methods: GET, PUT, POST, DELETE',
		'Access-Control-Allow-Origin: *',
		'Connection: close',
		...extraHeaders,
	];
	if (body !== '') {
		lines.push(`Content-Length: ${Buffer.byteLength(body)}`, `Content-Type: ${contentType}`);
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

/** A loopback port nothing listens on now (taken from the system, then released). */
export async function freePort(): Promise<number> {
	const probe = net.createServer();
	await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
	const {port} = probe.address() as net.AddressInfo;
	await new Promise<void>((resolve) => probe.close(() => resolve()));
	return port;
}

/** Whether a connection to this loopback port is refused (nothing listens there). */
export async function refused(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect({host: '127.0.0.1', port});
		socket.on('connect', () => {
			socket.destroy();
			resolve(false);
		});
		socket.on('error', () => resolve(true));
	});
}
