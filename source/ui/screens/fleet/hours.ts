/**
 * The fleet's last-hour column, drawn: each rig's last hour (history/fleet-hours.ts reads it, once a minute while
 * the fleet shows) as a small sparkline where the width allows. Without history (--no-history, or a store that could
 * not be opened or turned off) there is no column at all.
 */
import type {HourPoint} from '../../../history/last-hour.js';
import {sparkline} from '../../widgets/sparkline.js';

export type {FleetHours} from '../../../history/fleet-hours.js';

/** Where the miner did not answer (half the polls stored or more failed): marked, not a level. */
export const OUTAGE_MARK = '×';

/**
 * A rig's hour in `width` characters, oldest left: each character the average of its buckets' 10 s hashrate (a
 * sparkline scaled to the rig's own range), "×" where half the polls stored or more failed (the rig was down), a space where
 * nothing was stored (rigtop was not watching). "" with no hour.
 */
export function hourCells(points: readonly HourPoint[] | null, width: number): string {
	const count = Math.min(Math.max(0, Math.floor(width)), points?.length ?? 0);
	if (!points || count === 0) return '';
	const values: (number | null)[] = [];
	const outages: boolean[] = [];
	for (let cell = 0; cell < count; cell++) {
		const from = Math.floor((cell * points.length) / count);
		const to = Math.floor(((cell + 1) * points.length) / count);
		let samples = 0;
		let live = 0;
		let sum = 0;
		let weight = 0;
		for (const point of points.slice(from, to)) {
			samples += point.samples;
			live += point.live;
			if (point.avg !== null && point.live > 0) {
				sum += point.avg * point.live;
				weight += point.live;
			}
		}

		values.push(weight > 0 ? sum / weight : null);
		// Down for half of the character's time or more: a minute's outage shows in a 2-minute character.
		outages.push(samples > 0 && live * 2 <= samples);
	}

	const line = [...sparkline(values, count).padEnd(count)];
	return line.map((char, cell) => (outages[cell] ? OUTAGE_MARK : char)).join('');
}
