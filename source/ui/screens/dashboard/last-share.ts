/**
 * When the miner last had a share accepted. XMRig does not report it, so it is inferred: the
 * first poll that sees `shares_good` go up dates the share to that poll (so it is exact to
 * within one poll interval). Until an increase is seen the time is unknown (null → "—"):
 * shares counted before rigtop started watching carry no time. A lower count means the miner
 * restarted, which forgets the time; so does another miner answering (a new id), whose count is its own.
 */
import type {MonitorState} from '../../../monitor/types.js';

export type ShareTrack = {
	/** The accepted-share count last seen; null before the first snapshot. */
	readonly good: number | null;
	/** Epoch ms of the poll that first saw the latest accepted share; null when unknown. */
	readonly lastAcceptedAt: number | null;
	/** The miner's API id the count is of (absent: none known). */
	readonly id?: string | null;
};

export const EMPTY_SHARE_TRACK: ShareTrack = {good: null, lastAcceptedAt: null};

/** The next track for a new state; returns `previous` itself when nothing changed. */
export function trackShares(previous: ShareTrack, state: Pick<MonitorState, 'snapshot' | 'lastSuccessAt'>): ShareTrack {
	const good = state.snapshot?.results.good;
	if (good === undefined) return previous;
	const id = state.snapshot?.id ?? null;
	const another = id !== null && (previous.id ?? null) !== null && previous.id !== id;
	if (previous.good === null || good < previous.good || another)
		return id === null ? {good, lastAcceptedAt: null} : {good, lastAcceptedAt: null, id};
	if (good === previous.good) return previous;
	return {...previous, good, lastAcceptedAt: state.lastSuccessAt};
}
