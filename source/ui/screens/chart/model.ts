/**
 * The hashrate chart as rows of coloured text, from a series (history/read.ts): pure, so it is tested at any size
 * without a terminal. A braille line of the 10 s hashrate (2×4 dots a cell; a bucket whose lowest or highest poll
 * is far from its average is drawn down or up to it, so a short dip shows at any zoom), a y-axis with round labels,
 * dashed reference lines (where the miner answered) labelled right of the plot, outages shaded (░: polls made, no answer), spans rigtop did not
 * watch left blank, an axis row under the chart carrying the time ticks and the event markers, and clock labels
 * (dates at midnight, and for spans of days).
 */
import type {SeriesPoint} from '../../../history/read.js';
import {formatClock, formatDate, pickRateUnit, RATE_UNITS} from '../../../text/format.js';
import type {ThemeToken} from '../../text/theme.js';
import {BrailleLayer, brailleChar} from '../../widgets/braille.js';
import {cutText} from '../../widgets/wrap.js';

/** A run of text in one tone (none: the terminal's own colour). */
export type Segment = {readonly text: string; readonly tone?: ThemeToken};
export type SegmentRow = readonly Segment[];

/** A horizontal line at a value: the 15 m average, the session average. */
export type Reference = {
	/** Written at the line's right end ("15m"). */
	readonly label: string;
	readonly value: number | null;
	readonly tone: ThemeToken;
	/** Dots drawn: dashes (two on, two off) or sparse (one in four). */
	readonly pattern: 'dashes' | 'dots';
};

/** An event marked under the chart. */
export type Marker = {readonly t: number; readonly letter: string; readonly tone: ThemeToken; readonly rank: number};

export type ChartInput = {
	readonly points: readonly SeriesPoint[];
	readonly from: number;
	readonly to: number;
	/** The whole width, y-axis labels included. */
	readonly width: number;
	/** Rows of the plot itself. */
	readonly rows: number;
	readonly references?: readonly Reference[];
	readonly markers?: readonly Marker[];
	/** For the labels' dates (a year other than now's is written). */
	readonly now: number;
	/** The y-axis unit of a series that is not a rate (°C, GHz of values in MHz…); absent: a rate, its unit by the top. */
	readonly axis?: AxisUnit;
};

/** A y-axis unit: its name and what the values are divided by for the labels. */
export type AxisUnit = {readonly name: string; readonly divisor: number};

export type ChartModel = {
	/** The y-axis unit ("kH/s", "°C"). */
	readonly unit: string;
	/** The plot's rows, y-axis labels and axis line included. */
	readonly plot: readonly SegmentRow[];
	/** The row under the plot: the axis line with its time ticks (┴) and the event markers. */
	readonly axis: SegmentRow;
	/** The time labels, each starting under its tick. */
	readonly labels: string;
	/** Whether any point of the span has a value (else the screen says nothing is known of it). */
	readonly hasData: boolean;
	/** Whether an outage is shaded (░), and whether a shorter one is marked on the axis (╳), for the legend. */
	readonly shaded: boolean;
	readonly brief: boolean;
};

/** Width of the y-axis labels ("12.5", "1000" cannot happen: the unit keeps values under 1000). */
export const Y_LABEL_WIDTH = 4;
/** Columns left of the plot: the labels, a space, the axis line. */
export const Y_AXIS_WIDTH = Y_LABEL_WIDTH + 2;
/** Columns right of the plot: the reference lines' labels (" session"), never over the newest data. */
export const RIGHT_GUTTER = 8;

/** Plot columns for a chart of this width. */
export function plotColumns(width: number): number {
	return Math.max(1, Math.floor(width) - Y_AXIS_WIDTH - RIGHT_GUTTER);
}

/**
 * Buckets to read for a chart: one a dot column, but none narrower than one and a half poll intervals (a narrower
 * one would hold no poll every other time: a dotted line); the line is drawn straight across the dots between them.
 */
export function chartPoints(width: number, spanMs: number, intervalMs: number): number {
	return Math.max(2, Math.min(plotColumns(width) * 2, Math.floor(spanMs / (intervalMs * 1.5))));
}

