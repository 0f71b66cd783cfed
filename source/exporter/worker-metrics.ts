/**
 * How many series an xmrig-proxy's workers get: `--no-worker-metrics` (enabled false) or `--worker-metrics-limit N`.
 * Its own small module: the command line reads the default without loading the exporter.
 */
export type WorkerMetrics = {readonly enabled: boolean; readonly limit: number};

/**
 * At most this many workers of one proxy get series of their own unless --worker-metrics-limit says otherwise: about
 * 11 series a worker, so 11,000 for a proxy at the limit.
 */
export const DEFAULT_WORKER_METRICS_LIMIT = 1000;
