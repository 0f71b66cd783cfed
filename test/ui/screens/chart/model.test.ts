import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import type {SeriesPoint} from '../../../../source/history/read.js';
import {
	chartModel,
	niceStep,
	plotColumns,
	rangeOf,
	spanStats,
	timeTicks,
	Y_AXIS_WIDTH,
	yScale,
} from '../../../../source/ui/screens/chart/model.js';

const at = (day: number, hours: number, minutes = 0) => new Date(2026, 2, day, hours, minutes).getTime();
const text = (row: readonly {text: string}[]) => row.map((segment) => segment.text).join('');

function point(t: number, value: number | null, samples = 1): SeriesPoint {
	const live = value === null ? 0 : samples;
	return {
		t,
		samples,
		live,
		min: value,
		avg: value,
		max: value,
		avg60: value,
		avg15: value,
		pool: live > 0 ? 1 : null,
		paused: live > 0 ? 0 : null,
		link: samples === 0 ? null : value === null ? 'down' : 'live',
		good: null,
		total: null,
		rejected: null,
	};
}

/** `columns × 2` points over [from, to): 4.8 kH/s, an outage over the first `outage` share, nothing over the `gap` share. */
function series(from: number, to: number, width: number, shape: (share: number) => 'up' | 'down' | 'gap' | number) {
	const count = plotColumns(width) * 2;
	const step = (to - from) / count;
	return Array.from({length: count}, (_, i) => {
		const kind = shape(i / count);
		const t = from + i * step;
		if (kind === 'gap') return point(t, null, 0);
		if (kind === 'down') return point(t, null);
		return point(t, kind === 'up' ? 4800 : kind);
	});
}

describe('chart scales', () => {
	test('round steps: 1, 2, 2.5, 5 times a power of ten', () => {
		expect([0.13, 0.2, 0.21, 0.26, 0.6, 7, 30, 4100].map((value) => niceStep(value))).toEqual([0.2, 0.2, 0.25, 0.5, 1, 10, 50, 5000]);
	});

	test('the y-axis starts at 0 when the values come near it, else under the lowest, never narrower than a tenth of the top', () => {
		expect(yScale({low: 0, high: 4800}, 16)).toMatchObject({bottom: 0, unit: 'kH/s'});
		expect(yScale({low: 2300, high: 4800}, 16).bottom).toBe(0);
		const steady = yScale({low: 4790, high: 4810}, 16);
		expect(steady.bottom).toBeGreaterThan(4000);
		expect(steady.top - steady.bottom).toBeGreaterThanOrEqual(480);
		expect(steady.top).toBeGreaterThanOrEqual(4810);
		fc.assert(
			fc.property(
				fc.double({min: 1, max: 1e9, noNaN: true}),
				fc.double({min: 0, max: 1, noNaN: true}),
				fc.integer({min: 1, max: 200}),
				(high, share, rows) => {
					const scale = yScale({low: high * share, high}, rows);
					expect(scale.bottom).toBeLessThanOrEqual(high * share + 1e-6 * high);
					expect(scale.top).toBeGreaterThanOrEqual(high - 1e-6 * high);
					expect(scale.ticks.length).toBeLessThanOrEqual(12);
				},
			),
		);
	});

	test('time ticks on round clock times; a span that crosses midnight dates the midnight; days show dates', () => {
		const hour = timeTicks(at(14, 11), at(14, 12), 74, at(14, 12));
		expect(hour.map((tick) => tick.label)).toEqual(['11:00', '11:10', '11:20', '11:30', '11:40', '11:50']);
		const night = timeTicks(at(13, 12), at(14, 12), 74, at(14, 12)).map((tick) => tick.label);
		expect(night).toContain('Mar 14');
		expect(night).not.toContain('00:00');
		expect(night[0]).toBe('12:00');
		const week = timeTicks(at(7, 12), at(14, 12), 74, at(14, 12)).map((tick) => tick.label);
		expect(week).toEqual(['Mar 8', 'Mar 9', 'Mar 10', 'Mar 11', 'Mar 12', 'Mar 13', 'Mar 14']);
	});

	test('min, avg and max of the span: the lowest and highest 10 s rate, the average weighted by the answered polls', () => {
		expect(spanStats([point(0, 4000, 1), point(1, 5000, 3), point(2, null), point(3, null, 0)])).toEqual({min: 4000, avg: 4750, max: 5000});
		expect(spanStats([point(0, null)])).toEqual({min: null, avg: null, max: null});
	});
});