/** 1, 2, 2.5 or 5 × a power of ten, at least `value`. */
export function niceStep(value: number): number {
	if (!(value > 0)) return 1;
	const power = 10 ** Math.floor(Math.log10(value));
	for (const factor of [1, 2, 2.5, 5, 10]) if (factor * power >= value - 1e-12 * power) return factor * power;
	return 10 * power;
}

export type YScale = {
	readonly bottom: number;
	readonly top: number;
	readonly step: number;
	readonly unit: string;
	/** The labels are the values divided by it (a rate's 1000 for kH/s). */
	readonly divisor: number;
	readonly ticks: readonly number[];
};

/**
 * The y-axis, in round steps of about one label every four rows: from 0 when the values come near it (an outage, a
 * pause, a drop to half), else from a round value under the lowest — a steady rig's few percent of jitter are then
 * drawn, not flattened into one row — but never narrower than a tenth of the top, so noise is not blown up either.
 */
export function yScale(range: {readonly low: number; readonly high: number} | null, rows: number, axis?: AxisUnit): YScale {
	const wanted = Math.min(8, Math.max(1, Math.floor(rows / 4)));
	let high = range !== null && range.high > 0 ? range.high : 1;
	let low = range === null || range.low < high / 2 ? 0 : range.low;
	if (low > 0 && high - low < high * 0.1) {
		const middle = (high + low) / 2;
		low = Math.max(0, middle - high * 0.05);
		high = middle + high * 0.05;
	}

	const pad = (high - low) * 0.05;
	const step = niceStep((high + pad - Math.max(0, low - pad)) / wanted);
	const bottom = low === 0 ? 0 : Math.max(0, Math.floor((low - pad) / step) * step);
	const top = bottom + step * Math.max(1, Math.ceil((high + pad - bottom) / step - 1e-9));
	const ticks: number[] = [];
	for (let value = bottom; value <= top + step / 2; value += step) ticks.push(value);
	const rate = pickRateUnit([top]);
	const unit = axis ?? {name: rate, divisor: 1000 ** RATE_UNITS.indexOf(rate)};
	return {bottom, top, step, unit: unit.name, divisor: unit.divisor, ticks};
}

