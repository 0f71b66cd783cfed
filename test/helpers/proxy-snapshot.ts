/**
 * An xmrig-proxy's snapshot for unit tests, as the reader makes one (source/miner/normalize-proxy.ts): its own
 * windows in `proxy.hashrate` (H/s), the generic windows [null, 1 min, null], results good = accepted, connected
 * while an upstream is active.
 */
import type {MinerSnapshot, ProxyInfo} from '../../source/miner/model.js';
import {makeSnapshot} from './snapshot.js';

export function makeProxyInfo(overrides: Partial<ProxyInfo> = {}): ProxyInfo {
	return {
		mode: 'nicehash',
		miners: {now: 12, max: 14},
		workerCount: 12,
		upstreams: {active: 1, sleep: 0, error: 0, total: 1, ratio: 12},
		results: {accepted: 400, rejected: 8, invalid: 0, expired: 0, avgTime: 3, latency: 40, hashesTotal: null, hashesDonate: null, best: []},
		hashrate: [9000, 8800, 8700, 8600, 8500],
		sinceStart: 9100,
		workers: null,
		workersMode: 'rig_id',
		...overrides,
	};
}

export function makeProxySnapshot(name = 'proxy-01', overrides: Partial<ProxyInfo> = {}): MinerSnapshot {
	const info = makeProxyInfo(overrides);
	return makeSnapshot({
		dialect: 'proxy',
		kind: 'proxy',
		workerId: name,
		userAgent: null,
		algo: null,
		paused: null,
		donateLevel: null,
		proxy: info,
		hugepages: null,
		resources: null,
		threads: [],
		perThreadRead: false,
		hashrate: {total: [null, info.hashrate[0], null], highest: null},
		results: {
			good: info.results.accepted,
			total: info.results.accepted + info.results.rejected,
			rejected: info.results.rejected,
			avgTime: info.results.avgTime,
			best: null,
			diffCurrent: null,
		},
		connection: {pool: null, ip: null, connected: (info.upstreams?.active ?? 0) > 0, failures: info.upstreams?.error ?? null},
	});
}
