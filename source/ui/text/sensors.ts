/**
 * What the screens say of a rig's own readings (source/sensors/types.ts): each package's headline temperature with its
 * sensor's own limits, its hottest core or CCD, the clock, throttling, the package watts and the hashes per watt. A
 * temperature is toned by its sensor's own limits (at or over `max` warn, at or over `crit` error, none known plain)
 * and says so in words too ("at max", "critical"), so it reads without colour. Pure: the System pane and the fleet's
 * columns draw from it. A rig on another machine has no reading, and nothing here is said of it.
 */
import {DASH, formatCelsius, formatClockRange, formatHashesPerWatt, formatWatts} from '../../text/format.js';
import type {SensorReading, TempSensor} from '../../sensors/types.js';
import type {ThemeToken} from './theme.js';

/** Where a temperature stands against its sensor's own limits; 'unknown': the sensor has none. */
export type TempLevel = 'critical' | 'max' | 'normal' | 'unknown';

export function tempLevel(sensor: Pick<TempSensor, 'celsius' | 'max' | 'crit'>): TempLevel {
	if (sensor.crit !== null && sensor.celsius >= sensor.crit) return 'critical';
	if (sensor.max !== null && sensor.celsius >= sensor.max) return 'max';
	return sensor.max === null && sensor.crit === null ? 'unknown' : 'normal';
}

/** The tone of a level: error at crit, warn at max, none (plain) below or without limits. */
export function tempTone(level: TempLevel): ThemeToken | null {
	return level === 'critical' ? 'error' : level === 'max' ? 'warn' : null;
}

/** The word a level adds, so it reads without colour: "critical", "at max"; "" below the limits. */
export function tempWord(level: TempLevel): string {
	return level === 'critical' ? 'critical' : level === 'max' ? 'at max' : '';
}

/** A headline with its sensor's own limit: "71°C / max 95°C", "71°C / crit 100°C" (no max), "71°C" (neither). */
export function tempWithLimit(sensor: Pick<TempSensor, 'celsius' | 'max' | 'crit'>): string {
	const limit =
		sensor.max !== null ? ` / max ${formatCelsius(sensor.max)}` : sensor.crit !== null ? ` / crit ${formatCelsius(sensor.crit)}` : '';
	return `${formatCelsius(sensor.celsius)}${limit}`;
}

/** One package's temperatures: its headline sensor and its hottest core or CCD (null where it has none). */
export type PackageTemps = {
	readonly package: number;
	readonly headline: TempSensor;
	readonly hottestCore: TempSensor | null;
};

/** Each package's headline and hottest other sensor, packages in order; a package without a headline has none shown. */
export function packageTemps(reading: Pick<SensorReading, 'temps'>): readonly PackageTemps[] {
	const byPackage = new Map<number, {headline: TempSensor | null; hottestCore: TempSensor | null}>();
	for (const sensor of reading.temps) {
		if (!Number.isFinite(sensor.celsius)) continue;
		const entry = byPackage.get(sensor.package) ?? {headline: null, hottestCore: null};
		if (sensor.headline) entry.headline ??= sensor;
		else if (entry.hottestCore === null || sensor.celsius > entry.hottestCore.celsius) entry.hottestCore = sensor;
		byPackage.set(sensor.package, entry);
	}

	return [...byPackage.entries()]
		.sort(([a], [b]) => a - b)
		.flatMap(([pkg, {headline, hottestCore}]) => (headline === null ? [] : [{package: pkg, headline, hottestCore}]));
}

/** The hottest package's headline sensor (the fleet's °C column), null where none is read. */
export function hottestHeadline(reading: Pick<SensorReading, 'temps'>): TempSensor | null {
	let hottest: TempSensor | null = null;
	for (const {headline} of packageTemps(reading)) {
		if (hottest === null || headline.celsius > hottest.celsius) hottest = headline;
	}

	return hottest;
}

/** The package watts as a short text and tone: "142 W"; "W needs root" where the kernel lets only root read it. */
export function powerText(reading: Pick<SensorReading, 'power'>): {readonly text: string; readonly tone: ThemeToken | null} | null {
	const {power} = reading;
	switch (power.state) {
		case 'ok':
			return {text: power.watts === null ? `${DASH} W` : formatWatts(power.watts), tone: null};
		case 'denied':
			return {text: 'W needs root', tone: 'muted'};
		case 'lost':
			return {text: 'W lost', tone: 'warn'};
		default:
			return null;
	}
}

/** The hashes per watt where the power is read ("70.3 H/W", "— H/W" until two polls gave watts); null where it is not. */
export function efficiencyText(reading: Pick<SensorReading, 'power' | 'hashesPerWatt'>): string | null {
	if (reading.power.state !== 'ok') return null;
	return reading.hashesPerWatt === null ? `${DASH} H/W` : formatHashesPerWatt(reading.hashesPerWatt);
}

