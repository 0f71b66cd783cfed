/**
 * The fleet's last-hour column: each rig's last hour from the history store, read once a minute (the
 * store's cost, about 0.35 ms a rig, is paid 60 times less than at every poll) and only while the fleet
 * view is shown, and drawn as a small sparkline where the width allows. Without history (--no-history,
 * or a store that could not be opened or turned off) there is no column at all.
 */
import type {HourPoint, LastHourSource} from '../../../history/last-hour.js';
import {Listeners, type Store} from '../../../store.js';
import {sparkline} from '../../sparkline.js';

export type {HourPoint} from '../../../history/last-hour.js';

/** Buckets read per rig: one a minute. */
export const HOUR_POINTS = 60;

export type FleetHours = {
	/** False: history is off, no column. */
	readonly enabled: boolean;
	/** Per rig (session order): its last hour, oldest first, or null when nothing is stored for it yet. */
	readonly rigs: readonly (readonly HourPoint[] | null)[];
	/** Epoch ms of the read. */
	readonly at: number;
};

export type FleetHoursOptions = {
	/** Default a minute. */
	readonly refreshMs?: number;
	readonly now?: () => number;
};

export class FleetHoursStore implements Store<FleetHours> {
	readonly #source: LastHourSource;
	readonly #count: number;
	readonly #refreshMs: number;
	readonly #now: () => number;
	readonly #listeners = new Listeners();
	#timer: ReturnType<typeof setInterval> | null = null;
	#state: FleetHours | null = null;

	constructor(source: LastHourSource, count: number, options: FleetHoursOptions = {}) {
		this.#source = source;
		this.#count = count;
		this.#refreshMs = Math.max(1000, options.refreshMs ?? 60_000);
		this.#now = options.now ?? Date.now;
	}

	/** The hours read last (read now when never read: the fleet's first frame has its column). */
	getState(): FleetHours {
		this.#state ??= this.#read();
		return this.#state;
	}

	/** Reads while someone listens: now when the last read is a refresh old, then every refresh. */
	subscribe(listener: () => void): () => void {
		const remove = this.#listeners.add(listener);
		if (this.#listeners.size === 1) {
			if (this.#state === null || this.#now() - this.#state.at >= this.#refreshMs) this.refresh();
			this.#timer = setInterval(() => {
				this.refresh();
			}, this.#refreshMs);
			this.#timer.unref?.();
		}

		return () => {
			remove();
			if (this.#listeners.size === 0 && this.#timer !== null) {
				clearInterval(this.#timer);
				this.#timer = null;
			}
		};
	}

	/** Reads every rig's hour again and tells the listeners. */
	refresh(): void {
		this.#state = this.#read();
		this.#listeners.notify();
	}

	#read(): FleetHours {
		const at = this.#now();
		if (!this.#source.enabled) return {enabled: false, rigs: [], at};
		const rigs = Array.from({length: this.#count}, (_, slot) => this.#source.lastHour(slot, at, HOUR_POINTS));
		return {enabled: this.#source.enabled, rigs, at};
	}
}

/** Where the miner did not answer (half the polls stored or more failed): marked, not a level. */
export const OUTAGE_MARK = '×';

/**
 * A rig's hour in `width` characters, oldest left: each character the average of its buckets' 10 s hashrate (a
 * sparkline scaled to the rig's own range), "×" where half the polls stored or more failed (the rig was down), a space where
 * nothing was stored (rigtop was not watching). "" with no hour.
 */
export function hourCells(points: readonly HourPoint[] | null, width: number): string {
	const count = Math.min(Math.max(0, Math.floor(width)), points?.length ?? 0);
	if (!points || count === 0) return '';
	const values: (number | null)[] = [];
	const outages: boolean[] = [];
	for (let cell = 0; cell < count; cell++) {
		const from = Math.floor((cell * points.length) / count);
		const to = Math.floor(((cell + 1) * points.length) / count);
		let samples = 0;
		let live = 0;
		let sum = 0;
		let weight = 0;
		for (const point of points.slice(from, to)) {
			samples += point.samples;
			live += point.live;
			if (point.avg !== null && point.live > 0) {
				sum += point.avg * point.live;
				weight += point.live;
			}
		}

		values.push(weight > 0 ? sum / weight : null);
		// Down for half of the character's time or more: a minute's outage shows in a 2-minute character.
		outages.push(samples > 0 && live * 2 <= samples);
	}

	const line = [...sparkline(values, count).padEnd(count)];
	return line.map((char, cell) => (outages[cell] ? OUTAGE_MARK : char)).join('');
}
