import sparkly from 'sparkly';

function isNumber(value: number | null): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

/**
 * A sparkline of the newest `width` samples, oldest left. A null sample (window not filled, or
 * a failed poll) leaves a gap. The scale spans at least 10% of the peak, centred on the data,
 * so a steady miner draws a level line mid-height instead of magnifying noise into a saw.
 * Returns at most `width` characters (fewer while history is short); "" when there is nothing.
 */
export function sparkline(values: readonly (number | null)[], width: number): string {
	const count = Math.max(0, Math.floor(width));
	if (count === 0 || values.length === 0) return '';
	const shown = values.slice(-count);
	const finite = shown.filter(isNumber);
	if (finite.length === 0) return ' '.repeat(shown.length);
	let low = Math.min(...finite);
	let high = Math.max(...finite);
	const minimumSpan = high * 0.1;
	if (high > 0 && high - low < minimumSpan) {
		const middle = (high + low) / 2;
		low = Math.max(0, middle - minimumSpan / 2);
		high = low + minimumSpan;
	}

	return sparkly(
		shown.map((value) => (isNumber(value) ? value : '')),
		{minimum: low, maximum: high},
	);
}
