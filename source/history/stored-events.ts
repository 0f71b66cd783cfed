/**
 * A watched miner's state with the actions other processes stored for it merged into its log: `rigtop config set`,
 * `rigtop pause`, another rigtop's batch or key. The fleet's events pane reads the monitors' logs, which hold only what
 * this session saw and did; the store holds everyone's (the dashboard's pane and the event view `e` read it). This
 * store is what the fleet's feed reads instead: the miner's own state, and the `action` events another writer stored
 * since this session started. Only actions: every other kind is what a monitor derives from its polls, which this
 * session's monitor logs itself (another rigtop's copy of the same happening would show twice), and this session's own
 * actions are in its log already (its writer's rows are left out in SQL).
 *
 * Steady cost: one look for the whole fleet per poll interval, on a timer (StoredByOthers: the newest row id, and the
 * rows stored since the last look, by row id); a rig's stored actions are read only when that look found a new one of
 * its; getState itself reads nothing. The monitor, its alerts, the recorder and the exporter never see these events:
 * nothing is stored twice or alerted on.
 */
import type {EventKind, MinerEvent, MonitorState} from '../monitor/types.js';
import type {Store} from '../monitor/store.js';
import type {HistoryReader, StoredEvent} from './read.js';

/** Stored events read at once: the fleet's pane shows far fewer. */
const READ_AT_MOST = 40;

/** The one kind merged: what a user did through some process (its row in monitor/event-kinds.ts). */
const MERGED_KIND = 'action' satisfies EventKind;

/** What the looks read through: the session's recorder (history/recorder.ts). */
export type OthersSource = {
	readonly enabled: boolean;
	readonly reader: HistoryReader;
	/** This rigtop's writer id: its own rows are not another's. */
	readonly writerId: number;
};

/**
 * Which stored miners another writer stored an action for since the session started: a counter per miner, moved when
 * a look finds one. Looks once per poll interval on a timer (unref'd), never on a read or in render.
 */
export class StoredByOthers {
	readonly #recorder: OthersSource;
	readonly #intervalMs: () => number;
	readonly #counts = new Map<number, number>();
	readonly #listeners = new Set<() => void>();
	#last: number | null = null;
	#timer: ReturnType<typeof setTimeout> | null = null;

	constructor(recorder: OthersSource, intervalMs: () => number) {
		this.#recorder = recorder;
		this.#intervalMs = intervalMs;
	}

	/** Starts looking: at once (the newest row now is where new ones start), then once per poll interval. */
	start(): void {
		if (this.#timer !== null) return;
		this.look();
		const next = () => {
			this.#timer = setTimeout(
				() => {
					this.look();
					next();
				},
				Math.max(250, this.#intervalMs()),
			);
			this.#timer.unref?.();
		};
		next();
	}

	stop(): void {
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
	}

	/** One look: the newest row id; when it moved, which miners another writer stored an action for since the last. */
	look(): void {
		if (!this.#recorder.enabled) return;
		const {reader} = this.#recorder;
		const newest = reader.lastEventId();
		const last = this.#last;
		this.#last = newest;
		if (last === null || newest <= last) return;
		const miners = reader.minersWithOthers({after: last, upTo: newest, writer: this.#recorder.writerId, kind: MERGED_KIND});
		for (const miner of miners) this.#counts.set(miner, (this.#counts.get(miner) ?? 0) + 1);
		if (miners.length > 0) for (const listener of this.#listeners) listener();
	}

	/** Moves when another writer stored an action for `miner` (0: none since the session started). */
	countOf(miner: number): number {
		return this.#counts.get(miner) ?? 0;
	}

	/** Tells `listener` when a look found another writer's action. */
	subscribe(listener: () => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	/** The miner's actions stored by other writers since `since`, oldest first (the newest READ_AT_MOST). */
	read(miner: number, since: number): StoredEvent[] {
		return this.#recorder.reader.othersEvents(miner, {since, writer: this.#recorder.writerId, kind: MERGED_KIND, limit: READ_AT_MOST});
	}
}

export class WithStoredEvents implements Store<MonitorState> {
	readonly #monitor: Store<MonitorState>;
	readonly #others: StoredByOthers;
	readonly #minerOf: () => number | null;
	readonly #since: number;
	#mark = '';
	#stored: readonly StoredEvent[] = [];
	#cache: {
		readonly state: MonitorState;
		readonly events: readonly MinerEvent[];
		readonly stored: readonly StoredEvent[];
		readonly merged: MonitorState;
	} | null = null;

	/** `minerOf`: the rig's stored miner as written (null before its first poll is). */
	constructor(monitor: Store<MonitorState>, others: StoredByOthers, minerOf: () => number | null, since: number = Date.now()) {
		this.#monitor = monitor;
		this.#others = others;
		this.#minerOf = minerOf;
		this.#since = since;
	}

	subscribe(listener: () => void): () => void {
		const fromMonitor = this.#monitor.subscribe(listener);
		const fromOthers = this.#others.subscribe(listener);
		return () => {
			fromMonitor();
			fromOthers();
		};
	}

	/** The same object until the miner's state or what others stored for it changes; reads only when the latter did. */
	getState(): MonitorState {
		const state = this.#monitor.getState();
		const miner = this.#minerOf();
		const count = miner === null ? 0 : this.#others.countOf(miner);
		const mark = `${miner ?? ''}:${count}`;
		if (mark !== this.#mark) {
			this.#mark = mark;
			this.#stored = miner === null || count === 0 ? [] : this.#others.read(miner, this.#since);
		}

		const cache = this.#cache;
		if (cache?.state === state && cache.stored === this.#stored) return cache.merged;
		// The merge is made again only when the log or the stored actions change, not at every poll.
		const events =
			cache?.events === state.events && cache.stored === this.#stored ? cache.merged.events : mergeStored(state.events, this.#stored);
		const merged = events === state.events ? state : {...state, events};
		this.#cache = {state, events: state.events, stored: this.#stored, merged};
		return merged;
	}
}

/**
 * The log with the actions other processes stored, in time order. A stored event's seq is made from its time (far
 * above any monitor's own), so React keys stay unique and the same at every read.
 */
export function mergeStored(events: readonly MinerEvent[], stored: readonly StoredEvent[]): readonly MinerEvent[] {
	const others: MinerEvent[] = [];
	const seen = new Map<number, number>();
	for (const event of stored) {
		if (event.watcher === true || event.kind !== MERGED_KIND) continue;
		const same = seen.get(event.t) ?? 0;
		seen.set(event.t, same + 1);
		others.push({
			seq: event.t * 16 + Math.min(15, same),
			at: event.t,
			kind: MERGED_KIND,
			severity: event.severity as MinerEvent['severity'],
			message: event.text,
			...(event.worker === undefined ? {} : {worker: event.worker}),
		});
	}

	if (others.length === 0) return events;
	return [...events, ...others].sort((a, b) => a.at - b.at || a.seq - b.seq);
}
