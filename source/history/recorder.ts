/**
 * Records a session's miners into the history store: every poll (good or failed) and every event of the
 * monitors' event logs — what the monitor derives, what the alert center writes there (reject bursts),
 * what the user's actions write (config applied or undone, pause sent), and any kind added later — as
 * kind, severity, text and time.
 *
 * Writes are batched: the polls of five seconds go in one transaction (a fleet of 100 is one commit
 * every five seconds, not a hundred a second); an event is written within 50 ms. So a kill -9 loses
 * at most the last five seconds of polls; the store itself is never damaged by it (store.ts). Writing
 * is synchronous and short (about 0.01 ms of CPU per poll, bench/history.bench.mjs).
 */
import type {MinerSnapshot} from '../miner/model.js';
import {hostPort, rigName} from '../monitor/name.js';
import type {MinerEvent, MonitorState} from '../monitor/types.js';
import {Listeners} from '../monitor/store.js';
import {HistoryReader, type StoredEvent} from './read.js';
import type {HistoryStore} from './store.js';
import {pollSample, sampleOfState, storedWorkers, WORKER_SPACING_MS, workerSample} from './samples.js';
import {LINK, type SampleRow} from './tiers.js';
import {HistoryWriter, type EventRecord, type Observation} from './writer.js';

/** What the recorder reads a miner from; the Monitor satisfies it. */
export type RecordedMonitor = {
	subscribe(listener: () => void): () => void;
	getState(): MonitorState;
	/** The rigs file's name of the rig: what the store names it (monitor/name.ts, rigName); else host:port. */
	readonly configuredName?: string | undefined;
};

export type HistoryRecorderOptions = {
	readonly intervalMs: number;
	/** How long polls wait to be written together (default 5 s). */
	readonly flushMs?: number;
	readonly now?: () => number;
	/** Strings never stored (the session's access tokens). */
	readonly secrets?: readonly string[];
	readonly writerId?: number;
};

/**
 * How long polls wait to be written together. Each commit writes at least one page to the WAL, however few polls it
 * holds: every 5 s instead of every poll writes a fifth to a tenth as much (docs/history.md); a kill -9 loses at
 * most these last seconds of polls.
 */
const DEFAULT_FLUSH_MS = 5000;

/** How soon a new event is written. */
const EVENT_FLUSH_MS = 50;

/** Polls and events kept for a store that is busy (another rigtop writing) at most; older ones are dropped. */
const MAX_PENDING = 20_000;

/** A slot's own access events (a refused token) kept in memory at most; one is logged per change, so few. */
const MAX_WATCHER_EVENTS = 200;

export class HistoryRecorder {
	readonly store: HistoryStore;
	readonly reader: HistoryReader;
	readonly #writer: HistoryWriter;
	readonly #intervalMs: number;
	readonly #flushMs: number;
	readonly #unsubscribes: (() => void)[] = [];
	readonly #tracked = new Map<number, {polls: number; lastSeq: number; configured: string | undefined}>();
	#observations: Observation[] = [];
	#events: EventRecord[] = [];
	/**
	 * Per slot: its events about this rigtop's own access (a wrong or missing token: `watcher`), never written — they
	 * are not the rig's, and another rigtop reading the rig must not show them — but merged into this session's reads.
	 */
	readonly #watcherEvents = new Map<number, EventRecord[]>();
	#timer: ReturnType<typeof setTimeout> | null = null;
	#timerDue = 0;
	#closed = false;
	readonly #written = new Set<number>();
	/** Told after each write (a flush that stored something). */
	readonly #wrote = new Listeners();
	/** Per slot not written yet: the stored miner its first answer identifies (looked up once, without writing). */
	readonly #identified = new Map<number, number | null>();

