import prettyMs from 'pretty-ms';

/** Text for event messages (the UI has its own column-aligned formatting). */

const rateUnits = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s'] as const;

/** 812 → "812 H/s", 4823.1 → "4.82 kH/s", 12_400_000 → "12.4 MH/s": three significant digits. */
export function formatRate(hashesPerSecond: number): string {
	let value = hashesPerSecond;
	let unit = 0;
	while (Math.abs(value) >= 999.5 && unit < rateUnits.length - 1) {
		value /= 1000;
		unit++;
	}

	const magnitude = Math.abs(value);
	const digits = magnitude >= 99.95 ? 0 : magnitude >= 9.995 ? 1 : 2;
	return `${value.toFixed(digits)} ${rateUnits[unit]}`;
}

/** A share 0..1 as a whole percentage: 0.444 → "44%". */
export function formatShare(share: number): string {
	return `${Math.round(share * 100)}%`;
}

/** A duration in ms as at most two units, whole seconds at the least: "4m 12s", "3d 4h", "1s". */
export function formatDuration(ms: number): string {
	const rounded = Math.max(1000, Math.round(ms / 1000) * 1000);
	return prettyMs(rounded, {secondsDecimalDigits: 0, unitCount: 2});
}
