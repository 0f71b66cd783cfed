/**
 * What the screens read a miner's past from: one set of stores per watched miner (`Store<T>`, read with `useStore`),
 * over its `HistorySource` (history/source.ts: the history store through the session's recorder, or this session's
 * memory). A screen never reads the source itself: it asks a store for what it draws with `request(...)` (from an
 * effect), and the store reads — then, and again when the source changes (a poll or an event of the monitor, a write
 * of the recorder) while the screen follows it — and hands out its answer.
 *
 * - `sparkline`: the dashboard's hashrate line, `points` buckets up to the last poll (sparkWindow);
 * - `paneEvents`: the dashboard's events pane, the newest events with the session's notices merged in;
 * - `chart`: the chart's (`g`) series of a span, the events in it and the first time known;
 * - `events`: the event view's (`e`) events of the miner.
 *
 * The first frame needs no read: a miner's first reads wait for the next turn of the event loop (setImmediate) after
 * the screen asks, so the screen draws the monitor's own samples first; later reads are made when asked. A store
 * keeps its last answers, so a screen opened again (a dashboard from the fleet) draws them at once.
 */
import type {MinerEvent, MonitorState} from '../monitor/types.js';
import {Listeners, type Store} from '../monitor/store.js';
import {storedEventOf, type Series, type StoredEvent} from './read.js';
import {SeriesCache, type HistorySource} from './source.js';

export {storedEventOf} from './read.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** An answer of a store: what it answers (the request's key and what it read it from) and the value. */
export type Answer<T> = {readonly key: string; readonly mark: string; readonly value: T};

/** Answers kept per store: the newest (what a screen following the polls draws) and the ones before (a frozen one). */
const KEPT_ANSWERS = 3;

/**
 * A store answering a screen's requests by reading a HistorySource outside render: `request` (from the screen's
 * effect) reads what is asked unless an answer to it is kept; when the source changes while someone listens and the
 * newest answer is the one last asked for (the screen follows the polls), it reads again for what follows from the
 * last request (`follow`: the sparkline's newest poll). The state is the answers, newest first.
 */
export abstract class RequestStore<R, T> implements Store<readonly Answer<T>[]> {
	protected readonly source: HistorySource;
	readonly #listeners = new Listeners();
	readonly #firstReads: FirstReads;
	#answers: readonly Answer<T>[] = [];
	#last: R | null = null;
	#read = false;

	constructor(source: HistorySource, firstReads: FirstReads = new FirstReads()) {
		this.source = source;
		this.#firstReads = firstReads;
	}

	/** The key of a request: two requests with one key read the same. Cheap (no I/O): screens look answers up by it. */
	abstract keyOf(request: R): string;

	/** Reads the answer to a request (the only place a store reads its source). */
	protected abstract compute(request: R): T;

	/** What the request asks after a change of the source, for a screen following the polls (default: the same). */
	protected follow(request: R): R {
		return request;
	}

	/** What an answer depends on besides the request (the stored miner, another rigtop's newest event…): cheap. */
	protected mark(): string {
		return this.source.version?.() ?? '';
	}

	getState(): readonly Answer<T>[] {
		return this.#answers;
	}

	subscribe(listener: () => void): () => void {
		return this.#listeners.add(listener);
	}

	/** The answer to `request` if one is kept, else the newest; undefined before any. */
	answerFor(answers: readonly Answer<T>[], request: R): T | undefined {
		const key = this.keyOf(request);
		return (answers.find((answer) => answer.key === key) ?? answers[0])?.value;
	}

	/** Whether an answer to exactly `request` is kept. */
	answered(answers: readonly Answer<T>[], request: R): boolean {
		const key = this.keyOf(request);
		return answers.some((answer) => answer.key === key);
	}

	/** Asks for `request`: read now (the first time: on the next turn, after the frame being drawn), or kept. */
	request(request: R): void {
		this.#last = request;
		this.#refresh();
	}

