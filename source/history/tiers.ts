/**
 * What is stored, at which resolution, for how long — and how a tier's rows are summarized into the
 * next. Pure: no database here, so the arithmetic is tested on its own.
 *
 * - `sample`: every poll (good or failed) for the last hour;
 * - `summary_1m`: min / avg / max of the 10 s hashrate and the poll counts of each minute, 2 days;
 * - `summary_10m`: the same per 10 minutes, 30 days.
 *
 * A local miner's sensor readings (source/sensors/: the hottest package's °C and its sensor's max, the clock, the
 * package watts, hashes per watt) ride in the same rows, min / avg / max per bucket like the hashrate; null where
 * nothing was read (a rig on another machine, a proxy).
 *
 * Each tier is also capped in rows per miner, whatever the clock says (a poll every 0.25 s, a clock
 * stepped back), which is what bounds one miner's share of the store (docs/history.md has the sizes).
 */

/** How rigtop's link to the miner stood at a poll (worst is highest). */
export const LINK = {live: 0, stale: 1, down: 2, error: 3} as const;
export type LinkCode = (typeof LINK)[keyof typeof LINK];

/** The link code of a monitor LinkStatus ('connecting' after a failed poll is a failing poll not yet called down). */
export function linkCode(status: string): LinkCode {
	switch (status) {
		case 'live':
			return LINK.live;
		case 'down':
			return LINK.down;
		case 'error':
			return LINK.error;
		default:
			return LINK.stale;
	}
}

export function linkName(code: number): 'live' | 'stale' | 'down' | 'error' {
	return code === LINK.live ? 'live' : code === LINK.down ? 'down' : code === LINK.error ? 'error' : 'stale';
}

/** One poll as stored. Hashrates in H/s; null where the miner did not say (or the poll failed). */
export type SampleRow = {
	readonly t: number;
	readonly link: LinkCode;
	readonly hr10: number | null;
	readonly hr60: number | null;
	readonly hr15: number | null;
	readonly good: number | null;
	readonly total: number | null;
	readonly rejected: number | null;
	/** 1 connected to a pool, 0 not, null unknown (failed poll). */
	readonly pool: number | null;
	/** 1 paused, 0 mining, null unknown (failed poll, or a miner before 4.4). */
	readonly paused: number | null;
	/** °C: the hottest package's headline sensor (source/sensors/); absent or null where nothing was read. */
	readonly temp?: number | null;
	/** °C: that sensor's own max, where it has one. */
	readonly tempLimit?: number | null;
	/** MHz: the average clock of the miner's CPUs. */
	readonly mhz?: number | null;
	/** W: the package power between two polls (H/W is made from it and the hashrate: sampleAsSummary). */
	readonly watts?: number | null;
};

/** A reading's min / avg / max over the `n` polls of a bucket that had it. */
export type Stat = {readonly n: number; readonly min: number; readonly avg: number; readonly max: number};

/** A bucket's sensor readings (a local miner's); each null where no poll of the bucket had it. */
export type SensorStats = {
	/** °C of the hottest package's headline sensor. */
	readonly temp: Stat | null;
	/** °C: that sensor's max (the highest seen in the bucket), where it has one. */
	readonly tempLimit: number | null;
	/** MHz. */
	readonly clock: Stat | null;
	/** W. */
	readonly watts: Stat | null;
	/** H/W. */
	readonly hpw: Stat | null;
};

/** The sensor series a bucket holds, by name (what the chart switches between). */
export const SENSOR_STATS = ['temp', 'clock', 'watts', 'hpw'] as const;
export type SensorStatName = (typeof SENSOR_STATS)[number];

