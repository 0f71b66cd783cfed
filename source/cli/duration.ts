/**
 * Durations typed on the command line: `90s`, `10m`, `1.5h`, `2d`, `10 min` (parsed by @lukeed/ms). A bare number
 * is refused (seconds or minutes?) except 0, which is what turns a threshold off.
 */
import {parse} from '@lukeed/ms';

/** Milliseconds, or null when `text` is not a duration with a unit (or 0). */
export function parseDuration(text: string): number | null {
	const trimmed = text.trim();
	if (/^0+(?:\.0*)?$/.test(trimmed)) return 0;
	if (!/^\d*\.?\d+\s*[a-z]+$/i.test(trimmed)) return null;
	const value = parse(trimmed);
	return value === undefined || !Number.isFinite(value) || value < 0 ? null : value;
}
