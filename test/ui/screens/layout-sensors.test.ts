import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {computeLayout, MIN_THREADS_HEIGHT, STAT_PANE_HEIGHT} from '../../../source/ui/screens/layout.js';

describe('the System pane grows by the rig readings it has', () => {
	test('none wanted (a remote rig): the layout is the one without readings', () => {
		expect(computeLayout(80, 24, 0, 8, 1, 0)).toEqual({...computeLayout(80, 24, 0, 8), systemExtra: 0});
	});

	test('one line on a short terminal, taken from the threads; two on a tall one', () => {
		const plain = computeLayout(80, 24, 0, 16);
		const one = computeLayout(80, 24, 0, 16, 1, 2);
		expect(one.systemExtra).toBe(1);
		expect(one.threadRows).toBe(plain.threadRows - 1);
		expect(one.height).toBe(plain.height);
		expect(computeLayout(200, 50, 0, 8, 1, 2).systemExtra).toBe(2);
		expect(computeLayout(200, 50, 0, 8, 1, 1).systemExtra).toBe(1);
	});

	test('where its row would not fit with them, the row shows without them rather than not at all', () => {
		// 80×13: ten lines between header and footer hold the two rows of panes exactly; the second shows, plain.
		const tight = computeLayout(80, 13, 0, 8, 1, 1);
		expect(tight.statRows).toBe(2);
		expect(tight.systemExtra).toBe(0);
		expect(tight.bodyHeight).toBe(2 * STAT_PANE_HEIGHT);
		// The events keep their one line: the readings come after it.
		expect(computeLayout(80, 14, 0, 8, 1, 1).systemExtra).toBe(0);
		expect(computeLayout(80, 14, 0, 8, 1, 1).eventLines).toBeGreaterThanOrEqual(1);
		expect(computeLayout(80, 15, 0, 8, 1, 1).systemExtra).toBe(1);
		// Stacked, the System pane is the fourth: without it on screen, no lines are given to it.
		const stacked = computeLayout(60, 20, 0, 8, 1, 1);
		expect(stacked.statPanes).toBeLessThan(4);
		expect(stacked.systemExtra).toBe(0);
	});

	test('for any size and any lines wanted: never more than rows - 1 lines, every line counted, the events keep one', () => {
		fc.assert(
			fc.property(
				fc.integer({min: 1, max: 300}),
				fc.integer({min: 1, max: 200}),
				fc.integer({min: 0, max: 2}),
				fc.option(fc.integer({min: 1, max: 64})),
				(columns, rows, wanted, threads) => {
					const layout = computeLayout(columns, rows, 0, threads, 1, wanted);
					const used =
						layout.headerLines +
						layout.footerLines +
						layout.statRows * STAT_PANE_HEIGHT +
						layout.sparkExtra +
						layout.systemExtra +
						layout.eventLines +
						layout.threadsHeight;
					expect(used).toBe(layout.height);
					expect(layout.height).toBeLessThanOrEqual(Math.max(1, rows - 1));
					expect(layout.systemExtra).toBeLessThanOrEqual(wanted);
					if (layout.systemExtra > 0) {
						expect(layout.statPanes).toBe(4);
						expect(layout.eventLines).toBeGreaterThanOrEqual(1);
					}

					if (layout.threadsHeight > 0) expect(layout.threadsHeight).toBeGreaterThanOrEqual(MIN_THREADS_HEIGHT);
				},
			),
		);
	});
});
