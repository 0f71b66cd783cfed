/**
 * Which monitor events are alerts, and the reject-burst rule. Pure: what must persist from poll to
 * poll goes in and comes out.
 *
 * An all-clear (pool-back, hashrate-recovered) is an alert only when its trouble was alerted, so a
 * pool switch or the first pool connection is not news. 'up' always follows a down or error.
 */
import {formatInteger, formatSeconds} from '../format.js';
import type {MinerEvent, Severity} from '../monitor/types.js';
import type {AlertKind} from './types.js';

export type AlertDraft = {readonly kind: AlertKind; readonly severity: Severity; readonly message: string};

/** The troubles of one miner that are alerted and not yet cleared. */
/** Named as the alert that opens them. */
type Trouble =
	| 'down'
	| 'error'
	| 'pool-lost'
	| 'hashrate-drop'
	| 'paused'
	| 'hugepages-lost'
	| 'upstream-error'
	| 'worker-gone'
	| 'worker-quiet'
	| 'temp-high'
	| 'throttling'
	| 'power-lost';
/** Open troubles by key: the trouble's name, or for a proxy's worker the name and the worker's (troubleKey). */
export type OpenTroubles = ReadonlySet<string>;

/** The key an open trouble is kept under: its name, and the worker's where it is a worker's. */
export function troubleKey(trouble: string, worker: string | null | undefined): string {
	return worker === null || worker === undefined ? trouble : `${trouble}\u0000${worker}`;
}

export type SelectResult = {readonly alert: AlertDraft | null; readonly open: OpenTroubles};

function without(open: OpenTroubles, ...kinds: string[]): OpenTroubles {
	if (!kinds.some((kind) => open.has(kind))) return open;
	const next = new Set(open);
	for (const kind of kinds) next.delete(kind);
	return next;
}

function adding(open: OpenTroubles, kind: string): OpenTroubles {
	if (open.has(kind)) return open;
	return new Set([...open, kind]);
}

/** The alert one monitor event makes, if any, and the troubles left open after it. */
export function alertForEvent(event: Pick<MinerEvent, 'kind' | 'message' | 'worker'>, open: OpenTroubles): SelectResult {
	const {message} = event;
	const key = (trouble: Trouble) => troubleKey(trouble, event.worker);
	switch (event.kind) {
		case 'upstream-error':
			return {alert: {kind: 'upstream-error', severity: 'warn', message}, open: adding(open, 'upstream-error')};
		case 'upstream-recovered':
			return open.has('upstream-error')
				? {alert: {kind: 'upstream-recovered', severity: 'info', message}, open: without(open, 'upstream-error')}
				: {alert: null, open};
		case 'worker-gone':
			return {alert: {kind: 'worker-gone', severity: 'warn', message}, open: adding(open, key('worker-gone'))};
		case 'worker-back':
			return open.has(key('worker-gone'))
				? {alert: {kind: 'worker-back', severity: 'info', message}, open: without(open, key('worker-gone'))}
				: {alert: null, open};
		case 'worker-joined':
			// A worker forgotten a day after it went (proxy-events.ts) comes back as a join: nothing of it is open any more.
			return {alert: null, open: without(open, key('worker-gone'), key('worker-quiet'))};
		case 'worker-quiet':
			return {alert: {kind: 'worker-quiet', severity: 'warn', message}, open: adding(open, key('worker-quiet'))};
		case 'worker-sharing':
			return open.has(key('worker-quiet'))
				? {alert: {kind: 'worker-sharing', severity: 'info', message}, open: without(open, key('worker-quiet'))}
				: {alert: null, open};
		case 'down':
			return {alert: {kind: 'down', severity: 'error', message}, open: adding(without(open, 'error'), 'down')};
		case 'error':
			return {alert: {kind: 'error', severity: 'error', message}, open: adding(without(open, 'down'), 'error')};
		case 'up':
			// Whatever the miner was doing before it went away is unknown now; missing huge pages are followed by the
			// monitor across it (their restore is reported when the miner has them).
			return {
				alert: {kind: 'up', severity: 'info', message},
				open: without(open, 'down', 'error', 'pool-lost', 'hashrate-drop', 'paused'),
			};
		case 'pool-lost':
			return {alert: {kind: 'pool-lost', severity: 'warn', message}, open: adding(open, 'pool-lost')};
		case 'pool-connected':
			return open.has('pool-lost')
				? {alert: {kind: 'pool-back', severity: 'info', message}, open: without(open, 'pool-lost')}
				: {alert: null, open};
		case 'hashrate-drop':
			return {alert: {kind: 'hashrate-drop', severity: 'warn', message}, open: adding(open, key('hashrate-drop'))};
		case 'hashrate-recovered':
			return open.has(key('hashrate-drop'))
				? {alert: {kind: 'hashrate-recovered', severity: 'info', message}, open: without(open, key('hashrate-drop'))}
				: {alert: null, open};
		case 'restarted':
			// A new process: its pool and hashrate start from scratch, and get their own events. Huge pages missing stay
			// open: the monitor reports them once a session and their restore when the miner has them again.
			return {
				alert: {kind: 'restarted', severity: 'warn', message},
				open: without(open, 'pool-lost', 'hashrate-drop', 'paused'),
			};
		case 'replaced':
			// Another miner (a new id): nothing of the one before stays open; the new one gets its own events.
			return {
				alert: {kind: 'replaced', severity: 'warn', message},
				open: without(open, 'pool-lost', 'hashrate-drop', 'paused', 'hugepages-lost', 'temp-high', 'throttling', 'power-lost'),
			};
		case 'hugepages-lost':
			return {alert: {kind: 'hugepages-lost', severity: 'warn', message}, open: adding(open, 'hugepages-lost')};
		case 'hugepages-restored':
			return open.has('hugepages-lost')
				? {alert: {kind: 'hugepages-restored', severity: 'info', message}, open: without(open, 'hugepages-lost')}
				: {alert: null, open};
		case 'paused-long':
			return {alert: {kind: 'paused', severity: 'warn', message}, open: adding(open, 'paused')};
		case 'resumed':
			return open.has('paused')
				? {alert: {kind: 'resumed', severity: 'info', message}, open: without(open, 'paused')}
				: {alert: null, open};
		// The rig's own sensors: the machine's state, followed by the monitor across a miner down or restarted (their
		// all-clear comes when the sensors say so); another miner answering (another machine, maybe) clears them above.
		case 'temp-high':
			return {alert: {kind: 'temp-high', severity: 'warn', message}, open: adding(open, 'temp-high')};
		case 'temp-normal':
			return open.has('temp-high')
				? {alert: {kind: 'temp-normal', severity: 'info', message}, open: without(open, 'temp-high')}
				: {alert: null, open};
		case 'throttle-started':
			return {alert: {kind: 'throttle-started', severity: 'warn', message}, open: adding(open, 'throttling')};
		case 'throttle-stopped':
			return open.has('throttling')
				? {alert: {kind: 'throttle-stopped', severity: 'info', message}, open: without(open, 'throttling')}
				: {alert: null, open};
		case 'power-lost':
			return {alert: {kind: 'power-lost', severity: 'warn', message}, open: adding(open, 'power-lost')};
		case 'power-restored':
			return open.has('power-lost')
				? {alert: {kind: 'power-restored', severity: 'info', message}, open: without(open, 'power-lost')}
				: {alert: null, open};
		default:
			// 'power-denied' among them: said once in the events, what would allow it; no alert.
			return {alert: null, open};
	}
}

