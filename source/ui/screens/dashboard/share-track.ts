import type {MonitorState} from '../../../monitor/types.js';
import type {Store} from '../../../store.js';
import {EMPTY_SHARE_TRACK, trackShares, type ShareTrack} from './last-share.js';

/**
 * The accepted shares of one miner's states (last-share.ts), kept beside its monitor rather than in a render: the
 * dashboard calls `follow` from its one subscription to the monitor (useStore's onChange), so each state the monitor
 * hands out is tracked as it comes, not only those a frame draws; `getState` catches up with the monitor's state of the
 * moment and returns the same object while nothing it tracks changed.
 */
export class ShareTracker {
	readonly #monitor: Store<MonitorState>;
	#seen: MonitorState;
	#track: ShareTrack;

	constructor(monitor: Store<MonitorState>) {
		this.#monitor = monitor;
		this.#seen = monitor.getState();
		this.#track = trackShares(EMPTY_SHARE_TRACK, this.#seen);
	}

	/** Tracks the monitor's state now (called on each of its changes). */
	follow(): void {
		const state = this.#monitor.getState();
		if (state === this.#seen) return;
		this.#seen = state;
		this.#track = trackShares(this.#track, state);
	}

	getState(): ShareTrack {
		this.follow();
		return this.#track;
	}
}