function tickLabel(value: number, scale: YScale): string {
	const {divisor} = scale;
	const stepIn = scale.step / divisor;
	// As many decimals as the step has (2.5 → one, 0.25 → two), so that every label reads alike.
	const decimals = [0, 1, 2].find((d) => Math.abs(Math.round(stepIn * 10 ** d) - stepIn * 10 ** d) < 1e-6) ?? 2;
	return value === 0 ? '0' : (value / divisor).toFixed(decimals);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIME_STEPS = [
	MINUTE,
	2 * MINUTE,
	5 * MINUTE,
	10 * MINUTE,
	15 * MINUTE,
	30 * MINUTE,
	HOUR,
	2 * HOUR,
	3 * HOUR,
	6 * HOUR,
	12 * HOUR,
	DAY,
	2 * DAY,
];

export type TimeTick = {readonly t: number; readonly label: string};

/**
 * Time ticks for [from, to) over `columns` columns: the shortest round step whose labels do not touch, on local
 * clock times ("12:10", "12:20"); a tick at local midnight, and every tick of a step of days, is its date ("Mar 14").
 */
export function timeTicks(from: number, to: number, columns: number, now: number): TimeTick[] {
	if (!(to > from) || columns < 1) return [];
	const msPerColumn = (to - from) / columns;
	const step = TIME_STEPS.find((candidate) => candidate / msPerColumn >= 8) ?? TIME_STEPS.at(-1) ?? DAY;
	const ticks: TimeTick[] = [];
	const start = new Date(from);
	start.setHours(0, 0, 0, 0);
	if (step >= DAY) {
		// Midnights, every day or every other one.
		const days = step / DAY;
		for (let day = new Date(start), index = 0; day.getTime() < to; day.setDate(day.getDate() + 1), index++) {
			if (day.getTime() >= from && index % days === 0) ticks.push({t: day.getTime(), label: formatDate(day.getTime(), now)});
		}

		return ticks;
	}

	// Clock times from each local midnight on (a day of 23 or 25 hours starts again at its midnight).
	for (let midnight = new Date(start); midnight.getTime() < to; midnight.setDate(midnight.getDate() + 1)) {
		const next = new Date(midnight);
		next.setDate(next.getDate() + 1);
		for (let t = midnight.getTime(); t < Math.min(next.getTime(), to); t += step) {
			if (t < from) continue;
			ticks.push({t, label: t === midnight.getTime() ? formatDate(t, now) : formatClock(t)});
		}
	}

	return ticks;
}

/**
 * A bucket the miner mostly did not answer: shaded, no line. Half its polls, not all: a 10-minute summary that holds
 * the start of an outage would otherwise hide a short one on a chart of days.
 */
export function isOutage(point: SeriesPoint): boolean {
	return point.samples > 0 && point.live < point.samples / 2;
}

/** A bucket the miner mostly answered but not always (an outage shorter than it): marked ╳ on the axis row. */
export function isBriefOutage(point: SeriesPoint): boolean {
	return !isOutage(point) && (point.link === 'down' || point.link === 'error');
}

/** Empty buckets up to this long between two of a kind are taken as that kind (a missed poll, a retry's backoff). */
const BRIDGE_MS = 2 * 60_000;

/** The column of a time in the plot, or -1 outside it. */
function columnOf(t: number, from: number, to: number, columns: number): number {
	if (t < from || t >= to) return -1;
	// (A hair over: a time on a bucket's start lands in that bucket's column, whatever the rounding.)
	return Math.min(columns - 1, Math.floor(((t - from) / (to - from)) * columns + 1e-9));
}

type Cell = {text: string; tone: ThemeToken | undefined};

/**
 * Cells as runs of one tone. A blank cell joins whatever run it is in (a space shows no colour): a dotted reference
 * line is one run, not one per dot — each run is a node Ink lays out and measures at every redraw.
 */
function toSegments(cells: readonly Cell[]): Segment[] {
	const out: Segment[] = [];
	let run: string[] = [];
	// The run's tone; null while it holds only blanks (it takes the tone of the first cell that is not one).
	let tone: ThemeToken | undefined | null = null;
	const close = () => {
		if (run.length > 0) out.push({text: run.join(''), ...(tone ? {tone} : {})});
	};

	for (const cell of cells) {
		if (cell.text !== ' ') {
			if (tone === null) tone = cell.tone;
			else if (cell.tone !== tone) {
				close();
				run = [];
				tone = cell.tone;
			}
		}

		run.push(cell.text);
	}

	close();
	return out;
}

/**
 * The lowest and highest value the chart draws, for the scale; null without any: each answered bucket's lowest and
 * highest poll (a dip is drawn down to its lowest: a scale over the averages alone would cut it off, while the title's
 * `min … max` names it), and the reference lines.
 */
export function rangeOf(points: readonly SeriesPoint[], references: readonly Reference[] = []): {low: number; high: number} | null {
	let low = Number.POSITIVE_INFINITY;
	let high = Number.NEGATIVE_INFINITY;
	const add = (value: number) => {
		low = Math.min(low, value);
		high = Math.max(high, value);
	};

	for (const point of points) {
		if (point.live === 0) continue;
		for (const value of [point.min, point.avg, point.max]) if (value !== null) add(value);
	}

	for (const reference of references) if (reference.value !== null && reference.value > 0) add(reference.value);
	return high >= low ? {low, high} : null;
}

export function chartModel(input: ChartInput): ChartModel {
	const {points, from, to, now} = input;
	const rows = Math.max(1, Math.floor(input.rows));
	const columns = plotColumns(input.width);
	const references = input.references ?? [];
	const scale = yScale(rangeOf(points, references), rows, input.axis);
	const line = new BrailleLayer(columns, rows);
	const dotsWide = columns * 2;
	const dotsHigh = rows * 4;
	const yOf = (value: number) =>
		Math.min(dotsHigh - 1, Math.max(0, Math.round((1 - (value - scale.bottom) / (scale.top - scale.bottom)) * (dotsHigh - 1))));
	const xOf = (index: number) => Math.min(dotsWide - 1, Math.floor((index * dotsWide) / Math.max(1, points.length)));

	// What each bucket is: the line (answered), an outage (shaded), or nothing (not watched). A short run of empty
	// buckets between two of a kind — a missed poll, a retry after backoff — is taken as that kind.
	const kinds = points.map((point): 'line' | 'outage' | 'none' =>
		isOutage(point) ? 'outage' : point.live > 0 && point.avg !== null ? 'line' : 'none',
	);
	const bridge = Math.floor(BRIDGE_MS / Math.max(1, (to - from) / Math.max(1, points.length)));
	for (let i = 0; i < kinds.length; i++) {
		if (kinds[i] !== 'none') continue;
		let end = i;
		while (end < kinds.length && kinds[end] === 'none') end++;
		const before = kinds[i - 1];
		if (before !== undefined && before !== 'none' && end < kinds.length && end - i <= bridge && before === kinds[end])
			kinds.fill(before, i, end);
		i = end;
	}

	// The line: each answered bucket's average, joined to the one before (straight across the dots between them,
	// and by a vertical run where it steps), as btop draws; cells covered by an outage's buckets are shaded.
	const outage = new Array<boolean>(columns).fill(false);
	const answered = new Array<boolean>(columns).fill(false);
	let previous: {x: number; y: number} | null = null;
	let hasData = false;
	points.forEach((point, index) => {
		const x = xOf(index);
		const next = index + 1 < points.length ? xOf(index + 1) : dotsWide;
		const kind = kinds[index];
		if (kind === 'outage') for (let xx = x; xx < Math.max(next, x + 1); xx++) outage[Math.floor(xx / 2)] = true;
		if (kind !== 'line') {
			previous = null;
			return;
		}

		for (let xx = x; xx < Math.max(next, x + 1); xx++) answered[Math.floor(xx / 2)] = true;
		if (point.live === 0 || point.avg === null) return; // a bridged empty bucket: the line goes straight across it
		hasData = true;
		const y = yOf(point.avg);
		const from = previous ?? {x, y};
		let last = from.y;
		for (let xx = from.x + 1; xx <= x; xx++) {
			const target = Math.round(from.y + ((y - from.y) * (xx - from.x)) / Math.max(1, x - from.x));
			for (let yy = Math.min(last, target); yy <= Math.max(last, target); yy++) line.set(xx, yy);
			last = target;
		}

		line.set(x, y);
		// A bucket that holds a dip or a spike (a tenth of its average away): drawn down and up to it.
		const low = point.min !== null && point.min < point.avg * 0.9 ? yOf(point.min) : y;
		const high = point.max !== null && point.max > point.avg * 1.1 ? yOf(point.max) : y;
		for (let yy = high; yy <= low; yy++) line.set(x, yy);
		previous = {x, y};
	});

	// Reference lines, each a layer of its own (its own colour), labelled at the right end of their row.
	// The reference lines share one layer; each row's tone is its first reference's.
	const shown = references.filter((reference): reference is Reference & {value: number} => reference.value !== null && reference.value > 0);
	const referenceLayer = new BrailleLayer(columns, rows);
	const referenceRows = new Map<number, Reference>();
	for (const reference of shown) {
		const y = yOf(reference.value);
		for (let x = 0; x < dotsWide; x++) if (reference.pattern === 'dashes' ? x % 4 < 2 : x % 4 === 0) referenceLayer.set(x, y);
		if (!referenceRows.has(Math.floor(y / 4))) referenceRows.set(Math.floor(y / 4), reference);
	}

	const referenceCells = shown.length > 0 ? referenceLayer.cells() : [];
	const lineCells = line.cells();

	const labelRows = new Map<number, string>();
	for (const value of scale.ticks) {
		const row = Math.floor(yOf(value) / 4);
		if (!labelRows.has(row)) labelRows.set(row, tickLabel(value, scale));
	}

	const plot: SegmentRow[] = [];
	for (let row = 0; row < rows; row++) {
		const cells: Cell[] = [];
		const reference = referenceRows.get(row);
		const lineRow = lineCells[row];
		const referenceRow = referenceCells[row];
		for (let column = 0; column < columns; column++) {
			const mask = lineRow?.[column] ?? 0;
			// A reference line is drawn where the miner answered, in the cells the hashrate line leaves empty.
			const bits = mask === 0 && reference && answered[column] === true ? (referenceRow?.[column] ?? 0) : 0;
			if (mask !== 0) cells.push({text: brailleChar(mask), tone: 'accent'});
			else if (bits !== 0) cells.push({text: brailleChar(bits), tone: reference?.tone});
			else cells.push(outage[column] ? {text: '░', tone: 'error'} : {text: ' ', tone: undefined});
		}

		// Right of the plot, the label of the reference line on this row (the first, where two share it).
		const label = labelRows.get(row);
		plot.push([
			{text: `${(label ?? '').padStart(Y_LABEL_WIDTH)} `, tone: 'muted'},
			{text: label === undefined ? '│' : '┤', tone: 'border'},
			...toSegments(cells),
			reference
				? {text: cutText(` ${reference.label}`, RIGHT_GUTTER).padEnd(RIGHT_GUTTER), tone: reference.tone}
				: {text: ' '.repeat(RIGHT_GUTTER)},
		]);
	}

	// The axis row: ticks, and over them the event markers (the most telling one where two share a column).
	const ticks = timeTicks(from, to, columns, now);
	const axis: Cell[] = Array.from({length: columns}, () => ({text: '─', tone: 'border' as ThemeToken}));
	for (const tick of ticks) {
		const column = columnOf(tick.t, from, to, columns);
		if (column >= 0) axis[column] = {text: '┴', tone: 'border'};
	}

	// Polls the miner did not answer in a bucket it mostly answered (an outage shorter than the zoom shows): ╳ on the
	// axis, under any event marker.
	const ranks = new Array<number>(columns).fill(-1);
	let brief = false;
	points.forEach((point, index) => {
		const column = Math.floor(xOf(index) / 2);
		if (outage[column] === true || !isBriefOutage(point)) return;
		brief = true;
		ranks[column] = -0.5;
		axis[column] = {text: '╳', tone: 'error'};
	});
	for (const marker of input.markers ?? []) {
		const column = columnOf(marker.t, from, to, columns);
		if (column < 0 || marker.rank <= (ranks[column] ?? -1)) continue;
		ranks[column] = marker.rank;
		axis[column] = {text: marker.letter, tone: marker.tone};
	}

	let labels = ' '.repeat(Y_AXIS_WIDTH);
	for (const tick of ticks) {
		const at = Y_AXIS_WIDTH + columnOf(tick.t, from, to, columns);
		if (at < labels.length + (labels.trim() === '' ? 0 : 1)) continue;
		if (at + tick.label.length > Y_AXIS_WIDTH + columns) break;
		labels = labels.padEnd(at) + tick.label;
	}

	return {
		unit: scale.unit,
		plot,
		axis: [{text: `${' '.repeat(Y_LABEL_WIDTH)} └`, tone: 'border'}, ...toSegments(axis)],
		labels,
		hasData,
		shaded: outage.includes(true),
		brief,
	};
}

export type SpanStats = {readonly min: number | null; readonly avg: number | null; readonly max: number | null};

/** Lowest and highest 10 s rate of the span, and its average over the answered polls. */
export function spanStats(points: readonly SeriesPoint[]): SpanStats {
	let min: number | null = null;
	let max: number | null = null;
	let sum = 0;
	let weight = 0;
	for (const point of points) {
		if (point.live === 0) continue;
		if (point.min !== null) min = min === null ? point.min : Math.min(min, point.min);
		if (point.max !== null) max = max === null ? point.max : Math.max(max, point.max);
		if (point.avg !== null) {
			sum += point.avg * point.live;
			weight += point.live;
		}
	}

	return {min, avg: weight === 0 ? null : sum / weight, max};
}