describe('the chart drawn', () => {
	const now = at(14, 12);
	const from = at(13, 12);
	const to = now;
	const width = 80;
	const rows = 16;
	const columns = plotColumns(width);
	const columnOf = (t: number) => Y_AXIS_WIDTH + Math.floor(((t - from) / (to - from)) * columns);
	// Down 23:54–00:12, not watched 02:00–06:00, a dip to 2 kH/s 09:00–09:30.
	const points = series(from, to, width, (share) => {
		const t = from + share * (to - from);
		if (t >= at(13, 23, 54) && t < at(14, 0, 12)) return 'down';
		if (t >= at(14, 2) && t < at(14, 6)) return 'gap';
		if (t >= at(14, 9) && t < at(14, 9, 30)) return 2000;
		return 'up';
	});
	const model = chartModel({
		points,
		from,
		to,
		width,
		rows,
		now,
		references: [{label: '15m', value: 4700, tone: 'ok', pattern: 'dashes'}],
		markers: [
			{t: at(14, 1), letter: 'R', tone: 'warn', rank: 3},
			{t: at(14, 1), letter: 'C', tone: 'info', rank: 0},
			{t: at(14, 10), letter: 'P', tone: 'info', rank: 1},
		],
	});
	const plot = model.plot.map((row) => text(row));

	test('exactly the size asked: rows of the plot, each as wide as the terminal', () => {
		expect(plot).toHaveLength(rows);
		for (const line of [...plot, text(model.axis), model.labels]) expect(line.length).toBeLessThanOrEqual(width);
		for (const line of plot) expect(line).toHaveLength(width);
	});

	test('a y-axis from 0 with round labels, the top and 0 labelled', () => {
		expect(model.unit).toBe('kH/s');
		expect(plot[0]).toMatch(/^ {0,3}\d+(\.\d+)? ┤/);
		expect(plot.at(-1)).toMatch(/^ {3}0 ┤/);
		expect(plot.filter((line) => line.includes('┤')).length).toBeGreaterThanOrEqual(3);
	});

	test('an outage is shaded over the whole height, a span not watched is left blank, the line is braille elsewhere', () => {
		const down = columnOf(at(14, 0, 3));
		const gap = columnOf(at(14, 4));
		const up = columnOf(at(13, 18));
		for (const line of plot) {
			expect(line[down]).toBe('░');
			expect(line[gap]).toBe(' ');
		}

		expect(plot.some((line) => /[\u2801-\u28FF]/.test(line[up] ?? ''))).toBe(true);
		// The dip is drawn lower than the rest (the line's lowest dot row under the dip is nearer the bottom).
		const lowest = (column: number) => plot.findLastIndex((line) => /[\u2801-\u28FF]/.test(line[column] ?? ''));
		expect(lowest(columnOf(at(14, 9, 15)))).toBeGreaterThan(lowest(up) + 3);
	});

	test('the reference line is labelled right of the plot, not over the newest data', () => {
		const labelled = plot.filter((line) => / 15m {4}$/.test(line));
		expect(labelled).toHaveLength(1);
		expect(labelled[0]?.[Y_AXIS_WIDTH + columns - 1]).toMatch(/[\u2801-\u28FF]/);
	});

	test('markers sit on the axis row under their time; the most telling wins a shared column', () => {
		const axis = text(model.axis);
		expect(axis[columnOf(at(14, 1))]).toBe('R');
		expect(axis[columnOf(at(14, 10))]).toBe('P');
		expect(axis).not.toContain('C');
		expect(axis).toContain('┴');
	});

	test('each time label starts under its tick', () => {
		const axis = text(model.axis);
		for (const match of model.labels.matchAll(/\S+( \d+)?/g)) {
			const column = match.index;
			expect(['┴', 'R', 'P']).toContain(axis[column]);
		}

		expect(model.labels).toContain('Mar 14');
	});
});

