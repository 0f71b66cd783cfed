/**
 * The one normalized model of a miner, whatever XMRig version answered.
 *
 * Rules that hold everywhere:
 * - A value the miner did not send, or sent as null, is null here. A hashrate window that has not
 *   filled yet is null and is shown as "—", never as 0.
 * - Hashrates are in H/s. Durations are in seconds unless the name says otherwise. Sizes in bytes.
 */
import type {SensorReading} from '../sensors/types.js';
import type {ProxyInfo} from './proxy-model.js';
import type {Rate} from './rate.js';

export * from './proxy-model.js';
export type {Rate} from './rate.js';

/** The three windows XMRig reports: 10 s, 60 s and 15 min. */
export type RateWindows = readonly [Rate, Rate, Rate];

/** Which endpoints a miner answers, found from the shape of its payloads (never from a 200 alone). */
export type DialectName =
	/** 2.99 – 6.x: `/2/summary` + `/2/backends`. */
	| 'v2'
	/** 2.99 – 6.x where `/2/summary` is missing: `/1/summary` + `/2/backends`. */
	| 'v2-legacy-summary'
	/** 2.6 – 2.16 and the GPU forks: `/1/summary` + `/1/threads`. */
	| 'v1'
	/** 2.4 – 2.5 (every GET path answers the summary): `/1/summary` alone, per-thread rates from it. */
	| 'v1-summary-only'
	/** xmrig-proxy (summary `kind: "proxy"`): `/1/summary` + `/1/workers`. */
	| 'proxy';

export type Dialect = {
	readonly name: DialectName;
	readonly summaryPath: string;
	/** `/2/backends`, `/1/threads`, or null when the per-thread data comes from the summary itself. */
	readonly threadsPath: string | null;
};

export type HugePages =
	/** `/2/*` and `/1/threads`: pages allocated of the pages wanted. */
	| {readonly kind: 'pages'; readonly allocated: number; readonly total: number}
	/** `/1/summary`: only whether huge pages are in use (2.6+: any allocated; 6.x v1: all allocated). */
	| {readonly kind: 'flag'; readonly enabled: boolean};

export type GpuHealth = {
	readonly temperature: number | null; // °C
	readonly power: number | null; // W
	readonly clock: number | null; // MHz
	readonly memClock: number | null; // MHz
	readonly fan: number | null; // % (first fan) or rpm where only rpm is known
};

export type ThreadInfo = {
	/** 'cpu', 'opencl', 'cuda' (6.x), or 'nvidia' / 'amd' (the 2.x GPU forks). */
	readonly backend: string;
	/** Position within its backend, from 0. */
	readonly index: number;
	readonly hashrate: RateWindows;
	/** CPU: `intensity` (6.x) or `low_power_mode` (2.x ways); GPU: intensity where known. */
	readonly intensity: number | null;
	/** CPU index the thread is pinned to; null when not pinned (-1 / false in the payload) or unknown. */
	readonly affinity: number | null;
	/** GPU device name, where the miner says. */
	readonly device: string | null;
	readonly health: GpuHealth | null;
};

export type BackendInfo = {
	readonly type: string;
	readonly enabled: boolean;
	readonly algo: string | null;
	readonly profile: string | null;
	readonly hashrate: RateWindows | null;
	readonly threadCount: number;
	readonly hugepages: HugePages | null;
	/** Scratchpad memory in bytes (CPU backend). */
	readonly memory: number | null;
	/** OpenCL platform name, CUDA runtime version, or other one-line description where known. */
	readonly detail: string | null;
};

export type PoolConnection = {
	/** "host:port"; null before the first connection. XMRig keeps the last value after a disconnect. */
	readonly pool: string | null;
	/** Resolved pool IP; null when disconnected (2.15.4+). */
	readonly ip: string | null;
	/** Age of the current connection in seconds; 0 when disconnected. */
	readonly uptime: number | null;
	/** Median share-submit round trip in ms; null until the first share (XMRig sends 0). */
	readonly ping: number | null;
	readonly failures: number | null;
	/** TLS version, null for plain TCP or when unknown. */
	readonly tls: string | null;
	readonly tlsFingerprint: string | null;
	readonly diff: number | null;
	/** Whether the miner is connected to a pool now (ip set, or uptime > 0 where ip is not reported). */
	readonly connected: boolean;
};

export type ShareResults = {
	readonly good: number;
	readonly total: number;
	/** total - good. */
	readonly rejected: number;
	/** Average seconds per accepted share on this connection; null when no share yet. */
	readonly avgTime: number | null;
	/** Sum of the difficulties of accepted shares (pool-side hashes). */
	readonly hashesTotal: number | null;
	/** Best share difficulty, or null when none yet. */
	readonly best: number | null;
	readonly diffCurrent: number | null;
};

export type CpuInfo = {
	readonly brand: string | null;
	readonly cores: number | null;
	readonly threads: number | null;
	readonly packages: number | null;
	readonly aes: boolean | null;
	readonly avx2: boolean | null;
	readonly x64: boolean | null;
	readonly arch: string | null;
	readonly msr: string | null;
	readonly assembly: string | null;
};

export type Resources = {
	/** Resident set size of the miner process, bytes. */
	readonly rss: number | null;
	readonly memoryFree: number | null;
	readonly memoryTotal: number | null;
	readonly loadAverage: readonly [number, number, number] | null;
	readonly hardwareConcurrency: number | null;
};

export type MinerSnapshot = {
	readonly dialect: DialectName;
	/** Miner id (16 hex chars, or api.id); empty string from the miner becomes null. */
	readonly id: string | null;
	readonly workerId: string | null;
	readonly version: string | null;
	/** 'miner' (4.0+), 'cpu' (≤3.x), 'nvidia' / 'amd' (GPU forks). */
	readonly kind: string | null;
	readonly userAgent: string | null;
	readonly algo: string | null;
	/** Seconds since the miner started; null before 2.15.4. */
	readonly uptime: number | null;
	/** null where the miner does not report it (before 4.4). */
	readonly paused: boolean | null;
	readonly restricted: boolean | null;
	readonly donateLevel: number | null;
	readonly hashrate: {readonly total: RateWindows; readonly highest: Rate};
	readonly results: ShareResults;
	readonly connection: PoolConnection;
	readonly cpu: CpuInfo;
	readonly hugepages: HugePages | null;
	readonly resources: Resources | null;
	readonly threads: readonly ThreadInfo[];
	readonly backends: readonly BackendInfo[];
	/**
	 * Whether the per-thread document was read for this snapshot. false when the poll read the summary alone on
	 * purpose (a fleet rig whose dashboard is not open): `threads` and `backends` are then only what the summary
	 * says (often nothing), not what the miner has.
	 */
	readonly perThreadRead: boolean;
	readonly features: readonly string[];
	/** What an xmrig-proxy says of itself and its workers; null for every miner. */
	readonly proxy: ProxyInfo | null;
	/**
	 * What rigtop read on this machine beside the miner's answer (source/sensors/): temperature, clock, power, H/W.
	 * Absent for a miner on another machine (rigtop says nothing rather than guess) and for a proxy.
	 */
	readonly sensors?: SensorReading;
};
