/**
 * The one place numbers, rates and durations become text, for every screen and message: the panes,
 * the fleet, the events (and the alerts made from them), --once and error messages. One style
 * everywhere: three significant digits for rates ("4.82 kH/s"), thousands grouped with a space
 * ("1 204"), durations in at most two units with the second zero-padded ("4m 03s", "3d 04h", "0s"
 * under a second). Every formatter turns a missing or non-finite value into "—" (never "0" or "NaN"),
 * so a window that has not filled reads as unknown, not as idle.
 */
import prettyMilliseconds from 'pretty-ms';

export const DASH = '—';

export const RATE_UNITS = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s'] as const;
export type RateUnit = (typeof RATE_UNITS)[number];

function isNumber(value: number | null | undefined): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

/** Three significant digits: 4.82, 48.2, 482 (0.50 below one). */
function threeDigits(value: number): string {
	const abs = Math.abs(value);
	if (abs < 9.995) return value.toFixed(2);
	if (abs < 99.95) return value.toFixed(1);
	return value.toFixed(0);
}

/** Splits a value over a 1000-step scale so that its three-digit form stays under 1000 (999.7 → "1.00" of the next step). */
function scale(value: number, steps: number): {readonly text: string; readonly step: number} {
	let step = 0;
	let scaled = value;
	let text = threeDigits(scaled);
	while (step < steps - 1 && Math.abs(Number(text)) >= 1000) {
		step += 1;
		scaled = value / 1000 ** step;
		text = threeDigits(scaled);
	}

	return {text, step};
}

/**
 * A hashrate in H/s with a scaled unit: "4.82 kH/s", "301 H/s", "1.20 MH/s"; null → "—".
 * `pad: true` gives a fixed 9-column form (number right-aligned in 4, unit left-aligned in 4)
 * so values in a column or a changing line stay aligned.
 */
export function formatHashrate(value: number | null, options: {readonly pad?: boolean} = {}): string {
	if (!isNumber(value) || value < 0) return options.pad ? DASH.padStart(4) + ' '.repeat(5) : DASH;
	const {text, step} = scale(value, RATE_UNITS.length);
	const unit = RATE_UNITS[step] ?? 'H/s';
	return options.pad ? `${text.padStart(4)} ${unit.padEnd(4)}` : `${text} ${unit}`;
}

/** The unit that suits the largest of these rates (so a row or column can share one unit). */
export function pickRateUnit(values: Iterable<number | null>): RateUnit {
	let max = 0;
	for (const value of values) {
		if (isNumber(value) && value > max) max = value;
	}

	return RATE_UNITS[scale(max, RATE_UNITS.length).step] ?? 'H/s';
}

/**
 * A rate expressed in a given unit, without the unit: three significant digits by default,
 * or a fixed number of decimals (for table columns). null → "—".
 */
export function formatRateIn(value: number | null, unit: RateUnit, options: {readonly decimals?: number} = {}): string {
	if (!isNumber(value) || value < 0) return DASH;
	const scaled = value / 1000 ** RATE_UNITS.indexOf(unit);
	return options.decimals === undefined ? threeDigits(scaled) : scaled.toFixed(options.decimals);
}

/** Decimals that keep a column of rates in `unit` readable: 301.2 H/s, 4.82 kH/s. */
export function rateDecimals(unit: RateUnit): number {
	return unit === 'H/s' ? 1 : 2;
}

const COUNT_SUFFIXES = ['', 'K', 'M', 'G', 'T', 'P', 'E'] as const;

/** Large counts (difficulty, best share, pool-side hashes): 950, "1.5K", "120K", "4.1M". */
export function formatCount(value: number | null): string {
	if (!isNumber(value)) return DASH;
	if (Math.abs(value) < 1000) return String(Math.round(value));
	const {text, step} = scale(value, COUNT_SUFFIXES.length);
	const trimmed = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
	return `${trimmed}${COUNT_SUFFIXES[step] ?? ''}`;
}

