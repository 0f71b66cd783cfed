import {afterEach, describe, expect, it} from 'vitest';
import {LINK} from '../../source/history/tiers.js';
import {HistoryWriter} from '../../source/history/writer.js';
import {manualClock, openStore, tempDir, writeRun} from './helpers.js';

const MINUTE = 60_000;

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A ten-minute row as it should be: `minutes` the answered minutes of the span (hashrate 1000 + the minute's index). */
function span(t: number, minutes: readonly number[], link: number) {
	const rates = minutes.map((minute) => 1000 + minute);
	const avg = rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
	return {
		t,
		n: 60,
		live: minutes.length * 6,
		hr_n: minutes.length * 6,
		pool: minutes.length * 6,
		paused: 0,
		link,
		hr_min: Math.min(...rates),
		hr_avg: avg,
		hr_max: Math.max(...rates),
		hr60: avg,
		hr15: avg,
		good: 10,
		total: 10,
		rejected: 0,
		sensors: null,
	};
}

const range = (from: number, to: number) => Array.from({length: to - from}, (_, index) => from + index);

describe('history store: the summary tiers as rolled', () => {
	it('makes every complete ten-minute span from the minute summaries, across a close and another rigtop process', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const clock = manualClock();
		const {store} = openStore(temp.dir, {now: clock.now});
		cleanups.unshift(() => store.close());
		const start = clock.now();
		// A poll every 10 s; the hashrate is 1000 + the minute's index; down for minutes 12 and 13.
		const rate = (t: number) => {
			const minute = Math.floor((t - start) / MINUTE);
			return minute === 12 || minute === 13 ? null : 1000 + minute;
		};

		// One rigtop from 12:00 to 12:35, closed; another (nothing of the first in memory) from 12:35 to 12:52, closed.
		const first = new HistoryWriter(store, {now: clock.now, writerId: 1});
		writeRun(first, clock, start, start + 35 * MINUTE, 10_000, rate);
		const miner = first.minerOf(0) ?? -1;
		first.summarize([miner], true);
		const second = new HistoryWriter(store, {now: clock.now, writerId: 2});
		writeRun(second, clock, start + 35 * MINUTE, start + 52 * MINUTE, 10_000, rate);
		expect(second.minerOf(0)).toBe(miner);
		second.summarize([miner], true);

		const rows = store.all<Record<string, unknown>>('SELECT * FROM summary_10m WHERE miner = ? ORDER BY t', miner);
		expect(rows.map(({miner: _, ...row}) => row)).toEqual([
			span(start, range(0, 10), LINK.live),
			span(start + 10 * MINUTE, [10, 11, ...range(14, 20)], LINK.down),
			span(start + 20 * MINUTE, range(20, 30), LINK.live),
			span(start + 30 * MINUTE, range(30, 40), LINK.live),
			span(start + 40 * MINUTE, range(40, 50), LINK.live),
		]);
		// The minute tier holds every complete minute up to the close, one row each.
		const minutes = store.all<{t: number; n: number}>('SELECT t, n FROM summary_1m WHERE miner = ? ORDER BY t', miner);
		expect(minutes.map((row) => (row.t - start) / MINUTE)).toEqual(range(0, 51));
		expect(minutes.every((row) => row.n === 6)).toBe(true);
	});
});