/** One bucket of a summary tier. */
export type SummaryRow = {
	/** Bucket start, epoch ms (a multiple of the resolution). */
	readonly t: number;
	/** Polls in the bucket, good or failed. */
	readonly n: number;
	/** Polls that the miner answered. */
	readonly live: number;
	/** Answered polls that had a 10 s hashrate (the weight of the averages). */
	readonly hrN: number;
	/** Answered polls with a pool connection. */
	readonly pool: number;
	/** Answered polls while paused. */
	readonly paused: number;
	/** Worst link code in the bucket. */
	readonly link: number;
	readonly hrMin: number | null;
	readonly hrAvg: number | null;
	readonly hrMax: number | null;
	readonly hr60: number | null;
	readonly hr15: number | null;
	/** Share counters at the bucket's last answered poll. */
	readonly good: number | null;
	readonly total: number | null;
	readonly rejected: number | null;
	/** The sensor readings; null where the bucket has none (a remote rig's, a proxy's, a store from before them). */
	readonly sensors: SensorStats | null;
};

export type Tier = {
	readonly name: 'sample' | '1m' | '10m';
	/** Bucket width, ms; 0 for the per-poll tier. */
	readonly resolution: number;
	/** How long rows are kept, ms. */
	readonly keepMs: number;
	/** Rows kept per miner at most. */
	readonly maxRows: number;
	/** Its table (each summary tier has its own: a miner's rows are appended at the end of its range, not split into the middle of another tier's). */
	readonly table: 'sample' | 'summary_1m' | 'summary_10m';
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The per-poll tier keeps 65 minutes (the hour, plus time for the minute summaries to be made from it) and at
 * most 18,000 rows: one per 0.2 s, the densest the spacing rule (store.ts) lets through at the shortest
 * interval, 0.25 s.
 */
export const SAMPLE_TIER: Tier = {name: 'sample', resolution: 0, keepMs: HOUR + 5 * MINUTE, maxRows: 18_000, table: 'sample'};
/** A summary tier: its buckets are made from the rows of the finer tier `source` (history/writer.ts, #roll). */
export type SummaryTier = Tier & {readonly table: 'summary_1m' | 'summary_10m'; readonly source: Tier};

export const MINUTE_TIER: SummaryTier = {
	name: '1m',
	resolution: MINUTE,
	keepMs: 2 * DAY,
	maxRows: 2 * 24 * 60 + 10,
	table: 'summary_1m',
	source: SAMPLE_TIER,
};
export const TEN_MINUTE_TIER: SummaryTier = {
	name: '10m',
	resolution: 10 * MINUTE,
	keepMs: 30 * DAY,
	maxRows: 30 * 24 * 6 + 10,
	table: 'summary_10m',
	source: MINUTE_TIER,
};
/** Finest first: each is made from the one before it (the minutes from the polls, the ten minutes from the minutes). */
export const SUMMARY_TIERS = [MINUTE_TIER, TEN_MINUTE_TIER] as const;

/** The table of the summary tier of this resolution. */
export function summaryTable(resolution: number): 'summary_1m' | 'summary_10m' {
	return resolution === MINUTE_TIER.resolution ? 'summary_1m' : 'summary_10m';
}

/**
 * Events kept per miner: at most 30 days, 10,000 events (a flapping miner logs a few per minute) and 1.5 MiB of them
 * counted as their texts plus 60 bytes a row. Long texts fill 1 KiB pages less well than that counts: at the worst
 * (10,000 texts of 300 characters) they take about 2.2 MB on disk with their index (test/history/bounds.test.ts prints it).
 */
export const EVENT_KEEP_MS = 30 * DAY;
export const EVENT_MAX_ROWS = 10_000;
export const EVENT_MAX_BYTES = 1.5 * 1024 * 1024;
export const EVENT_ROW_OVERHEAD = 60;
/** Longest event text stored (the monitor's lines are well under it). */
export const EVENT_TEXT_MAX = 300;

/** Summarizes per-poll rows (ordered by time) into buckets of `resolution` ms: each poll is a summary of one. */
export function summarizeSamples(rows: readonly SampleRow[], resolution: number): SummaryRow[] {
	return summarizeSummaries(rows.map(sampleAsSummary), resolution);
}

/** Summarizes finer summary rows (ordered by time) into buckets of `resolution` ms. */
export function summarizeSummaries(rows: readonly SummaryRow[], resolution: number): SummaryRow[] {
	const out: SummaryRow[] = [];
	let bucket: Builder | null = null;
	for (const row of rows) {
		const t = Math.floor(row.t / resolution) * resolution;
		if (bucket === null || bucket.t !== t) {
			if (bucket) out.push(finish(bucket));
			bucket = builder(t);
		}

		mergeInto(bucket, row);
	}

	if (bucket) out.push(finish(bucket));
	return out;
}

/** Adds a summary row into a bucket being built (also used by the reader to merge rows into one point). */
export function mergeInto(bucket: Builder, row: SummaryRow): void {
	bucket.n += row.n;
	bucket.live += row.live;
	bucket.pool += row.pool;
	bucket.paused += row.paused;
	bucket.link = Math.max(bucket.link, row.link);
	if (row.hrN > 0 && row.hrAvg !== null) {
		bucket.hrN += row.hrN;
		bucket.hrSum += row.hrAvg * row.hrN;
		if (row.hrMin !== null) bucket.hrMin = bucket.hrMin === null ? row.hrMin : Math.min(bucket.hrMin, row.hrMin);
		if (row.hrMax !== null) bucket.hrMax = bucket.hrMax === null ? row.hrMax : Math.max(bucket.hrMax, row.hrMax);
	}

	const weight = Math.max(row.hrN, 1);
	if (row.hr60 !== null) addWeighted(bucket.hr60, row.hr60, weight);
	if (row.hr15 !== null) addWeighted(bucket.hr15, row.hr15, weight);
	if (row.total !== null && (bucket.lastCountersAt === null || row.t >= bucket.lastCountersAt)) {
		bucket.lastCountersAt = row.t;
		bucket.good = row.good;
		bucket.total = row.total;
		bucket.rejected = row.rejected;
	}

	const {sensors} = row;
	if (sensors) {
		for (const name of SENSOR_STATS) addStat(bucket.sensors[name], sensors[name]);
		if (sensors.tempLimit !== null) bucket.tempLimit = Math.max(bucket.tempLimit ?? sensors.tempLimit, sensors.tempLimit);
	}
}

type Mean = {sum: number; weight: number};

/** A Stat being built: its polls, their sum, its extremes. */
type StatBuilder = {n: number; sum: number; min: number; max: number};

function statBuilder(): StatBuilder {
	return {n: 0, sum: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY};
}

function addStat(into: StatBuilder, stat: Stat | null): void {
	if (stat === null || stat.n <= 0) return;
	into.n += stat.n;
	into.sum += stat.avg * stat.n;
	into.min = Math.min(into.min, stat.min);
	into.max = Math.max(into.max, stat.max);
}

function statOf(built: StatBuilder): Stat | null {
	return built.n === 0 ? null : {n: built.n, min: built.min, avg: built.sum / built.n, max: built.max};
}

/** One poll's reading as a Stat of one poll; null without it. */
function oneStat(value: number | null | undefined): Stat | null {
	return value === null || value === undefined || !Number.isFinite(value) ? null : {n: 1, min: value, avg: value, max: value};
}

/** A bucket's sensors from its readings; null when it has none. */
function sensorsOf(stats: Record<SensorStatName, Stat | null>, tempLimit: number | null): SensorStats | null {
	if (SENSOR_STATS.every((name) => stats[name] === null)) return null;
	return {temp: stats.temp, tempLimit: stats.temp === null ? null : tempLimit, clock: stats.clock, watts: stats.watts, hpw: stats.hpw};
}

export type Builder = {
	t: number;
	n: number;
	live: number;
	hrN: number;
	pool: number;
	paused: number;
	link: number;
	hrSum: number;
	hrMin: number | null;
	hrMax: number | null;
	hr60: Mean;
	hr15: Mean;
	good: number | null;
	total: number | null;
	rejected: number | null;
	lastCountersAt: number | null;
	sensors: Record<SensorStatName, StatBuilder>;
	tempLimit: number | null;
};

export function builder(t: number): Builder {
	return {
		t,
		n: 0,
		live: 0,
		hrN: 0,
		pool: 0,
		paused: 0,
		link: 0,
		hrSum: 0,
		hrMin: null,
		hrMax: null,
		hr60: {sum: 0, weight: 0},
		hr15: {sum: 0, weight: 0},
		good: null,
		total: null,
		rejected: null,
		lastCountersAt: null,
		sensors: {temp: statBuilder(), clock: statBuilder(), watts: statBuilder(), hpw: statBuilder()},
		tempLimit: null,
	};
}

export function finish(bucket: Builder): SummaryRow {
	return {
		t: bucket.t,
		n: bucket.n,
		live: bucket.live,
		hrN: bucket.hrN,
		pool: bucket.pool,
		paused: bucket.paused,
		link: bucket.link,
		hrMin: bucket.hrMin,
		hrAvg: bucket.hrN === 0 ? null : bucket.hrSum / bucket.hrN,
		hrMax: bucket.hrMax,
		hr60: bucket.hr60.weight === 0 ? null : bucket.hr60.sum / bucket.hr60.weight,
		hr15: bucket.hr15.weight === 0 ? null : bucket.hr15.sum / bucket.hr15.weight,
		good: bucket.good,
		total: bucket.total,
		rejected: bucket.rejected,
		sensors: sensorsOf(
			{
				temp: statOf(bucket.sensors.temp),
				clock: statOf(bucket.sensors.clock),
				watts: statOf(bucket.sensors.watts),
				hpw: statOf(bucket.sensors.hpw),
			},
			bucket.tempLimit,
		),
	};
}

/** A poll's H/W, as the sensors reader makes it: the 10 s hashrate (else the 60 s) over the package watts. */
function hashesPerWatt(row: SampleRow): number | null {
	const hashrate = row.hr10 ?? row.hr60;
	return row.watts === null || row.watts === undefined || !(row.watts > 0) || hashrate === null ? null : hashrate / row.watts;
}

/** A per-poll row as a one-poll summary row (the reader mixes tiers). */
export function sampleAsSummary(row: SampleRow): SummaryRow {
	const live = row.link === LINK.live;
	const hr = live ? row.hr10 : null;
	return {
		t: row.t,
		n: 1,
		live: live ? 1 : 0,
		hrN: hr === null ? 0 : 1,
		pool: live && row.pool === 1 ? 1 : 0,
		paused: live && row.paused === 1 ? 1 : 0,
		link: row.link,
		hrMin: hr,
		hrAvg: hr,
		hrMax: hr,
		hr60: live ? row.hr60 : null,
		hr15: live ? row.hr15 : null,
		good: live ? row.good : null,
		total: live ? row.total : null,
		rejected: live ? row.rejected : null,
		sensors: live
			? sensorsOf(
					{temp: oneStat(row.temp), clock: oneStat(row.mhz), watts: oneStat(row.watts), hpw: oneStat(hashesPerWatt(row))},
					row.tempLimit ?? null,
				)
			: null,
	};
}

function addWeighted(mean: Mean, value: number, weight: number): void {
	mean.sum += value * weight;
	mean.weight += weight;
}

/** A summary row as SQLite returns it. */
export type SummaryColumns = {
	t: number;
	n: number;
	live: number;
	hr_n: number;
	pool: number;
	paused: number;
	link: number;
	hr_min: number | null;
	hr_avg: number | null;
	hr_max: number | null;
	hr60: number | null;
	hr15: number | null;
	good: number | null;
	total: number | null;
	rejected: number | null;
	/** The sensor readings, encoded (encodeSummarySensors); absent in a store before version 3, null where none. */
	sensors?: string | null;
};

/*
 * A local miner's sensor readings are one TEXT column of a row, `sensors`, null where none was read: a rig on another
 * machine or a proxy then costs one byte a row (nullable columns cost a byte each: five of them measured 15 % more
 * bytes written a day for a remote rig polled every second). Numbers as JavaScript writes them, comma-separated, empty for none:
 * - a poll's: "temp,limit,mhz,watts" ("70.1,95,3812,118.6"; its H/W is made from the hashrate and the watts);
 * - a bucket's: "limit;temp;clock;watts;hpw", each stat "n,min,avg,max" ("95;6,55,55.25,55.5;6,3800,3800,3800;;").
 */

/** A poll's readings as stored; null without any. */
export function encodeSampleSensors(row: SampleRow): string | null {
	const values = [row.temp, row.tempLimit, row.mhz, row.watts];
	if (values.every((value) => value === null || value === undefined || !Number.isFinite(value))) return null;
	return values.map((value) => numberText(value)).join(',');
}

/** A poll's readings from its column (the SampleRow fields); none for null or a column not shaped as written. */
export function decodeSampleSensors(text: string | null | undefined): Pick<SampleRow, 'temp' | 'tempLimit' | 'mhz' | 'watts'> {
	if (typeof text !== 'string') return {};
	const [temp, tempLimit, mhz, watts] = text.split(',').map((part) => numberOf(part));
	return {temp: temp ?? null, tempLimit: tempLimit ?? null, mhz: mhz ?? null, watts: watts ?? null};
}

/** A bucket's readings as stored; null without any. */
export function encodeSummarySensors(sensors: SensorStats | null): string | null {
	if (sensors === null) return null;
	const stat = (value: Stat | null) =>
		value === null ? '' : [value.n, value.min, Math.round(value.avg * 1000) / 1000, value.max].map((part) => numberText(part)).join(',');
	return [numberText(sensors.tempLimit), ...SENSOR_STATS.map((name) => stat(sensors[name]))].join(';');
}

/** A bucket's readings from its column; null for null or a column not shaped as written. */
export function decodeSummarySensors(text: string | null | undefined): SensorStats | null {
	if (typeof text !== 'string') return null;
	const [limit, ...stats] = text.split(';');
	const statOf = (part: string | undefined): Stat | null => {
		const [n, min, avg, max] = (part ?? '').split(',').map((value) => numberOf(value));
		return n === null || n === undefined || n <= 0 || avg === null || avg === undefined ? null : {n, min: min ?? avg, avg, max: max ?? avg};
	};

	return sensorsOf({temp: statOf(stats[0]), clock: statOf(stats[1]), watts: statOf(stats[2]), hpw: statOf(stats[3])}, numberOf(limit));
}

function numberText(value: number | null | undefined): string {
	return value === null || value === undefined || !Number.isFinite(value) ? '' : String(value);
}

function numberOf(text: string | undefined): number | null {
	if (text === undefined || text === '') return null;
	const value = Number(text);
	return Number.isFinite(value) ? value : null;
}

/** The columns a sample row is read with; `sensors` only from a store of version 3 (sampleFromColumns decodes it). */
export function sampleColumnsSql(sensors: boolean): string {
	return `t, link, hr10, hr60, hr15, good, total, rejected, pool, paused${sensors ? ', sensors' : ''}`;
}

/** A sample row as SQLite returns it. */
export type SampleColumns = Omit<SampleRow, 'temp' | 'tempLimit' | 'mhz' | 'watts'> & {readonly sensors?: string | null};

export function sampleFromColumns(row: SampleColumns): SampleRow {
	const {sensors, ...rest} = row;
	return typeof sensors === 'string' ? {...rest, ...decodeSampleSensors(sensors)} : rest;
}

/** The columns a summary row is read with (SummaryColumns); `sensors` only from a store of version 3. */
export function summaryColumnsSql(sensors: boolean): string {
	return `t, n, live, hr_n, pool, paused, link, hr_min, hr_avg, hr_max, hr60, hr15, good, total, rejected${sensors ? ', sensors' : ''}`;
}

export function summaryFromColumns(row: SummaryColumns): SummaryRow {
	return {
		t: row.t,
		n: row.n,
		live: row.live,
		hrN: row.hr_n,
		pool: row.pool,
		paused: row.paused,
		link: row.link,
		hrMin: row.hr_min,
		hrAvg: row.hr_avg,
		hrMax: row.hr_max,
		hr60: row.hr60,
		hr15: row.hr15,
		good: row.good,
		total: row.total,
		rejected: row.rejected,
		sensors: decodeSummarySensors(row.sensors),
	};
}