/** An exact integer with thousands grouped by spaces: 1204 → "1 204". */
export function formatInteger(value: number | null): string {
	if (!isNumber(value)) return DASH;
	const rounded = Math.round(value);
	const sign = rounded < 0 ? '-' : '';
	return sign + String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/**
 * A duration in seconds, two units at most, the second one zero-padded: "12s", "5m 03s",
 * "2h 05m", "3d 04h", "1y 35d". Uses pretty-ms for the split. null or negative → "—".
 */
export function formatDuration(seconds: number | null): string {
	if (!isNumber(seconds) || seconds < 0) return DASH;
	const whole = Math.floor(seconds);
	if (whole === 0) return '0s';
	const parts = prettyMilliseconds(whole * 1000, {unitCount: 2, secondsDecimalDigits: 0}).split(' ');
	return parts.map((part, index) => (index > 0 && /^\d[hms]$/.test(part) ? `0${part}` : part)).join(' ');
}

/** The larger unit of a duration only, for narrow columns: "3d", "4h", "12m", "40s"; null → "—". */
export function formatDurationShort(seconds: number | null): string {
	const text = formatDuration(seconds);
	return text.split(' ')[0] ?? text;
}

/**
 * A time limit given in ms (a deadline, a timeout): whole seconds as a duration ("8s", "1m 30s"),
 * less than that with one decimal ("0.6s").
 */
export function formatSeconds(ms: number): string {
	return ms % 1000 === 0 ? formatDuration(ms / 1000) : `${(ms / 1000).toFixed(1)}s`;
}

/** "12s ago", "3m 05s ago", "just now" (under a second, or a clock a little ahead); null → "—". */
export function formatAgo(at: number | null, now: number): string {
	if (!isNumber(at)) return DASH;
	const seconds = (now - at) / 1000;
	if (seconds < 1) return 'just now';
	return `${formatDuration(seconds)} ago`;
}

/**
 * A miner's last accepted share (monitor/last-share.ts): "12s ago" when a poll saw it, "at least 4m ago" when none
 * came since then, "—" when unknown (or no time has passed since it was first bounded). A bound is no time to the
 * second: past 10 s it is said rounded down (still a bound) to tens of seconds, then whole minutes, so an idle or
 * paused rig's dashboard redraws for it once in 10 s, then once a minute, not every second (`npm run bench`'s steady
 * figure at -i 2).
 */
export function formatLastAccepted(lastShare: {readonly at: number; readonly atLeast: boolean} | null, now: number): string {
	if (lastShare === null) return DASH;
	if (!lastShare.atLeast) return formatAgo(lastShare.at, now);
	const seconds = (now - lastShare.at) / 1000;
	if (seconds < 1) return DASH;
	if (seconds < 10) return `at least ${Math.floor(seconds)}s ago`;
	if (seconds < 60) return `at least ${Math.floor(seconds / 10) * 10}s ago`;
	if (seconds < 3600) return `at least ${Math.floor(seconds / 60)}m ago`;
	return `at least ${formatAgo(lastShare.at, now)}`;
}

/** Local wall-clock time of an epoch-ms instant, 24 h: "09:02". */
export function formatClock(at: number | null): string {
	if (!isNumber(at)) return DASH;
	const date = new Date(at);
	return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

function sameDay(a: Date, b: Date): boolean {
	return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** The local date of an instant, short: "Mar 14" ("Mar 14 2025" in another year than `now`'s). */
export function formatDate(at: number | null, now: number): string {
	if (!isNumber(at)) return DASH;
	const date = new Date(at);
	const day = `${MONTHS[date.getMonth()] ?? ''} ${date.getDate()}`;
	return date.getFullYear() === new Date(now).getFullYear() ? day : `${day} ${date.getFullYear()}`;
}

/**
 * When something happened, as a user re-attaching days later needs it: the clock time today ("23:54"), with the
 * date on any other day ("Mar 13 23:54"): "down since 23:54" is ambiguous after two days.
 */
export function formatWhen(at: number | null, now: number): string {
	if (!isNumber(at)) return DASH;
	return sameDay(new Date(at), new Date(now)) ? formatClock(at) : `${formatDate(at, now)} ${formatClock(at)}`;
}

/**
 * A span of time, its start dated as formatWhen dates it: "01:00–02:00", "Mar 13 23:54–00:12" (a span under a day
 * that crosses midnight ends the next day: no second date), "Mar 13 00:00–Mar 14 00:00" (a day or more: both dated).
 */
export function formatTimeSpan(from: number | null, to: number | null, now: number): string {
	if (!isNumber(from) || !isNumber(to)) return DASH;
	const dated = !sameDay(new Date(from), new Date(to)) && to - from >= 24 * 3_600_000;
	return `${formatWhen(from, now)}–${dated ? `${formatDate(to, now)} ${formatClock(to)}` : formatClock(to)}`;
}

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const;

/** Bytes in decimal (SI) units, so the labels are exact: "512 B", "2.5 GB", "16.7 GB", "512 MB". */
export function formatBytes(value: number | null): string {
	if (!isNumber(value) || value < 0) return DASH;
	if (value < 1000) return `${Math.round(value)} B`;
	let step = 1;
	let scaled = value / 1000;
	let text = scaled < 99.95 ? scaled.toFixed(1) : scaled.toFixed(0);
	while (Number(text) >= 1000 && step < BYTE_UNITS.length - 1) {
		step += 1;
		scaled = value / 1000 ** step;
		text = scaled < 99.95 ? scaled.toFixed(1) : scaled.toFixed(0);
	}

	return `${text} ${BYTE_UNITS[step] ?? 'B'}`;
}

/**
 * `part` of `whole` as a percentage: "0.2%", "12.5%", "99.9%", "100%". Never rounds up to 100%
 * unless all of it is there (1167 of 1168 hugepages is "99.9%"). whole ≤ 0 → "—".
 */
export function formatPercent(part: number | null, whole: number | null): string {
	if (!isNumber(part) || !isNumber(whole) || whole <= 0) return DASH;
	if (part >= whole) return '100%';
	if (part <= 0) return '0%';
	const percent = (part / whole) * 100;
	if (percent >= 99.95) return '99.9%';
	return `${percent.toFixed(1)}%`;
}

/** A round trip in ms: "38 ms"; null → "—". */
export function formatPing(ms: number | null): string {
	if (!isNumber(ms) || ms < 0) return DASH;
	return `${Math.round(ms)} ms`;
}

/** Load averages: "0.52 0.48 0.40", "15.8 15.9 15.9". */
export function formatLoad(loads: readonly number[] | null): string {
	if (!loads || loads.length === 0) return DASH;
	return loads.map((load) => (isNumber(load) ? threeDigits(load) : DASH)).join(' ');
}

/** A temperature in °C, whole degrees: "71°C" (sensors read in millidegrees; a degree is what a user acts on). */
export function formatCelsius(value: number | null): string {
	if (!isNumber(value)) return DASH;
	return `${Math.round(value)}°C`;
}

/** A CPU clock given in MHz, in GHz with two decimals: "3.75 GHz"; under 1 GHz in MHz: "816 MHz". */
export function formatClockSpeed(mhz: number | null): string {
	if (!isNumber(mhz) || mhz < 0) return DASH;
	return mhz < 1000 ? `${Math.round(mhz)} MHz` : `${(mhz / 1000).toFixed(2)} GHz`;
}

/** The clock beside its maximum, in one unit where both are over 1 GHz: "3.85 / 4.20 GHz"; "816 MHz / 1.80 GHz". */
export function formatClockRange(mhz: number | null, maxMHz: number | null): string {
	if (!isNumber(mhz) || mhz < 0) return DASH;
	if (!isNumber(maxMHz) || maxMHz <= 0) return formatClockSpeed(mhz);
	if (mhz >= 1000 && maxMHz >= 1000) return `${(mhz / 1000).toFixed(2)} / ${formatClockSpeed(maxMHz)}`;
	return `${formatClockSpeed(mhz)} / ${formatClockSpeed(maxMHz)}`;
}

/** Power in watts, three significant digits: "112 W", "8.52 W". */
export function formatWatts(watts: number | null): string {
	if (!isNumber(watts) || watts < 0) return DASH;
	return `${threeDigits(watts)} W`;
}

const EFFICIENCY_UNITS = ['H/W', 'kH/W', 'MH/W', 'GH/W'] as const;

/** Hashes per second per watt (hashes per joule), three significant digits: "98.5 H/W", "1.20 kH/W". */
export function formatHashesPerWatt(value: number | null): string {
	if (!isNumber(value) || value < 0) return DASH;
	const {text, step} = scale(value, EFFICIENCY_UNITS.length);
	return `${text} ${EFFICIENCY_UNITS[step] ?? 'H/W'}`;
}

/** The units of what rigtop reads on the rig itself (source/sensors/), as the chart's y-axis names them. */
export type SensorUnit = '°C' | 'GHz' | 'W' | 'H/W';

/** A sensor value with its unit, by the formatter of that unit ("71°C", "3.75 GHz", "112 W", "98.5 H/W"). */
export function formatSensor(value: number | null, unit: SensorUnit): string {
	switch (unit) {
		case '°C':
			return formatCelsius(value);
		case 'GHz':
			return formatClockSpeed(value);
		case 'W':
			return formatWatts(value);
		case 'H/W':
			return formatHashesPerWatt(value);
	}
}
