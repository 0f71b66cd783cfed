/**
 * A poll as the history stores it (a `SampleRow`), made from a monitor's state or a `--once` read: pure, no I/O, so
 * what reads a miner's past (history/source.ts, the screens' stores) needs nothing of the recorder.
 */
import type {MinerSnapshot} from '../miner/model.js';
import type {ProxyInfo} from '../miner/proxy-model.js';
import type {MonitorState} from '../monitor/types.js';
import {linkCode, LINK, type LinkCode, type SampleRow} from './tiers.js';

/** A monitor's last poll as stored (pollSample); null before any. */
export function sampleOfState(state: MonitorState): SampleRow | null {
	const at = state.lastAttemptAt;
	if (at === null) return null;
	const fresh = state.status === 'live' && state.snapshot !== null && state.lastSuccessAt === at;
	return pollSample(fresh ? state.snapshot : null, at, state.status);
}

/**
 * A poll as stored, from a monitor or a --once read: a good one with its values, a failed one with its link state;
 * null for a poll the miner answered but this rigtop could not use (status 'error': a wrong or missing token, a
 * restricted or unknown endpoint, an answer not shaped like XMRig's). Such a poll says nothing about the miner —
 * another rigtop with the right token reads it fine at the same time — so storing it as a failed poll would show an
 * outage that never was; the error itself is in the events, and the span is a gap (not watched).
 */
export function pollSample(snapshot: MinerSnapshot | null, at: number, status: string): SampleRow | null {
	if (snapshot) return sampleOf(snapshot, at);
	return status === 'error' ? null : failedSample(at, linkCode(status));
}

/**
 * A good poll as stored: the three hashrate windows, the share counters, pool and pause state. An xmrig-proxy has no
 * 10 s, 60 s or 15 min window: its row holds its 1 min rate where a miner's holds the 10 s one (the rate the chart
 * draws, min / avg / max per bucket) and its 10 min rate where a miner's holds the 15 min one (proxyColumns).
 */
export function sampleOf(snapshot: MinerSnapshot, at: number): SampleRow {
	const [hr10, hr60, hr15] = snapshot.proxy ? proxyColumns(snapshot.proxy.hashrate) : snapshot.hashrate.total;
	return {
		t: at,
		link: LINK.live,
		hr10: finite(hr10),
		hr60: finite(hr60),
		hr15: finite(hr15),
		good: snapshot.results.good,
		total: snapshot.results.total,
		rejected: snapshot.results.rejected,
		pool: snapshot.connection.connected ? 1 : 0,
		paused: snapshot.paused === null ? null : snapshot.paused ? 1 : 0,
	};
}

export function failedSample(at: number, link: LinkCode): SampleRow {
	return {t: at, link, hr10: null, hr60: null, hr15: null, good: null, total: null, rejected: null, pool: null, paused: null};
}

function finite(value: number | null): number | null {
	return value !== null && Number.isFinite(value) ? value : null;
}

/** A proxy's (or worker's) windows in a row's three rate columns: 1 min where the 10 s goes, none for 60 s, 10 min where the 15 min goes. */
function proxyColumns(windows: ProxyInfo['hashrate']): readonly [number | null, number | null, number | null] {
	return [windows[0], null, windows[1]];
}
