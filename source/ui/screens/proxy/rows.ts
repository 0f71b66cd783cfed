/**
 * A proxy's workers as table rows (order.ts sorts and filters them) and what the totals row sums. Pure; the view only
 * lays them out. A worker's state is said in words, colour only repeats it:
 *
 * - "gone": no connection open (its miners left; the proxy keeps listing it);
 * - "quiet 7m": connected, but no share for longer than the quiet threshold: 5 minutes, or ten times the worker's own
 *   expected time between shares (its mean share difficulty, hashes ÷ accepted, over its 10-minute rate) when that is
 *   longer, so a slow worker on a high difficulty is not called quiet between two of its shares;
 * - "new": connected, no share yet, and the proxy has not run the threshold yet;
 * - "live" otherwise.
 */
import {formatDurationShort} from '../../../text/format.js';
import type {ProxyRateWindows, ProxyWorker} from '../../../miner/proxy-model.js';
import type {ThemeToken} from '../../text/theme.js';

/** The least time without a share before a connected worker is quiet. */
export const QUIET_AFTER_MS = 5 * 60_000;
/** How many of its expected share intervals a worker may go without a share before it is quiet (when that is longer). */
export const QUIET_INTERVALS = 10;

export type WorkerWord = 'gone' | 'quiet' | 'new' | 'live';

export type WorkerRow = {
	/** Its place in the proxy's list (the "as listed" order). */
	readonly index: number;
	/**
	 * What the screen knows this row by (its order, its selection, the worker open in detail): the name, unique among
	 * the rows. Two workers may have one name (anyone may connect to a proxy and name a worker; names that differ only
	 * in what cleaning drops come out the same): each of them is a row of its own, keyed by workerKey.
	 */
	readonly key: string;
	readonly name: string;
	readonly ip: string | null;
	readonly connections: number;
	readonly rates: ProxyRateWindows;
	readonly accepted: number;
	readonly rejected: number;
	readonly invalid: number;
	readonly hashes: number;
	readonly lastShareAt: number | null;
	readonly word: WorkerWord;
	/** "live", "quiet 7m", "gone", "new". */
	readonly state: string;
	readonly tone: ThemeToken;
	/** What `/` matches: name and ip, lower case. */
	readonly search: string;
};

/** How long this worker may go without a share before it is quiet, ms. */
export function quietThresholdMs(worker: Pick<ProxyWorker, 'hashes' | 'accepted' | 'hashrate'>): number {
	const rate = worker.hashrate[1] ?? worker.hashrate[0];
	if (worker.accepted <= 0 || rate === null || rate <= 0) return QUIET_AFTER_MS;
	const expectedMs = (worker.hashes / worker.accepted / rate) * 1000;
	return Number.isFinite(expectedMs) ? Math.max(QUIET_AFTER_MS, QUIET_INTERVALS * expectedMs) : QUIET_AFTER_MS;
}

const TONES: Readonly<Record<WorkerWord, ThemeToken>> = {gone: 'error', quiet: 'warn', new: 'info', live: 'ok'};

/** A worker's state: its word and text. `uptime` is the proxy's, seconds (a worker cannot be quieter than the proxy is old). */
export function workerState(worker: ProxyWorker, now: number, uptime: number | null): {readonly word: WorkerWord; readonly text: string} {
	if (worker.connections <= 0) return {word: 'gone', text: 'gone'};
	const threshold = quietThresholdMs(worker);
	if (worker.lastShareAt === null) {
		const up = uptime === null ? null : uptime * 1000;
		return up !== null && up > threshold ? {word: 'quiet', text: `quiet ${formatDurationShort(up / 1000)}`} : {word: 'new', text: 'new'};
	}

	const silent = now - worker.lastShareAt;
	return silent > threshold ? {word: 'quiet', text: `quiet ${formatDurationShort(silent / 1000)}`} : {word: 'live', text: 'live'};
}

export function workerRow(worker: ProxyWorker, index: number, now: number, uptime: number | null, key = worker.name): WorkerRow {
	const {word, text} = workerState(worker, now, uptime);
	return {
		index,
		key,
		name: worker.name,
		ip: worker.ip,
		connections: worker.connections,
		rates: worker.hashrate,
		accepted: worker.accepted,
		rejected: worker.rejected,
		invalid: worker.invalid,
		hashes: worker.hashes,
		lastShareAt: worker.lastShareAt,
		word,
		state: text,
		tone: TONES[word],
		search: `${worker.name} ${worker.ip ?? ''}`.toLowerCase(),
	};
}

export function workerRows(workers: readonly ProxyWorker[], now: number, uptime: number | null): readonly WorkerRow[] {
	const keys = workerKeys(workers);
	return workers.map((worker, index) => workerRow(worker, index, now, uptime, keys[index]));
}

/** What separates a name from its number in the key of a second worker of that name. */
const KEY_MARK = '\u0000';

/**
 * The key of each worker (by its place in the list): its name; where two or more have one name, the first of them
 * (by ip, then by place in the list: stable while the proxy's list reorders) its name, the others the name, a NUL
 * and 2, 3, … (no name holds a NUL: names are cleaned where they enter).
 */
export function workerKeys(workers: readonly Pick<ProxyWorker, 'name' | 'ip'>[]): readonly string[] {
	const keys = workers.map((worker) => worker.name);
	const byName = new Map<string, number[]>();
	workers.forEach((worker, index) => byName.set(worker.name, [...(byName.get(worker.name) ?? []), index]));
	for (const [name, places] of byName) {
		if (places.length < 2) continue;
		const ipOf = (index: number) => workers[index]?.ip ?? '';
		places.sort((a, b) => (ipOf(a) < ipOf(b) ? -1 : ipOf(a) > ipOf(b) ? 1 : a - b));
		places.forEach((index, nth) => {
			keys[index] = nth === 0 ? name : `${name}${KEY_MARK}${nth + 1}`;
		});
	}

	return keys;
}

/** The worker's name in a key of workerKeys. */
export function nameOfKey(key: string): string {
	const at = key.indexOf(KEY_MARK);
	return at === -1 ? key : key.slice(0, at);
}

/**
 * What the totals row sums: the rows it sums (every worker listed, or those a filter shows), their rates by window and
 * their shares. It is the sum of the rows, not the proxy's own figure: the proxy's rate counts workers that have left
 * the list, and its results count shares before a worker was listed, so the header keeps the proxy's own.
 */
export type WorkerTotals = {
	readonly count: number;
	readonly rates: ProxyRateWindows;
	readonly accepted: number;
	readonly rejected: number;
	readonly invalid: number;
	/** Of them, how many are connected now. */
	readonly connected: number;
};

export function workerTotals(rows: readonly WorkerRow[]): WorkerTotals {
	const sums: (number | null)[] = [null, null, null, null, null];
	let accepted = 0;
	let rejected = 0;
	let invalid = 0;
	let connected = 0;
	for (const row of rows) {
		row.rates.forEach((rate, window) => {
			if (rate !== null) sums[window] = (sums[window] ?? 0) + rate;
		});
		accepted += row.accepted;
		rejected += row.rejected;
		invalid += row.invalid;
		if (row.connections > 0) connected++;
	}

	const [m1 = null, m10 = null, h1 = null, h12 = null, h24 = null] = sums;
	return {count: rows.length, rates: [m1, m10, h1, h12, h24], accepted, rejected, invalid, connected};
}
