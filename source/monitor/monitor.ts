import {MinerError, isMinerError} from '../miner/errors.js';
import type {MinerSnapshot} from '../miner/model.js';
import {Listeners, type Store} from './store.js';
import type {DropOptions, DropState, EventDraft, PauseState, ZeroState} from './events.js';
import {
	DEFAULT_PAUSED_ALERT_MS,
	defaultDropOptions,
	deriveEvents,
	initialDropState,
	initialPauseState,
	initialZeroState,
} from './events.js';
import {backoffDelay, downEvent, errorEvent, isWatcherError, statusAfterFailure, upEvent} from './link.js';
import {hostPort, nameWithWorker, rigName, withoutCredentials} from './name.js';
import {deriveProxyEvents, initialProxyEventState, type ProxyEventState} from './proxy-events.js';
import {deriveSensorEvents, initialSensorEventState, type SensorEventState} from './sensor-events.js';
import {countsForReference, RateReference, type PastRates} from './reference.js';
import {EMPTY_SHARE_TRACK, trackShares, withPast, type PastShares, type ShareTrack} from './last-share.js';
import {RingBuffer} from './ring-buffer.js';
import {shareUnchanged} from './structural-share.js';
import {watchedRate} from './watched-rate.js';
import type {EventKind, MinerEvent, MonitorState, Severity} from './types.js';

/** Time and timers, injectable for tests. */
export type Clock = {now(): number; setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void};

/** Real time; looks the timer functions up at call time so fake timers installed later apply. */
export const realClock: Clock = {
	now: () => Date.now(),
	setTimeout: (fn, ms) => setTimeout(fn, ms),
	clearTimeout(handle) {
		clearTimeout(handle as ReturnType<typeof setTimeout>);
	},
};

export type ReadSnapshot = (signal: AbortSignal) => Promise<MinerSnapshot>;

export type MonitorOptions = {
	/** One poll; throws MinerError. */
	read: ReadSnapshot;
	/** Shown, never holds credentials (any user:password part is removed). */
	url: string;
	/** The rigs file's name for the rig; else it is named by its host:port (monitor/name.ts, rigName). */
	name?: string;
	/** Poll interval in ms (≥ 250). */
	intervalMs: number;
	/** Longest delay between retries while failing; default 30 000 ms. */
	maxBackoffMs?: number;
	/** 10 s hashrate samples kept; default 300. */
	recentSize?: number;
	/** Events kept; default 200. */
	maxEvents?: number;
	clock?: Clock;
	/** Source of the retry jitter, 0 ≤ x < 1; default Math.random. */
	random?: () => number;
	/** Hashrate-drop detection thresholds; default 70 % for 3 polls, recovered at 85 %. */
	drop?: Partial<DropOptions>;
	/** After how long a pause is an event ('paused-long', an alert); default 10 minutes, 0 never. */
	pausedAlertMs?: number;
	/** °C at or over which a CPU temperature is an event (--temp-alert); default each sensor's own max. */
	tempAlertC?: number | null;
	/**
	 * A cheap check (a bare TCP connect) of whether the miner's port is open again. While full polls
	 * of an unreachable miner back off, it runs every interval, and an open port brings the next
	 * poll forward: the miner is seen again within one interval of its return.
	 */
	probe?: (signal: AbortSignal) => Promise<boolean>;
	/** What is known of the miner's rate before this session (the history store's last hour); see setPastRates. */
	pastRates?: PastRates;
	/** What the store knows of the miner's accepted count before this session; see setPastShares. */
	pastShares?: PastShares;
};

export const minIntervalMs = 250;
const defaultMaxBackoffMs = 30_000;
const DEFAULT_RECENT_SIZE = 300;
const defaultMaxEvents = 200;
/** Polls at which an unanswered PastRates (null: the miner not identified in the store yet) is asked again. */
const maxSeedTries = 20;

