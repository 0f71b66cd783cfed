import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {
	computeLayout,
	MIN_COLUMNS,
	MIN_ROWS,
	MIN_THREADS_HEIGHT,
	STAT_PANE_HEIGHT,
	THREADS_CHROME,
} from '../../../source/ui/screens/layout.js';

function used(layout: ReturnType<typeof computeLayout>): number {
	return (
		layout.headerLines +
		layout.footerLines +
		layout.statRows * STAT_PANE_HEIGHT +
		layout.sparkExtra +
		layout.eventLines +
		layout.threadsHeight
	);
}

describe('computeLayout', () => {
	test('80×24: both stats rows, one events line, threads take the rest', () => {
		const layout = computeLayout(80, 24);
		expect(layout.statRows).toBe(2);
		expect(layout.eventLines).toBe(1);
		expect(layout.threadsHeight).toBe(10);
		expect(layout.threadRows).toBe(10 - THREADS_CHROME);
		expect(layout.height).toBe(23);
		expect(layout.leftWidth + layout.rightWidth).toBe(80);
		expect(layout.sparklineWidth).toBe(36);
	});

	test('a taller, wider terminal gives threads, sparkline and events more room', () => {
		const small = computeLayout(80, 24);
		const large = computeLayout(160, 50);
		expect(large.threadRows).toBeGreaterThan(small.threadRows);
		expect(large.sparklineWidth).toBeGreaterThan(small.sparklineWidth);
		expect(large.eventLines).toBe(4);
		expect(large.height).toBe(49);
	});

	test('a short terminal drops threads first, then the second stats row', () => {
		expect(computeLayout(80, 16).threadsHeight).toBe(0);
		expect(computeLayout(80, 16).statRows).toBe(2);
		expect(computeLayout(80, 10).statRows).toBe(1);
		expect(computeLayout(80, 6).statRows).toBe(0);
	});

	test('never more than rows - 1 lines, for any size', () => {
		fc.assert(
			fc.property(fc.integer({min: 1, max: 300}), fc.integer({min: 1, max: 200}), (columns, rows) => {
				const layout = computeLayout(columns, rows);
				expect(used(layout)).toBe(layout.height);
				expect(layout.height).toBeLessThanOrEqual(Math.max(1, rows - 1));
				expect(layout.headerLines + layout.bodyHeight + layout.footerLines).toBeLessThanOrEqual(Math.max(1, rows - 1));
				if (layout.threadsHeight > 0) expect(layout.threadsHeight).toBeGreaterThanOrEqual(MIN_THREADS_HEIGHT);
				if (layout.stacked) expect([layout.leftWidth, layout.rightWidth]).toEqual([columns, columns]);
				else expect(layout.leftWidth + layout.rightWidth).toBe(columns);
				expect(layout.statPanes).toBeLessThanOrEqual(4);
				expect(layout.tooSmall).toBe(columns < MIN_COLUMNS || rows < MIN_ROWS);
			}),
		);
	});

	test('narrower than 80 columns the stats panes stack whole, in one column, by priority', () => {
		const narrow = computeLayout(60, 20);
		expect(narrow.stacked).toBe(true);
		expect(narrow.tooSmall).toBe(false);
		expect([narrow.leftWidth, narrow.rightWidth]).toEqual([60, 60]);
		// 17 lines between header and footer: Hashrate, Pool and Shares, and the events get the rest.
		expect(narrow.statPanes).toBe(3);
		expect(narrow.threadsHeight).toBe(0);
		expect(narrow.eventLines).toBe(2);
		// A tall narrow terminal: all four, then the threads.
		const tall = computeLayout(60, 40);
		expect(tall.statPanes).toBe(4);
		expect(tall.threadsHeight).toBeGreaterThanOrEqual(MIN_THREADS_HEIGHT);
		expect(computeLayout(80, 24).stacked).toBe(false);
		expect(computeLayout(80, 24).statPanes).toBe(4);
	});

	test('below the smallest size it can serve, the layout says so', () => {
		expect(computeLayout(40, 12).tooSmall).toBe(true);
		expect(computeLayout(80, 9).tooSmall).toBe(true);
		expect(computeLayout(MIN_COLUMNS, MIN_ROWS).tooSmall).toBe(false);
	});

	test('gives a tall terminal with few threads a threads pane as tall as its rows, and the rest to the events', () => {
		const wide = computeLayout(160, 45, 0, 8);
		expect(wide.threadsHeight).toBe(8 + 3);
		expect(wide.threadRows).toBe(8);
		expect(wide.height).toBe(44);
		expect(wide.eventLines + wide.sparkExtra).toBe(computeLayout(160, 45).eventLines + computeLayout(160, 45).threadsHeight - 11);
		// Many threads: the pane keeps everything it had.
		expect(computeLayout(160, 45, 0, 64).threadsHeight).toBe(computeLayout(160, 45).threadsHeight);
	});
});
