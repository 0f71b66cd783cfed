import {STATUS_CODES} from 'node:http';
import {httpAnswer, startRawServer} from '../../helpers/raw-server.js';

/** A request the server saw. */
export type SeenRequest = {method: string; path: string; headers: Readonly<Record<string, string>>; body: string};

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

/**
 * A miner on the tests' raw server (127.0.0.1, random port) that answers like a misbehaving or
 * recorded one: `route` picks the reply for each request.
 */
export async function startReplayServer(route: (request: SeenRequest) => Reply): Promise<ReplayServer> {
	const requests: SeenRequest[] = [];
	const server = await startRawServer((request, socket) => {
		const seen: SeenRequest = {method: request.method, path: request.target, headers: request.headers, body: request.body};
		requests.push(seen);
		const reply = route(seen);
		if (reply === 'reset') socket.destroy();
		else if ('capture' in reply) socket.end(reply.capture);
		else socket.end(httpAnswer(reply.status, reply.body ?? '', STATUS_CODES[reply.status] ?? 'Unknown'));
	});
	return {url: server.url, requests, close: server.close};
}

/** A 200 answer holding a JSON text. */
export function json(body: string): Reply {
	return {status: 200, body};
}
