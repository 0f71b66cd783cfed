/**
 * What xmrig-proxy says about itself and the workers behind it (`/1/summary`, `/1/workers`, `/1/miners`), read into
 * the same units as the rest of the model: rates in H/s (the proxy sends kH/s), times in ms since the epoch.
 * Part of the model (model.ts re-exports it); a miner's snapshot has `proxy: null`.
 */
import type {Rate} from './rate.js';

/** xmrig-proxy's five windows, H/s here (the proxy sends kH/s): 1 min, 10 min, 1 h, 12 h, 24 h. */
export type ProxyRateWindows = readonly [Rate, Rate, Rate, Rate, Rate];

export const PROXY_WINDOW_LABELS = ['1m', '10m', '1h', '12h', '24h'] as const;
export const PROXY_WINDOW_SECONDS = [60, 600, 3600, 43200, 86400] as const;
export type ProxyWindowLabel = (typeof PROXY_WINDOW_LABELS)[number];

/** One row of `/1/workers`: the miners the proxy groups under one name (by rig id, user, agent, ip… its `mode`). */
export type ProxyWorker = {
	/**
	 * What the proxy groups by (`ProxyInfo.workersMode`): the rig id, user, agent or ip. In mode "password" the proxy
	 * names a worker by its pool password: rigtop drops it and says "worker N" (its place in the proxy's list).
	 */
	readonly name: string;
	/** The last IP the worker connected from. */
	readonly ip: string | null;
	/** Connections open now. */
	readonly connections: number;
	readonly accepted: number;
	readonly rejected: number;
	readonly invalid: number;
	/** Sum of the difficulties of its accepted shares. */
	readonly hashes: number;
	/** ms since the epoch of the last share; null when the proxy says 0 (none yet). */
	readonly lastShareAt: number | null;
	readonly hashrate: ProxyRateWindows;
};

/**
 * One row of `/1/miners`, read by the names in its `format` row. The proxy also sends each miner's pool password;
 * it is dropped while parsing and never kept in any object.
 */
export type ProxyMiner = {
	readonly id: number | null;
	readonly ip: string | null;
	/** Bytes sent to the miner. */
	readonly tx: number | null;
	/** Bytes received from it. */
	readonly rx: number | null;
	/** The proxy's connection state number (0 waiting for login … 2 ready, 3 closing). */
	readonly state: number | null;
	readonly diff: number | null;
	readonly user: string | null;
	readonly rigId: string | null;
	readonly agent: string | null;
};

export type ProxyUpstreams = {
	readonly active: number;
	readonly sleep: number;
	readonly error: number;
	readonly total: number;
	/** Miners per active upstream; null where not sent. */
	readonly ratio: number | null;
};

export type ProxyResults = {
	readonly accepted: number;
	readonly rejected: number;
	readonly invalid: number;
	readonly expired: number;
	/** Average seconds between accepted shares; null before the first. */
	readonly avgTime: number | null;
	/** Average share round trip to the pool, ms; null before the first. */
	readonly latency: number | null;
	readonly hashesTotal: number | null;
	readonly hashesDonate: number | null;
	/** The best share difficulties, highest first, zeros left out. */
	readonly best: readonly number[];
};

export type ProxyInfo = {
	/** nicehash | simple | extra_nonce. */
	readonly mode: string | null;
	readonly miners: {readonly now: number; readonly max: number} | null;
	/** The summary's `workers` count. */
	readonly workerCount: number | null;
	/** null where the proxy sends only a count of active upstreams (2.x on paths other than /1/summary). */
	readonly upstreams: ProxyUpstreams | null;
	readonly results: ProxyResults;
	readonly hashrate: ProxyRateWindows;
	/**
	 * The average since the proxy started, H/s: the sixth number of `hashrate.total`, `hashrate(uptime)` in the proxy's
	 * Stats.cpp (not a highest rate, whatever the API docs suggest: 57 000 hashes in 48 s gave the captured 1.18 kH/s).
	 */
	readonly sinceStart: Rate;
	/** From /1/workers; null when not read this poll or the proxy does not list workers. */
	readonly workers: readonly ProxyWorker[] | null;
	/** /1/workers `mode`: rig_id, user, password, agent, ip, none (listing off; 6.x config `"workers": false`). */
	readonly workersMode: string | null;
};
