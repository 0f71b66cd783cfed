/**
 * What the store knows of a miner's accepted count before this session, for the monitor's last share
 * (monitor/last-share.ts): walking back from the session's first poll of the count, the earliest stored time the count
 * was already the same ("at least N ago"), or, where a stored poll a moment before has a lower count, the share that
 * made it, dated as a poll of this session would date it. Read once per miner, over a day (the polls of the last hour
 * and the minute summaries before them) but only the few rows that say it (HistoryReader.countRun); null while the store does not know the miner yet, undefined once
 * history is off or the store holds nothing of the count.
 */
import type {PastShares} from '../monitor/last-share.js';
import type {HistoryRecorder} from './recorder.js';

/** How far back the store is read. */
export const SHARES_SPAN_MS = 24 * 60 * 60_000;
/** Two polls at most this far apart are "a poll" apart: a rise between them is dated to the later one. */
export const SHARES_POLL_GAP_MS = 60_000;

export function pastShares(history: HistoryRecorder, slot: number): PastShares {
	return (before, good) => {
		if (!history.enabled) return undefined;
		const miner = history.readMinerOf(slot);
		if (miner === null) return null;
		// Only the rows the walk below looks at: each tier's newest other count and the earliest same count after it.
		const rows = history.reader.countRun(miner, {from: before - SHARES_SPAN_MS, to: before, good});
		// The earliest time the count is known to have been `good`, and whether that time is one poll's.
		let seen = before;
		let poll = true;
		for (let index = rows.length - 1; index >= 0; index--) {
			const row = rows[index];
			if (row === undefined) continue;
			if (row.good === good) {
				// A summary's count is its bucket's last poll's: the count was `good` by the bucket's end.
				seen = Math.min(seen, row.resolution === 0 ? row.t : row.t + row.resolution);
				poll = row.resolution === 0;
				continue;
			}

			// A lower count a poll before: the share came between the two. A higher one: the miner restarted since.
			if (row.good < good && row.resolution === 0 && poll && seen - row.t <= SHARES_POLL_GAP_MS) return {at: seen, atLeast: false};
			break;
		}

		return seen < before ? {at: seen, atLeast: true} : undefined;
	};
}
