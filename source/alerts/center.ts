/**
 * Watches every monitor of a session and turns what happens into alerts: one per change, never one
 * per poll. Alerts are kept (bounded) for the UI, handed to the sinks (the bell, the --on-alert
 * command), and a reject burst — which no single poll shows — is also written to that miner's
 * events log. A sink that throws is ignored: alerting never takes rigtop down.
 *
 * The notifier (notify/) is told each trouble opening and closing (`TroubleChange`, to the `troubles` listeners): a
 * rig's and a proxy's worker's, a trouble closed without an all-clear of its own (a restart clears a hashrate drop),
 * a reject burst (open while bursts follow each other, closed a burst window after the last one), and one-shot news
 * (a restart, another miner at the address: `open: null`). All of it is read from the catalogue's rows.
 */
import {EVENT_KINDS, kindRow} from '../monitor/event-kinds.js';
import type {EventKind, MinerEvent, MonitorState, Severity} from '../monitor/types.js';
import {
	alertForEvent,
	troubleKey,
	burstMessage,
	burstEndMessage,
	troubleChanges,
	type TroubleDraft,
	PROXY_BURST_SHARE,
	defaultBurstOptions,
	initialBurstState,
	stepRejects,
	type BurstOptions,
	type BurstState,
	type OpenTroubles,
} from './select.js';
import {Listeners, type Store} from '../monitor/store.js';
import type {Alert, AlertKind, TroubleChange} from './types.js';

/** What the center reads a miner from (and writes a reject burst to); the Monitor is one. */
export type AlertMiner = Store<MonitorState> & {
	addEvent(kind: EventKind, severity: Severity, message: string): void;
};

export type AlertSink = (alert: Alert) => void;

/** Told every trouble opening and closing, and every piece of one-shot news (notify/types.ts). */
export type TroubleListener = (change: TroubleChange) => void;

/** A rig's alerts for its row: the newest trouble still open, and the newest alert of any kind. */
export type RigAlerts = {readonly open: Alert | null; readonly last: Alert | null};

export type AlertCenterState = {
	/** Newest last, bounded. */
	readonly alerts: readonly Alert[];
	/** One entry per miner, in session order. */
	readonly rigs: readonly RigAlerts[];
};

export type AlertCenterOptions = {
	readonly burst?: Partial<BurstOptions>;
	/** Alerts kept; default 200. */
	readonly maxAlerts?: number;
	readonly now?: () => number;
	readonly sinks?: readonly AlertSink[];
	/** Told every trouble change (addTroubleListener adds more). */
	readonly troubles?: TroubleListener;
};

type Tracked = {
	lastState: MonitorState | null;
	lastSeq: number;
	rejected: number | null;
	/** Accepted shares at the last poll (a proxy's burst needs them). */
	good: number | null;
	burst: BurstState;
	open: OpenTroubles;
	openAlerts: Map<string, Alert>;
	/** A reject burst is open until then (a burst window after the last burst); null: none open. */
	burstUntil: number | null;
	unsubscribe: (() => void) | null;
};

/** The kind a reject burst is logged as, and its row (its alert, its severity). */
const BURST_KIND = 'rejected' satisfies EventKind;
const BURST = EVENT_KINDS[BURST_KIND];

const noRig: RigAlerts = Object.freeze({open: null, last: null});

export class AlertCenter implements Store<AlertCenterState> {
	readonly #miners: readonly AlertMiner[];
	readonly #burstOptions: BurstOptions;
	readonly #maxAlerts: number;
	readonly #now: () => number;
	readonly #sinks: AlertSink[];
	readonly #troubleListeners: TroubleListener[];
	readonly #tracked: Tracked[];
	readonly #listeners = new Listeners();
	#state: AlertCenterState;
	#seq = 0;

