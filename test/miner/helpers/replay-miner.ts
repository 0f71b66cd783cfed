import {afterEach} from 'vitest';
import {MinerClient} from '../../../source/miner/client.js';
import {readCapture} from '../../helpers/captures.js';
import {answer, httpAnswer, jsonAnswer, startRawServer, type RawRequest, type RawServer} from '../../helpers/raw-server.js';

/**
 * A stand-in miner that answers each "METHOD /path" with a fixed raw answer: a real capture, or a synthetic payload in
 * XMRig's answer format. Anything else gets `fallback` (by default 6.x's 404). The routes can be swapped mid-test to
 * play a restart, an upgrade or a different program on the same port.
 */

export type Routes = Readonly<Record<string, string | ((request: RawRequest) => string)>>;

export type ReplayMiner = RawServer & {
	setRoutes(routes: Routes, fallback?: string | ((request: RawRequest) => string)): void;
	/** The request targets seen so far, as "METHOD /path". */
	seen(): string[];
};

export const notFound6 = httpAnswer(404, '{\n    "status": 404,\n    "error": "NOT_FOUND"\n}', 'NOT_FOUND');
export const notFound2 = httpAnswer(404, '{\n    "status": 404,\n    "error": "Not Found"\n}', 'Not Found');

/** An answer with the body of a capture file, as the miner sent it. */
export function capture(relative: string): string {
	return readCapture(relative).raw;
}

/** A 200 answer holding a JSON document. */
export function json(value: unknown): string {
	return jsonAnswer(value);
}

export async function startReplayMiner(
	routes: Routes,
	fallback: string | ((request: RawRequest) => string) = notFound6,
): Promise<ReplayMiner> {
	let current = routes;
	let otherwise = fallback;
	const server = await startRawServer((request, socket) => {
		const route = current[`${request.method} ${request.target}`] ?? otherwise;
		answer(socket, typeof route === 'function' ? route(request) : route);
	});
	return Object.assign(server, {
		setRoutes(next: Routes, nextFallback: string | ((request: RawRequest) => string) = notFound6) {
			current = next;
			otherwise = nextFallback;
		},
		seen() {
			return server.requests.map((request) => `${request.method} ${request.target}`);
		},
	});
}

/** Routes of a real 6.26 miner (restricted, no token) from its captures. */
export function routes626(): Routes {
	return {
		'GET /1/summary': capture('v6.26/restricted-notoken/get_1_summary_notoken.txt'),
		'GET /2/summary': capture('v6.26/restricted-notoken/get_2_summary_notoken.txt'),
		'GET /2/backends': capture('v6.26/restricted-notoken/get_2_backends_notoken.txt'),
		'GET /1/threads': capture('v6.26/restricted-notoken/get_1_threads_notoken.txt'),
	};
}

/** Routes of a real 2.16 miner (restricted, no token) from its captures. */
export function routes216(): Routes {
	return {
		'GET /1/summary': capture('v2.16/restricted-notoken/get_1_summary_notoken.txt'),
		'GET /1/threads': capture('v2.16/restricted-notoken/get_1_threads_notoken.txt'),
		'GET /2/summary': capture('v2.16/restricted-notoken/get_2_summary_notoken.txt'),
		'GET /2/backends': capture('v2.16/restricted-notoken/get_2_backends_notoken.txt'),
	};
}

/** Routes of a real xmrig-proxy 6.26.0 (token proxy-secret-3b7, unrestricted) from its captures. */
export function routesProxy626(): Routes {
	const at = (name: string) => capture(`../xmrig-proxy/v6.26/${name}`);
	return {
		'GET /1/summary': at('get_1_summary.txt'),
		'GET /2/summary': at('get_2_summary.txt'),
		'GET /api.json': at('get_api_json.txt'),
		'GET /1/workers': at('get_1_workers.txt'),
		'GET /1/miners': at('get_1_miners.txt'),
		'GET /1/config': at('get_1_config.txt'),
		'GET /2/config': at('get_2_config.txt'),
		'GET /1/threads': at('get_1_threads.txt'),
		'GET /2/backends': at('get_2_backends.txt'),
	};
}

/**
 * Replay miners and clients owned by the tests of the calling file: `start` starts a replay miner (as
 * startReplayMiner), `client` opens a MinerClient on one with `token` (none unless given); after each test every
 * client is closed, then every miner.
 */
export function replayMinersForEachTest(): {
	start(routes: Routes, fallback?: string): Promise<ReplayMiner>;
	client(miner: ReplayMiner, token?: string | null): MinerClient;
} {
	const miners: ReplayMiner[] = [];
	const clients: MinerClient[] = [];
	afterEach(async () => {
		await Promise.all(clients.splice(0).map(async (client) => client.close()));
		await Promise.all(miners.splice(0).map(async (miner) => miner.close()));
	});
	return {
		async start(routes, fallback) {
			const miner = await startReplayMiner(routes, fallback);
			miners.push(miner);
			return miner;
		},
		client(miner, token = null) {
			const client = new MinerClient({url: miner.url, token});
			clients.push(client);
			return client;
		},
	};
}