	/** The source changed: read again for a screen that follows it. */
	changed(): void {
		const last = this.#last;
		if (last === null || this.#listeners.size === 0) return;
		const newest = this.#answers[0];
		// The screen shows an older answer (the dashboard held still with f): it asks again when it moves on.
		if (newest && newest.key !== this.keyOf(last)) return;
		this.#last = this.follow(last);
		this.#refresh();
	}

	close(): void {
		this.#firstReads.cancel(this);
		this.#listeners.clear();
	}

	/** The first read (FirstReads): reads what was asked; true when there is a new answer to tell. */
	firstRead(): boolean {
		this.#read = true;
		return this.#answer();
	}

	/** Tells the listeners of a new answer. */
	notify(): void {
		this.#listeners.notify();
	}

	#refresh(): void {
		if (!this.#read) {
			// The first read: after the frame the screen is drawing (it shows the monitor's own samples meanwhile).
			this.#firstReads.add(this);
			return;
		}

		if (this.#answer()) this.#listeners.notify();
	}

	/** Reads the last request unless an answer to it is kept; true when it read. */
	#answer(): boolean {
		const request = this.#last;
		if (request === null) return false;
		const key = this.keyOf(request);
		const mark = this.mark();
		const kept = this.#answers.find((answer) => answer.key === key);
		if (kept?.mark === mark) return false;
		const value = this.compute(request);
		this.#answers = [{key, mark, value}, ...this.#answers.filter((answer) => answer.key !== key)].slice(0, KEPT_ANSWERS);
		return true;
	}
}

/**
 * The first reads of a miner's stores, made together on the turn after they are first asked (after the frame being
 * drawn, the first of the session), and told after all are made: the screen draws every answer in one frame (the
 * sparkline and the events pane). A store first asked later (the chart opened with `g`) reads when asked.
 */
export class FirstReads {
	readonly #waiting = new Set<RequestStore<unknown, unknown>>();
	#timer: ReturnType<typeof setImmediate> | null = null;
	#done = false;

	add<R, T>(store: RequestStore<R, T>): void {
		if (this.#done) {
			if (store.firstRead()) store.notify();
			return;
		}

		this.#waiting.add(store as RequestStore<unknown, unknown>);
		this.#timer ??= setImmediate(() => {
			this.#timer = null;
			this.#done = true;
			const stores = [...this.#waiting];
			this.#waiting.clear();
			const told = stores.filter((waiting) => waiting.firstRead());
			for (const store of told) store.notify();
		});
	}

	cancel<R, T>(store: RequestStore<R, T>): void {
		this.#waiting.delete(store as RequestStore<unknown, unknown>);
		if (this.#waiting.size === 0 && this.#timer !== null) {
			clearImmediate(this.#timer);
			this.#timer = null;
		}
	}
}

// ---- the sparkline ----

/** Bucket widths under a minute a sparkline uses; above, whole minutes (whole 10 minutes above an hour). */
const SHORT_STEPS = [SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 20 * SECOND, 30 * SECOND, MINUTE];

/** The bucket width for at least `needed` ms: round, so the grid stays put while the span grows (a re-cut now and then). */
function roundStep(needed: number): number {
	if (needed <= MINUTE) return SHORT_STEPS.find((step) => step >= needed) ?? MINUTE;
	const unit = needed <= HOUR ? MINUTE : 10 * MINUTE;
	return Math.ceil(needed / unit) * unit;
}

/** The longest a sparkline looks back. */
export const SPARK_MAX_SPAN = 7 * 24 * HOUR;

export type SparkWindow = {readonly from: number; readonly to: number; readonly step: number};

/**
 * The span a sparkline of `points` buckets shows: everything known of the miner (from `first`, at most a week back),
 * in buckets of a round width no narrower than the poll interval — so a miner known for 3 days fills the line at
 * once, and one just started fills it from the right, a poll a bucket, as before. The buckets lie on a grid of
 * their width, so redrawing at each poll moves the line by whole buckets.
 */
