import {createContext, useCallback, useContext, useSyncExternalStore} from 'react';
import type {Store} from '../../monitor/store.js';

/**
 * One shared clock per interval for "12s ago" labels: however many components ask for it, there
 * is a single timer, started by the first subscriber and cleared when the last one leaves. Only
 * the components that call `useNow` re-render on a tick (it is not a top-level context value).
 *
 * The clock keeps in step with the data: `syncClocks()` (called when a miner's state changes)
 * moves every clock to the present, so the labels update in the same React commit as the data,
 * and puts the clock's next tick 1.5 intervals after it. With a poll every interval the clock's
 * timer never fires: the screen is drawn once per poll, and the process is not woken between polls
 * for a tick with nothing to do. When the data stops (a miner down, backing off) the ticks take over
 * again, 1.5 intervals after the last sync, then one an interval.
 */
type Clock = {
	readonly subscribe: (listener: () => void) => () => void;
	readonly getSnapshot: () => number;
	readonly sync: (at: number) => void;
};

const clocks = new Map<number, Clock>();

function sharedClock(intervalMs: number): Clock {
	const existing = clocks.get(intervalMs);
	if (existing) return existing;
	const listeners = new Set<() => void>();
	let now = Date.now();
	let timer: ReturnType<typeof setTimeout> | null = null;
	/** Whether the timer waits out the 1.5 intervals after a sync (else it ticks every interval). */
	let afterSync = false;
	const notifyAll = () => {
		for (const notify of listeners) notify();
	};

	const arm = (delay: number) => {
		timer = setTimeout(tick, delay);
		// A label clock must never keep the process alive on its own.
		timer.unref?.();
	};

	function tick() {
		afterSync = false;
		arm(intervalMs);
		now = Date.now();
		notifyAll();
	}

	const clock: Clock = {
		subscribe(listener) {
			listeners.add(listener);
			if (timer === null) {
				now = Date.now();
				arm(intervalMs);
			}

			return () => {
				listeners.delete(listener);
				if (listeners.size === 0 && timer !== null) {
					clearTimeout(timer);
					timer = null;
				}
			};
		},
		getSnapshot() {
			// Between subscriptions nothing ticks; refresh a value that has gone old, but keep it
			// stable within an interval (useSyncExternalStore compares consecutive reads).
			if (timer === null && Date.now() - now >= intervalMs) now = Date.now();
			return now;
		},
		sync(at) {
			if (timer !== null) {
				// The next tick moves to 1.5 intervals from now: restarted in place while it already waits that long.
				if (afterSync && typeof timer.refresh === 'function') timer.refresh();
				else {
					clearTimeout(timer);
					afterSync = true;
					arm(intervalMs * 1.5);
				}
			}

			if (listeners.size === 0 || at === now) return;
			now = at;
			notifyAll();
		},
	};
	clocks.set(intervalMs, clock);
	return clock;
}

/**
 * Brings every label clock to the present and tells its labels, in the caller's turn: called from a
 * store's change notification, React draws the new data and the new labels in one commit.
 */
export function syncClocks(): void {
	const at = Date.now();
	for (const clock of clocks.values()) clock.sync(at);
}

/** A fixed "now" (epoch ms) for every `useNow` below it, or null for the live clock. */
export const FixedNowContext = createContext<number | null>(null);

/**
 * The fixed "now" the App was given (its `now` prop: tests and screenshots), or the one the dashboard's freeze holds;
 * null for the live clock. Screens read it here, not from a prop of their own.
 */
export function useFixedNow(): number | null {
	return useContext(FixedNowContext);
}

const noSubscription = () => () => {};

/** The current time in epoch ms, refreshed every `intervalMs` (or the fixed time, when one is set). */
export function useNow(intervalMs = 1000): number {
	const fixed = useContext(FixedNowContext);
	const clock = sharedClock(intervalMs);
	const now = useSyncExternalStore(fixed === null ? clock.subscribe : noSubscription, clock.getSnapshot, clock.getSnapshot);
	return fixed ?? now;
}

/**
 * `useNow` for a component whose clock-dependent text is `shown(now)`: a tick re-renders it only when that text
 * changes, so a label at the resolution it shows ("3d 04h ago", "down since 12:03") draws no frame each second while
 * "12s ago" still moves every second. Any other render reads the present, as `useNow` does.
 */
export function useNowShown(intervalMs: number, shown: (now: number) => string): number {
	const fixed = useContext(FixedNowContext);
	const clock = sharedClock(intervalMs);
	const text = () => shown(fixed ?? clock.getSnapshot());
	useSyncExternalStore(fixed === null ? clock.subscribe : noSubscription, text, text);
	return fixed ?? clock.getSnapshot();
}

/**
 * `useNowShown` for a label drawn from a store's state and the clock ("live · 2s ago" from the monitor's last good
 * poll): it re-renders when `shown(state, now)` changes, at a tick or at a change of the store, and at nothing else.
 * The component that draws the label reads the store itself, so the screen above it need not follow the times that
 * every poll moves (the dashboard's selection leaves them out).
 */
export function useNowShownOf<T>(store: Store<T>, intervalMs: number, shown: (state: T, now: number) => string): number {
	const fixed = useContext(FixedNowContext);
	const clock = sharedClock(intervalMs);
	const subscribe = useCallback(
		(listener: () => void) => {
			const leaveClock = fixed === null ? clock.subscribe(listener) : undefined;
			const leaveStore = store.subscribe(listener);
			return () => {
				leaveClock?.();
				leaveStore();
			};
		},
		[clock, store, fixed],
	);
	const text = () => shown(store.getState(), fixed ?? clock.getSnapshot());
	useSyncExternalStore(subscribe, text, text);
	return fixed ?? clock.getSnapshot();
}
