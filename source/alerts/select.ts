/**
 * Which monitor events are alerts, and the reject-burst rule. Pure: what must persist from poll to
 * poll goes in and comes out.
 *
 * An all-clear (pool-back, hashrate-recovered) is an alert only when its trouble was alerted, so a
 * pool switch or the first pool connection is not news; 'up' always follows a down or error.
 */
import {formatInteger, formatSeconds} from '../text/format.js';
import {EVENT_KINDS, type AlertKind, type AlertOf, type EventKind, type KindRow, type Severity} from '../monitor/event-kinds.js';

export type AlertDraft<A extends AlertKind = AlertKind> = {readonly kind: A; readonly severity: Severity; readonly message: string};

/** Open troubles by key: the trouble's name, or for a proxy's worker the name and the worker's (troubleKey). */
export type OpenTroubles = ReadonlySet<string>;

/** The key an open trouble is kept under: its name, and the worker's where it is a worker's. */
export function troubleKey(trouble: string, worker: string | null | undefined): string {
	return worker === null || worker === undefined ? trouble : `${trouble}\u0000${worker}`;
}

/** The trouble and the worker an open trouble's key holds (troubleKey's inverse). */
export function troubleOfKey(key: string): {readonly trouble: string; readonly worker?: string} {
	const at = key.indexOf('\u0000');
	return at === -1 ? {trouble: key} : {trouble: key.slice(0, at), worker: key.slice(at + 1)};
}

/**
 * A change the notifier is told of (notify/types.ts, TroubleChange, without the rig): a trouble opened (true), closed
 * (false: by its all-clear or by a kind that `clears` it) or one-shot news (null).
 */
export type TroubleDraft = {
	readonly trouble: string;
	readonly open: boolean | null;
	readonly severity: Severity;
	readonly message: string;
	readonly worker?: string;
};

/**
 * A kind that alerts but neither begins nor ends a trouble is one-shot news (a restart, another miner at the address):
 * told once, with no all-clear ever.
 */
export function isNews(row: KindRow): boolean {
	return row.alert !== undefined && row.begins === undefined && (row.ends ?? []).length === 0;
}

/**
 * What one event changed for the notifier, from the troubles open before and after it (alertForEvent's): each trouble
 * it closed (an all-clear's, or one it `clears` without a word of its own), each it opened, and its news. A trouble
 * already open that begins again is no change.
 */
export function troubleChanges(
	event: {readonly kind: EventKind; readonly severity: Severity; readonly message: string; readonly worker?: string},
	before: OpenTroubles,
	after: OpenTroubles,
): TroubleDraft[] {
	const row: KindRow = EVENT_KINDS[event.kind];
	const changes: TroubleDraft[] = [];
	const change = (trouble: string, open: boolean | null, severity: Severity): TroubleDraft =>
		event.worker === undefined
			? {trouble, open, severity, message: event.message}
			: {trouble, open, severity, message: event.message, worker: event.worker};
	for (const key of before) if (!after.has(key)) changes.push(change(troubleOfKey(key).trouble, false, 'info'));
	for (const key of after) if (!before.has(key)) changes.push(change(troubleOfKey(key).trouble, true, event.severity));
	if (isNews(row)) changes.push(change(row.alert?.as ?? event.kind, null, event.severity));
	return changes;
}

export type SelectResult<A extends AlertKind = AlertKind> = {readonly alert: AlertDraft<A> | null; readonly open: OpenTroubles};

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

/**
 * The alert one monitor event makes, if any, and the troubles left open after it, as its row in the catalogue says
 * (monitor/event-kinds.ts): a trouble alerts and opens; an all-clear alerts only while its trouble is open (unless
 * `always`) and closes it; `clears` closes others without a word. A proxy's worker's troubles are its own.
 */
export function alertForEvent<K extends EventKind>(
	event: {readonly kind: K; readonly message: string; readonly worker?: string},
	open: OpenTroubles,
): SelectResult<AlertOf<K>> {
	const row: KindRow = EVENT_KINDS[event.kind];
	const key = (trouble: string) => troubleKey(trouble, event.worker);
	const ends = (row.ends ?? []).map(key);
	const clears = (row.clears ?? []).map(key);
	const alert: AlertDraft<AlertOf<K>> | null =
		row.alert === undefined || row.severity === null
			? null
			: {kind: (row.alert.as ?? event.kind) as AlertOf<K>, severity: row.severity, message: event.message};
	if (alert === null) return {alert: null, open: without(open, ...ends, ...clears)};
	if (row.begins !== undefined) return {alert, open: adding(without(open, ...clears), key(row.begins))};
	if (ends.length > 0 && row.alert?.always !== true && !ends.some((trouble) => open.has(trouble))) {
		return {alert: null, open: without(open, ...clears)};
	}

	return {alert, open: without(open, ...ends, ...clears)};
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

/** A reject burst's end, a burst window after the last one: "reject burst over: none within 5m" */
export function burstEndMessage(windowMs: number): string {
	return `reject burst over: none within ${formatSeconds(windowMs)}`;
}

/** "reject burst: 5 shares rejected within 5m" */
export function burstMessage(count: number, windowMs: number): string {
	return `reject burst: ${formatInteger(count)} shares rejected within ${formatSeconds(windowMs)}`;
}
