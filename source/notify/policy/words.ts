/**
 * The words of the policy's notices: titles ("3 rigs down", "still 2 rigs down (for 4h)", "resolved: 3 rigs down",
 * "rig-03 flapping: down 3 times in 10m") and bodies (one line a rig, the first MAX_NAMED, then "and 10 more"). A
 * trouble is said as the catalogue's `says` of the kind that begins it ("without a pool", "gone"), else its name
 * with spaces. Names and messages are cleaned text already.
 */
import type {RigRef} from '../../alerts/types.js';
import {kindRow, kindsWhere} from '../../monitor/event-kinds.js';
import {formatDuration, formatDurationShort, formatSeconds, formatTimeSpan} from '../../text/format.js';

/** The rigs a body names one a line; the rest are counted ("and 10 more"). */
export const MAX_NAMED = 10;

/** A rig as a notice names it: its name, or a proxy's worker and the proxy ("rig-07 (proxy-1)"). */
export function rigName(ref: RigRef): string {
	return ref.worker === undefined ? ref.rig : `${ref.worker} (${ref.rig})`;
}

/**
 * A trouble or news kind in words: "down", "without a pool", "low in hashrate", "gone", "restarted": the catalogue's
 * `says` of the kind that begins it (or whose burst it is), else a kind's `group` words, else its name with spaces.
 */
export function troublePhrase(trouble: string): string {
	const beginning = kindsWhere((row) => (row.begins === trouble || row.burst === trouble) && row.says !== undefined)[0];
	const row = kindRow(trouble);
	return (beginning === undefined ? undefined : kindRow(beginning)?.says) ?? row?.says ?? row?.group ?? trouble.replaceAll('-', ' ');
}

/** "rig-03 down" for one rig, "3 rigs down" (or "3 workers gone": a proxy's workers all) for more. */
export function countPhrase(refs: readonly RigRef[], trouble: string): string {
	const phrase = troublePhrase(trouble);
	const [first] = refs;
	if (refs.length === 1 && first !== undefined) return `${rigName(first)} ${phrase}`;
	const unit = refs.every((ref) => ref.worker !== undefined) ? 'workers' : 'rigs';
	return `${refs.length} ${unit} ${phrase}`;
}

/** The lines, at most MAX_NAMED, then "and N more". */
export function bounded(lines: readonly string[]): string {
	if (lines.length <= MAX_NAMED) return lines.join('\n');
	return [...lines.slice(0, MAX_NAMED), `and ${lines.length - MAX_NAMED} more`].join('\n');
}

/** "4h", "10m" from ms: the larger unit. */
export function durationWords(ms: number): string {
	return formatDurationShort(Math.max(0, ms) / 1000);
}

/** "for 4h" from ms. */
export function forHowLong(ms: number): string {
	return `for ${durationWords(ms)}`;
}

/** A resolved rig's line: "rig-03 down 12m 03s (02:10–02:22)". */
export function outLine(ref: RigRef, trouble: string, since: number, until: number, now: number): string {
	return `${rigName(ref)} ${troublePhrase(trouble)} ${formatDuration(Math.max(0, until - since) / 1000)} (${formatTimeSpan(since, until, now)})`;
}

/** "rig-03 flapping: down 3 times in 10m" */
export function flappingTitle(ref: RigRef, trouble: string, count: number, windowMs: number): string {
	return `${rigName(ref)} flapping: ${troublePhrase(trouble)} ${count} times in ${formatSeconds(windowMs)}`;
}

/** "rig-03 settled, down" (still open) or "rig-03 settled, no longer down". */
export function settledTitle(ref: RigRef, trouble: string, open: boolean): string {
	return `${rigName(ref)} settled, ${open ? '' : 'no longer '}${troublePhrase(trouble)}`;
}
