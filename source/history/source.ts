/**
 * Where a miner's past is read from for the screens — the chart (`g`), the sparkline, the event view (`e`) and the
 * events panes: one `HistorySource` per watched miner, made by the live session. The screens never read it
 * themselves: its stores (history/stores.ts, `MinerHistory`) do, outside render.
 *
 * With history on, it reads the store through the session's recorder (so a rigtop started again shows the night
 * before, and the polls waiting for the next flush are included). With `--no-history`, a store that could not be
 * opened, or one that turned off since (a full disk), it reads what this session kept in memory: the last few hours
 * of polls and the monitor's event log. `where()` says which, so the screens can say so.
 */
import {RingBuffer} from '../monitor/ring-buffer.js';
import type {MonitorState} from '../monitor/types.js';
import {seriesOfSamples, storedEventOf, type Series, type StoredEvent} from './read.js';
import type {HistoryRecorder, RecordedMonitor} from './recorder.js';
import {sampleOfState, WORKER_SPACING_MS, workerSample} from './samples.js';
import type {SampleRow} from './tiers.js';

export type SeriesRequest = {readonly from: number; readonly to: number; readonly points: number};

export type HistorySource = {
	/**
	 * 'stored': history is on: the history store (every rigtop's polls and events of this miner; for a miner that has
	 * never answered, what this session saw, which waits there for an answer); 'session': history is off, this
	 * session's memory only.
	 */
	where(): 'stored' | 'session';
	/** The session's poll interval (a sparkline's bucket is never narrower). */
	readonly intervalMs: number;
	/** The miner's hashrate over [from, to) in `points` buckets (history/read.ts, SeriesPoint). */
	series(request: SeriesRequest): Series;
	/** Events from `since`, oldest first; the newest `limit` (default 1000) when there are more. */
	events(options: {readonly since: number; readonly limit?: number}): readonly StoredEvent[];
	/** The first and last time anything is known of the miner, or null. */
	span(): {readonly first: number; readonly last: number} | null;
	/**
	 * Changes when a newer event of the miner is stored by anyone (another rigtop, `rigtop config set`), looked at
	 * once per poll, when asked: the screens read the events again on it, as on an event of their own monitor.
	 */
	eventsStamp?(): string;
	/**
	 * A mark of what a read depends on besides its request: where it reads from, the stored miner, another process's
	 * newest event (eventsStamp: one indexed read at the first ask after a poll). The stores read again when it changes.
	 */
	version?(): string;
	/**
	 * Tells `listener` when what it reads may have changed: a poll or an event of the monitor, a write of the recorder
	 * (the stores of history/stores.ts read again on it). Optional: a history that never changes has none.
	 */
	subscribe?(listener: () => void): () => void;
	/** Stops listening to the monitor. */
	close(): void;
};

/** Polls kept in memory per miner when the store is not used; a fleet shares a fixed budget. */
export function memoryCapacity(miners: number): number {
	return Math.max(900, Math.min(7200, Math.floor(72_000 / Math.max(1, miners))));
}

export type SessionHistoryOptions = {
	readonly monitor: RecordedMonitor;
	/** The miner's index in the session (what the recorder knows it by). */
	readonly slot: number;
	readonly recorder: HistoryRecorder | null;
	/** The poll interval, or where to read it now (the session's, which + and - change). */
	readonly intervalMs: number | (() => number);
	/** Polls kept in memory while the store is not used (memoryCapacity). */
	readonly capacity: number;
};

/** A miner's history for the screens: the store while it is usable, else the session's memory (see above). */
export class SessionHistory implements HistorySource {
	readonly #interval: () => number;
	readonly #monitor: RecordedMonitor;
	readonly #slot: number;
	readonly #recorder: HistoryRecorder | null;
	readonly #capacity: number;
	#memory: RingBuffer<SampleRow> | null = null;
	#lastPolls = -1;
	#stamp = '';
	/** Whether a poll came since the stamp was read: it is read again when next asked for (#readStamp). */
	#stampStale = false;
	readonly #unsubscribe: () => void;

