import {createContext, useContext, useSyncExternalStore} from 'react';

/**
 * One shared clock per interval for "12s ago" labels: however many components ask for it, there
 * is a single timer, started by the first subscriber and cleared when the last one leaves. Only
 * the components that call `useNow` re-render on a tick (it is not a top-level context value).
 */
type Clock = {
	readonly subscribe: (listener: () => void) => () => void;
	readonly getSnapshot: () => number;
};

const clocks = new Map<number, Clock>();

function sharedClock(intervalMs: number): Clock {
	const existing = clocks.get(intervalMs);
	if (existing) return existing;
	const listeners = new Set<() => void>();
	let now = Date.now();
	let timer: ReturnType<typeof setInterval> | null = null;
	const clock: Clock = {
		subscribe(listener) {
			listeners.add(listener);
			if (timer === null) {
				now = Date.now();
				timer = setInterval(() => {
					now = Date.now();
					for (const notify of listeners) notify();
				}, intervalMs);
				// A label clock must never keep the process alive on its own.
				timer.unref?.();
			}

			return () => {
				listeners.delete(listener);
				if (listeners.size === 0 && timer !== null) {
					clearInterval(timer);
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
	};
	clocks.set(intervalMs, clock);
	return clock;
}

/** A fixed "now" (epoch ms) for every `useNow` below it, or null for the live clock. */
export const FixedNowContext = createContext<number | null>(null);

const noSubscription = () => () => {};

/** The current time in epoch ms, refreshed every `intervalMs` (or the fixed time, when one is set). */
export function useNow(intervalMs = 1000): number {
	const fixed = useContext(FixedNowContext);
	const clock = sharedClock(intervalMs);
	const now = useSyncExternalStore(fixed === null ? clock.subscribe : noSubscription, clock.getSnapshot, clock.getSnapshot);
	return fixed ?? now;
}
