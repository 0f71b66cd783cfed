import {describe, expect, test} from 'vitest';
import {DASH, formatClockRange} from '../../source/text/format.js';

describe('the clock beside its maximum', () => {
	test('in one unit where both are over 1 GHz, else each in its own; no maximum: the clock alone', () => {
		expect(formatClockRange(3850, 4200)).toBe('3.85 / 4.20 GHz');
		expect(formatClockRange(816, 1800)).toBe('816 MHz / 1.80 GHz');
		expect(formatClockRange(3850, null)).toBe('3.85 GHz');
		expect(formatClockRange(null, 4200)).toBe(DASH);
		expect(formatClockRange(Number.NaN, 4200)).toBe(DASH);
	});
});
