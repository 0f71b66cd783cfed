import {createServer, type IncomingMessage} from 'node:http';
import type {AddressInfo} from 'node:net';

/** A request the server saw. */
export type SeenRequest = {method: string; path: string; headers: Record<string, string>; body: string};

/**
 * What to answer: a recorded `curl -i` capture sent byte for byte, a plain answer, or 'reset' (the
 * connection is destroyed after the request arrived: the client gets no answer).
 */
export type Reply = {capture: string} | {status: number; body?: string} | 'reset';

export type ReplayServer = {
	readonly url: string;
	readonly requests: SeenRequest[];
	close(): Promise<void>;
};

function headersOf(request: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
	return headers;
}

/**
 * A small real HTTP server on 127.0.0.1 (random port) that answers like a misbehaving or recorded
 * miner: `route` picks the reply for each request.
 */
export async function startReplayServer(route: (request: SeenRequest) => Reply): Promise<ReplayServer> {
	const requests: SeenRequest[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const seen: SeenRequest = {
				method: request.method ?? '',
				path: request.url ?? '',
				headers: headersOf(request),
				body: Buffer.concat(chunks).toString('utf8'),
			};
			requests.push(seen);
			const reply = route(seen);
			if (reply === 'reset') {
				request.socket.destroy();
				return;
			}

			if ('capture' in reply) {
				request.socket.end(reply.capture);
				return;
			}

			const body = reply.body ?? '';
			response.writeHead(reply.status, {
				Connection: 'close',
				'Content-Type': 'application/json',
				...(body ? {'Content-Length': Buffer.byteLength(body)} : {}),
			});
			response.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A 200 answer holding a JSON text. */
export function json(body: string): Reply {
	return {status: 200, body};
}
