/**
 * The session's own notices: what rigtop has to say about no miner in particular (a token given two
 * ways, a history store set aside, history off). Kept apart from the miners' event logs, so that they
 * are never shown under, nor stored as the events of, whichever miner happens to be first. The fleet
 * shows them among its events as rigtop's; a single miner's dashboard among that miner's.
 */
import {Listeners, type Store} from './store.js';
import type {MinerEvent, Severity} from './types.js';

/** How many notices are kept (the oldest go first). */
const MAX_NOTICES = 100;

export class NoticeLog implements Store<readonly MinerEvent[]> {
	readonly #listeners = new Listeners();
	readonly #now: () => number;
	#notices: readonly MinerEvent[] = [];
	#seq = 0;

	constructor(options: {readonly now?: () => number} = {}) {
		this.#now = options.now ?? Date.now;
	}

	/** Adds a notice (one line; a line already among the notices is not added again). */
	add(severity: Severity, message: string): void {
		if (this.#notices.some((notice) => notice.message === message)) return;
		this.#seq += 1;
		const notice: MinerEvent = {seq: this.#seq, at: this.#now(), kind: 'action', severity, message};
		this.#notices = [...this.#notices, notice].slice(-MAX_NOTICES);
		this.#listeners.notify();
	}

	subscribe(listener: () => void): () => void {
		return this.#listeners.add(listener);
	}

	/** Oldest first; the same array until a notice is added. */
	getState(): readonly MinerEvent[] {
		return this.#notices;
	}
}