export function sparkWindow(first: number | null, now: number, points: number, intervalMs: number): SparkWindow {
	const count = Math.max(1, Math.floor(points));
	const start = Math.max(first ?? now, now - SPARK_MAX_SPAN);
	const step = roundStep(Math.max(intervalMs, (now - start) / count));
	const to = Math.ceil((now + 1) / step) * step;
	return {from: to - step * count, to, step};
}

export type SparkData = {
	/** One value a bucket, oldest first; null where nothing is known (rigtop was not watching, or the miner was down). */
	readonly values: readonly (number | null)[];
	/** When what the line shows begins (the first thing known, within the span); null without history. */
	readonly since: number | null;
	/** Where the line ends (the poll it was read for, or the screen's fixed present); its title's span runs to it. */
	readonly until?: number;
};

export type SparkRequest = {
	/** Buckets (characters, or braille dots across). */
	readonly points: number;
	/** The present as the screen has it (its last poll, or a fixed clock). */
	readonly now: number;
	/** The last poll the screen shows (the line ends at the newer of the two). */
	readonly latest: number;
};

/** The sparkline's values, read again at each poll (only the buckets that can have changed: SeriesCache). */
export class SparklineStore extends RequestStore<SparkRequest, SparkData> {
	readonly #monitor: Store<MonitorState>;
	readonly #cache = new SeriesCache();

	constructor(source: HistorySource, monitor: Store<MonitorState>, firstReads?: FirstReads) {
		super(source, firstReads);
		this.#monitor = monitor;
	}

	keyOf(request: SparkRequest): string {
		// The window's end, and the poll it ends with (with history off a poll changes what memory holds).
		return `${Math.floor(request.points)}:${Math.max(request.now, request.latest)}:${request.latest}`;
	}

	protected override follow(request: SparkRequest): SparkRequest {
		return {...request, latest: this.#monitor.getState().lastAttemptAt ?? request.latest};
	}

	protected override compute(request: SparkRequest): SparkData {
		const first = this.source.span()?.first ?? null;
		const window = sparkWindow(first, Math.max(request.now, request.latest), request.points, this.source.intervalMs);
		const series = this.#cache.read(this.source, {from: window.from, to: window.to, points: request.points});
		const values = series.points.map((point) => (point.live > 0 ? point.avg : null));
		return {values, since: first === null ? null : Math.max(first, window.from), until: Math.max(request.now, request.latest)};
	}
}

// ---- the events pane ----

export type PaneEventsRequest = {
	/** Events the pane shows (a few more are read, so an 'up' on screen finds the 'down' it ends). */
	readonly count: number;
	/** The newest of the miner's own events the screen has (its seq): the events are read again on a newer one. */
	readonly seq: number;
	/** The session's own notices the screen shows among them (a negative seq: with-notices.ts), not stored. */
	readonly notices: readonly MinerEvent[];
};

/** The newest of the miner's own events in a log (its seq; the session's notices have a negative one), 0 for none. */
function newestOwnSeq(events: readonly MinerEvent[]): number {
	for (let i = events.length - 1; i >= 0; i--) {
		const event = events[i];
		if (event && event.seq > 0) return event.seq;
	}

	return 0;
}

/** A pane's request from the events its screen shows (the miner's own and the session's notices). */
export function paneEventsRequest(events: readonly MinerEvent[], count: number): PaneEventsRequest {
	return {count, seq: newestOwnSeq(events), notices: events.filter((event) => event.seq < 0)};
}

/** The events a pane of `count` lines reads: a few more than shown. */
export function paneWanted(count: number): number {
	return Math.max(1, count) + 8;
}

/**
 * The newest events (oldest first), the stored ones from before this session included, and the session's notices;
 * read again when the monitor logs one, or another rigtop stores one (the source's version).
 */
export class PaneEventsStore extends RequestStore<PaneEventsRequest, readonly StoredEvent[]> {
	readonly #monitor: Store<MonitorState>;

