/**
 * A single miner's dashboard shows the session's notices among the miner's own events (with one miner, the
 * dashboard is the session's only screen). This store is the miner's state with the notices merged into its
 * events log by time; the miner's monitor, its history and its alerts never see them.
 */
import type {MinerEvent, MonitorState} from '../../monitor/types.js';
import type {Store} from '../../monitor/store.js';

/** The two logs in time order (each is oldest first); a notice's seq is made negative, so React keys stay unique. */
export function mergeNotices(events: readonly MinerEvent[], notices: readonly MinerEvent[]): readonly MinerEvent[] {
	if (notices.length === 0) return events;
	const merged: MinerEvent[] = [];
	let i = 0;
	let j = 0;
	while (i < events.length || j < notices.length) {
		const event = events[i];
		const notice = notices[j];
		if (notice && (!event || notice.at < event.at)) {
			merged.push({...notice, seq: -notice.seq});
			j += 1;
		} else if (event) {
			merged.push(event);
			i += 1;
		}
	}

	return merged;
}

export class WithNotices implements Store<MonitorState> {
	readonly #miner: Store<MonitorState>;
	readonly #notices: Store<readonly MinerEvent[]>;
	#cache: {readonly state: MonitorState; readonly notices: readonly MinerEvent[]; readonly merged: MonitorState} | null = null;
	/** The merged log, kept while neither log changes (a poll that logs nothing keeps it: the panes read events again only on a new one). */
	#events: {
		readonly events: readonly MinerEvent[];
		readonly notices: readonly MinerEvent[];
		readonly merged: readonly MinerEvent[];
	} | null = null;

	constructor(miner: Store<MonitorState>, notices: Store<readonly MinerEvent[]>) {
		this.#miner = miner;
		this.#notices = notices;
	}

	subscribe(listener: () => void): () => void {
		const fromMiner = this.#miner.subscribe(listener);
		const fromNotices = this.#notices.subscribe(listener);
		return () => {
			fromMiner();
			fromNotices();
		};
	}

	/** The same object until the miner's state or the notices change. */
	getState(): MonitorState {
		const state = this.#miner.getState();
		const notices = this.#notices.getState();
		const cache = this.#cache;
		if (cache?.state === state && cache.notices === notices) return cache.merged;
		if (this.#events?.events !== state.events || this.#events.notices !== notices)
			this.#events = {events: state.events, notices, merged: mergeNotices(state.events, notices)};
		const merged = notices.length === 0 ? state : {...state, events: this.#events.merged};
		this.#cache = {state, notices, merged};
		return merged;
	}
}
