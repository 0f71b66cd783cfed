import type http from 'node:http';
import process from 'node:process';

/**
 * node:http as Node's CommonJS module. An ESM `import` of it builds the module's ESM facade, which reads every export,
 * and Node 22's lazy `WebSocket`/`MessageEvent` exports then load Node's internal copy of undici: ~13 ms of every start
 * (docs/performance.md). getBuiltinModule (Node 22.3+) returns the same module without the facade.
 */
export const nodeHttp = process.getBuiltinModule('node:http');

/**
 * The connections of one miner's client: a node:http Agent of its own.
 *
 * XMRig closes every connection after one answer, so there is no connection to reuse: the Agent asks for none
 * (keepAlive off) and only bounds how many requests run at once, 4 (a poll makes 2); more wait for a free socket.
 * Node's own HTTP client rather than undici: it is part of Node, so it costs no code to load, and its parser (llhttp,
 * as undici's) is native, where undici compiles a WebAssembly build of it at every start and waits for V8's
 * background compile of it at exit (docs/performance.md: `rigtop --once` and start-up, measured both ways).
 *
 * The limits are here so a hung or hostile server cannot pin sockets: connect gives up after 3 s, headers and body
 * each after 5 s of silence (each request also has an overall deadline, see client.ts).
 */

export const defaultConnectTimeoutMs = 3000;
export const defaultHeadersTimeoutMs = 5000;
export const defaultBodyTimeoutMs = 5000;
export const maxConnectionsPerMiner = 4;

export function createMinerAgent(): http.Agent {
	return new nodeHttp.Agent({keepAlive: false, maxSockets: maxConnectionsPerMiner});
}
