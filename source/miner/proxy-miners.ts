import type {MinerClient} from './client.js';
import {readProxyMinersDocument} from './normalize-proxy.js';
import type {ProxyMiner} from './proxy-model.js';

/**
 * xmrig-proxy's connected miners (`GET /1/miners`, 2.8+), one ProxyMiner each. The proxy sends every miner's pool
 * password with them (and not behind `restricted`); it is dropped while parsing and reaches no object, message or log.
 * Throws MinerError (or the abort reason when `signal` aborts).
 */
export async function readProxyMiners(client: MinerClient, signal?: AbortSignal): Promise<ProxyMiner[]> {
	return readProxyMinersDocument(await client.getJson('/1/miners', signal));
}
