import {describe, expect, test} from 'vitest';
import {DASH, formatCelsius, formatGHz, formatHashesPerWatt, formatWatts} from '../source/format.js';

describe('the rig readings as text', () => {
	test('°C in whole degrees, the bare number for a limit, never 0 for a missing value', () => {
		expect(formatCelsius(71.25)).toBe('71 °C');
		expect(formatCelsius(70.5)).toBe('71 °C');
		expect(formatCelsius(95, {unit: false})).toBe('95');
		expect(formatCelsius(-0.2)).toBe('0 °C');
		expect(formatCelsius(-12)).toBe('-12 °C');
		expect(formatCelsius(null)).toBe(DASH);
		expect(formatCelsius(Number.NaN)).toBe(DASH);
	});

	test('the clock from MHz in GHz with two decimals', () => {
		expect(formatGHz(3850)).toBe('3.85 GHz');
		expect(formatGHz(4200, {unit: false})).toBe('4.20');
		expect(formatGHz(800)).toBe('0.80 GHz');
		expect(formatGHz(null)).toBe(DASH);
		expect(formatGHz(-1)).toBe(DASH);
	});

	test('watts in three significant digits', () => {
		expect(formatWatts(142.3)).toBe('142 W');
		expect(formatWatts(65.43)).toBe('65.4 W');
		expect(formatWatts(8.2)).toBe('8.20 W');
		expect(formatWatts(0)).toBe('0.00 W');
		expect(formatWatts(null)).toBe(DASH);
		expect(formatWatts(Number.POSITIVE_INFINITY)).toBe(DASH);
	});

	test('hashes per watt in three significant digits, scaled past a thousand', () => {
		expect(formatHashesPerWatt(70.31)).toBe('70.3 H/W');
		expect(formatHashesPerWatt(142)).toBe('142 H/W');
		expect(formatHashesPerWatt(1204)).toBe('1.20 kH/W');
		expect(formatHashesPerWatt(999.7)).toBe('1.00 kH/W');
		expect(formatHashesPerWatt(null)).toBe(DASH);
		expect(formatHashesPerWatt(-3)).toBe(DASH);
	});
});
