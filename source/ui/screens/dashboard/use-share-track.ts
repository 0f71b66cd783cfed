import {useState} from 'react';
import type {MonitorState} from '../../../monitor/types.js';
import {EMPTY_SHARE_TRACK, trackShares, type ShareTrack} from './last-share.js';

/** Follows accepted shares across states (see last-share.ts); derived during render, no effect. */
export function useShareTrack(state: MonitorState): ShareTrack {
	const [track, setTrack] = useState<ShareTrack>(() => trackShares(EMPTY_SHARE_TRACK, state));
	const next = trackShares(track, state);
	if (next !== track) setTrack(next);
	return next;
}
