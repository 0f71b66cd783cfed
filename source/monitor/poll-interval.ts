/**
 * The poll interval of a live session, changed with `+` and `-` (as btop's update interval): one value
 * for every watched miner, on a ladder of round steps, told to each monitor when it changes. A store, so
 * the header can show it.
 */
import {formatSeconds} from '../text/format.js';
import {Listeners, type Store} from './store.js';
import {minIntervalMs} from './monitor.js';

/** The steps `+` and `-` move along (ms); an interval between two steps (from --interval) moves to the next one. */
/** The live view's poll interval when none is given or remembered (`--interval`, `+`/`-`). */
export const DEFAULT_INTERVAL_MS = 2000;

export const INTERVAL_STEPS_MS: readonly number[] = [250, 500, 1000, 2000, 3000, 5000, 10_000, 15_000, 30_000, 60_000];

/** The next step up (direction 1, polling less often) or down (-1); the same value at either end. */
export function nextInterval(current: number, direction: 1 | -1): number {
	if (direction > 0) return INTERVAL_STEPS_MS.find((step) => step > current) ?? current;
	return INTERVAL_STEPS_MS.findLast((step) => step < current) ?? current;
}

/** "250 ms", "2s", "1m 00s": an interval as the header writes it. */
export function formatInterval(ms: number): string {
	return ms < 1000 ? `${ms} ms` : formatSeconds(ms);
}

/** What a PollInterval sets the interval of (a Monitor). */
export type Interval = {setIntervalMs(ms: number): void};

export class PollInterval implements Store<number> {
	readonly #targets: readonly Interval[];
	readonly #listeners = new Listeners();
	#ms: number;

	constructor(targets: readonly Interval[], initialMs: number) {
		this.#targets = targets;
		this.#ms = Math.max(minIntervalMs, initialMs);
	}

	subscribe = (listener: () => void): (() => void) => this.#listeners.add(listener);

	getState = (): number => this.#ms;

	/** Moves one step; false when already at that end of the ladder (nothing changes). */
	step(direction: 1 | -1): boolean {
		const next = nextInterval(this.#ms, direction);
		if (next === this.#ms) return false;
		this.#ms = next;
		for (const target of this.#targets) target.setIntervalMs(next);
		this.#listeners.notify();
		return true;
	}
}
