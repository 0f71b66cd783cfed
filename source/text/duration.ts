/**
 * Durations typed on the command line: `90s`, `10m`, `1.5h`, `1h30m`, `7d` (parsed by parse-duration). A bare number
 * is taken in `bareUnitMs` where the flag says what it means (history's --since: hours), else refused (seconds or
 * minutes?), except 0, which is what turns a threshold off.
 */
import parse from 'parse-duration';

/** Milliseconds, or null when `text` is not a duration (a negative one included). */
export function parseDuration(text: string, options: {readonly bareUnitMs?: number} = {}): number | null {
	const trimmed = text.trim();
	if (/^\d+(?:\.\d+)?$/.test(trimmed)) {
		const value = Number(trimmed);
		if (value === 0) return 0;
		return options.bareUnitMs === undefined ? null : value * options.bareUnitMs;
	}

	if (!/^\d/.test(trimmed)) return null;
	const value = parse(trimmed);
	return value === null || value === undefined || !Number.isFinite(value) || value < 0 ? null : value;
}
