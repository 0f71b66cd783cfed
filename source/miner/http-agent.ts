import {Agent} from 'undici';

/**
 * The one undici Agent the process uses to talk to miners, created on first use.
 *
 * XMRig closes every connection after one answer, so pooling buys nothing; the limits are here so a hung or hostile
 * server cannot pin sockets: connect gives up after 3 s, headers and body each after 5 s of silence (each request
 * also has an overall deadline, see client.ts).
 */

export const defaultConnectTimeoutMs = 3000;
export const defaultHeadersTimeoutMs = 5000;
export const defaultBodyTimeoutMs = 5000;

let shared: Agent | null = null;

export function createMinerAgent(connectTimeoutMs: number): Agent {
	return new Agent({
		connect: {timeout: connectTimeoutMs},
		headersTimeout: defaultHeadersTimeoutMs,
		bodyTimeout: defaultBodyTimeoutMs,
		connections: 4,
		pipelining: 1,
		keepAliveTimeout: 1000,
	});
}

/** The process-wide Agent (default connect timeout). */
export function sharedAgent(): Agent {
	shared ??= createMinerAgent(defaultConnectTimeoutMs);
	return shared;
}

/** Close the process-wide Agent (at exit). A later request creates a fresh one. */
export async function closeSharedAgent(): Promise<void> {
	const agent = shared;
	shared = null;
	if (agent) {
		await agent.close();
	}
}
