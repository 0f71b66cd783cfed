/**
 * A poll as the history stores it (a `SampleRow`), made from a monitor's state or a `--once` read: pure, no I/O, so
 * what reads a miner's past (history/source.ts, the screens' stores) needs nothing of the recorder.
 */
import type {MinerSnapshot} from '../miner/model.js';
import type {ProxyInfo, ProxyWorker} from '../miner/proxy-model.js';
import type {MonitorState} from '../monitor/types.js';
import type {SensorReading} from '../sensors/types.js';
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
		...(snapshot.sensors ? sensorColumns(snapshot.sensors) : {}),
	};
}

/**
 * A sensor reading as stored: the hottest package's headline temperature and its sensor's max, the average clock and
 * the package watts (none on the first reading, or where powercap cannot be read); rounded to a tenth (k10temp's ⅛ °C,
 * the watts) and the clock to the MHz, which keeps the rows short. Its H/W is the hashrate over the watts (tiers.ts).
 */
export function sensorColumns(sensors: SensorReading): Required<Pick<SampleRow, 'temp' | 'tempLimit' | 'mhz' | 'watts'>> {
	const headlines = sensors.temps.filter((sensor) => sensor.headline);
	let hottest: SensorReading['temps'][number] | null = null;
	for (const sensor of headlines.length > 0 ? headlines : sensors.temps) {
		if (Number.isFinite(sensor.celsius) && (hottest === null || sensor.celsius > hottest.celsius)) hottest = sensor;
	}

	return {
		temp: rounded(hottest?.celsius ?? null, 10),
		tempLimit: rounded(hottest?.max ?? null, 10),
		mhz: rounded(sensors.clock?.averageMHz ?? null, 1),
		watts: rounded(sensors.power.state === 'ok' ? sensors.power.watts : null, 10),
	};
}

/** `value` to 1/`per` (10: a tenth), null where it is not a finite number. */
function rounded(value: number | null, per: number): number | null {
	return value !== null && Number.isFinite(value) ? Math.round(value * per) / per : null;
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

/**
 * A proxy's worker at a poll, as stored: its 1 min rate (H/s) where a miner's 10 s rate goes and its 10 min rate where
 * the 15 min goes; its shares (good = accepted, total = accepted + rejected + invalid, so invalid = total − good −
 * rejected); connected (a connection open) where a miner's pool is. Nothing else of it (not its ip): the store stays lean.
 */
export function workerSample(worker: ProxyWorker, at: number): SampleRow {
	const [hr10, hr60, hr15] = proxyColumns(worker.hashrate);
	return {
		t: at,
		link: LINK.live,
		hr10: finite(hr10),
		hr60,
		hr15: finite(hr15),
		good: worker.accepted,
		total: worker.accepted + worker.rejected + worker.invalid,
		rejected: worker.rejected,
		pool: worker.connections > 0 ? 1 : 0,
		paused: 0,
	};
}

/**
 * Workers stored per proxy at most, per poll. A worker at every bound takes about as much as a miner (its minutes for
 * 2 days and ten minutes for 30 days: about 0.5 MB), so a thousand would fill the store's 256 MiB on their own; 100
 * take at most a fifth of it. Which: those with a connection open first, then by name (the same ones poll after poll).
 */
export const WORKERS_STORED_MAX = 100;

/**
 * A worker's poll is stored at most once a minute: its rate is itself a 1 min window, and each worker's row is a page of
 * its own in a commit (the rows are kept by worker and time). Measured in process, a proxy of 100 workers polled every
 * second: 385 MB written a day at once a minute, 775 MB at every 30 s, 2.2 GB at every 10 s (a miner: about 65 MB).
 */
export const WORKER_SPACING_MS = 60_000;

/** The workers of a proxy's poll that are stored (WORKERS_STORED_MAX). */
export function storedWorkers(workers: readonly ProxyWorker[]): readonly ProxyWorker[] {
	if (workers.length <= WORKERS_STORED_MAX) return workers;
	return [...workers]
		.sort((a, b) => Number(b.connections > 0) - Number(a.connections > 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
		.slice(0, WORKERS_STORED_MAX);
}
