/**
 * When a proxy's worker counts as quiet: connected, it has sent no share for longer than it should. One rule for the
 * proxy's screen (the row marked) and the monitor's events ('worker-quiet', an alert): no share for
 * max(5 min, 10 × the proxy's average time between shares). A worker that never shared, or has no connection open
 * (that is "gone", its own event), is not quiet.
 */
import type {ProxyInfo, ProxyWorker} from './proxy-model.js';

/** The shortest silence called quiet. */
export const QUIET_MIN_MS = 5 * 60_000;
/** The silence called quiet, in the proxy's average times between accepted shares. */
export const QUIET_AVG_TIMES = 10;

/** How long a worker of this proxy may go without a share before it is quiet, ms. */
export function quietThresholdMs(proxy: Pick<ProxyInfo, 'results'>): number {
	const average = proxy.results.avgTime;
	return Math.max(QUIET_MIN_MS, average !== null && average > 0 ? average * 1000 * QUIET_AVG_TIMES : 0);
}

/** Whether the worker is quiet at `now` (epoch ms): see the top. */
export function workerQuiet(
	worker: Pick<ProxyWorker, 'connections' | 'lastShareAt'>,
	proxy: Pick<ProxyInfo, 'results'>,
	now: number,
): boolean {
	if (worker.connections <= 0 || worker.lastShareAt === null) return false;
	return now - worker.lastShareAt >= quietThresholdMs(proxy);
}
