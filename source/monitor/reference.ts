import type {MinerSnapshot} from '../miner/model.js';
import type {DropState} from './events.js';
import {watchedRate} from './watched-rate.js';

/**
 * What rigtop knows of a miner's hashrate over the last hour: the reference the drop detector judges the 10 s rate
 * against besides the miner's own windows (events.ts, stepDrop). XMRig starts its 10 s, 60 s and 15 min windows
 * again whenever its threads restart (a config change: `cpu.rx=[0]`) or the process does, so against them alone a
 * miner cut from 3.6 to 0.9 kH/s, or back from a restart without its huge pages, looks steady. This reference is
 * made of the polls this session judged (mining, with a pool, not paused, past the grace of a resume or a restart)
 * and, seeded once, of what the history store holds of the hour before the session (`PastRates`, injected by the
 * session so that nothing here reads the store).
 *
 * It is the median of the per-minute averages, each minute weighing as many polls as it holds: a drop shorter than
 * half the hour's polls does not pull it down, and a minute of jitter does not move it.
 */

/** One minute of a miner's rate: the average of its 10 s rate over `samples` polls in the minute from `t`. */
export type RatePoint = {readonly t: number; readonly rate: number; readonly samples: number};

/**
 * The miner's rate in the hour before `before` (epoch ms) as stored, mining with a pool and not paused; null while it
 * cannot tell yet (the store does not know which of its miners this one is: asked again at the next poll).
 */
export type PastRates = (before: number) => readonly RatePoint[] | null;

export const REFERENCE_SPAN_MS = 60 * 60_000;
const MINUTE_MS = 60_000;
/** Polls the reference needs before it is used: a handful, so one odd poll is not the reference. */
export const REFERENCE_MIN_SAMPLES = 5;

type Bucket = {t: number; sum: number; count: number};

export class RateReference {
	/** Oldest first. */
	#buckets: Bucket[] = [];

	/** One judged poll's 10 s rate. */
	add(at: number, rate: number): void {
		const t = Math.floor(at / MINUTE_MS) * MINUTE_MS;
		const last = this.#buckets.at(-1);
		if (last?.t === t) {
			last.sum += rate;
			last.count++;
			return;
		}

		this.#buckets.push({t, sum: rate, count: 1});
	}

	/** What was known before the session (the store's last hour). */
	seed(points: readonly RatePoint[]): void {
		const seeded = points
			.filter((point) => Number.isFinite(point.rate) && point.rate > 0 && point.samples > 0)
			.map((point) => ({t: point.t, sum: point.rate * point.samples, count: point.samples}));
		if (seeded.length === 0) return;
		this.#buckets = [...seeded, ...this.#buckets].sort((a, b) => a.t - b.t);
	}

	/** Forgets everything (another algorithm: another rate). */
	clear(): void {
		this.#buckets = [];
	}

	/** The median of the minute averages of the hour before `now` (weighed by polls), or null with fewer than REFERENCE_MIN_SAMPLES polls. */
	value(now: number): number | null {
		const since = now - REFERENCE_SPAN_MS;
		let drop = 0;
		while (drop < this.#buckets.length && (this.#buckets[drop]?.t ?? 0) + MINUTE_MS <= since) drop++;
		if (drop > 0) this.#buckets = this.#buckets.slice(drop);
		let samples = 0;
		for (const bucket of this.#buckets) samples += bucket.count;
		if (samples < REFERENCE_MIN_SAMPLES) return null;
		// The minute average the middle poll falls in, minutes sorted by their average.
		const minutes = this.#buckets
			.map((bucket) => ({average: bucket.sum / bucket.count, count: bucket.count}))
			.sort((a, b) => a.average - b.average);
		let seen = 0;
		for (const minute of minutes) {
			seen += minute.count;
			if (seen > samples / 2) return minute.average;
		}

		return null;
	}
}

/**
 * Whether a poll's 10 s rate says what the miner does: it mines with a pool, is not paused, and its drop tracking
 * (after the poll) is past the grace of a resume, a restart or the session's start (`sinceResume` null), whose
 * windows may still hold seconds of not mining.
 */
export function countsForReference(snapshot: MinerSnapshot, drop: DropState): boolean {
	const rate = watchedRate(snapshot);
	return rate !== null && rate > 0 && snapshot.paused !== true && snapshot.connection.connected && drop.sinceResume === null;
}