type Outcome = {readonly ok: true; readonly snapshot: MinerSnapshot} | {readonly ok: false; readonly error: MinerError};

/** Counts about rigtop's own polling of one miner since the monitor was made (the exporter reports them). */
export type PollStats = {
	/** Polls that failed (any MinerError). */
	readonly failures: number;
	/** Times the miner was seen to restart between two good polls (uptime went back, a new version); not another miner answering. */
	readonly restarts: number;
	/** How long the last finished poll took, in ms; null before the first. */
	readonly lastDurationMs: number | null;
};

/**
 * Polls one miner on a setTimeout chain: a poll starts only after the previous one settled, each
 * with its own AbortController. While live, polls start every interval (measured from poll start);
 * while failing, the delay doubles from the interval up to maxBackoffMs, measured from the failure.
 * Subscribers are told after every poll; getState() keeps its identity until something changes.
 */
export class Monitor implements Store<MonitorState> {
	readonly #read: ReadSnapshot;
	readonly #configuredName: string | undefined;
	/** The name the rigs file gives the rig (what the history store names it by: monitor/name.ts, rigName). */
	get configuredName(): string | undefined {
		return this.#configuredName;
	}

	#intervalMs: number;
	readonly #maxBackoffMs: number;
	readonly #clock: Clock;
	readonly #random: () => number;
	readonly #dropOptions: DropOptions;
	readonly #probe: ((signal: AbortSignal) => Promise<boolean>) | undefined;
	readonly #recentRates: RingBuffer<number | null>;
	readonly #events: RingBuffer<MinerEvent>;
	readonly #listeners = new Listeners();

	#state: MonitorState;
	#running = false;
	#timer: unknown = null;
	#controller: AbortController | null = null;
	#pollAgain = false;
	#seq = 0;
	// The first RESUME_GRACE_MS of a session are not judged for a drop: rigtop cannot know whether the miner was
	// paused just before it started (resumed seconds ago, its 10 s window still holds paused seconds and reads as a
	// drop; the session that saw the pause waits the same grace). A drop already there is reported that much later.
	#drop: DropState = {...initialDropState, sinceResume: 0};
	#zero: ZeroState = initialZeroState;
	#pause: PauseState = initialPauseState;
	#hugepagesLost = false;
	#hugepagesSeen = false;
	readonly #pausedAlertMs: number;
	/** The miner's rate over the last hour, for the drop detector (reference.ts); kept across restarts of the miner. */
	readonly #reference = new RateReference();
	#pastRates: PastRates | null;
	#seedTries = 0;
	#seeded = false;
	/** The accepted count and when it last moved (last-share.ts): the rig's, whichever screen shows. */
	#shares: ShareTrack = EMPTY_SHARE_TRACK;
	#pastShares: PastShares | null;
	/** The count the store was asked about (asked once per count first seen; again while it cannot tell). */
	#sharesAsked: {good: number; tries: number; done: boolean} | null = null;
	/** An xmrig-proxy's upstreams and workers as the events last saw them (proxy-events.ts). */
	#proxyEvents: ProxyEventState = initialProxyEventState;
	/** The rig's sensors as the events last saw them (sensor-events.ts). */
	#sensorEvents: SensorEventState = initialSensorEventState;
	readonly #tempAlertC: number | null;
	/** Each worker's rate over the last hour (a proxy's), seeded from its stored past once (setWorkerPastRates). */
	readonly #workerReferences = new Map<string, {reference: RateReference; seeded: boolean; tries: number; since: number}>();
	#workerPastRates: ((worker: string) => PastRates) | null = null;
	/** When the session first read the miner: the stored past seeds the reference up to there. */
	#firstSuccessAt: number | null = null;
	#sampleSum = 0;
	#sampleCount = 0;
	#stats: PollStats = {failures: 0, restarts: 0, lastDurationMs: null};
	/** When the last poll started (the cadence is measured from it). */
	#lastStartedAt: number | null = null;

