/** Where the proxy screen's lines go: the workers first, the lines they leave to the events, never past rows - 1. */
import fc from 'fast-check';
import {expect, test} from 'vitest';
import {proxyLayout} from '../../../../source/ui/screens/proxy/frame.js';

test('the workers take the lines they need; the events get only what is left, and the frame then fills rows - 1', () => {
	// 50 rows, 5 summary lines: 49 - 5 - 1 footer = 43 body lines, 3 of them the table's headings and totals.
	expect(proxyLayout({columns: 200, rows: 50}, 5, 6)).toMatchObject({workerRows: 6, eventLines: 34, height: 49});
	expect(proxyLayout({columns: 200, rows: 50}, 5, 40)).toMatchObject({workerRows: 40, eventLines: 0, height: 49});
	// More workers than lines: they scroll, no event line.
	expect(proxyLayout({columns: 80, rows: 24}, 7, 29)).toMatchObject({workerRows: 12, eventLines: 0, height: 23});
	fc.assert(
		fc.property(
			fc.integer({min: 50, max: 300}),
			fc.integer({min: 10, max: 120}),
			fc.integer({min: 4, max: 8}),
			fc.nat(200),
			(columns, rows, summary, workers) => {
				const layout = proxyLayout({columns, rows}, summary, workers);
				expect(layout.height).toBeLessThanOrEqual(rows - 1);
				expect(layout.eventLines).toBeGreaterThanOrEqual(0);
				if (layout.eventLines > 0) {
					expect(layout.workerRows).toBe(Math.max(1, workers));
					expect(layout.height).toBe(rows - 1);
				}
			},
		),
	);
});
