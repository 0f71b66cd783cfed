import {describe, expect, test} from 'vitest';
import {sparkWindow} from '../../../source/history/stores.js';
import {sparkArea, sparkline} from '../../../source/ui/widgets/sparkline.js';
import {hourCells} from '../../../source/ui/screens/fleet/hours.js';

describe('sparkline', () => {
	test('keeps the newest samples that fit the width', () => {
		const values = Array.from({length: 100}, (_, index) => index);
		const line = sparkline(values, 30);
		expect(line).toHaveLength(30);
		expect(line.at(-1)).toBe('█');
		expect(line[0]).toBe('▁');
		expect(sparkline([1, 2, 3], 30)).toHaveLength(3);
	});

	test('null samples leave gaps', () => {
		expect(sparkline([4800, null, 4000, 4800], 10)).toBe('█ ▁█');
		expect(sparkline([null, null], 10)).toBe('  ');
	});

	test('a steady rate draws a level line mid-height, not magnified noise', () => {
		const steady = sparkline([4800, 4801, 4799, 4800, 4800], 10);
		expect(new Set(steady).size).toBeLessThanOrEqual(2);
		expect(steady).not.toContain('▁');
		expect(steady).not.toContain('█');
	});

	test('a real drop shows at the bottom', () => {
		expect(sparkline([4800, 4800, 2400, 4800], 10)).toBe('██▁█');
		expect(sparkline([0, 0, 0], 10)).toBe('▁▁▁');
	});

	test('nothing to draw gives an empty string', () => {
		expect(sparkline([], 10)).toBe('');
		expect(sparkline([1, 2], 0)).toBe('');
	});
});

describe('an idle miner (every value 0.00 H/s)', () => {
	const zero = [0, 0, 0, 0, 0, 0, 0, 0];

	test('a flat series sits at the floor, in one row and in several, never a full-height block', () => {
		for (const values of [zero, zero.slice(0, 4), [null, 0, 0, 0]]) {
			expect(sparkline(values, 10).trim()).toMatch(/^▁+$/);
			const rows = sparkArea(values, 4, 3);
			// Only the bottom row holds dots (the lowest level), the rows above are blank.
			expect(rows.slice(0, -1).every((row) => row.trim() === '')).toBe(true);
			expect(rows.at(-1)).toMatch(new RegExp(`^ *[⣀⢀⡀]{${values.length / 2}}$`));
		}
	});

	test('the fleet’s hour of an idle rig is a line at the floor too', () => {
		const points = zero.map((avg, index) => ({t: index * 60_000, samples: 2, live: 2, avg}));
		expect(hourCells(points, 8)).toBe('▁'.repeat(8));
	});
});

describe('a sparkline several rows tall', () => {
	test('braille, filled from the bottom, two samples a column, right-aligned, as many rows as asked', () => {
		const rows = sparkArea([4000, 5000, 4000, 5000], 4, 3);
		expect(rows).toHaveLength(3);
		for (const row of rows) expect(row).toHaveLength(4);
		// Four samples fill the two right columns; the two left ones are empty.
		expect(rows.map((row) => row.slice(0, 2))).toEqual(['  ', '  ', '  ']);
		// The bottom row: each column's low sample one dot (left), its high one all four (right).
		expect(rows[2]?.slice(2)).toBe('⣸⣸');
		// The higher samples reach the top row, the lower ones do not.
		expect(rows[0]).toMatch(/[\u2801-\u28FF]/);
		expect(rows[0]?.[2]).not.toBe('⣿');
	});

	test('a null sample leaves its dots empty; nothing known draws nothing', () => {
		// A steady value draws mid-height (three dots of four), the right half of the cell stays empty.
		const [row] = sparkArea([5000, null], 1, 1);
		expect(row).toBe('⡆');
		expect(sparkArea([null, null], 2, 2)).toEqual(['', '']);
	});
});

describe('the span a sparkline shows', () => {
	const now = 1_773_489_600_000;
	test('a miner known for three days fills the line at once, in round buckets', () => {
		const window = sparkWindow(now - 3 * 86_400_000, now, 36, 2000);
		expect(window.step).toBe(2 * 3_600_000);
		expect(window.to - window.from).toBe(36 * window.step);
		expect(window.from).toBeLessThanOrEqual(now - 3 * 86_400_000 + window.step);
		expect(window.to).toBeGreaterThan(now);
	});

	test('a miner just seen fills it from the right a poll a bucket; never more than a week back', () => {
		expect(sparkWindow(now - 10_000, now, 36, 2000).step).toBe(2000);
		expect(sparkWindow(null, now, 36, 2000).step).toBe(2000);
		const old = sparkWindow(now - 30 * 86_400_000, now, 36, 2000);
		expect(old.step).toBe(4 * 3_600_000 + 40 * 60_000);
		// A day and two hours over 72 buckets: whole minutes, the line full but for less than a bucket.
		const day = sparkWindow(now - 26 * 3_600_000, now, 72, 2000);
		expect(day.step).toBe(22 * 60_000);
		expect(day.from).toBeGreaterThan(now - 26 * 3_600_000 - 2 * day.step);
	});
});
