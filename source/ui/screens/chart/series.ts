/**
 * What the chart (`g`) can draw, switched with `s`: the hashrate, and a local miner's sensor readings as the history
 * keeps them (history/tiers.ts: min / avg / max per bucket) — the hottest package's temperature, the clock, the
 * package power and hashes per watt. Pure: which values a series takes from a bucket, its unit, and what the chart
 * says when the span holds none.
 */
import type {SensorUnit} from '../../../text/format.js';
import type {SeriesPoint} from '../../../history/read.js';
import type {SensorStatName} from '../../../history/tiers.js';
import type {SensorReading} from '../../../sensors/types.js';

export type ChartSeries = {
	readonly name: 'hashrate' | 'temperature' | 'clock' | 'power' | 'efficiency';
	/** In the title and the legend. */
	readonly label: string;
	/** The bucket's reading it draws; null: the hashrate (the bucket's own min / avg / max). */
	readonly stat: SensorStatName | null;
	/** The y-axis unit; null: a rate (H/s, kH/s… by the top value). */
	readonly unit: SensorUnit | null;
};

/** The series in the order `s` steps through them. */
export const CHART_SERIES: readonly ChartSeries[] = [
	{name: 'hashrate', label: 'hashrate', stat: null, unit: null},
	{name: 'temperature', label: 'temperature', stat: 'temp', unit: '°C'},
	{name: 'clock', label: 'clock', stat: 'clock', unit: 'GHz'},
	{name: 'power', label: 'power', stat: 'watts', unit: 'W'},
	{name: 'efficiency', label: 'H/W', stat: 'hpw', unit: 'H/W'},
];

export function seriesAt(index: number): ChartSeries {
	return CHART_SERIES[index] ?? CHART_SERIES[0] ?? {name: 'hashrate', label: 'hashrate', stat: null, unit: null};
}

/**
 * Which series (CHART_SERIES' order) have anything recorded for this rig: the hashrate always; a sensor series where a
 * bucket of the span holds its reading, or the rig's live reading has it (a miner on another machine has none; one
 * whose power cannot be read has no power or H/W). `s` skips the others.
 */
export function seriesRecorded(points: readonly SeriesPoint[], sensors: SensorReading | undefined): readonly boolean[] {
	const live: Readonly<Record<ChartSeries['name'], boolean>> = {
		hashrate: true,
		temperature: (sensors?.temps.length ?? 0) > 0,
		clock: (sensors?.clock ?? null) !== null,
		power: sensors?.power.state === 'ok',
		efficiency: sensors?.power.state === 'ok',
	};
	return CHART_SERIES.map(
		(series) =>
			live[series.name] || (series.stat !== null && points.some((point) => (point.sensors?.[series.stat!]?.avg ?? null) !== null)),
	);
}

/** The buckets as the chart draws a series: its min / avg / max in the hashrate's place (none where not read). */
export function seriesPoints(points: readonly SeriesPoint[], series: ChartSeries): readonly SeriesPoint[] {
	const {stat} = series;
	if (stat === null) return points;
	return points.map((point) => {
		const values = point.sensors?.[stat] ?? null;
		return {...point, min: values?.min ?? null, avg: values?.avg ?? null, max: values?.max ?? null};
	});
}

/** The divisor and name of a sensor unit's axis labels: a clock read in MHz is labelled in GHz. */
export function sensorAxis(unit: SensorUnit): {readonly name: string; readonly divisor: number} {
	return {name: unit, divisor: unit === 'GHz' ? 1000 : 1};
}

/** The sensor's own limit drawn as a reference line: the temperature's max (the newest in the span), the clock's max. */
export function seriesLimit(points: readonly SeriesPoint[], series: ChartSeries, sensors: SensorReading | undefined): number | null {
	if (series.name === 'temperature') {
		for (let i = points.length - 1; i >= 0; i--) {
			const limit = points[i]?.sensors?.tempLimit;
			if (limit !== undefined && limit !== null) return limit;
		}

		return null;
	}

	if (series.name === 'clock') return sensors?.clock?.maxMHz ?? null;
	return null;
}

/**
 * What the chart says when the span holds none of a sensor series (one line): a rig whose polls come without a
 * reading (a miner on another machine, a proxy) is told apart from a local one whose power cannot be read and from a
 * span before the readings were kept.
 */
export function noSeriesText(
	series: ChartSeries,
	rig: {readonly answered: boolean; readonly sensors: SensorReading | undefined},
	width = Number.POSITIVE_INFINITY,
): string {
	const what = series.label;
	if (rig.answered && rig.sensors === undefined) {
		const long = `no ${what} recorded for this rig: sensors are read only for a miner on this machine`;
		return long.length <= width ? long : `no ${what}: sensors are read only for a miner on this machine`;
	}

	const power = rig.sensors?.power;
	if ((series.name === 'power' || series.name === 'efficiency') && power && (power.state === 'denied' || power.state === 'lost'))
		return `no ${what} recorded: ${power.message}`;
	if ((series.name === 'power' || series.name === 'efficiency') && power?.state === 'none')
		return `no ${what} recorded: this machine has no powercap (RAPL) zone`;
	return `no ${what} recorded in this span`;
}
