import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {
	DASH,
	formatAgo,
	formatBytes,
	formatClock,
	formatCount,
	formatDate,
	formatTimeSpan,
	formatWhen,
	formatDuration,
	formatHashrate,
	formatInteger,
	formatLoad,
	formatPercent,
	formatPing,
	formatRateIn,
	pickRateUnit,
	rateDecimals,
	formatDurationShort,
	formatSeconds,
	formatLastAccepted,
} from '../../source/text/format.js';

describe('formatHashrate', () => {
	test('scales to H/s, kH/s, MH/s with three significant digits', () => {
		expect(formatHashrate(482.34)).toBe('482 H/s');
		expect(formatHashrate(48.23)).toBe('48.2 H/s');
		expect(formatHashrate(4823.4)).toBe('4.82 kH/s');
		expect(formatHashrate(48_234)).toBe('48.2 kH/s');
		expect(formatHashrate(1_200_000)).toBe('1.20 MH/s');
		expect(formatHashrate(3.2e9)).toBe('3.20 GH/s');
		expect(formatHashrate(0)).toBe('0.00 H/s');
	});

	test('a value that rounds up to 1000 moves to the next unit', () => {
		expect(formatHashrate(999.6)).toBe('1.00 kH/s');
		expect(formatHashrate(999_995)).toBe('1.00 MH/s');
		expect(formatHashrate(999.4)).toBe('999 H/s');
	});

	test('null, NaN and negative values are unknown, never 0', () => {
		expect(formatHashrate(null)).toBe(DASH);
		expect(formatHashrate(Number.NaN)).toBe(DASH);
		expect(formatHashrate(-1)).toBe(DASH);
		expect(formatHashrate(Number.POSITIVE_INFINITY)).toBe(DASH);
	});

	test('the padded form is always 9 columns with the number right-aligned', () => {
		expect(formatHashrate(4823.4, {pad: true})).toBe('4.82 kH/s');
		expect(formatHashrate(301.2, {pad: true})).toBe(' 301 H/s ');
		expect(formatHashrate(null, {pad: true})).toBe('   —     ');
		fc.assert(
			fc.property(fc.double({min: 0, max: 9e14, noNaN: true}), (value) => {
				expect(formatHashrate(value, {pad: true})).toHaveLength(9);
				expect(formatHashrate(value).length).toBeLessThanOrEqual(9);
			}),
		);
	});
});

describe('shared rate units', () => {
	test('the unit suits the largest known value', () => {
		expect(pickRateUnit([4823.4, 4801.2, null])).toBe('kH/s');
		expect(pickRateUnit([300.1, 999.4])).toBe('H/s');
		expect(pickRateUnit([999.7])).toBe('kH/s');
		expect(pickRateUnit([null, null])).toBe('H/s');
		expect(pickRateUnit([])).toBe('H/s');
	});

	test('values are written in the given unit, fixed decimals when asked', () => {
		expect(formatRateIn(4801.2, 'kH/s')).toBe('4.80');
		expect(formatRateIn(301.23, 'H/s', {decimals: rateDecimals('H/s')})).toBe('301.2');
		expect(formatRateIn(4823.4, 'kH/s', {decimals: rateDecimals('kH/s')})).toBe('4.82');
		expect(formatRateIn(null, 'kH/s')).toBe(DASH);
	});
});

describe('counts and numbers', () => {
	test('difficulties and best shares are compact', () => {
		expect(formatCount(950)).toBe('950');
		expect(formatCount(1500)).toBe('1.5K');
		expect(formatCount(12_345)).toBe('12.3K');
		expect(formatCount(120_000)).toBe('120K');
		expect(formatCount(4_100_000)).toBe('4.1M');
		expect(formatCount(2_000_000_000)).toBe('2G');
		expect(formatCount(999_999)).toBe('1M');
		expect(formatCount(null)).toBe(DASH);
	});

	test('exact integers group thousands with spaces', () => {
		expect(formatInteger(1204)).toBe('1 204');
		expect(formatInteger(1_234_567)).toBe('1 234 567');
		expect(formatInteger(999)).toBe('999');
		expect(formatInteger(0)).toBe('0');
		expect(formatInteger(null)).toBe(DASH);
	});

	test('bytes in SI units', () => {
		expect(formatBytes(512)).toBe('512 B');
		expect(formatBytes(2_481_012_736)).toBe('2.5 GB');
		expect(formatBytes(2_400_000_000)).toBe('2.4 GB');
		expect(formatBytes(16_717_189_120)).toBe('16.7 GB');
		expect(formatBytes(512_000_000)).toBe('512 MB');
		expect(formatBytes(999_990)).toBe('1.0 MB');
		expect(formatBytes(null)).toBe(DASH);
	});

	test('percentages never claim 100% before it is all there', () => {
		expect(formatPercent(3, 1207)).toBe('0.2%');
		expect(formatPercent(1168, 1168)).toBe('100%');
		expect(formatPercent(1167, 1168)).toBe('99.9%');
		expect(formatPercent(99_999, 100_000)).toBe('99.9%');
		expect(formatPercent(0, 10)).toBe('0%');
		expect(formatPercent(1, 8)).toBe('12.5%');
		expect(formatPercent(0, 0)).toBe(DASH);
		expect(formatPercent(null, 10)).toBe(DASH);
	});

	test('ping and load', () => {
		expect(formatPing(38.4)).toBe('38 ms');
		expect(formatPing(null)).toBe(DASH);
		expect(formatLoad([15.83, 15.91, 15.9])).toBe('15.8 15.9 15.9');
		expect(formatLoad([0.52, 0.48, 0.4])).toBe('0.52 0.48 0.40');
		expect(formatLoad(null)).toBe(DASH);
	});
});

