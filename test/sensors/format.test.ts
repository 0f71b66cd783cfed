/** The sensor readings' words (source/format.ts): °C, GHz, W and H/W, "—" where unknown. */
import {describe, expect, it} from 'vitest';
import {DASH, formatCelsius, formatClockSpeed, formatHashesPerWatt, formatWatts} from '../../source/text/format.js';

describe('sensor formats', () => {
	it('writes temperatures in whole degrees', () => {
		expect(formatCelsius(71.25)).toBe('71°C');
		expect(formatCelsius(48.5)).toBe('49°C');
		expect(formatCelsius(null)).toBe(DASH);
	});

	it('writes clocks in GHz, and in MHz under one', () => {
		expect(formatClockSpeed(3750)).toBe('3.75 GHz');
		expect(formatClockSpeed(816)).toBe('816 MHz');
		expect(formatClockSpeed(Number.NaN)).toBe(DASH);
	});

	it('writes watts and hashes per watt with three significant digits', () => {
		expect(formatWatts(112.4)).toBe('112 W');
		expect(formatWatts(8.523)).toBe('8.52 W');
		expect(formatWatts(null)).toBe(DASH);
		expect(formatHashesPerWatt(98.46)).toBe('98.5 H/W');
		expect(formatHashesPerWatt(1204)).toBe('1.20 kH/W');
		expect(formatHashesPerWatt(-1)).toBe(DASH);
	});
});
