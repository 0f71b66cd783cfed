/**
 * Every metric family the exporter serves, in the order it serves them. Names follow the Prometheus conventions: one
 * shared prefix (`xmrig_`, rigtop's own under `xmrig_exporter_`), base units in the name (seconds, bytes, hashes per
 * second), `_total` on counters, and what identifies a miner in labels (`miner` on every series; worker id, URL,
 * version, algorithm… on the info metric).
 *
 * A counter's `name` is its OpenMetrics family name; its samples are `<name>_total` in both formats (the Prometheus
 * text format names the family after the sample). docs/prometheus/README.md lists the same families; a test holds the
 * two together.
 */

export type FamilyType = 'gauge' | 'counter';

export type Family = {
	/** The family's name (a counter's without `_total`). */
	readonly name: string;
	readonly type: FamilyType;
	readonly help: string;
	/** Labels besides `miner`, in the order they are written. */
	readonly labels: readonly string[];
	/** The name its samples carry: `<name>_total` for a counter. */
	readonly sample: string;
};

function family(name: string, type: FamilyType, help: string, labels: readonly string[] = []): Family {
	return {name, type, help, labels, sample: type === 'counter' ? `${name}_total` : name};
}

const gauge = (name: string, help: string, labels?: readonly string[]): Family => family(name, 'gauge', help, labels);
const counter = (name: string, help: string, labels?: readonly string[]): Family => family(name, 'counter', help, labels);

