/**
 * When a trouble ended, from the history's events of that miner: the event table holds the all-clear (an `up` after a
 * `down`, `pool-connected` after `pool-lost`…, and what clears a trouble without one of its own). For recovery
 * (collapse.ts): a trouble notice a dead rigtop left pending is told as what it became.
 */
import type {HistoryStore} from '../../history/store.js';
import {kindRow, kindsWhere} from '../../monitor/event-kinds.js';
import type {TroubleEnd} from './collapse.js';

/** The event kinds that end `trouble` in the history: its all-clear, what clears it, and its row's `endedBy`. */
export function endingKinds(trouble: string): string[] {
	const kinds = new Set<string>(kindsWhere((row) => (row.ends ?? []).includes(trouble) || (row.clears ?? []).includes(trouble)));
	for (const begins of kindsWhere((row) => row.begins === trouble)) for (const kind of kindRow(begins)?.endedBy ?? []) kinds.add(kind);
	return [...kinds];
}

/** Reads the end of a rig's trouble from the store's events (null: none stored since it began: still open, as known). */
export function endFromHistory(store: HistoryStore): TroubleEnd {
	return (rig, trouble) => {
		const kinds = endingKinds(trouble);
		if (kinds.length === 0) return null;
		return store.read(() => {
			const marks = kinds.map(() => '?').join(', ');
			const row = store.get<{t: number | null}>(
				`SELECT min(e.t) AS t FROM event e JOIN miner m ON m.miner = e.miner
					WHERE m.url = ? AND e.t >= ? AND e.kind IN (${marks}) AND e.worker IS ?`,
				rig.url,
				rig.since,
				...kinds,
				rig.worker ?? null,
			);
			return row?.t ?? null;
		}, null);
	};
}