	constructor(source: HistorySource, monitor: Store<MonitorState>, firstReads?: FirstReads) {
		super(source, firstReads);
		this.#monitor = monitor;
	}

	keyOf(request: PaneEventsRequest): string {
		const notice = request.notices.at(-1);
		return `${paneWanted(request.count)}:${request.seq}:${request.notices.length}:${notice?.seq ?? 0}:${notice?.at ?? 0}`;
	}

	protected override follow(request: PaneEventsRequest): PaneEventsRequest {
		return {...request, seq: newestOwnSeq(this.#monitor.getState().events)};
	}

	protected override compute(request: PaneEventsRequest): readonly StoredEvent[] {
		const wanted = paneWanted(request.count);
		const stored = this.source.events({since: 0, limit: wanted});
		// The session's own notices are not the miner's and not stored: merged in by time.
		if (request.notices.length === 0) return stored;
		return [...stored, ...request.notices.slice(-wanted).map((event) => storedEventOf(event))].sort((a, b) => a.t - b.t).slice(-wanted);
	}
}

// ---- the chart ----

export type ChartRequest = {
	/** The span shown, ms, in `points` buckets. */
	readonly spanMs: number;
	readonly points: number;
	/** Where the span ends, epoch ms; null: now (it follows the polls). */
	readonly end: number | null;
	/** The present as the screen has it. */
	readonly now: number;
	/** Whether `now` is the live clock (the store moves it on with the polls), not a fixed time. */
	readonly live: boolean;
	/** The screen's poll count and newest event seq: read again on a new poll or event. */
	readonly polls: number;
	readonly seq: number;
};

/** The span a chart shows: buckets on a fixed grid (multiples of their width), so a redraw moves the line by whole buckets. */
export function chartWindow(request: Pick<ChartRequest, 'spanMs' | 'points' | 'end' | 'now'>): {
	readonly from: number;
	readonly to: number;
} {
	const step = request.spanMs / Math.max(1, request.points);
	const to = Math.ceil((request.end ?? request.now) / step) * step;
	return {from: to - request.spanMs, to};
}

export type ChartData = {
	readonly series: Series;
	/** The events in [from, to), oldest first. */
	readonly events: readonly StoredEvent[];
	/** The first time anything is known of the miner, or null (no use moving back past it). */
	readonly earliest: number | null;
	/** 'session': the history is off, this session's memory only. */
	readonly where: 'stored' | 'session';
};

/** How long the first time known is kept before it is read again (it moves only when old polls are dropped). */
const EARLIEST_KEPT_MS = MINUTE;

/** The newest of a log's events (its seq), 0 for none. */
function newestSeq(state: MonitorState): number {
	return state.events.at(-1)?.seq ?? 0;
}

/** The chart's series, events and first time known, for the span it asks; read again at each poll while it shows now. */
export class ChartStore extends RequestStore<ChartRequest, ChartData> {
	readonly #monitor: Store<MonitorState>;
	readonly #cache = new SeriesCache();
	#events: {key: string; events: readonly StoredEvent[]} | null = null;
	#earliest: {mark: string; at: number; first: number | null} | null = null;

	constructor(source: HistorySource, monitor: Store<MonitorState>, firstReads?: FirstReads) {
		super(source, firstReads);
		this.#monitor = monitor;
	}

	keyOf(request: ChartRequest): string {
		const {from, to} = chartWindow(request);
		return `${from}:${to}:${Math.floor(request.points)}:${request.polls}:${request.seq}`;
	}

	protected override follow(request: ChartRequest): ChartRequest {
		const state = this.#monitor.getState();
		return {...request, now: request.live ? Math.max(request.now, Date.now()) : request.now, polls: state.polls, seq: newestSeq(state)};
	}

	protected override compute(request: ChartRequest): ChartData {
		const {from, to} = chartWindow(request);
		const series = this.#cache.read(this.source, {from, to, points: request.points});
		const mark = this.mark();
		// Events are read again on a new event (of anyone's) or another span, not at every poll.
		const eventsKey = `${from}:${to}:${request.seq}:${mark}`;
		if (this.#events?.key !== eventsKey) {
			this.#events = {key: eventsKey, events: this.source.events({since: from}).filter((event) => event.t < to)};
		}

		const now = Date.now();
		if (this.#earliest?.mark !== mark || now - this.#earliest.at >= EARLIEST_KEPT_MS) {
			this.#earliest = {mark, at: now, first: this.source.span()?.first ?? null};
		}

		return {series, events: this.#events.events, earliest: this.#earliest.first, where: this.source.where()};
	}
}

// ---- the event view ----

export type EventsRequest = {
	/** Events read at most (the newest). */
	readonly limit: number;
};

export type EventsData = {
	readonly events: readonly StoredEvent[];
	readonly where: 'stored' | 'session';
};

/** Every event of the miner (the newest `limit`): read again when the monitor logs one or another rigtop stores one. */
export class EventsStore extends RequestStore<EventsRequest, EventsData> {
	readonly #monitor: Store<MonitorState>;

	constructor(source: HistorySource, monitor: Store<MonitorState>, firstReads?: FirstReads) {
		super(source, firstReads);
		this.#monitor = monitor;
	}

	keyOf(request: EventsRequest): string {
		return `${Math.floor(request.limit)}`;
	}

	protected override mark(): string {
		return `${super.mark()}/${this.#monitor.getState().events.at(-1)?.seq ?? 0}`;
	}

	protected override compute(request: EventsRequest): EventsData {
		return {events: this.source.events({since: 0, limit: request.limit}), where: this.source.where()};
	}
}

/** One rig whose events a list shows, and what its lines call it where several rigs are listed. */
export type EventListSource = {readonly name: string; readonly history: MinerHistory};

export type ListedEvent = StoredEvent & {
	/** The rig's name, where events of several rigs are listed together. */
	readonly rig?: string;
};

export type EventList = {
	/** Every rig's events and the session's notices, oldest first. */
	readonly events: readonly ListedEvent[];
	/** Some rig's events are this session's only (its history is off). */
	readonly sessionOnly: boolean;
	/** False until every rig's events have been read once (the frame before: nothing to list yet, not "none"). */
	readonly loaded: boolean;
};

const NO_NOTICES: readonly MinerEvent[] = [];

/**
 * The event view's list: the events of one rig or of every rig of a fleet (each named), and the session's own
 * notices (named `sessionLabel` among several rigs), merged when a rig's store answers or a notice comes.
 */
export class EventListStore implements Store<EventList> {
	readonly #sources: readonly EventListSource[];
	readonly #notices: Store<readonly MinerEvent[]> | null;
	readonly #sessionLabel: string;
	#limit = 1000;
	#state: {readonly inputs: readonly unknown[]; readonly list: EventList} | null = null;

	constructor(sources: readonly EventListSource[], notices: Store<readonly MinerEvent[]> | null, sessionLabel: string) {
		this.#sources = sources;
		this.#notices = notices;
		this.#sessionLabel = sessionLabel;
	}

	/** Asks every rig's store for its newest `limit` events. */
	request(limit: number): void {
		this.#limit = limit;
		for (const source of this.#sources) source.history.events.request({limit});
	}

	subscribe(listener: () => void): () => void {
		const unsubscribes = this.#sources.map((source) => source.history.events.subscribe(listener));
		if (this.#notices) unsubscribes.push(this.#notices.subscribe(listener));
		return () => {
			for (const unsubscribe of unsubscribes) unsubscribe();
		};
	}

	/** The same object until a rig's answer or the notices change. */
	getState(): EventList {
		const answers = this.#sources.map((source) => source.history.events.getState());
		const notices = this.#notices?.getState() ?? NO_NOTICES;
		const inputs = [...answers, notices, this.#limit];
		const kept = this.#state;
		if (kept?.inputs.length === inputs.length && kept.inputs.every((input, i) => input === inputs[i])) return kept.list;
		const list = this.#merge(
			answers.map((answer, i) => this.#sources[i]?.history.events.answerFor(answer, {limit: this.#limit})),
			notices,
		);
		this.#state = {inputs, list};
		return list;
	}

	#merge(answers: readonly (EventsData | undefined)[], notices: readonly MinerEvent[]): EventList {
		const several = this.#sources.length > 1;
		const events: ListedEvent[] = [];
		answers.forEach((answer, i) => {
			const name = this.#sources[i]?.name ?? '';
			for (const event of answer?.events ?? []) events.push(several ? {...event, rig: name} : event);
		});
		for (const notice of notices) {
			const event = storedEventOf(notice);
			events.push(several ? {...event, rig: this.#sessionLabel} : event);
		}

		return {
			events: events.sort((a, b) => a.t - b.t),
			sessionOnly: answers.some((answer) => answer?.where === 'session'),
			loaded: answers.every((answer) => answer !== undefined),
		};
	}
}

// ---- one miner's stores ----

/** A miner's history as the screens read it: its stores. */
export type MinerHistory = {
	/** The session's poll interval (a chart's bucket is never narrower). */
	readonly intervalMs: number;
	readonly sparkline: SparklineStore;
	readonly paneEvents: PaneEventsStore;
	readonly chart: ChartStore;
	readonly events: EventsStore;
	/**
	 * A proxy's worker's own stores (its chart and events: history/source.ts, WorkerHistory), made when first asked and
	 * kept while the proxy's are; absent where workers are not kept apart (a test's history).
	 */
	readonly worker?: (name: string) => MinerHistory;
};

/** The stores of one miner over its source; they follow the source's changes until closed (closing the source too). */
export class HistoryStores implements MinerHistory {
	readonly sparkline: SparklineStore;
	readonly paneEvents: PaneEventsStore;
	readonly chart: ChartStore;
	readonly events: EventsStore;
	readonly #source: HistorySource;
	readonly #unsubscribe: () => void;
	readonly #monitor: Store<MonitorState>;
	readonly #workerSource: ((name: string) => HistorySource) | null;
	readonly #workers = new Map<string, HistoryStores>();

	/**
	 * `monitor`: the miner's monitor. Made before any screen subscribes to the monitor: on a poll the stores read
	 * first, so the screen draws the poll and what was read for it in one frame.
	 */
	constructor(source: HistorySource, monitor: Store<MonitorState>, workerSource?: (name: string) => HistorySource) {
		this.#source = source;
		this.#monitor = monitor;
		this.#workerSource = workerSource ?? null;
		const firstReads = new FirstReads();
		this.sparkline = new SparklineStore(source, monitor, firstReads);
		this.paneEvents = new PaneEventsStore(source, monitor, firstReads);
		this.chart = new ChartStore(source, monitor, firstReads);
		this.events = new EventsStore(source, monitor, firstReads);
		const stores = [this.sparkline, this.paneEvents, this.chart, this.events];
		const changed = () => {
			for (const store of stores) store.changed();
		};

		this.#unsubscribe = source.subscribe?.(changed) ?? monitor.subscribe(changed);
	}

	get intervalMs(): number {
		return this.#source.intervalMs;
	}

	/** A proxy's worker's stores (see MinerHistory.worker); this history's own where workers are not kept apart. */
	readonly worker = (name: string): MinerHistory => {
		const kept = this.#workers.get(name);
		if (kept) return kept;
		if (this.#workerSource === null) return this;
		const stores = new HistoryStores(this.#workerSource(name), this.#monitor);
		this.#workers.set(name, stores);
		return stores;
	};

	close(): void {
		for (const stores of this.#workers.values()) stores.close();
		this.#workers.clear();
		this.#unsubscribe();
		for (const store of [this.sparkline, this.paneEvents, this.chart, this.events]) store.close();
		this.#source.close();
	}
}