/** Per-miner families: each series carries `miner` first, then the family's own labels. */
export const minerFamilies = {
	up: gauge('xmrig_up', "1 when rigtop's last poll of the miner succeeded, 0 when the miner could not be read.", ['url']),
	pollError: gauge(
		'xmrig_poll_error',
		'1, with the reason, while the miner cannot be read (connecting, unreachable, timeout, unauthorized, ...); absent while it can.',
		['reason'],
	),
	info: gauge('xmrig_miner_info', 'Always 1: who the miner is (worker id, URL, version, kind, algorithm, API dialect, pool).', [
		'url',
		'worker_id',
		'version',
		'kind',
		'algo',
		'dialect',
		'pool',
	]),
	uptime: gauge('xmrig_uptime_seconds', 'Seconds since the miner started (XMRig 2.15.4 and later).'),
	startTime: gauge(
		'xmrig_start_time_seconds',
		'When the miner started, in seconds since the Unix epoch (poll time less uptime; it survives an exporter restart).',
	),
	paused: gauge('xmrig_paused', '1 while the miner is paused (XMRig 4.4 and later).'),
	hashrate: gauge(
		'xmrig_hashrate_hashes_per_second',
		"The miner's total hashrate over a window (10s, 60s, 15m); absent until the window fills.",
		['window'],
	),
	hashrateHighest: gauge('xmrig_hashrate_highest_hashes_per_second', 'The highest 10 s hashrate since the miner started.'),
	backendEnabled: gauge('xmrig_backend_enabled', '1 when the backend (cpu, opencl, cuda) is enabled.', ['backend']),
	backendThreads: gauge('xmrig_backend_threads', 'Threads the backend runs.', ['backend']),
	backendHashrate: gauge('xmrig_backend_hashrate_hashes_per_second', "A backend's hashrate over a window.", ['backend', 'window']),
	threadHashrate: gauge(
		'xmrig_thread_hashrate_hashes_per_second',
		"One mining thread's hashrate over a window (thread: its index in its backend).",
		['backend', 'thread', 'window'],
	),
	gpuTemperature: gauge('xmrig_gpu_temperature_celsius', "A GPU thread's device temperature.", ['backend', 'thread']),
	gpuPower: gauge('xmrig_gpu_power_watts', "A GPU thread's device power draw.", ['backend', 'thread']),
	sharesGood: counter('xmrig_shares_good', 'Shares the pool accepted (since the miner started).'),
	sharesRejected: counter('xmrig_shares_rejected', 'Shares the pool rejected (since the miner started).'),
	shares: counter('xmrig_shares', 'Shares submitted, accepted or not (since the miner started).'),
	hashes: counter('xmrig_hashes', 'Hashes the pool credited: the sum of the difficulties of the accepted shares.'),
	difficultyCurrent: gauge('xmrig_share_difficulty_current', "The current job's share difficulty."),
	difficultyBest: gauge('xmrig_share_difficulty_best', 'The best share difficulty found since the miner started.'),
	shareTime: gauge('xmrig_share_time_average_seconds', 'Average seconds per accepted share on the current pool connection.'),
	poolConnected: gauge('xmrig_pool_connected', '1 while the miner is connected to a pool.'),
	poolPing: gauge('xmrig_pool_ping_seconds', 'Median share-submit round trip to the pool.'),
	poolUptime: gauge('xmrig_pool_uptime_seconds', 'Age of the current pool connection; 0 while disconnected.'),
	poolFailures: counter('xmrig_pool_failures', 'Pool connection failures (since the miner started).'),
	hugepagesAllocated: gauge('xmrig_hugepages_allocated_pages', 'Huge pages the miner has allocated.'),
	hugepagesRequested: gauge('xmrig_hugepages_requested_pages', 'Huge pages the miner wanted.'),
	hugepagesEnabled: gauge('xmrig_hugepages_enabled', '1 when huge pages are in use, where the miner reports only that (XMRig 2.4 - 2.5).'),
	residentMemory: gauge('xmrig_resident_memory_bytes', "The miner process's resident memory (XMRig 5.1 and later)."),
	restarts: counter('xmrig_restarts', 'Miner restarts rigtop has seen (uptime went back, a new id or version) since rigtop started.'),
	proxyInfo: gauge('xmrig_proxy_info', 'Always 1, for an xmrig-proxy: its mode (nicehash, simple, extra_nonce).', ['mode']),
	proxyHashrate: gauge(
		'xmrig_proxy_hashrate_hashes_per_second',
		"The proxy's hashrate over a window (1m, 10m, 1h, 12h, 24h): its miners' accepted shares, as the proxy counts them.",
		['window'],
	),
	proxyHashrateAverage: gauge(
		'xmrig_proxy_hashrate_average_hashes_per_second',
		"The proxy's average hashrate since it started (the hashes its miners' accepted shares are worth over its uptime).",
	),
	proxyMiners: gauge('xmrig_proxy_miners', 'Miners connected to the proxy now.'),
	proxyMinersMax: gauge('xmrig_proxy_miners_max', 'The most miners connected to the proxy at once since it started.'),
	proxyWorkers: gauge('xmrig_proxy_workers', "Workers the proxy counts (its summary's workers: miners grouped by its workers mode)."),
	proxyUpstreams: gauge('xmrig_proxy_upstreams', "The proxy's pool connections in a state (active, sleep, error).", ['state']),
	proxyUpstreamConnections: gauge(
		'xmrig_proxy_upstream_connections',
		'Pool connections the proxy holds, in any state (its upstreams.total).',
	),
	proxyShares: counter(
		'xmrig_proxy_shares',
		"Shares the proxy sent for its miners, by the pool's answer (accepted, rejected, invalid, expired), since it started.",
		['result'],
	),
	proxyHashes: counter('xmrig_proxy_hashes', "Hashes the pool credited the proxy's miners: the sum of the accepted shares' difficulties."),
	proxyHashesDonated: counter('xmrig_proxy_hashes_donated', 'Of those, the hashes of the shares sent as the donation.'),
	proxyShareTime: gauge('xmrig_proxy_share_time_average_seconds', 'Average seconds between the accepted shares of the proxy.'),
	proxyLatency: gauge('xmrig_proxy_share_latency_seconds', "Average round trip of the proxy's shares to the pool."),
	proxyDifficultyBest: gauge('xmrig_proxy_share_difficulty_best', 'The best share difficulty the proxy sent since it started.'),
	proxyWorkerConnections: gauge('xmrig_proxy_worker_connections', "A worker's miners connected to the proxy now (0: all of them left).", [
		'worker',
	]),
	proxyWorkerHashrate: gauge(
		'xmrig_proxy_worker_hashrate_hashes_per_second',
		"A worker's hashrate over a window (1m, 10m, 1h, 12h, 24h), as the proxy counts it.",
		['worker', 'window'],
	),
	proxyWorkerShares: counter(
		'xmrig_proxy_worker_shares',
		"A worker's shares by the pool's answer (accepted, rejected, invalid), since the proxy started.",
		['worker', 'result'],
	),
	proxyWorkerHashes: counter(
		'xmrig_proxy_worker_hashes',
		"Hashes the pool credited a worker: the sum of its accepted shares' difficulties.",
		['worker'],
	),
	proxyWorkerLastShare: gauge(
		'xmrig_proxy_worker_last_share_timestamp_seconds',
		"When the worker's last share reached the proxy, in seconds since the Unix epoch; absent before its first.",
		['worker'],
	),
	proxyWorkersOmitted: gauge(
		'xmrig_exporter_proxy_workers_omitted',
		'Workers of the proxy left out of the per-worker series (--worker-metrics-limit; the lowest 10 min hashrates first).',
	),
	lastSuccess: gauge(
		'xmrig_last_success_timestamp_seconds',
		"When rigtop's last good poll of the miner finished, in seconds since the Unix epoch.",
	),
	pollDuration: gauge('xmrig_exporter_poll_duration_seconds', "How long rigtop's last poll of the miner took, answered or failed."),
	polls: counter('xmrig_exporter_polls', 'Polls rigtop made of the miner, answered or failed.'),
	pollFailures: counter('xmrig_exporter_poll_failures', 'Polls of the miner that failed.'),
} as const;

/** The exporter's own families, one series each. */
export const processFamilies = {
	buildInfo: gauge('xmrig_exporter_build_info', "Always 1: rigtop's version and the Node.js it runs on.", ['version', 'nodejs']),
	miners: gauge('xmrig_exporter_miners', 'Miners this rigtop watches.'),
	cpu: counter('process_cpu_seconds', 'User and system CPU time rigtop has spent.'),
	residentMemory: gauge('process_resident_memory_bytes', "rigtop's resident memory."),
	startTime: gauge('process_start_time_seconds', 'When rigtop started, in seconds since the Unix epoch.'),
	heapUsed: gauge('nodejs_heap_size_used_bytes', "The JavaScript heap rigtop's exporter uses (its worker's, for rigtop exporter)."),
	heapTotal: gauge('nodejs_heap_size_total_bytes', "The JavaScript heap rigtop's exporter has reserved."),
	heapLimit: gauge('nodejs_heap_size_limit_bytes', 'The most the JavaScript heap may grow to; past it the exporter stops (exit 1).'),
} as const;

export type MinerFamilyKey = keyof typeof minerFamilies;

/** Every family in serving order: the miners' first, then the process's. */
export const allFamilies: readonly Family[] = [...Object.values(minerFamilies), ...Object.values(processFamilies)];
