/**
 * When the miner last had a share accepted: the monitor's, per rig, so every screen of that rig knows it from its first
 * frame (a dashboard opened from the fleet, or again after the config view). XMRig does not report it, so it is
 * inferred from the accepted count (`shares_good`):
 * - the first poll that sees the count go up dates the share to that poll: known to within one poll interval;
 * - while the count has not moved since it was first seen, no share came since then: "at least N ago", N counted from
 *   the first poll that saw this count, or from the earliest stored poll with the same count (the history store,
 *   `PastShares`, injected by the session so that nothing here reads the store); a stored rise before that dates it
 *   as a poll of this session would.
 * A lower count means the miner restarted since the poll before: a count above 0 is shares found since then, dated to
 * this poll as a rise is. Another miner answering (a new id) starts again with its own count ("at least" from its first
 * poll; the store is not asked, as it holds the miner before until it is next written). A count of 0 has no last share.
 */
import type {MinerSnapshot} from '../miner/model.js';

/** The last accepted share: seen by the poll at `at` (within a poll), or, with `atLeast`, none since `at`. */
export type LastShare = {readonly at: number; readonly atLeast: boolean};

/**
 * What the store knows of the accepted count `good` before `before` (epoch ms): the share that made it (atLeast
 * false), or the earliest stored time the count was already `good` (atLeast true); undefined when the store holds
 * nothing of it; null while it cannot tell yet (the miner not identified in the store: asked again at a later poll).
 */
export type PastShares = (before: number, good: number) => LastShare | undefined | null;

export type ShareTrack = {
	/** The accepted-share count last seen; null before the first snapshot. */
	readonly good: number | null;
	/** The miner's API id the count is of (null: none known). */
	readonly id: string | null;
	/** When the count last moved, or since when it has not; null when unknown. */
	readonly lastShare: LastShare | null;
};

export const EMPTY_SHARE_TRACK: ShareTrack = {good: null, id: null, lastShare: null};

/** The next track for a good poll at `now`; returns `previous` itself when nothing changed. */
export function trackShares(previous: ShareTrack, snapshot: Pick<MinerSnapshot, 'results' | 'id'> | null, now: number): ShareTrack {
	const good = snapshot?.results.good;
	if (good === undefined) return previous;
	const id = snapshot?.id ?? null;
	const another = id !== null && previous.id !== null && previous.id !== id;
	if (previous.good === null || another) return {good, id: id ?? previous.id, lastShare: good > 0 ? {at: now, atLeast: true} : null};
	// A restart since the poll before: counted again from 0, so any shares it has came since then, as a rise's did.
	if (good < previous.good) return {good, id: id ?? previous.id, lastShare: good > 0 ? {at: now, atLeast: false} : null};
	if (good === previous.good) return previous;
	return {...previous, good, lastShare: {at: now, atLeast: false}};
}

/** The track with what the store knows of its count before `now`: it wins when it says more. */
export function withPast(track: ShareTrack, past: LastShare | undefined): ShareTrack {
	const known = track.lastShare;
	if (past === undefined || known === null || !known.atLeast) return track;
	if (past.atLeast && past.at >= known.at) return track;
	return {...track, lastShare: past};
}
