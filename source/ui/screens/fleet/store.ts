/**
 * One store over many monitors for the fleet view, so that a hundred miners each polling every
 * second do not cost a hundred renders a second: changes are gathered and subscribers are told at
 * most once per `throttleMs` (the first change after a quiet spell at once). The state also carries
 * the time it was taken (`at`), renewed at least every `tickMs`, so the view's "4m ago" labels need
 * no clock of their own and redraw together with the data. The state handed out keeps its identity
 * until the next notification (useSyncExternalStore compares it).
 *
 * It listens to the monitors only while someone listens to it: the fleet view closed (a rig's
 * dashboard open) costs nothing.
 */
import type {AlertCenterState} from '../../../alerts/center.js';
import type {MinerEvent, MonitorState} from '../../../monitor/types.js';
import {Listeners, type Store} from '../../../monitor/store.js';

export type FleetState = {
	/** One per miner, in session order. */
	readonly states: readonly MonitorState[];
	readonly alerts: AlertCenterState | null;
	/** The session's own notices (about no miner in particular), oldest first. */
	readonly notices: readonly MinerEvent[];
	/** Epoch ms when this state was taken: the view's clock. */
	readonly at: number;
};

export type FleetStoreOptions = {
	/** The AlertCenter, for the rows' alerts. */
	readonly alerts?: Store<AlertCenterState> | undefined;
	/** The session's notices. */
	readonly notices?: Store<readonly MinerEvent[]> | undefined;
	/** Default 250 ms for up to 10 miners, 1000 ms for more. */
	readonly throttleMs?: number | undefined;
	/** Default 1000 ms. */
	readonly tickMs?: number;
};

const NO_NOTICES: readonly MinerEvent[] = [];

export class FleetStore implements Store<FleetState> {
	readonly #stores: readonly Store<MonitorState>[];
	readonly #alerts: Store<AlertCenterState> | null;
	readonly #notices: Store<readonly MinerEvent[]> | null;
	readonly #throttleMs: number;
	readonly #tickMs: number;
	readonly #listeners = new Listeners();
	#unsubscribers: (() => void)[] = [];
	#timer: ReturnType<typeof setTimeout> | null = null;
	#due = Number.POSITIVE_INFINITY;
	#lastNotify = Number.NEGATIVE_INFINITY;
	#state: FleetState;

	constructor(stores: readonly Store<MonitorState>[], options: FleetStoreOptions = {}) {
		this.#stores = stores;
		this.#alerts = options.alerts ?? null;
		this.#notices = options.notices ?? null;
		this.#throttleMs = Math.max(0, options.throttleMs ?? (stores.length > 10 ? 1000 : 250));
		this.#tickMs = Math.max(50, options.tickMs ?? 1000);
		this.#state = this.#read(null, Date.now());
	}

	get size(): number {
		return this.#stores.length;
	}

	subscribe(listener: () => void): () => void {
		const remove = this.#listeners.add(listener);
		if (this.#listeners.size === 1) this.#attach();
		return () => {
			remove();
			if (this.#listeners.size === 0) this.#detach();
		};
	}

	getState(): FleetState {
		return this.#state;
	}

	#attach(): void {
		const changed = () => {
			this.#schedule();
		};
		this.#unsubscribers = this.#stores.map((store) => store.subscribe(changed));
		if (this.#alerts) this.#unsubscribers.push(this.#alerts.subscribe(changed));
		if (this.#notices) this.#unsubscribers.push(this.#notices.subscribe(changed));
		// Whatever happened while nobody listened.
		this.#flush();
	}

	#detach(): void {
		for (const unsubscribe of this.#unsubscribers.splice(0)) unsubscribe();
		this.#disarm();
	}

	#disarm(): void {
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
		this.#due = Number.POSITIVE_INFINITY;
	}

	/** One timer at a time, for the earliest flush wanted. */
	#arm(at: number): void {
		if (this.#timer !== null && this.#due <= at) return;
		this.#disarm();
		this.#due = at;
		this.#timer = setTimeout(
			() => {
				this.#timer = null;
				this.#due = Number.POSITIVE_INFINITY;
				this.#flush();
			},
			Math.max(0, at - Date.now()),
		);
		this.#timer.unref?.();
	}

	/** A monitor changed: flush once the throttle allows. */
	#schedule(): void {
		this.#arm(this.#lastNotify + this.#throttleMs);
	}

	#flush(): void {
		const now = Date.now();
		const next = this.#read(this.#state, now);
		if (next !== this.#state) {
			this.#state = next;
			this.#lastNotify = now;
			this.#listeners.notify();
		}

		// The clock's tick, unless a change comes first.
		if (this.#listeners.size > 0) this.#arm(this.#state.at + this.#tickMs);
	}

	#read(previous: FleetState | null, now: number): FleetState {
		const states = this.#stores.map((store) => store.getState());
		const alerts = this.#alerts?.getState() ?? null;
		const notices = this.#notices?.getState() ?? NO_NOTICES;
		const same =
			previous !== null &&
			previous.alerts === alerts &&
			previous.notices === notices &&
			previous.states.every((state, index) => state === states[index]);
		// 5 % slack: a tick timer firing a hair early still renews the clock.
		if (same && now - previous.at < this.#tickMs * 0.95) return previous;
		return {states: same ? previous.states : states, alerts, notices, at: now};
	}
}