describe('time', () => {
	test('durations are two units at most, the second zero-padded', () => {
		expect(formatDuration(3 * 86_400 + 4 * 3600 + 12 * 60)).toBe('3d 04h');
		expect(formatDuration(2 * 86_400 + 11 * 3600)).toBe('2d 11h');
		expect(formatDuration(3600 + 5 * 60)).toBe('1h 05m');
		expect(formatDuration(5 * 60 + 3)).toBe('5m 03s');
		expect(formatDuration(12)).toBe('12s');
		expect(formatDuration(12.9)).toBe('12s');
		expect(formatDuration(0.4)).toBe('0s');
		expect(formatDuration(400 * 86_400)).toBe('1y 35d');
		expect(formatDuration(null)).toBe(DASH);
		expect(formatDuration(-5)).toBe(DASH);
	});

	test('the larger unit alone, for narrow columns', () => {
		expect(formatDurationShort(3 * 86_400 + 3600)).toBe('3d');
		expect(formatDurationShort(5 * 60 + 3)).toBe('5m');
		expect(formatDurationShort(null)).toBe(DASH);
	});

	test('time limits: whole seconds as durations, less with one decimal', () => {
		expect(formatSeconds(8000)).toBe('8s');
		expect(formatSeconds(90_000)).toBe('1m 30s');
		expect(formatSeconds(600)).toBe('0.6s');
		expect(formatSeconds(300_000)).toBe('5m');
	});

	test('"ago" labels', () => {
		const now = 1_000_000_000_000;
		expect(formatAgo(now - 12_000, now)).toBe('12s ago');
		expect(formatAgo(now - 185_000, now)).toBe('3m 05s ago');
		expect(formatAgo(now - 200, now)).toBe('just now');
		expect(formatAgo(now + 5000, now)).toBe('just now');
		expect(formatAgo(null, now)).toBe(DASH);
	});

	test('clock times are local HH:MM', () => {
		expect(formatClock(new Date(2026, 0, 2, 9, 2, 59).getTime())).toBe('09:02');
		expect(formatClock(new Date(2026, 0, 2, 23, 45).getTime())).toBe('23:45');
		expect(formatClock(null)).toBe(DASH);
	});
});

describe('dates where a time alone is ambiguous', () => {
	const now = new Date(2026, 2, 14, 9, 30).getTime();
	test('today: the clock time; another day: with its date; another year: with the year', () => {
		expect(formatWhen(new Date(2026, 2, 14, 0, 12).getTime(), now)).toBe('00:12');
		expect(formatWhen(new Date(2026, 2, 13, 23, 54).getTime(), now)).toBe('Mar 13 23:54');
		expect(formatWhen(new Date(2025, 11, 31, 23, 5).getTime(), now)).toBe('Dec 31 2025 23:05');
		expect(formatDate(new Date(2026, 0, 2).getTime(), now)).toBe('Jan 2');
		expect(formatWhen(null, now)).toBe(DASH);
	});

	test('a span: the start dated when not today, the end too when the span is a day or more', () => {
		const span = (a: Date, b: Date) => formatTimeSpan(a.getTime(), b.getTime(), now);
		expect(span(new Date(2026, 2, 13, 23, 54), new Date(2026, 2, 14, 0, 12))).toBe('Mar 13 23:54–00:12');
		expect(span(new Date(2026, 2, 14, 1), new Date(2026, 2, 14, 2))).toBe('01:00–02:00');
		expect(span(new Date(2026, 2, 11, 23), new Date(2026, 2, 12, 1))).toBe('Mar 11 23:00–01:00');
		expect(span(new Date(2026, 2, 12, 8), new Date(2026, 2, 12, 9))).toBe('Mar 12 08:00–09:00');
		expect(span(new Date(2026, 2, 13), new Date(2026, 2, 14))).toBe('Mar 13 00:00–Mar 14 00:00');
		expect(span(new Date(2026, 2, 7, 12), new Date(2026, 2, 14, 12))).toBe('Mar 7 12:00–Mar 14 12:00');
	});
});

describe('the last share', () => {
	const NOW = 1_700_000_000_000;
	test('a time a poll saw is said to the second; a bound in tens of seconds, then minutes, rounded down', () => {
		expect(formatLastAccepted(null, NOW)).toBe(DASH);
		expect(formatLastAccepted({at: NOW - 12_000, atLeast: false}, NOW)).toBe('12s ago');
		expect(formatLastAccepted({at: NOW - 500, atLeast: true}, NOW)).toBe(DASH);
		expect(formatLastAccepted({at: NOW - 7_900, atLeast: true}, NOW)).toBe('at least 7s ago');
		expect(formatLastAccepted({at: NOW - 37_000, atLeast: true}, NOW)).toBe('at least 30s ago');
		expect(formatLastAccepted({at: NOW - 243_000, atLeast: true}, NOW)).toBe('at least 4m ago');
		expect(formatLastAccepted({at: NOW - 7_500_000, atLeast: true}, NOW)).toBe('at least 2h 05m ago');
	});

	test('a bound past 10 s changes its words at most once in 10 s, then once a minute: the dashboard redraws no more for it', () => {
		fc.assert(
			fc.property(fc.integer({min: 10_000, max: 3_599_000}), (age) => {
				const words = (delta: number) => formatLastAccepted({at: NOW - age, atLeast: true}, NOW + delta);
				const step = age < 60_000 ? 10_000 : 60_000;
				// Within the same step of the bound, the words stay.
				const intoStep = age % step;
				return words(step - intoStep - 1) === words(0);
			}),
		);
	});
});
