import {Pool} from 'undici';

/**
 * The connection pool of one miner's client.
 *
 * XMRig closes every connection after one answer, so pooling buys no connection reuse. A Pool of its own per miner
 * still matters: undici's shared Agent drops an origin's Pool once its last connection closes and builds a new Pool
 * and Client for the next request, which cost a fleet of 100 miners polled every second about 4 % of one core
 * (`node bench/http-client.bench.mjs`). A Pool keeps its Clients, which reconnect on the next request.
 *
 * The limits are here so a hung or hostile server cannot pin sockets: connect gives up after 3 s, headers and body
 * each after 5 s of silence (each request also has an overall deadline, see client.ts). Up to 4 requests run at once
 * (a poll makes 2); more wait for a free connection.
 */

export const defaultConnectTimeoutMs = 3000;
export const defaultHeadersTimeoutMs = 5000;
export const defaultBodyTimeoutMs = 5000;
export const maxConnectionsPerMiner = 4;

export function createMinerPool(origin: string, connectTimeoutMs: number): Pool {
	return new Pool(origin, {
		// No TCP keep-alive probes: every connection lives for one answer (and setting them costs syscalls per connection).
		connect: {timeout: connectTimeoutMs, keepAlive: false},
		headersTimeout: defaultHeadersTimeoutMs,
		bodyTimeout: defaultBodyTimeoutMs,
		connections: maxConnectionsPerMiner,
		pipelining: 1,
		keepAliveTimeout: 1000,
	});
}
