/**
 * xmrig-proxy's numbers as text, on top of format.ts (the one style): its rate windows by their own names (1m, 10m,
 * 1h, 12h, 24h, never a miner's 10s/60s/15m), a window longer than the proxy has run marked as still filling, its
 * upstreams, results and a worker's last share. For every screen and command that shows a proxy.
 */
import {DASH, formatAgo, formatHashrate, formatInteger, formatPercent} from '../text/format.js';
import {PROXY_WINDOW_LABELS, PROXY_WINDOW_SECONDS, type ProxyRateWindows, type ProxyResults, type ProxyUpstreams} from './proxy-model.js';

/**
 * Put after a rate whose window is longer than the proxy's uptime: the proxy averages it over the time it has run,
 * so it says less than its name ("1h 10 H/s~" after 49 s).
 */
export const FILLING_MARK = '~';
/** What FILLING_MARK means, for a legend line. */
export const FILLING_LEGEND = `${FILLING_MARK} window longer than the proxy's uptime: still filling`;

/** Whether window `index` (0 = 1m … 4 = 24h) is longer than `uptime` seconds. An unknown uptime marks nothing. */
export function proxyWindowFilling(index: number, uptime: number | null): boolean {
	const seconds = PROXY_WINDOW_SECONDS[index];
	return seconds !== undefined && uptime !== null && Number.isFinite(uptime) && uptime >= 0 && uptime < seconds;
}

/** One window's rate: "950 H/s", "10 H/s~" while filling, "—" when unknown (never marked). */
export function formatProxyWindow(rate: number | null, index: number, uptime: number | null): string {
	const text = formatHashrate(rate);
	return text !== DASH && proxyWindowFilling(index, uptime) ? `${text}${FILLING_MARK}` : text;
}

/** Every window with its label: ["1m 950 H/s~", "10m 90 H/s~", …]. */
export function formatProxyWindows(windows: ProxyRateWindows, uptime: number | null): string[] {
	return windows.map((rate, index) => `${PROXY_WINDOW_LABELS[index] ?? '?'} ${formatProxyWindow(rate, index, uptime)}`);
}

/** Whether any known rate among these is marked as filling (so a legend is worth a line). */
export function anyProxyWindowFilling(windows: ProxyRateWindows, uptime: number | null): boolean {
	return windows.some((rate, index) => rate !== null && proxyWindowFilling(index, uptime));
}

/** "1 active  0 sleep  0 error of 1"; null → "—". */
export function formatProxyUpstreams(upstreams: ProxyUpstreams | null): string {
	if (upstreams === null) return DASH;
	const {active, sleep, error, total} = upstreams;
	return `${formatInteger(active)} active  ${formatInteger(sleep)} sleep  ${formatInteger(error)} error  of ${formatInteger(total)}`;
}

/** The share of results the pool rejected: rejected of accepted + rejected, "13.0%"; none yet → "—". */
export function formatProxyRejectPercent(results: Pick<ProxyResults, 'accepted' | 'rejected'>): string {
	return formatPercent(results.rejected, results.accepted + results.rejected);
}

/** "11/1/0": accepted/rejected/invalid. */
export function formatProxyShares(shares: {readonly accepted: number; readonly rejected: number; readonly invalid: number}): string {
	return `${formatInteger(shares.accepted)}/${formatInteger(shares.rejected)}/${formatInteger(shares.invalid)}`;
}

/** A worker's last share: "12s ago", "never" when it has sent none. */
export function formatLastShare(at: number | null, now: number): string {
	return at === null ? 'never' : formatAgo(at, now);
}
