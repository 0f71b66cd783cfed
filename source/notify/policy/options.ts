/**
 * The policy's settings (docs/notify-policy.md) and the flags that set them: `--notify-group 30s`,
 * `--notify-repeat 4h` (0: off), `--notify-flap 3/10m` (0: off). Durations as text/duration.ts reads them.
 */
import {parseDuration} from '../../text/duration.js';

/** A rig flapping: `count` opens of one trouble within `windowMs` (count 0: never). */
export type FlapOptions = {readonly count: number; readonly windowMs: number};

export type PolicyOptions = {
	/** Troubles of one kind that open within this after the first go out as one notice when it ends (0: at once). */
	readonly groupMs: number;
	/** A group with rigs still open is told again this long after it was last told (0: never). */
	readonly repeatMs: number;
	readonly flap: FlapOptions;
};

export const DEFAULT_GROUP_MS = 30_000;
export const DEFAULT_REPEAT_MS = 4 * 3_600_000;
export const DEFAULT_FLAP: FlapOptions = Object.freeze({count: 3, windowMs: 10 * 60_000});

export const DEFAULT_POLICY: PolicyOptions = Object.freeze({groupMs: DEFAULT_GROUP_MS, repeatMs: DEFAULT_REPEAT_MS, flap: DEFAULT_FLAP});

/** `--notify-group`: a duration (`30s`, `1m`; 0 sends each trouble as it opens); null when it is none. */
export function parseNotifyGroup(text: string): number | null {
	return parseDuration(text);
}

/** `--notify-repeat`: a duration (`4h`, `30m`), or 0 for no repeat; null when it is none. */
export function parseNotifyRepeat(text: string): number | null {
	return parseDuration(text);
}

/** `--notify-flap`: `COUNT/WINDOW` (`3/10m`: three opens within ten minutes, COUNT 2 or more), or 0 for off; else null. */
export function parseNotifyFlap(text: string): FlapOptions | null {
	const trimmed = text.trim();
	if (trimmed === '0' || trimmed === 'off') return {count: 0, windowMs: DEFAULT_FLAP.windowMs};
	const match = /^(\d+)\s*\/\s*(.+)$/.exec(trimmed);
	if (match === null) return null;
	const count = Number(match[1]);
	const windowMs = parseDuration(match[2] ?? '');
	if (!Number.isSafeInteger(count) || count < 2 || windowMs === null || windowMs <= 0) return null;
	return {count, windowMs};
}

/** The flags as the command line gives them (absent: the default). */
export type PolicyFlags = {readonly group?: string; readonly repeat?: string; readonly flap?: string};

/**
 * The settings from the flags, or the first one refused, worded for the command line (exit 2): `--notify-flap "3"`:
 * COUNT/WINDOW, e.g. 3/10m, or 0 for off.
 */
export function policyOptionsFrom(
	flags: PolicyFlags,
): {readonly ok: true; readonly options: PolicyOptions} | {readonly ok: false; readonly error: string} {
	const group = flags.group === undefined ? DEFAULT_GROUP_MS : parseNotifyGroup(flags.group);
	if (group === null) return {ok: false, error: `--notify-group ${JSON.stringify(flags.group)}: a duration, e.g. 30s or 1m`};
	const repeat = flags.repeat === undefined ? DEFAULT_REPEAT_MS : parseNotifyRepeat(flags.repeat);
	if (repeat === null)
		return {ok: false, error: `--notify-repeat ${JSON.stringify(flags.repeat)}: a duration, e.g. 4h, or 0 for no repeat`};
	const flap = flags.flap === undefined ? DEFAULT_FLAP : parseNotifyFlap(flags.flap);
	if (flap === null) return {ok: false, error: `--notify-flap ${JSON.stringify(flags.flap)}: COUNT/WINDOW, e.g. 3/10m, or 0 for off`};
	return {ok: true, options: {groupMs: group, repeatMs: repeat, flap}};
}