	constructor(miners: readonly AlertMiner[], options: AlertCenterOptions = {}) {
		this.#miners = miners;
		this.#burstOptions = {...defaultBurstOptions, ...options.burst};
		this.#maxAlerts = options.maxAlerts ?? 200;
		this.#now = options.now ?? Date.now;
		this.#sinks = [...(options.sinks ?? [])];
		this.#troubleListeners = options.troubles === undefined ? [] : [options.troubles];
		this.#tracked = miners.map(() => ({
			lastState: null,
			lastSeq: 0,
			rejected: null,
			good: null,
			burst: initialBurstState,
			open: new Set(),
			openAlerts: new Map(),
			burstUntil: null,
			unsubscribe: null,
		}));
		this.#state = {alerts: [], rigs: miners.map(() => noRig)};
	}

	/** Starts watching. Events already logged before now are not alerted. Idempotent. */
	start(): void {
		this.#miners.forEach((miner, index) => {
			const tracked = this.#tracked[index];
			if (!tracked || tracked.unsubscribe) return;
			const state = miner.getState();
			tracked.lastSeq = state.events.at(-1)?.seq ?? 0;
			tracked.lastState = state;
			tracked.rejected = state.snapshot?.results.rejected ?? null;
			tracked.good = state.snapshot?.results.good ?? null;
			tracked.unsubscribe = miner.subscribe(() => {
				this.#check(index);
			});
		});
	}

	stop(): void {
		for (const tracked of this.#tracked) {
			tracked.unsubscribe?.();
			tracked.unsubscribe = null;
		}
	}

	addSink(sink: AlertSink): void {
		this.#sinks.push(sink);
	}

	/** Adds a listener told every trouble change from now on; returns its removal. */
	addTroubleListener(listener: TroubleListener): () => void {
		this.#troubleListeners.push(listener);
		return () => {
			const at = this.#troubleListeners.indexOf(listener);
			if (at !== -1) this.#troubleListeners.splice(at, 1);
		};
	}

	subscribe(listener: () => void): () => void {
		return this.#listeners.add(listener);
	}

	getState(): AlertCenterState {
		return this.#state;
	}

	#check(index: number): void {
		const miner = this.#miners[index];
		const tracked = this.#tracked[index];
		if (!miner || !tracked) return;
		const state = miner.getState();
		if (state === tracked.lastState) return;
		const previous = tracked.lastState;
		tracked.lastState = state;
		const fresh = newEvents(state.events, tracked.lastSeq);
		if (fresh.length > 0) tracked.lastSeq = fresh.at(-1)?.seq ?? tracked.lastSeq;

		const now = this.#now();
		const alerts: Alert[] = [];
		const troubles = new Map<Alert, string>();
		const changes: TroubleChange[] = [];
		const told = (draft: TroubleDraft, at: number): TroubleChange => ({rig: state.name, url: state.url, ...draft, at});
		let restarted = false;
		for (const event of fresh) {
			// A new process, or another miner: its counters are not a jump of the old ones.
			if (kindRow(event.kind)?.newProcess === true) restarted = true;
			const result = alertForEvent(event, tracked.open);
			for (const draft of troubleChanges(event, tracked.open, result.open)) changes.push(told(draft, event.at));
			tracked.open = result.open;
			if (result.alert) {
				const alert = this.#make(index, state, result.alert.kind, result.alert.severity, result.alert.message, event.at);
				const made = event.worker === undefined ? alert : {...alert, worker: event.worker};
				alerts.push(made);
				// Open under the trouble its kind begins (throttle-started begins 'throttling'), not its alert's name.
				troubles.set(made, kindRow(event.kind)?.begins ?? made.kind);
			}
		}

		const burst = this.#rejects(tracked, previous, state, restarted, now);
		const windowMs = this.#burstOptions.windowMs;
		if (burst !== null) {
			alerts.push(this.#make(index, state, BURST.burst, BURST.severity, burstMessage(burst, windowMs), now));
			if (tracked.burstUntil === null)
				changes.push(told({trouble: BURST.burst, open: true, severity: BURST.severity, message: burstMessage(burst, windowMs)}, now));
			tracked.burstUntil = now + windowMs;
		} else if (tracked.burstUntil !== null && now >= tracked.burstUntil) {
			tracked.burstUntil = null;
			changes.push(told({trouble: BURST.burst, open: false, severity: 'info', message: burstEndMessage(windowMs)}, now));
		}

		this.#tell(changes);
		if (alerts.length === 0) return;

		for (const alert of alerts) this.#remember(tracked, alert, troubles.get(alert) ?? alert.kind);
		this.#publish(index, tracked, alerts);
		// Written after the bookkeeping: addEvent calls back into #check, which must find nothing new.
		if (burst !== null) miner.addEvent(BURST_KIND, BURST.severity, burstMessage(burst, this.#burstOptions.windowMs));
		for (const alert of alerts) {
			for (const sink of this.#sinks) {
				try {
					sink(alert);
				} catch {
					// A sink's trouble is its own (the command runner reports through the events log).
				}
			}
		}
	}

	#tell(changes: readonly TroubleChange[]): void {
		for (const change of changes) {
			for (const listener of this.#troubleListeners) {
				try {
					listener(change);
				} catch {
					// The notifier's trouble is its own: alerting goes on.
				}
			}
		}
	}

	#rejects(tracked: Tracked, previous: MonitorState | null, state: MonitorState, restarted: boolean, now: number): number | null {
		const snapshot = state.snapshot;
		if (snapshot === null || snapshot === previous?.snapshot) return null;
		const before = tracked.rejected;
		const after = snapshot.results.rejected;
		tracked.rejected = after;
		const delta = before === null || restarted || after < before ? 0 : after - before;
		const goodBefore = tracked.good;
		tracked.good = snapshot.results.good;
		const good = goodBefore === null || restarted || snapshot.results.good < goodBefore ? 0 : snapshot.results.good - goodBefore;
		// An xmrig-proxy's rejects are judged against all its shares (every miner's behind it), not by count alone.
		const options = snapshot.proxy === null ? this.#burstOptions : {...this.#burstOptions, share: PROXY_BURST_SHARE};
		const step = stepRejects(tracked.burst, delta, now, options, good);
		tracked.burst = step.state;
		return step.burst;
	}

	#make(minerIndex: number, state: MonitorState, kind: AlertKind, severity: Severity, message: string, at: number): Alert {
		return {seq: ++this.#seq, at, kind, severity, minerIndex, rig: state.name, url: state.url, message};
	}

	/** Keeps the alert as its rig's open one while the trouble it began (`trouble`) is open. */
	#remember(tracked: Tracked, alert: Alert, trouble: string): void {
		for (const key of [...tracked.openAlerts.keys()]) {
			if (!isOpen(tracked.open, key)) tracked.openAlerts.delete(key);
		}

		const key = troubleKey(trouble, alert.worker);
		if (isOpen(tracked.open, key)) tracked.openAlerts.set(key, alert);
	}

	#publish(index: number, tracked: Tracked, alerts: readonly Alert[]): void {
		let open: Alert | null = null;
		for (const alert of tracked.openAlerts.values()) if (open === null || alert.seq > open.seq) open = alert;
		const rigs = [...this.#state.rigs];
		rigs[index] = {open, last: alerts.at(-1) ?? null};
		const all = [...this.#state.alerts, ...alerts];
		this.#state = {alerts: all.length > this.#maxAlerts ? all.slice(-this.#maxAlerts) : all, rigs};
		this.#listeners.notify();
	}
}

function isOpen(open: OpenTroubles, key: string): boolean {
	return open.has(key);
}

/** The events after `lastSeq` (the list is ordered by seq). */
function newEvents(events: readonly MinerEvent[], lastSeq: number): readonly MinerEvent[] {
	let start = events.length;
	while (start > 0 && (events[start - 1]?.seq ?? 0) > lastSeq) start--;
	return start === events.length ? [] : events.slice(start);
}
