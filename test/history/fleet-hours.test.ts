import {afterEach, describe, expect, test, vi} from 'vitest';
import {FleetHoursStore, HOUR_POINTS} from '../../source/history/fleet-hours.js';
import type {HourPoint, LastHourSource} from '../../source/history/last-hour.js';

function point(samples: number, live: number, avg: number | null): HourPoint {
	return {samples, live, avg};
}

afterEach(() => {
	vi.useRealTimers();
});

describe('the fleet hours store', () => {
	test('nothing read for the first frame; read on the next turn, then once a minute while the fleet shows; off: no column', () => {
		vi.useFakeTimers();
		const reads: number[] = [];
		let enabled = true;
		const source: LastHourSource = {
			get enabled() {
				return enabled;
			},
			lastHour(slot, _to, points) {
				reads.push(slot);
				return Array.from({length: points}, () => point(30, 30, 1000 + slot));
			},
		};
		const store = new FleetHoursStore(source, 3, {now: () => Date.now()});
		// The first frame: the column is there (history is on), empty, and nothing was read for it.
		const unread = store.getState();
		expect(unread).toMatchObject({enabled: true, rigs: []});
		expect(store.getState()).toBe(unread);
		expect(reads).toEqual([]);

		const told: number[] = [];
		const unsubscribe = store.subscribe(() => told.push(1));
		expect(reads).toEqual([]);
		// The turn after: every rig's hour, read once, and the fleet told.
		vi.advanceTimersToNextTimer();
		expect(reads).toEqual([0, 1, 2]);
		expect(told).toEqual([1]);
		const first = store.getState();
		expect(first.rigs.map((rig) => rig?.length)).toEqual([HOUR_POINTS, HOUR_POINTS, HOUR_POINTS]);
		expect(store.getState()).toBe(first);

		vi.advanceTimersByTime(59_000);
		expect(reads).toHaveLength(3);
		vi.advanceTimersByTime(1000);
		expect(reads).toHaveLength(6);
		expect(told).toEqual([1, 1]);

		// Nobody listening (a rig's dashboard is open): no reads.
		unsubscribe();
		vi.advanceTimersByTime(5 * 60_000);
		expect(reads).toHaveLength(6);

		// Back within a minute of no read... here five minutes on: read again on the next turn, not at once.
		store.subscribe(() => {});
		expect(reads).toHaveLength(6);
		vi.advanceTimersToNextTimer();
		expect(reads).toHaveLength(9);

		enabled = false;
		store.refresh();
		expect(store.getState()).toMatchObject({enabled: false, rigs: []});
	});

	test('a fleet left before its first read reads nothing', () => {
		vi.useFakeTimers();
		const reads: number[] = [];
		const source: LastHourSource = {
			enabled: true,
			lastHour(slot) {
				reads.push(slot);
				return null;
			},
		};
		const store = new FleetHoursStore(source, 2, {now: () => Date.now()});
		const unsubscribe = store.subscribe(() => {});
		unsubscribe();
		vi.advanceTimersByTime(120_000);
		expect(reads).toEqual([]);
	});
});