	constructor(options: MonitorOptions) {
		checkInterval(options.intervalMs);

		this.#read = options.read;
		this.#configuredName = options.name;
		this.#intervalMs = options.intervalMs;
		this.#maxBackoffMs = options.maxBackoffMs ?? defaultMaxBackoffMs;
		this.#clock = options.clock ?? realClock;
		this.#random = options.random ?? Math.random;
		this.#dropOptions = {...defaultDropOptions, ...options.drop};
		this.#pausedAlertMs = options.pausedAlertMs ?? DEFAULT_PAUSED_ALERT_MS;
		this.#tempAlertC = options.tempAlertC ?? null;
		this.#probe = options.probe;
		this.#pastRates = options.pastRates ?? null;
		this.#pastShares = options.pastShares ?? null;
		this.#recentRates = new RingBuffer(options.recentSize ?? DEFAULT_RECENT_SIZE);
		this.#events = new RingBuffer(options.maxEvents ?? defaultMaxEvents);
		const url = withoutCredentials(options.url);
		this.#state = {
			name: rigName(options.name, url),
			url,
			status: 'connecting',
			snapshot: null,
			lastSuccessAt: null,
			lastAttemptAt: null,
			failingSince: null,
			consecutiveFailures: 0,
			error: null,
			recentRates: [],
			sessionAverage: null,
			lastShare: null,
			events: [],
			nextPollAt: null,
			polls: 0,
		};
	}

	/** Starts polling, the first poll at once. No-op while running. */
	start(): void {
		if (this.#running) return;
		this.#running = true;
		void this.#poll();
	}

	/** Clears every timer and aborts the request in flight. Idempotent; start() may follow. */
	stop(): void {
		if (!this.#running) return;
		this.#running = false;
		this.#pollAgain = false;
		if (this.#timer !== null) {
			this.#clock.clearTimeout(this.#timer);
			this.#timer = null;
		}

		const controller = this.#controller;
		this.#controller = null;
		controller?.abort();
		if (this.#state.nextPollAt !== null) this.#commit({...this.#state, nextPollAt: null});
	}

	/** Polls now, or right after the poll in flight settles (never two at once). Ignored while stopped. */
	pollNow(): void {
		if (!this.#running) return;
		if (this.#controller !== null) {
			this.#pollAgain = true;
			return;
		}

		if (this.#timer !== null) {
			this.#clock.clearTimeout(this.#timer);
			this.#timer = null;
		}

		void this.#poll();
	}

	/** The poll interval now, ms. */
	get intervalMs(): number {
		return this.#intervalMs;
	}

	/**
	 * Changes the poll interval (the `+` and `-` keys). While live, the poll due moves to the new interval
	 * measured from the last poll's start (at once if that is past); a poll in flight or a miner being
	 * backed off keeps its schedule, and the new interval applies from the next one.
	 */
	setIntervalMs(intervalMs: number): void {
		checkInterval(intervalMs);
		if (intervalMs === this.#intervalMs) return;
		this.#intervalMs = intervalMs;
		if (!this.#running || this.#timer === null || this.#controller !== null || this.#state.status !== 'live') return;
		this.#clock.clearTimeout(this.#timer);
		this.#timer = null;
		const now = this.#clock.now();
		const delay = Math.max(0, (this.#lastStartedAt ?? now) + intervalMs - now);
		if (delay === 0) {
			void this.#poll();
			return;
		}

		this.#schedulePoll(delay);
		this.#commit({...this.#state, nextPollAt: now + delay});
	}

	subscribe(listener: () => void): () => void {
		return this.#listeners.add(listener);
	}

	getState(): MonitorState {
		return this.#state;
	}

	/** Failures, restarts seen and the last poll's duration; up to date when subscribers are told of a poll. */
	getStats(): PollStats {
		return this.#stats;
	}

	/**
	 * Where the drop detector's reference learns what the miner did before this session (the history store's last
	 * hour, source/history/last-hour.ts): asked once, from the session's second good poll on, and again at later
	 * polls while it answers null. Without it the reference is this session's polls alone (--no-history).
	 */
	setPastRates(pastRates: PastRates | null): void {
		this.#pastRates = pastRates;
	}

	/**
	 * Where the last share learns what the store knows of the accepted count before this session (last-share.ts): asked
	 * about the session's first count while it has not moved (again at later polls while it answers null); never about
	 * another miner's. Without it, "at least N ago" counts from this session's first poll of the count.
	 */
	setPastShares(pastShares: PastShares | null): void {
		this.#pastShares = pastShares;
	}

	/** Where a proxy's worker's reference learns what it did before this session (its stored last hour); as setPastRates. */
	setWorkerPastRates(pastRates: ((worker: string) => PastRates) | null): void {
		this.#workerPastRates = pastRates;
	}

	/** Logs an event from elsewhere, e.g. "config applied". */
	addEvent(kind: EventKind, severity: Severity, message: string): void {
		this.#commit({...this.#state, events: this.#append([{kind, severity, message}], this.#clock.now())});
	}

	async #poll(): Promise<void> {
		const controller = new AbortController();
		this.#controller = controller;
		const startedAt = this.#clock.now();
		this.#lastStartedAt = startedAt;
		let outcome: Outcome;
		try {
			outcome = {ok: true, snapshot: await this.#read(controller.signal)};
		} catch (error) {
			outcome = {ok: false, error: asMinerError(error)};
		}

		// Stopped (or stopped and started again) while the read was in flight: its answer is stale.
		if (this.#controller !== controller) return;
		this.#controller = null;
		const now = this.#clock.now();
		const failures = outcome.ok ? 0 : this.#state.consecutiveFailures + 1;
		const unreachable = !outcome.ok && outcome.error.kind === 'unreachable';
		const delay = this.#nextDelay(outcome.ok, unreachable, startedAt, now, failures);
		const nextPollAt = now + delay;
		const stats = this.#stats;
		this.#stats = {...stats, failures: stats.failures + (outcome.ok ? 0 : 1), lastDurationMs: now - startedAt};
		const state = outcome.ok
			? this.#afterSuccess(outcome.snapshot, now, nextPollAt)
			: this.#afterFailure(outcome.error, failures, startedAt, now, nextPollAt);
		if (unreachable && this.#probe && delay > this.#intervalMs) this.#probeUntil(nextPollAt);
		else this.#schedulePoll(delay);
		this.#commit(state);
	}

	/**
	 * Full polls back off only while the miner is unreachable (nothing listens, or the host is gone):
	 * the interval doubled per failure up to maxBackoffMs, with probes in between. Any other failure
	 * (an HTTP error, a bad answer, a hang cut by the client's deadline) means something is there
	 * and costs no more than a good poll: it is retried at the interval, so it is seen to end at once.
	 */
	#nextDelay(ok: boolean, unreachable: boolean, startedAt: number, now: number, failures: number): number {
		if (this.#pollAgain) {
			this.#pollAgain = false;
			return 0;
		}

		if (unreachable) return backoffDelay(this.#intervalMs, failures, this.#maxBackoffMs, this.#random);
		if (!ok) return this.#intervalMs;
		// Keep the cadence from poll start, but leave a slow miner a breather between polls.
		return Math.max(startedAt + this.#intervalMs - now, Math.round(this.#intervalMs / 4));
	}

	#schedulePoll(delay: number): void {
		this.#timer = this.#clock.setTimeout(() => {
			this.#timer = null;
			void this.#poll();
		}, delay);
	}

	/** Probes every interval until the backed-off poll is due; an open port (or pollNow) polls at once. */
	#probeUntil(pollAt: number): void {
		const probe = this.#probe;
		if (!probe) return;
		this.#timer = this.#clock.setTimeout(
			() => {
				this.#timer = null;
				if (this.#clock.now() + this.#intervalMs / 10 >= pollAt) {
					void this.#poll();
					return;
				}

				const controller = new AbortController();
				this.#controller = controller;
				const settle = (open: boolean) => {
					if (this.#controller !== controller) return; // stopped meanwhile
					this.#controller = null;
					if (open || this.#pollAgain) {
						this.#pollAgain = false;
						void this.#poll();
					} else {
						this.#probeUntil(pollAt);
					}
				};

				probe(controller.signal).then(settle, () => settle(false));
			},
			Math.max(0, Math.min(this.#intervalMs, pollAt - this.#clock.now())),
		);
	}

	#afterSuccess(read: MinerSnapshot, now: number, nextPollAt: number): MonitorState {
		const prevState = this.#state;
		const prev = prevState.snapshot;
		const snapshot = prev === null ? read : shareUnchanged(prev, read);
		const name = prevState.name;
		const elapsedMs = prevState.lastSuccessAt === null ? 0 : now - prevState.lastSuccessAt;
		if (this.#firstSuccessAt === null) this.#firstSuccessAt = now;
		else this.#seedReference();
		// Another algorithm hashes at another rate, another miner (a new id or worker id at this address) at its own:
		// what was known before is no reference.
		if (
			prev !== null &&
			(changed(prev.algo, snapshot.algo) || changed(prev.id, snapshot.id) || changed(prev.workerId, snapshot.workerId))
		) {
			this.#reference.clear();
		}
		const back = prevState.status === 'down' || prevState.status === 'error';
		if (back) {
			// Its 'up' closed a drop and a zero in the alerts: judged afresh, as at the session's start, so one that lasts
			// is told again rather than left open here and closed there.
			this.#drop = {...initialDropState, sinceResume: 0};
			this.#zero = initialZeroState;
		}

		const derived = deriveEvents(prev, snapshot, {
			name: nameWithWorker(name, snapshot.workerId),
			drop: this.#drop,
			zero: this.#zero,
			pause: this.#pause,
			hugepagesLost: this.#hugepagesLost,
			hugepagesSeen: this.#hugepagesSeen,
			reference: this.#reference.value(now),
			pausedAlertMs: this.#pausedAlertMs,
			elapsedMs,
			dropOptions: this.#dropOptions,
			address: hostPort(prevState.url),
		});
		this.#drop = derived.drop;
		this.#zero = derived.zero;
		this.#pause = derived.pause;
		this.#hugepagesLost = derived.hugepagesLost;
		this.#hugepagesSeen = derived.hugepagesSeen;
		const rate = watchedRate(snapshot);
		if (rate !== null && countsForReference(snapshot, derived.drop)) this.#reference.add(now, rate);
		const proxyDrafts = this.#proxyStep(snapshot, now, elapsedMs, derived.restarted, derived.replaced === true);
		// The sensors are the machine's: kept across a restart of the miner, not across another miner answering.
		const sensors = deriveSensorEvents(snapshot.sensors, derived.replaced === true ? initialSensorEventState : this.#sensorEvents, {
			tempAlertC: this.#tempAlertC,
		});
		this.#sensorEvents = sensors.state;
		const extra = proxyDrafts.length === 0 ? sensors.events : [...proxyDrafts, ...sensors.events];
		const own = extra.length === 0 ? derived.events : [...derived.events, ...extra];
		// Back from a refusal of this rigtop's token (status 'error'): the link's, not the rig's.
		const watcher = prevState.status === 'error' && isWatcherError(prevState.error);
		const drafts = back ? [upEvent(now - (prevState.failingSince ?? now), watcher), ...own] : own;
		if (derived.restarted || derived.replaced === true) {
			this.#sampleSum = 0;
			this.#sampleCount = 0;
			if (derived.restarted) this.#stats = {...this.#stats, restarts: this.#stats.restarts + 1};
		}

		// The recent samples were another miner's.
		if (derived.replaced === true) this.#recentRates.clear();

		const sample = watchedRate(snapshot);
		this.#recentRates.push(sample);
		if (sample !== null) {
			this.#sampleSum += sample;
			this.#sampleCount++;
		}

		this.#shares = this.#sharesAt(snapshot, now);
		return {
			name,
			url: prevState.url,
			status: 'live',
			snapshot,
			lastSuccessAt: now,
			lastAttemptAt: now,
			failingSince: null,
			consecutiveFailures: 0,
			error: null,
			recentRates: this.#recentRates.toArray(),
			sessionAverage: this.#sampleCount === 0 ? null : this.#sampleSum / this.#sampleCount,
			lastShare: this.#shares.lastShare,
			events: drafts.length === 0 ? prevState.events : this.#append(drafts, now),
			nextPollAt,
			polls: prevState.polls + 1,
		};
	}

	/** A proxy's own events (its upstreams, its workers), and its workers' references fed. */
	#proxyStep(snapshot: MinerSnapshot, now: number, elapsedMs: number, restarted: boolean, replaced: boolean): readonly EventDraft[] {
		if (snapshot.proxy === null) return [];
		if (replaced) {
			// Another proxy answers: its workers are its own.
			this.#proxyEvents = initialProxyEventState;
			this.#workerReferences.clear();
		}

		const step = deriveProxyEvents(snapshot, this.#proxyEvents, {
			now,
			elapsedMs,
			restarted,
			dropOptions: this.#dropOptions,
			referenceOf: (worker) => this.#workerReferences.get(worker)?.reference.value(now) ?? null,
		});
		this.#proxyEvents = step.state;
		for (const {worker, rate} of step.judged) this.#workerReference(worker, now).add(now, rate);
		// The references of workers the events forgot go too.
		const tracked = step.state.workers;
		if (tracked && this.#workerReferences.size > tracked.size) {
			for (const name of this.#workerReferences.keys()) if (!tracked.has(name)) this.#workerReferences.delete(name);
		}
		return step.events;
	}

	/** A worker's reference, seeded from its stored last hour (once; asked again a few times while the store cannot tell). */
	#workerReference(worker: string, now: number): RateReference {
		let entry = this.#workerReferences.get(worker);
		if (!entry) {
			entry = {reference: new RateReference(), seeded: false, tries: 0, since: now};
			this.#workerReferences.set(worker, entry);
		}

		const pastRates = this.#workerPastRates;
		if (!entry.seeded && pastRates !== null) {
			let points: ReturnType<PastRates>;
			try {
				points = pastRates(worker)(entry.since);
			} catch {
				points = [];
			}

			if (points !== null || ++entry.tries >= maxSeedTries) {
				entry.seeded = true;
				if (points !== null) entry.reference.seed(points);
			}
		}

		return entry.reference;
	}

	/** The accepted count after this poll, and when the last share was; the store asked about the session's first count. */
	#sharesAt(snapshot: MinerSnapshot, now: number): ShareTrack {
		const first = this.#shares.good === null;
		const track = trackShares(this.#shares, snapshot, now);
		const good = track.good;
		if (track.lastShare === null || !track.lastShare.atLeast || good === null) return track;
		// Only the session's first count is looked up: the store names the address's miner by what it last wrote, so
		// after another miner answers it would answer for the one before until its next flush.
		if (track.lastShare.at === now) this.#sharesAsked = {good, tries: 0, done: !first};
		if (this.#sharesAsked === null) return track;
		const asked = this.#sharesAsked;
		const pastShares = this.#pastShares;
		if (asked.done || pastShares === null) return track;
		let past: ReturnType<PastShares>;
		try {
			past = pastShares(track.lastShare.at, good);
		} catch {
			past = undefined; // the store's trouble is its own (it turns history off with a notice)
		}

		if (past === null && ++asked.tries < maxSeedTries) return track;
		asked.done = true;
		return withPast(track, past ?? undefined);
	}

	/** Seeds the reference with what is known of the hour before the session, once (see setPastRates). */
	#seedReference(): void {
		const pastRates = this.#pastRates;
		const before = this.#firstSuccessAt;
		if (this.#seeded || pastRates === null || before === null) return;
		let points: ReturnType<PastRates>;
		try {
			points = pastRates(before);
		} catch {
			points = []; // the store's trouble is its own (it turns history off with a notice); the session's polls remain
		}

		if (points === null && ++this.#seedTries < maxSeedTries) return;
		this.#seeded = true;
		if (points !== null) this.#reference.seed(points);
	}

	#afterFailure(error: MinerError, failures: number, startedAt: number, now: number, nextPollAt: number): MonitorState {
		const prevState = this.#state;
		const failingSince = prevState.failingSince ?? startedAt;
		const status = statusAfterFailure({
			error,
			previous: prevState.status,
			failures,
			failingSince,
			now,
			intervalMs: this.#intervalMs,
			hasSnapshot: prevState.snapshot !== null,
		});
		let draft: EventDraft | null = null;
		if (status === 'down' && prevState.status !== 'down') draft = downEvent(error);
		else if (status === 'error' && (prevState.status !== 'error' || prevState.error?.kind !== error.kind)) {
			draft = errorEvent(error);
		}

		return {
			...prevState,
			status,
			lastAttemptAt: now,
			failingSince,
			consecutiveFailures: failures,
			error,
			events: draft === null ? prevState.events : this.#append([draft], now),
			nextPollAt,
			polls: prevState.polls + 1,
		};
	}

	#append(drafts: readonly EventDraft[], at: number): readonly MinerEvent[] {
		for (const draft of drafts) {
			this.#events.push({
				seq: ++this.#seq,
				at,
				kind: draft.kind,
				severity: draft.severity,
				message: draft.message,
				...(draft.worker === undefined ? {} : {worker: draft.worker}),
				...(draft.watcher === true ? {watcher: true as const} : {}),
			});
		}

		return this.#events.toArray();
	}

	#commit(state: MonitorState): void {
		this.#state = state;
		this.#listeners.notify();
	}
}

/** Whether a value the miner reports is known on both sides and differs. */
function changed(before: string | null, after: string | null): boolean {
	return before !== null && after !== null && before !== after;
}

function checkInterval(intervalMs: number): void {
	if (!Number.isFinite(intervalMs) || intervalMs < minIntervalMs) {
		throw new RangeError(`intervalMs must be at least ${minIntervalMs}, got ${intervalMs}`);
	}
}

function asMinerError(error: unknown): MinerError {
	if (isMinerError(error)) return error;
	const message = error instanceof Error ? error.message : String(error);
	return new MinerError('incompatible', `unexpected failure reading the miner: ${message}`, {transient: false, cause: error});
}

export type PollOnceOptions = Pick<MonitorOptions, 'name' | 'clock' | 'recentSize' | 'maxEvents'>;

/**
 * One poll and the state it leads to (for --once). A transient failure is final here, so it
 * reads as 'down' rather than 'stale' or 'connecting'; nothing is left scheduled.
 */
export async function pollOnce(read: ReadSnapshot, url: string, options: PollOnceOptions = {}): Promise<MonitorState> {
	const monitor = new Monitor({...options, read, url, intervalMs: 1000});
	await new Promise<void>((resolve) => {
		const unsubscribe = monitor.subscribe(() => {
			unsubscribe();
			resolve();
		});
		monitor.start();
	});
	monitor.stop();
	const state = monitor.getState();
	return state.status === 'stale' || state.status === 'connecting' ? {...state, status: 'down'} : state;
}
