/**
 * The fleet's per-rig history column reads the last hour of each rig through this: the session's
 * miner at `slot` (its index in session.miners) looked up in the store, and its series in equal
 * buckets. The store answers in about 0.35 ms per rig for 20 points (docs/history.md), so the
 * fleet reads it once a minute, not at every poll.
 */
import type {PastRates, RatePoint} from '../monitor/reference.js';
import type {HistoryRecorder} from './recorder.js';
import type {SeriesPoint} from './read.js';

export const HOUR_MS = 60 * 60_000;

/** What a history column needs of a bucket: polls stored, polls answered, the 10 s hashrate's average. */
export type HourPoint = Pick<SeriesPoint, 'samples' | 'live' | 'avg'>;

export type LastHourSource = {
	/** False once history is off (a full disk, a read-only folder): the column goes. */
	readonly enabled: boolean;
	/** The hour before `to` of the session's miner at `slot` in `points` buckets, oldest first; null while it has no id in the store yet. */
	lastHour(slot: number, to: number, points: number): readonly HourPoint[] | null;
};

/** The last-hour reader of a live session's recorder. */
export function lastHourSource(history: HistoryRecorder): LastHourSource {
	return {
		get enabled() {
			return history.enabled;
		},
		lastHour(slot, to, points) {
			// Never writes: a miner whose first poll waits to be written is read as the stored miner it is, or not yet.
			const miner = history.readMinerOf(slot);
			if (miner === null) return null;
			return history.reader.series(miner, {from: to - HOUR_MS, to, points}).points;
		},
	};
}

/**
 * What the store knows of the rate of the session's miner at `slot` in the hour before `before`, for the drop
 * detector's reference (monitor/reference.ts): its minutes where it mined with a pool and was not paused, each but
 * the one after a minute with a pause or an outage (its 10 s window may still hold seconds of not mining:
 * RESUME_GRACE_MS). Read once per miner, as a 60-point series (about 1 ms: the minute summaries, and the polls of
 * the last minutes not yet summarized); null while the store does not know the miner yet (its first poll not
 * written: asked again later; a read never writes), empty once history is off.
 */
export function pastRates(history: HistoryRecorder, slot: number): PastRates {
	return storedPastRates(history, () => history.readMinerOf(slot));
}

/** The same for the worker `worker` of the proxy at `slot`: its own stored minutes (connected, its 1 min rate). */
export function workerPastRates(history: HistoryRecorder, slot: number, worker: string): PastRates {
	return storedPastRates(history, () => history.readWorkerOf(slot, worker));
}

function storedPastRates(history: HistoryRecorder, minerOf: () => number | null): PastRates {
	return (before) => {
		if (!history.enabled) return [];
		const miner = minerOf();
		if (miner === null) return null;
		const rates: RatePoint[] = [];
		let afterQuiet = false;
		for (const point of history.reader.series(miner, {from: before - HOUR_MS, to: before, points: 60}).points) {
			if (point.samples === 0) continue; // not watched: nothing known
			if (point.live === 0 || point.paused !== 0 || point.pool !== 1) {
				afterQuiet = true;
				continue;
			}

			const quiet = afterQuiet;
			afterQuiet = false;
			if (quiet || point.avg === null || point.avg <= 0) continue;
			rates.push({t: point.t, rate: point.avg, samples: point.live});
		}

		return rates;
	};
}
