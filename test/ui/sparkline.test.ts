import {describe, expect, test} from 'vitest';
import {sparkline} from '../../source/ui/sparkline.js';

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