test('an outage shorter than a bucket is marked ╳ on the axis row, under any event marker', () => {
	const from = at(14, 6);
	const to = at(14, 12);
	const count = plotColumns(80) * 2;
	const step = (to - from) / count;
	const points = Array.from({length: count}, (_, i) => {
		const p = point(from + i * step, 4800, 10);
		// Two buckets with one failed poll of ten each.
		return i === 40 || i === 100 ? {...p, samples: 11, link: 'down' as const} : p;
	});
	const model = chartModel({
		points,
		from,
		to,
		width: 80,
		rows: 10,
		now: to,
		markers: [{t: from + 100 * step, letter: 'R', tone: 'warn', rank: 3}],
	});
	const axis = text(model.axis);
	expect(axis[Y_AXIS_WIDTH + 20]).toBe('╳');
	expect(axis[Y_AXIS_WIDTH + 50]).toBe('R');
	expect(model.brief).toBe(true);
	expect(model.shaded).toBe(false);
	// The line goes on through them.
	expect(model.plot.some((row) => /[\u2801-\u28FF]/.test(text(row)[Y_AXIS_WIDTH + 20] ?? ''))).toBe(true);
});

describe('the y-axis holds the span', () => {
	/** A span after a pause (issue 35): buckets of 4.86–5.01 kH/s, one holding the pause's polls (its average 4.0, its lowest 1.13). */
	function afterPause(from: number, to: number, width: number): SeriesPoint[] {
		const points = series(from, to, width, (share) => 4860 + Math.round(share * 150));
		const dip = Math.floor(points.length / 2);
		const bucket = points[dip];
		if (bucket) points[dip] = {...bucket, min: 1130, avg: 4000, max: 5090};
		return points;
	}

	/** The y-axis labels of a chart, as numbers (top first). */
	const labels = (plot: readonly (readonly {text: string}[])[]) =>
		plot
			.map((row) => /^ *([\d.]+) ┤/.exec(text(row))?.[1])
			.filter((label): label is string => label !== undefined)
			.map(Number);

	test("the title's min 1.13 avg 4.94 max 5.09 kH/s: the axis goes down to 1.13 and up to 5.09, the dip drawn to its foot", () => {
		const from = at(14, 12);
		const to = at(14, 13);
		for (const [width, rows] of [
			[80, 16],
			[200, 42],
		] as const) {
			const points = afterPause(from, to, width);
			const stats = spanStats(points);
			expect(stats.min).toBe(1130);
			expect(stats.max).toBe(5090);
			expect((stats.avg ?? 0) / 1000).toBeCloseTo(4.94, 1);
			const range = rangeOf(points);
			expect(range).toEqual({low: 1130, high: 5090});
			const scale = yScale(range, rows);
			expect(scale.bottom).toBeLessThanOrEqual(1130);
			expect(scale.top).toBeGreaterThanOrEqual(5090);
			const model = chartModel({points, from, to, width, rows, now: to});
			const axis = labels(model.plot);
			expect(Math.min(...axis)).toBeLessThanOrEqual(1.13);
			expect(Math.max(...axis)).toBeGreaterThanOrEqual(5.09);
			// The dip reaches the plot's lower rows: the line has dots below the middle of the plot.
			const lower = model.plot.slice(Math.ceil(rows * 0.6)).map((row) => text(row.slice(2, -1)));
			expect(lower.some((row) => /[\u2801-\u28FF]/.test(row))).toBe(true);
		}
	});

	test('for any buckets, the scale holds every lowest and highest poll the title names', () => {
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.integer({min: 1, max: 10_000_000}), fc.integer({min: 0, max: 100}), fc.integer({min: 0, max: 100})), {
					minLength: 1,
					maxLength: 60,
				}),
				fc.integer({min: 4, max: 60}),
				(buckets, rows) => {
					const points = buckets.map(([avg, below, above], index) => ({
						...point(index * 10_000, avg),
						min: Math.round((avg * (100 - below)) / 100),
						max: Math.round((avg * (100 + above)) / 100),
					}));
					const stats = spanStats(points);
					const scale = yScale(rangeOf(points), rows);
					expect(scale.bottom).toBeLessThanOrEqual(stats.min ?? 0);
					expect(scale.top).toBeGreaterThanOrEqual(stats.max ?? 0);
				},
			),
		);
	});
});