export type BurstOptions = {
	/** Rejected shares within the window that make a burst (default 3). */
	readonly count: number;
	/** The window, ms (default 5 minutes). After a burst is alerted, the next one needs a new window. */
	readonly windowMs: number;
	/**
	 * The share of all shares in the window the rejects must reach too (0: none needed). An xmrig-proxy's shares are
	 * those of every miner behind it, so a few rejects among thousands are no burst: PROXY_BURST_SHARE.
	 */
	readonly share?: number;
};

/** A proxy's rejects make a burst only when they are at least this share of its shares in the window. */
export const PROXY_BURST_SHARE = 0.1;

export const defaultBurstOptions: BurstOptions = Object.freeze({count: 3, windowMs: 5 * 60_000});

export type BurstState = {
	/** Rejects seen within the window: when, and how many. */
	readonly marks: readonly {readonly at: number; readonly count: number; readonly good?: number}[];
	/** No burst is alerted before this time (one alert per window while a burst goes on). */
	readonly quietUntil: number;
};

export const initialBurstState: BurstState = Object.freeze({marks: [], quietUntil: 0});

/**
 * Adds the shares rejected since the last poll (0 is fine: old marks still age out) and tells
 * whether that makes a burst: the number of rejects within the window, or null.
 */
export function stepRejects(
	state: BurstState,
	rejected: number,
	now: number,
	options: BurstOptions = defaultBurstOptions,
	good = 0,
): {readonly state: BurstState; readonly burst: number | null} {
	const since = now - options.windowMs;
	const share = options.share ?? 0;
	let marks = state.marks.filter((mark) => mark.at > since);
	if (rejected > 0 || (share > 0 && good > 0)) marks = [...marks, {at: now, count: rejected, good}];
	const total = marks.reduce((sum, mark) => sum + mark.count, 0);
	const accepted = marks.reduce((sum, mark) => sum + (mark.good ?? 0), 0);
	const enough = share <= 0 || total >= share * (total + accepted);
	if (total >= options.count && enough && now >= state.quietUntil && rejected > 0) {
		return {state: {marks: [], quietUntil: now + options.windowMs}, burst: total};
	}

	const unchanged = marks.length === state.marks.length && rejected <= 0 && !(share > 0 && good > 0);
	return {state: unchanged ? state : {marks, quietUntil: state.quietUntil}, burst: null};
}

/** "reject burst: 5 shares rejected within 5m" */
export function burstMessage(count: number, windowMs: number): string {
	return `reject burst: ${formatInteger(count)} shares rejected within ${formatSeconds(windowMs)}`;
}
