/**
 * When a trouble ended, from the history: the event table holds the all-clear (an `up` after a `down`,
 * `pool-connected` after `pool-lost`…, and what clears a trouble without one of its own), and for a rig that was down
 * its first poll answered since (a rigtop starting while the rig is already up logs no `up`: its first poll is
 * stored). For recovery (collapse.ts): a trouble notice a dead rigtop left pending is told as what it became.
 */
import type {HistoryStore} from '../../history/store.js';
import {LINK} from '../../history/tiers.js';
import {kindRow, kindsWhere} from '../../monitor/event-kinds.js';
import type {TroubleEnd} from './collapse.js';

/** The troubles a poll answered (and used) ends: the rig was not answering, or not usably. */
const ENDED_BY_AN_ANSWER: ReadonlySet<string> = new Set(['down', 'error']);

/** The event kinds that end `trouble` in the history: its all-clear, what clears it, and its row's `endedBy`. */
export function endingKinds(trouble: string): string[] {
	const kinds = new Set<string>(kindsWhere((row) => (row.ends ?? []).includes(trouble) || (row.clears ?? []).includes(trouble)));
	for (const begins of kindsWhere((row) => row.begins === trouble)) for (const kind of kindRow(begins)?.endedBy ?? []) kinds.add(kind);
	return [...kinds];
}

export type EndFromHistoryOptions = {
	/**
	 * Where the history does not say it ended yet, look once more after this long (ms; default 15 s): time for this
	 * rigtop's first poll to be stored (the recorder writes every 5 s), so a rig up by now is not told as down. 0: no wait.
	 */
	readonly settleMs?: number;
};

/** Reads the end of a rig's trouble from the store (null: nothing stored says it ended: still open, as known). */
export function endFromHistory(store: HistoryStore, options: EndFromHistoryOptions = {}): TroubleEnd {
	const settleMs = options.settleMs ?? 15_000;
	let settled: Promise<void> | null = null;
	return async (rig, trouble) => {
		const known = readEnd(store, rig, trouble);
		if (known !== null || settleMs <= 0) return known;
		// One wait for the whole recovery, not one per rig.
		settled ??= new Promise((resolve) => {
			setTimeout(resolve, settleMs).unref();
		});
		await settled;
		return readEnd(store, rig, trouble);
	};
}

function readEnd(store: HistoryStore, rig: Parameters<TroubleEnd>[0], trouble: string): number | null {
	const kinds = endingKinds(trouble);
	return store.read(() => {
		let end: number | null = null;
		if (kinds.length > 0) {
			const marks = kinds.map(() => '?').join(', ');
			end =
				store.get<{t: number | null}>(
					`SELECT min(e.t) AS t FROM event e JOIN miner m ON m.miner = e.miner
						WHERE m.url = ? AND e.t >= ? AND e.kind IN (${marks}) AND e.worker IS ?`,
					rig.url,
					rig.since,
					...kinds,
					rig.worker ?? null,
				)?.t ?? null;
		}

		if (ENDED_BY_AN_ANSWER.has(trouble) && rig.worker === undefined) {
			const answered =
				store.get<{t: number | null}>(
					'SELECT min(s.t) AS t FROM sample s JOIN miner m ON m.miner = s.miner WHERE m.url = ? AND s.t > ? AND s.link = ?',
					rig.url,
					rig.since,
					LINK.live,
				)?.t ?? null;
			if (answered !== null && (end === null || answered < end)) end = answered;
		}

		return end;
	}, null);
}
