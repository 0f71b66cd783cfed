/**
 * A watched miner's state with the events other processes stored for it merged into its log: `rigtop config set`,
 * `rigtop pause`, another rigtop's batch. The fleet's events pane reads the monitors' logs, which hold only what this
 * session saw and did; the store holds everyone's (the dashboard's pane and the event view `e` read it). This store is
 * what the fleet's feed reads instead: the miner's own state, and the stored events since this session started that
 * are not in its log, read again when the miner's newest stored event changes (its `eventsStamp`, read once per poll).
 * The monitor, its alerts, the recorder and the exporter never see them: nothing is stored twice or alerted on.
 */
import type {MinerEvent, MonitorState} from '../monitor/types.js';
import type {Store} from '../store.js';
import type {StoredEvent} from './read.js';
import type {HistorySource} from './source.js';

/** Stored events read at once: the fleet's pane shows far fewer. */
const READ_AT_MOST = 40;

/** A key that is the same for an event of the log and its stored row. */
const keyOf = (t: number, kind: string) => `${t}:${kind}`;

export class WithStoredEvents implements Store<MonitorState> {
	readonly #monitor: Store<MonitorState>;
	readonly #source: HistorySource;
	readonly #since: number;
	#stamp: string | null = null;
	#stored: readonly StoredEvent[] = [];
	#cache: {readonly state: MonitorState; readonly stored: readonly StoredEvent[]; readonly merged: MonitorState} | null = null;

	constructor(monitor: Store<MonitorState>, source: HistorySource, since: number = Date.now()) {
		this.#monitor = monitor;
		this.#source = source;
		this.#since = since;
	}

	subscribe(listener: () => void): () => void {
		return this.#monitor.subscribe(listener);
	}

	/** The same object until the miner's state or what others stored changes. */
	getState(): MonitorState {
		const state = this.#monitor.getState();
		const stamp = this.#source.eventsStamp?.() ?? '';
		if (stamp !== this.#stamp) {
			this.#stamp = stamp;
			this.#stored = stamp === '' ? [] : this.#source.events({since: this.#since, limit: READ_AT_MOST});
		}

		const cache = this.#cache;
		if (cache?.state === state && cache.stored === this.#stored) return cache.merged;
		const merged = {...state, events: mergeStored(state.events, this.#stored)};
		const result = merged.events === state.events ? state : merged;
		this.#cache = {state, stored: this.#stored, merged: result};
		return result;
	}
}

/**
 * The log with the stored events it does not hold (another process's), in time order. A stored event's seq is made
 * from its time (far above any monitor's own), so React keys stay unique and the same at every read.
 */
export function mergeStored(events: readonly MinerEvent[], stored: readonly StoredEvent[]): readonly MinerEvent[] {
	const own = new Set(events.map((event) => keyOf(event.at, event.kind)));
	const others: MinerEvent[] = [];
	const seen = new Map<number, number>();
	for (const event of stored) {
		if (event.watcher === true || own.has(keyOf(event.t, event.kind))) continue;
		const same = seen.get(event.t) ?? 0;
		seen.set(event.t, same + 1);
		others.push({
			seq: event.t * 16 + Math.min(15, same),
			at: event.t,
			kind: event.kind as MinerEvent['kind'],
			severity: event.severity as MinerEvent['severity'],
			message: event.text,
			...(event.worker === undefined ? {} : {worker: event.worker}),
		});
	}

	if (others.length === 0) return events;
	return [...events, ...others].sort((a, b) => a.at - b.at || a.seq - b.seq);
}
