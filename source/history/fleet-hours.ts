/**
 * The fleet's last-hour column's store: each rig's last hour from the history store (through a LastHourSource), read
 * once a minute (the store's cost, about 0.35 ms a rig, is paid 60 times less than at every poll) and only while the
 * fleet view listens, never in render and never for the first frame (the first read is on the turn after it).
 * ui/screens/fleet/hours.ts draws it.
 */
import {Listeners, type Store} from '../monitor/store.js';
import type {HourPoint, LastHourSource} from './last-hour.js';

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
	#unread: FleetHours | null = null;
	#soon: ReturnType<typeof setImmediate> | null = null;

	constructor(source: LastHourSource, count: number, options: FleetHoursOptions = {}) {
		this.#source = source;
		this.#count = count;
		this.#refreshMs = Math.max(1000, options.refreshMs ?? 60_000);
		this.#now = options.now ?? Date.now;
	}

	/**
	 * The hours read last; before the first read, none (the column is there, empty): the fleet's first frame reads
	 * nothing, its column fills on the next turn.
	 */
	getState(): FleetHours {
		if (this.#state !== null) return this.#state;
		const enabled = this.#source.enabled;
		if (this.#unread?.enabled !== enabled) this.#unread = {enabled, rigs: [], at: 0};
		return this.#unread;
	}

	/** Reads while someone listens: on the next turn when the last read is a refresh old (or none), then every refresh. */
	subscribe(listener: () => void): () => void {
		const remove = this.#listeners.add(listener);
		if (this.#listeners.size === 1) {
			if (this.#state === null || this.#now() - this.#state.at >= this.#refreshMs) {
				this.#soon = setImmediate(() => {
					this.#soon = null;
					this.refresh();
				});
			}

			this.#timer = setInterval(() => {
				this.refresh();
			}, this.#refreshMs);
			this.#timer.unref?.();
		}

		return () => {
			remove();
			if (this.#listeners.size > 0) return;
			if (this.#timer !== null) clearInterval(this.#timer);
			if (this.#soon !== null) clearImmediate(this.#soon);
			this.#timer = null;
			this.#soon = null;
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
