/**
 * The policy's settings as typed on the command line (--notify-group, --notify-repeat, --notify-flap) and their
 * defaults. Each parser throws an Error with one line naming the flag and what it takes (the command turns it into a
 * usage error, exit 2).
 */
import {parseDuration} from '../text/duration.js';

export const DEFAULT_NOTIFY_GROUP_MS = 30_000;
export const DEFAULT_NOTIFY_REPEAT_MS = 4 * 60 * 60_000;
export const DEFAULT_NOTIFY_FLAP = {count: 3, windowMs: 10 * 60_000} as const;

/** --notify-group DURATION: 0 sends each trouble at once. */
export function parseNotifyGroup(text: string): number {
	const ms = parseDuration(text);
	if (ms === null || ms > 60 * 60_000)
		throw new Error(`--notify-group takes a duration up to 1h such as 30s (0: no grouping), not ${JSON.stringify(text.slice(0, 40))}`);
	return ms;
}

/** --notify-repeat DURATION: 0 never repeats. */
export function parseNotifyRepeat(text: string): number {
	const ms = parseDuration(text);
	if (ms === null || (ms > 0 && ms < 60_000)) {
		throw new Error(`--notify-repeat takes a duration of 1m or more such as 4h (0: never), not ${JSON.stringify(text.slice(0, 40))}`);
	}

	return ms;
}

/** --notify-flap N/DURATION: N downs (2 or more) within DURATION. */
export function parseNotifyFlap(text: string): {count: number; windowMs: number} {
	const match = /^\s*(\d+)\s*\/\s*(\S+)\s*$/.exec(text);
	const count = match ? Number(match[1]) : Number.NaN;
	const windowMs = match?.[2] === undefined ? null : parseDuration(match[2]);
	if (!Number.isInteger(count) || count < 2 || windowMs === null || windowMs <= 0) {
		throw new Error(
			`--notify-flap takes downs within a duration such as 3/10m (at least 2 downs), not ${JSON.stringify(text.slice(0, 40))}`,
		);
	}

	return {count, windowMs};
}