	constructor(options: SessionHistoryOptions) {
		this.#monitor = options.monitor;
		this.#slot = options.slot;
		this.#recorder = options.recorder;
		const {intervalMs} = options;
		this.#interval = typeof intervalMs === 'number' ? () => intervalMs : intervalMs;
		this.#capacity = Math.max(1, Math.floor(options.capacity));
		this.#remember(this.#monitor.getState());
		this.#unsubscribe = this.#monitor.subscribe(() => {
			this.#remember(this.#monitor.getState());
		});
	}

	/** The session's poll interval now (the buckets the screens draw are no narrower). */
	get intervalMs(): number {
		return this.#interval();
	}

	where(): 'stored' | 'session' {
		// Not "history off" for a miner not known yet (down since the start): its polls wait to be stored.
		return this.#recorder?.enabled ? 'stored' : 'session';
	}

	series(request: SeriesRequest): Series {
		const recorder = this.#stored();
		if (!recorder) return seriesOfSamples(-1, this.#memory ?? [], request);
		const miner = recorder.readMinerOf(this.#slot);
		if (miner !== null) return recorder.reader.series(miner, request);
		// Not in the store yet (its first poll waits to be written): what waits.
		return seriesOfSamples(-1, recorder.pendingOf(this.#slot).samples, request);
	}

	events(options: {readonly since: number; readonly limit?: number}): readonly StoredEvent[] {
		const limit = Math.max(1, Math.floor(options.limit ?? 1000));
		const recorder = this.#stored();
		if (recorder) {
			const miner = recorder.readMinerOf(this.#slot);
			if (miner !== null) return recorder.reader.events(miner, options);
			return recorder
				.pendingOf(this.#slot)
				.events.filter((event) => event.t >= options.since)
				.slice(-limit);
		}

		return this.#monitor
			.getState()
			.events.filter((event) => event.at >= options.since)
			.slice(-limit)
			.map((event) => storedEventOf(event));
	}

	span(): {readonly first: number; readonly last: number} | null {
		const recorder = this.#stored();
		if (recorder) {
			const miner = recorder.readMinerOf(this.#slot);
			if (miner !== null) return recorder.reader.span(miner);
			const times = recorder.pendingOf(this.#slot).samples.map((sample) => sample.t);
			return times.length === 0 ? null : {first: Math.min(...times), last: Math.max(...times)};
		}

		const first = this.#memory?.at(0);
		const last = this.#memory?.last();
		return first && last ? {first: first.t, last: last.t} : null;
	}

	eventsStamp(): string {
		return this.#readStamp();
	}

	version(): string {
		const recorder = this.#stored();
		return recorder ? `stored:${recorder.writtenMinerOf(this.#slot) ?? ''}:${this.#readStamp()}` : 'session';
	}

	subscribe(listener: () => void): () => void {
		const fromMonitor = this.#monitor.subscribe(listener);
		const fromRecorder = this.#recorder?.onWrite(listener) ?? (() => undefined);
		return () => {
			fromMonitor();
			fromRecorder();
		};
	}

	close(): void {
		this.#unsubscribe();
	}

	/** The recorder while the store is usable and knows (or is about to know) the miner; null: read from memory. */
	#stored(): HistoryRecorder | null {
		if (!this.#recorder?.enabled || !this.#recorder.knows(this.#slot)) return null;
		return this.#recorder;
	}

	/** The stamp as of this miner's last poll: one indexed read of the store at most per poll, when asked. */
	#readStamp(): string {
		if (this.#stampStale && this.#recorder?.enabled) {
			this.#stampStale = false;
			// Not before the session's first poll is written (a fleet's first polls still go in one commit).
			const miner = this.#recorder.writtenMinerOf(this.#slot);
			this.#stamp = miner === null ? '' : `${miner}:${this.#recorder.reader.lastEvent(miner)}`;
		}

		return this.#stamp;
	}

	/** Keeps the polls in memory while the store does not (from the moment it stops, if it stops). */
	#remember(state: MonitorState): void {
		if (state.polls === this.#lastPolls) return;
		this.#lastPolls = state.polls;
		if (this.#recorder?.enabled) {
			// Another process's events reach the screens at this miner's next poll: the stamp is read again then, when a
			// screen asks for it (a fleet's rigs whose events no screen shows read nothing at their polls).
			this.#stampStale = true;
			return;
		}
		const sample = sampleOfState(state);
		if (sample === null) return;
		this.#memory ??= new RingBuffer<SampleRow>(this.#capacity);
		this.#memory.push(sample);
	}
}

/**
 * One worker of a proxy, as a history of its own (the chart `g` and the event view `e` opened on a worker): its stored
 * polls (history/writer.ts keeps each worker as a subject of its own) and the proxy's events about it. With history
 * off, the worker's polls this source has seen (from when it was made) and the monitor's events about it.
 */
export class WorkerHistory implements HistorySource {
	readonly #proxy: SessionHistory;
	readonly #monitor: RecordedMonitor;
	readonly #slot: number;
	readonly #recorder: HistoryRecorder | null;
	readonly #name: string;
	readonly #memory: RingBuffer<SampleRow>;
	#lastPolls = -1;
	readonly #unsubscribe: () => void;

	constructor(proxy: SessionHistory, options: Omit<SessionHistoryOptions, 'intervalMs'> & {readonly worker: string}) {
		this.#proxy = proxy;
		this.#monitor = options.monitor;
		this.#slot = options.slot;
		this.#recorder = options.recorder;
		this.#name = options.worker;
		this.#memory = new RingBuffer<SampleRow>(Math.max(1, Math.floor(options.capacity)));
		this.#remember(this.#monitor.getState());
		this.#unsubscribe = this.#monitor.subscribe(() => {
			this.#remember(this.#monitor.getState());
		});
	}

	/** Its polls' spacing (a chart's bucket is never narrower): a worker's are stored once a minute (WORKER_SPACING_MS). */
	get intervalMs(): number {
		return Math.max(this.#proxy.intervalMs, WORKER_SPACING_MS);
	}

	where(): 'stored' | 'session' {
		return this.#proxy.where();
	}

	series(request: SeriesRequest): Series {
		const recorder = this.#stored();
		if (!recorder) return seriesOfSamples(-1, this.#memory, request);
		const worker = recorder.readWorkerOf(this.#slot, this.#name);
		if (worker !== null) return recorder.reader.series(worker, request);
		return seriesOfSamples(-1, recorder.pendingWorkerOf(this.#slot, this.#name), request);
	}

	events(options: {readonly since: number; readonly limit?: number}): readonly StoredEvent[] {
		const limit = Math.max(1, Math.floor(options.limit ?? 1000));
		const recorder = this.#stored();
		const proxy = recorder?.readMinerOf(this.#slot) ?? null;
		if (recorder && proxy !== null) return recorder.reader.events(proxy, {...options, worker: this.#name});
		return this.#monitor
			.getState()
			.events.filter((event) => event.worker === this.#name && event.at >= options.since)
			.slice(-limit)
			.map((event) => ({t: event.at, kind: event.kind, severity: event.severity, text: event.message, worker: this.#name}));
	}

	span(): {readonly first: number; readonly last: number} | null {
		const recorder = this.#stored();
		const worker = recorder?.readWorkerOf(this.#slot, this.#name) ?? null;
		if (recorder && worker !== null) return recorder.reader.span(worker);
		const first = this.#memory.at(0);
		const last = this.#memory.last();
		return first && last ? {first: first.t, last: last.t} : null;
	}

	eventsStamp(): string {
		return this.#proxy.eventsStamp();
	}

	version(): string {
		const recorder = this.#stored();
		// In memory, never a read: the proxy's stored miner and its newest event (the worker is found under the proxy).
		return recorder ? `stored:${recorder.writtenMinerOf(this.#slot) ?? ''}:${this.#name}:${this.#proxy.eventsStamp()}` : 'session';
	}

	subscribe(listener: () => void): () => void {
		return this.#proxy.subscribe(listener);
	}

	close(): void {
		this.#unsubscribe();
	}

	#stored(): HistoryRecorder | null {
		return this.#recorder?.enabled && this.#recorder.knows(this.#slot) ? this.#recorder : null;
	}

	/** The worker's polls in memory, for when the store is not used. */
	#remember(state: MonitorState): void {
		if (state.polls === this.#lastPolls) return;
		this.#lastPolls = state.polls;
		if (state.status !== 'live' || state.lastSuccessAt === null || state.lastSuccessAt !== state.lastAttemptAt) return;
		const worker = state.snapshot?.proxy?.workers?.find((each) => each.name === this.#name);
		if (worker) this.#memory.push(workerSample(worker, state.lastSuccessAt));
	}
}

/**
 * A series redrawn at every poll without reading it whole every time: while the request keeps its grid (the same
 * bucket width, its end moved by whole buckets, as the screens ask for it), only the buckets that can have changed
 * are read again — the last one before, and the new ones — and the rest is kept. Read whole when the span, the
 * size or the miner changes (the stored one too: another miner answers at the address), when the end moved back or by more than a quarter of the span, and once a minute
 * (what another rigtop wrote meanwhile, a summary made). A chart of an hour at 200 columns reads a handful of
 * polls per redraw instead of the hour's 1,800 (docs/history.md has the figures).
 */
export class SeriesCache {
	#history: Pick<HistorySource, 'series'> | null = null;
	#request: SeriesRequest | null = null;
	#series: Series | null = null;
	#fullTo = 0;

	read(history: Pick<HistorySource, 'series'>, request: SeriesRequest): Series {
		const previous = this.#request;
		const kept = this.#series;
		const points = Math.max(1, Math.floor(request.points));
		const step = (request.to - request.from) / points;
		const shift = previous ? (request.to - previous.to) / step : Number.NaN;
		const incremental =
			kept !== null &&
			previous !== null &&
			this.#history === history &&
			previous.points === points &&
			Math.abs(previous.to - previous.from - (request.to - request.from)) < 1e-6 &&
			Math.abs(shift - Math.round(shift)) < 1e-6 &&
			shift >= 0 &&
			shift <= points / 4 &&
			request.to - this.#fullTo < 60_000;
		let series: Series | null = null;
		if (incremental) {
			const moved = Math.round(shift);
			const tail = history.series({from: request.to - (moved + 1) * step, to: request.to, points: moved + 1});
			// Another stored miner now (another miner answers at the address): nothing kept is its.
			if (tail.miner === kept.miner)
				series = {...tail, from: request.from, points: [...kept.points.slice(moved, points - 1), ...tail.points]};
		}

		if (series === null) {
			series = history.series({from: request.from, to: request.to, points});
			this.#fullTo = request.to;
		}

		this.#history = history;
		this.#request = {from: request.from, to: request.to, points};
		this.#series = series;
		return series;
	}
}