	constructor(store: HistoryStore, options: HistoryRecorderOptions) {
		this.store = store;
		this.#writer = new HistoryWriter(store, {
			...(options.now ? {now: options.now} : {}),
			...(options.secrets ? {secrets: options.secrets} : {}),
			...(options.writerId === undefined ? {} : {writerId: options.writerId}),
		});
		this.#intervalMs = options.intervalMs;
		this.#flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
		// Reads in this process see every poll and event: what waits for the next flush is merged in from memory (a read
		// never writes).
		this.reader = new HistoryReader(store, {
			pending: (miner) => this.#pendingSamples(miner),
			pendingEvents: (miner) => this.#pendingEvents(miner),
		});
	}

	/** Tells `listener` after each write that stored something (the screens' history stores read again on it). */
	onWrite(listener: () => void): () => void {
		return this.#wrote.add(listener);
	}

	get enabled(): boolean {
		return this.store.enabled;
	}

	/** This rigtop's writer id (the event table's `writer` of what it stores). */
	get writerId(): number {
		return this.#writer.writerId;
	}

	/** The stored miner of the session's miner at `slot` as far as written, or null: never writes. */
	writtenMinerOf(slot: number): number | null {
		return this.#writer.minerOf(slot);
	}

	/**
	 * Whether the session's miner at `slot` is or will be in the store after the next write (an answered poll waits to
	 * be written), without writing or reading anything.
	 */
	knows(slot: number): boolean {
		if (this.#writer.minerOf(slot) !== null) return true;
		const pending = this.#observations.filter((observation) => observation.slot === slot);
		return pending.length > 0 && !(this.#writer.waits(slot) && pending.every((observation) => observation.facts === null));
	}

	/**
	 * The stored miner to read the session's miner at `slot` as, without writing: the one written, else the one its
	 * first answer waiting to be written identifies (a miner stored before, by this rigtop or another: read once);
	 * null for a miner the store does not know yet (its first poll waiting): only what waits is read then (pendingOf).
	 */
	readMinerOf(slot: number): number | null {
		const written = this.#writer.minerOf(slot);
		if (written !== null) return written;
		if (this.#identified.has(slot)) return this.#identified.get(slot) ?? null;
		const first = this.#observations.find((observation) => observation.slot === slot && observation.facts !== null);
		if (!first?.facts) return null;
		const miner = this.reader.identify(first.url, first.facts, first.sample.t);
		this.#identified.set(slot, miner);
		return miner;
	}

	/** The polls and events of the session's miner at `slot` that wait to be written, as a read returns them. */
	pendingOf(slot: number): {readonly samples: readonly SampleRow[]; readonly events: readonly StoredEvent[]} {
		return {
			samples: this.#observations
				.filter((observation) => observation.slot === slot && observation.worker === undefined)
				.map((observation) => observation.sample),
			events: [...(this.#watcherEvents.get(slot) ?? []), ...this.#events.filter((event) => event.slot === slot)]
				.sort((a, b) => a.t - b.t)
				.map((event) => this.#storedEvent(event)),
		};
	}

	/**
	 * The stored worker `name` of the proxy at `slot`, to read its polls as (history/source.ts, WorkerHistory): the one
	 * written, else the one stored before (looked up, never written); null when the store has none of it yet.
	 */
	readWorkerOf(slot: number, name: string): number | null {
		const proxy = this.readMinerOf(slot);
		if (proxy === null) return null;
		return this.#writer.workerOf(proxy, name) ?? this.reader.workerOf(proxy, name);
	}

	/** The polls of the worker `name` of the proxy at `slot` that wait to be written. */
	pendingWorkerOf(slot: number, name: string): readonly SampleRow[] {
		return this.#observations
			.filter((observation) => observation.slot === slot && observation.worker === name)
			.map((observation) => observation.sample);
	}

	/** Records every poll and event of these monitors from now on (slot = position in the list). */
	watch(monitors: readonly RecordedMonitor[]): void {
		monitors.forEach((monitor, slot) => {
			const state = monitor.getState();
			// Events already in the log are recorded too (start-up warnings, a first poll that came before).
			this.#tracked.set(slot, {polls: state.polls, lastSeq: 0, configured: monitor.configuredName});
			if (state.polls > 0) this.#observe(slot, state);
			this.#collectEvents(slot, state);
			this.#unsubscribes.push(
				monitor.subscribe(() => {
					this.#onState(slot, monitor.getState());
				}),
			);
		});
	}

	/** Records one read made outside a monitor (--once): the snapshot, or the failure's link state. */
	recordRead(
		slot: number,
		read: {
			readonly url: string;
			/** The rigs file's name of the rig, if it has one. */
			readonly configured?: string | undefined;
			readonly at: number;
			readonly snapshot: MinerSnapshot | null;
			readonly link: 'live' | 'down' | 'error';
		},
	): void {
		const sample = pollSample(read.snapshot, read.at, read.link);
		if (sample === null) return;
		this.#observations.push({
			slot,
			url: read.url,
			...storedName(read.configured, read.url),
			facts: read.snapshot ? factsOf(read.snapshot) : null,
			sample,
			spacingMs: this.#intervalMs * 0.75,
		});
		if (read.snapshot) this.#observeWorkers(slot, read.url, read.snapshot, read.at);
		this.#schedule();
	}

	/** Writes what waits. False when it must wait longer (another rigtop holds the store; it is tried again). */
	flush(): boolean {
		if (this.#timer !== null) {
			clearTimeout(this.#timer);
			this.#timer = null;
		}

		if (this.#observations.length === 0 && this.#events.length === 0) return true;
		if (!this.store.enabled) {
			this.#observations = [];
			this.#events = [];
			return false;
		}

		const observations = this.#observations;
		const events = this.#events;
		this.#observations = [];
		this.#events = [];
		if (this.#writer.write(observations, events)) {
			for (const observation of observations) {
				const miner = this.#writer.minerOf(observation.slot);
				if (miner !== null) this.#written.add(miner);
			}

			this.#identified.clear();
			this.#wrote.notify();
			return true;
		}

		if (this.store.enabled) {
			// Busy, or a fresh file replaced a damaged one: keep them for the next try, newest kept when too many.
			this.#observations = [...observations, ...this.#observations].slice(-MAX_PENDING);
			this.#events = [...events, ...this.#events].slice(-MAX_PENDING);
			if (!this.#closed) this.#schedule();
		}

		return false;
	}

	/** Stops recording, writes what waits, makes the summaries now due, and closes the store. */
	close(): void {
		if (this.#closed) return;
		this.#closed = true;
		for (const unsubscribe of this.#unsubscribes.splice(0)) unsubscribe();
		if (!this.flush()) this.flush(); // one more try when busy
		if (this.store.enabled) {
			this.#writer.summarize([...this.#written], true);
			this.store.checkpoint();
		}

		this.store.close();
		this.#wrote.clear();
	}

	/** The polls of a stored miner that wait to be written. */
	#pendingSamples(miner: number): SampleRow[] {
		if (this.#observations.length === 0) return [];
		return this.#observations
			.filter((observation) => {
				const proxy = this.#readMinerOf(observation.slot);
				if (observation.worker === undefined) return proxy === miner;
				return proxy !== null && this.#writer.workerOf(proxy, observation.worker) === miner;
			})
			.map((observation) => observation.sample);
	}

	/** The events of a stored miner that wait to be written, as they will be stored. */
	#pendingEvents(miner: number): StoredEvent[] {
		const waiting = this.#events.filter((event) => this.#readMinerOf(event.slot) === miner);
		for (const [slot, own] of this.#watcherEvents) if (this.#readMinerOf(slot) === miner) waiting.push(...own);
		return waiting.map((event) => this.#storedEvent(event));
	}

	/** The slot's stored miner for merging what waits: the written one, or the one identified for a read (never looked up here). */
	#readMinerOf(slot: number): number | null {
		return this.#writer.minerOf(slot) ?? this.#identified.get(slot) ?? null;
	}

	#storedEvent(event: EventRecord): StoredEvent {
		const stored: StoredEvent = {t: event.t, kind: event.kind, severity: event.severity, text: this.#writer.storedText(event.text)};
		const named = event.worker ? {...stored, worker: event.worker} : stored;
		return event.watcher ? {...named, watcher: true} : named;
	}

	#onState(slot: number, state: MonitorState): void {
		if (this.#closed) return;
		const tracked = this.#tracked.get(slot);
		if (!tracked) return;
		if (state.polls !== tracked.polls) {
			tracked.polls = state.polls;
			this.#observe(slot, state);
		}

		this.#collectEvents(slot, state);
	}

	#observe(slot: number, state: MonitorState): void {
		const sample = sampleOfState(state);
		if (sample === null) return;
		this.#observations.push({
			slot,
			url: state.url,
			...storedName(this.#tracked.get(slot)?.configured, state.url),
			facts: sample.link === LINK.live && state.snapshot ? factsOf(state.snapshot) : null,
			sample,
			spacingMs: this.#intervalMs * 0.75,
		});
		if (sample.link === LINK.live && state.snapshot) this.#observeWorkers(slot, state.url, state.snapshot, sample.t);
		this.#schedule();
	}

	/** A proxy's poll: its workers' samples too (at most WORKERS_STORED_MAX, at most one per WORKER_SPACING_MS each). */
	#observeWorkers(slot: number, url: string, snapshot: MinerSnapshot, at: number): void {
		const workers = snapshot.proxy?.workers;
		if (!workers) return;
		const spacingMs = Math.max(this.#intervalMs * 0.75, WORKER_SPACING_MS);
		for (const worker of storedWorkers(workers)) {
			this.#observations.push({
				slot,
				url,
				name: worker.name,
				facts: null,
				sample: workerSample(worker, at),
				spacingMs,
				worker: worker.name,
			});
		}
	}

	#collectEvents(slot: number, state: MonitorState): void {
		const tracked = this.#tracked.get(slot);
		if (!tracked) return;
		const fresh = newEvents(state.events, tracked.lastSeq);
		if (fresh.length === 0) return;
		tracked.lastSeq = fresh.at(-1)?.seq ?? tracked.lastSeq;
		let toWrite = false;
		for (const event of fresh) {
			const record: EventRecord = {
				slot,
				url: state.url,
				...storedName(tracked.configured, state.url),
				t: event.at,
				kind: event.kind,
				severity: event.severity,
				text: event.message,
				...(event.worker === undefined ? {} : {worker: event.worker}),
			};
			if (event.watcher === true) {
				// This rigtop's own access (its token refused): this session's to show, not the rig's history.
				const own = this.#watcherEvents.get(slot) ?? [];
				own.push({...record, watcher: true});
				this.#watcherEvents.set(slot, own.slice(-MAX_WATCHER_EVENTS));
				continue;
			}

			this.#events.push(record);
			toWrite = true;
		}

		if (!toWrite) return;

		// Events are few and are what the morning asks about: written at once (with whatever polls wait).
		this.#schedule(EVENT_FLUSH_MS);
	}

	#schedule(delay = this.#flushMs): void {
		if (this.#closed) return;
		if (this.#timer !== null) {
			if (this.#timerDue <= Date.now() + delay) return;
			clearTimeout(this.#timer);
		}

		this.#timerDue = Date.now() + delay;
		this.#timer = setTimeout(() => {
			this.#timer = null;
			this.flush();
		}, delay);
		this.#timer.unref?.();
	}
}

function factsOf(snapshot: MinerSnapshot) {
	return {apiId: snapshot.id, workerId: snapshot.workerId, kind: snapshot.kind, uptimeS: snapshot.uptime};
}

/** The events after `lastSeq` (the log is ordered by seq). */
function newEvents(events: readonly MinerEvent[], lastSeq: number): readonly MinerEvent[] {
	let start = events.length;
	while (start > 0 && (events[start - 1]?.seq ?? 0) > lastSeq) start--;
	return start === events.length ? [] : events.slice(start);
}

/** The name a rig is stored by (monitor/name.ts, rigName), and whether it is the rigs file's. */
function storedName(configured: string | undefined, url: string): {readonly name: string; readonly named: boolean} {
	const name = rigName(configured, url);
	return {name, named: name !== hostPort(url)};
}
