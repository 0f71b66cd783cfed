import sparkly from 'sparkly';
import {BrailleLayer, brailleChar} from './braille.js';

function isNumber(value: number | null): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

/** The least span of a sparkline's scale: the hundredth of a unit the dashboard writes (0.00 H/s). */
const LEAST_SPAN = 0.01;

/**
 * The scale of a sparkline: the values' range, but at least 10% of the peak (and never under LEAST_SPAN), centred on
 * the data but not below 0, so a steady miner draws a level line mid-height instead of magnifying noise into a saw,
 * and an idle one (every value 0.00 H/s) a line at the floor, never a block filled half or all the way up.
 * Null when no value is known.
 */
export function sparkScale(values: readonly (number | null)[]): {readonly low: number; readonly high: number} | null {
	const finite = values.filter(isNumber);
	if (finite.length === 0) return null;
	let low = Math.min(...finite);
	let high = Math.max(...finite);
	const minimumSpan = Math.max(high * 0.1, LEAST_SPAN);
	if (high - low < minimumSpan) {
		const middle = (high + low) / 2;
		low = Math.max(0, middle - minimumSpan / 2);
		high = low + minimumSpan;
	}

	return {low, high};
}

/**
 * A sparkline of the newest `width` samples, oldest left. A null sample (window not filled, or
 * a failed poll) leaves a gap. Scaled by sparkScale.
 * Returns at most `width` characters (fewer while there are fewer values); "" when there is nothing.
 */
export function sparkline(values: readonly (number | null)[], width: number): string {
	const count = Math.max(0, Math.floor(width));
	if (count === 0 || values.length === 0) return '';
	const shown = values.slice(-count);
	const scale = sparkScale(shown);
	if (scale === null) return ' '.repeat(shown.length);
	return sparkly(
		shown.map((value) => (isNumber(value) ? value : '')),
		{minimum: scale.low, maximum: scale.high},
	);
}

/**
 * A sparkline several rows tall, in braille as btop draws its graphs: two samples a column, each filled from the
 * bottom up to its value (4 levels a row), the newest `width × 2` samples, right-aligned. A null sample leaves its
 * column empty. Scaled by sparkScale (with the bottom row kept for the lowest value, so it never vanishes).
 */
export function sparkArea(values: readonly (number | null)[], width: number, rows: number): string[] {
	const columns = Math.max(0, Math.floor(width));
	const height = Math.max(1, Math.floor(rows));
	if (columns === 0) return [];
	const shown = values.slice(-columns * 2);
	const scale = sparkScale(shown);
	if (scale === null) return Array.from({length: height}, () => '');
	const layer = new BrailleLayer(columns, height);
	const dots = height * 4;
	const offset = columns * 2 - shown.length;
	const range = scale.high - scale.low;
	shown.forEach((value, index) => {
		if (!isNumber(value)) return;
		const level = range > 0 ? Math.max(1, Math.round(((value - scale.low) / range) * (dots - 1)) + 1) : Math.ceil(dots / 2);
		for (let y = dots - Math.min(dots, level); y < dots; y++) layer.set(offset + index, y);
	});
	return layer.cells().map((row) => row.map((mask) => (mask === 0 ? ' ' : brailleChar(mask))).join(''));
}
