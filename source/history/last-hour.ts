/**
 * The fleet's per-rig history column reads the last hour of each rig through this: the session's
 * miner at `slot` (its index in session.miners) looked up in the store, and its series in equal
 * buckets. The store answers in about 0.35 ms per rig for 20 points (docs/history.md), so the
 * fleet reads it once a minute, not at every poll.
 */
import {RESUME_GRACE_MS} from '../monitor/events.js';
import type {PastRates} from '../monitor/reference.js';
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
			const miner = history.minerOf(slot);
			if (miner === null) return null;
			return history.reader.series(miner, {from: to - HOUR_MS, to, points}).points;
		},
	};
}

/**
 * What the store knows of the rate of the session's miner at `slot` in the hour before `before`, for the drop
 * detector's reference (monitor/reference.ts): its stored polls, by the minute, where it mined with a pool and was
 * not paused — nor within RESUME_GRACE_MS after a paused or unanswered poll, while its 10 s window may still hold
 * seconds of not mining. Read once per miner (an hour of polls, a few ms); null while the store does not know the
 * miner yet (its first poll not written), empty once history is off.
 */
export function pastRates(history: HistoryRecorder, slot: number): PastRates {
	return (before) => {
		if (!history.enabled) return [];
		const miner = history.minerOf(slot);
		if (miner === null) return null;
		const minutes = new Map<number, {sum: number; count: number}>();
		let quietUntil = Number.NEGATIVE_INFINITY;
		for (const row of history.reader.rows(miner, {from: before - HOUR_MS, to: before})) {
			const mining = row.live > 0 && row.paused === 0 && row.pool === row.live && row.hrAvg !== null && row.hrAvg > 0;
			if (!mining) {
				quietUntil = row.t + Math.max(row.resolution, 0) + RESUME_GRACE_MS;
				continue;
			}

			if (row.t < quietUntil || row.hrAvg === null) continue;
			const t = Math.floor(row.t / 60_000) * 60_000;
			const minute = minutes.get(t) ?? {sum: 0, count: 0};
			minute.sum += row.hrAvg * row.hrN;
			minute.count += row.hrN;
			minutes.set(t, minute);
		}

		return [...minutes].map(([t, {sum, count}]) => ({t, rate: sum / count, samples: count}));
	};
}
