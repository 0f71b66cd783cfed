/**
 * The loopback TCP listener behind the simulated API: one request per connection, the answer written
 * as raw bytes, then the socket closed. A request that does not parse gets no answer (the connection is
 * just closed), as XMRig does.
 */
import net from 'node:net';
import {RequestParser, serializeResponse, type WireRequest, type WireResponse} from './http-wire.js';

export type Answer = {
	readonly response: WireResponse;
	/** Write the answer this many times (XMRig 5.5.1+ may send a JSON-RPC answer twice). */
	readonly repeat?: number;
	/** Runs once the answer has been handed to the socket. */
	readonly after?: () => void;
};

/** Returns the answer, or null to close the connection without one. */
export type RequestHandler = (request: WireRequest) => Answer | null;

/** Idle connections (nothing or half a request sent) are dropped after this long. */
const IDLE_TIMEOUT_MS = 30_000;

export class ApiServer {
	private server: net.Server | null = null;
	private readonly sockets = new Set<net.Socket>();
	private readonly answered = new WeakSet<net.Socket>();
	private boundPort = 0;

	constructor(private readonly handler: RequestHandler) {}

	get listening(): boolean {
		return this.server !== null;
	}

	get port(): number {
		return this.boundPort;
	}

	/** Listens on host:port (0 = any free port) and resolves with the bound port. */
	async listen(host: string, port: number): Promise<number> {
		if (this.server) return this.boundPort;
		const server = net.createServer((socket) => this.onConnection(socket));
		await new Promise<void>((resolve, reject) => {
			const onError = (error: Error): void => reject(error);
			server.once('error', onError);
			server.listen({host, port, exclusive: true}, () => {
				server.off('error', onError);
				resolve();
			});
		});
		server.on('error', () => undefined);
		this.server = server;
		const address = server.address();
		this.boundPort = typeof address === 'object' && address ? address.port : port;
		return this.boundPort;
	}

	/** Stops listening and destroys every open connection (an answer already written still goes out first). */
	async close(): Promise<void> {
		const server = this.server;
		this.server = null;
		for (const socket of this.sockets) {
			// An answered socket closes itself once its answer is flushed.
			if (!this.answered.has(socket)) socket.destroy();
		}
		this.sockets.clear();
		if (!server) return;
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	private onConnection(socket: net.Socket): void {
		this.sockets.add(socket);
		socket.setNoDelay(true);
		socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
		socket.on('close', () => this.sockets.delete(socket));
		socket.on('error', () => socket.destroy());
		const parser = new RequestParser();
		let answered = false;
		socket.on('data', (chunk: Buffer) => {
			if (answered) return;
			const state = parser.push(chunk);
			if (state.kind === 'more') return;
			answered = true;
			this.answered.add(socket);
			if (state.kind === 'invalid') {
				socket.destroy();
				return;
			}
			let answer: Answer | null;
			try {
				answer = this.handler(state.request);
			} catch {
				answer = null;
			}
			if (!answer) {
				socket.destroy();
				return;
			}
			const bytes = serializeResponse(answer.response);
			const repeat = Math.max(1, answer.repeat ?? 1);
			// Like XMRig: write the answer, then close the connection outright.
			socket.end(repeat === 1 ? bytes : Buffer.concat(Array.from({length: repeat}, () => bytes)), () => socket.destroy());
			answer.after?.();
		});
	}
}