/** The clock beside its maximum: "3.85 / 4.20 GHz", "3.85 GHz" where no CPU says its maximum. */
export function clockText(reading: Pick<SensorReading, 'clock'>): string | null {
	const {clock} = reading;
	if (clock === null || !Number.isFinite(clock.averageMHz)) return null;
	return formatClockRange(clock.averageMHz, clock.maxMHz);
}

/** Whether a reading has anything to show (a machine with no sensor, no cpufreq and no powercap has not). */
export function hasReadings(reading: SensorReading | undefined): reading is SensorReading {
	if (reading === undefined) return false;
	return sensorPieces(reading).length > 0;
}

/** A piece of the System pane's sensor lines: its text, tone, group (temperatures, or the rest) and priority (0 stays longest). */
export type SensorPiece = {
	readonly key: string;
	readonly label?: string;
	readonly text: string;
	readonly tone: ThemeToken | null;
	readonly group: 'temps' | 'rest';
	readonly priority: number;
};

/**
 * The pieces the System pane draws of a reading, in the order they read: each package's headline ("pkg1" before it
 * where there are several) and its hottest core or CCD, then the clock, "throttling" while it rises, the watts and
 * the hashes per watt. Narrow panes drop by priority: the hottest headline stays, then throttling, the watts, the
 * hashes per watt, the other packages, the clock, and the cores last.
 */
export function sensorPieces(reading: SensorReading): readonly SensorPiece[] {
	const pieces: SensorPiece[] = [];
	const packages = packageTemps(reading);
	const hottest = hottestHeadline(reading);
	const several = packages.length > 1;
	for (const {package: pkg, headline, hottestCore} of packages) {
		const level = tempLevel(headline);
		const word = tempWord(level);
		pieces.push({
			key: `pkg${pkg}`,
			...(several ? {label: `pkg${pkg} `} : {}),
			text: `${tempWithLimit(headline)}${word ? ` ${word}` : ''}`,
			tone: tempTone(level),
			group: 'temps',
			priority: headline === hottest ? 0 : 4,
		});
		if (hottestCore !== null) {
			const coreLevel = tempLevel(hottestCore);
			const coreWord = tempWord(coreLevel);
			pieces.push({
				key: `core${pkg}`,
				label: `${hottestCore.label} `,
				text: `${formatCelsius(hottestCore.celsius)}${coreWord ? ` ${coreWord}` : ''}`,
				tone: tempTone(coreLevel),
				group: 'temps',
				priority: 6,
			});
		}
	}

	const clock = clockText(reading);
	if (clock !== null) pieces.push({key: 'clock', text: clock, tone: null, group: 'rest', priority: 5});
	if (reading.throttle?.rising === true) pieces.push({key: 'throttle', text: 'throttling', tone: 'warn', group: 'rest', priority: 1});
	const power = powerText(reading);
	if (power !== null) pieces.push({key: 'power', text: power.text, tone: power.tone, group: 'rest', priority: 2});
	const efficiency = efficiencyText(reading);
	if (efficiency !== null) pieces.push({key: 'hpw', text: efficiency, tone: null, group: 'rest', priority: 3});
	return pieces;
}

/** The pieces' separator on a line. */
export const PIECE_GAP = ' · ';

function lineLength(pieces: readonly SensorPiece[]): number {
	return pieces.reduce(
		(sum, piece, index) => sum + (index === 0 ? 0 : PIECE_GAP.length) + (piece.label?.length ?? 0) + piece.text.length,
		0,
	);
}

/** The pieces that fit in `width`, in their order: the lowest priorities go first (the last piece of a priority first). */
export function fitPieces(pieces: readonly SensorPiece[], width: number): readonly SensorPiece[] {
	let kept = [...pieces];
	while (kept.length > 1 && lineLength(kept) > width) {
		let drop = 0;
		kept.forEach((piece, index) => {
			if (piece.priority >= (kept[drop]?.priority ?? 0)) drop = index;
		});
		kept = kept.filter((_, index) => index !== drop);
	}

	return kept;
}

/** Lines the pieces want in `width`: 0 (none), 1 (they fit on one), or 2 (the temperatures on one, the rest on the next). */
export function sensorLinesWanted(pieces: readonly SensorPiece[], width: number): 0 | 1 | 2 {
	if (pieces.length === 0) return 0;
	if (lineLength(pieces) <= width) return 1;
	const temps = pieces.some((piece) => piece.group === 'temps');
	const rest = pieces.some((piece) => piece.group === 'rest');
	return temps && rest ? 2 : 1;
}

/** The pieces on each of `lines` lines of `width`: one line holds them all (dropped by priority), two split them by group. */
export function sensorLines(pieces: readonly SensorPiece[], width: number, lines: number): readonly (readonly SensorPiece[])[] {
	if (lines <= 0 || pieces.length === 0) return [];
	if (lines === 1 || sensorLinesWanted(pieces, width) < 2) return [fitPieces(pieces, width)];
	return [
		fitPieces(
			pieces.filter((piece) => piece.group === 'temps'),
			width,
		),
		fitPieces(
			pieces.filter((piece) => piece.group === 'rest'),
			width,
		),
	];
}
