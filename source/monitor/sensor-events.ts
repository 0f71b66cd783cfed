/**
 * Events of the rig's own sensors (source/sensors/: only a miner on this machine has them), read from successive
 * polls' readings beside the miner's events (events.ts):
 * - a CPU temperature at or over its limit (the sensor's own `max`, or `--temp-alert`) for TEMP_ALERT_POLLS polls in a
 *   row: 'temp-high', naming the sensor and its °C; every sensor back under its limit less TEMP_HYSTERESIS_C:
 *   'temp-normal' (one pair however many sensors of the rig are hot: one trouble, the CPU too hot);
 * - thermal throttling: its count rising is 'throttle-started'; not rising for THROTTLE_QUIET_POLLS polls, 'throttle-stopped';
 * - the package power reading lost (it was read, and is refused, gone, or every zone vanished): 'power-lost'; read again:
 *   'power-restored'; refused to rigtop from the start (root-only `energy_uj`): 'power-denied', said once, info.
 * Pure: what lasts from poll to poll goes in and out through SensorEventState. A poll without a reading (the sensors
 * not read this time) changes nothing. The sensors are the machine's, not the miner process's: a restart of the
 * miner keeps them; another miner answering at the address (another machine, maybe) starts them afresh (the monitor).
 */
import {formatCelsius, formatDuration, formatInteger, formatWatts} from '../text/format.js';
import type {PowerReading, SensorReading, TempSensor} from '../sensors/types.js';
import type {EventDraft} from './events.js';

/** Polls in a row at or over the limit before a temperature is reported. */
export const TEMP_ALERT_POLLS = 3;
/** °C under the limit a reported temperature must fall to count as back (so a sensor at its limit does not flap). */
export const TEMP_HYSTERESIS_C = 2;
/** Polls in a row without the throttle count rising before throttling counts as stopped. */
export const THROTTLE_QUIET_POLLS = 5;
/** The most sensors named in one event; the rest are counted. */
const NAMED_MAX = 2;

type TempTrack = {
	/** Polls in a row at or over the limit, while not reported. */
	readonly streak: number;
	/** Reported hot, not yet back under. */
	readonly hot: boolean;
};

export type SensorEventState = {
	/** Each temperature sensor seen, by `sensorKey`. */
	readonly temps: ReadonlyMap<string, TempTrack>;
	/** 'temp-high' told, not yet 'temp-normal'. */
	readonly hot: boolean;
	/** The last throttle count read, or null. */
	readonly throttleCount: number | null;
	/** Since when the CPU throttles (epoch ms of the reading it was seen rising), or null. */
	readonly throttlingSince: number | null;
	/** Readings in a row without a rise while throttling. */
	readonly throttleQuiet: number;
	/** 'ok': the package power was read; 'lost': 'power-lost' told, not yet 'power-restored'; 'unseen': neither yet. */
	readonly power: 'unseen' | 'ok' | 'lost';
	/** 'power-denied' told (once a monitor). */
	readonly deniedTold: boolean;
};

export const initialSensorEventState: SensorEventState = Object.freeze({
	temps: new Map<string, TempTrack>(),
	hot: false,
	throttleCount: null,
	throttlingSince: null,
	throttleQuiet: 0,
	power: 'unseen',
	deniedTold: false,
});

export type SensorEventOptions = {
	/** °C: --temp-alert, the limit of every sensor instead of its own max; null or absent: each sensor's own max. */
	readonly tempAlertC?: number | null;
};

export type SensorEventResult = {readonly events: readonly EventDraft[]; readonly state: SensorEventState};

/** A sensor's identity from poll to poll: its kind, package and label (its hwmon number may change on a module reload). */
export function sensorKey(sensor: Pick<TempSensor, 'source' | 'package' | 'label'>): string {
	return `${sensor.source}\u0000${sensor.package}\u0000${sensor.label}`;
}

export function deriveSensorEvents(
	reading: SensorReading | undefined,
	given: SensorEventState,
	options: SensorEventOptions = {},
): SensorEventResult {
	if (reading === undefined) return {events: [], state: given};
	const events: EventDraft[] = [];
	const temps = stepTemps(reading, given, options.tempAlertC ?? null);
	if (temps.event) events.push(temps.event);
	const throttle = stepThrottle(reading, given);
	if (throttle.event) events.push(throttle.event);
	const power = stepPower(reading.power, given);
	events.push(...power.events);
	return {
		events,
		state: {...given, ...temps.state, ...throttle.state, ...power.state},
	};
}

type Step<S> = {readonly state: S; readonly event: EventDraft | null};

function limitOf(sensor: TempSensor, tempAlertC: number | null): number | null {
	return tempAlertC ?? sensor.max;
}

/** "Tctl", or "Core 3 of package 1" on a machine with several packages. */
function sensorName(sensor: TempSensor, packages: number): string {
	return packages > 1 && !/package/i.test(sensor.label) ? `${sensor.label} of package ${sensor.package}` : sensor.label;
}

/** "Tctl 96°C" or "Tctl 96°C, Tccd1 95°C and 3 more", hottest first. */
function named(sensors: readonly TempSensor[], packages: number): string {
	const hottest = [...sensors].sort((a, b) => b.celsius - a.celsius);
	const words = hottest.slice(0, NAMED_MAX).map((sensor) => `${sensorName(sensor, packages)} ${formatCelsius(sensor.celsius)}`);
	const more = hottest.length - NAMED_MAX;
	if (more <= 0) return words.join(' and ');
	return `${words.join(', ')} and ${formatInteger(more)} more`;
}

function stepTemps(
	reading: SensorReading,
	given: SensorEventState,
	tempAlertC: number | null,
): Step<Pick<SensorEventState, 'temps' | 'hot'>> {
	const temps = new Map(given.temps);
	const tripped: TempSensor[] = [];
	const hotNow: TempSensor[] = [];
	const packages = new Set(reading.temps.map((sensor) => sensor.package)).size;
	for (const sensor of reading.temps) {
		const key = sensorKey(sensor);
		const track = temps.get(key) ?? {streak: 0, hot: false};
		const limit = limitOf(sensor, tempAlertC);
		// A sensor with no limit is not judged (what it was stays).
		if (limit === null || !Number.isFinite(sensor.celsius)) {
			temps.set(key, track);
			continue;
		}

		if (track.hot) {
			const back = sensor.celsius < limit - TEMP_HYSTERESIS_C;
			temps.set(key, back ? {streak: 0, hot: false} : track);
			if (!back) hotNow.push(sensor);
			continue;
		}

		const streak = sensor.celsius >= limit ? track.streak + 1 : 0;
		if (streak >= TEMP_ALERT_POLLS) {
			temps.set(key, {streak: 0, hot: true});
			tripped.push(sensor);
			hotNow.push(sensor);
		} else {
			temps.set(key, {streak, hot: false});
		}
	}

	// A sensor reported hot that is not read any more (gone with its driver) cannot be judged: it stays as it was.
	const stillHot = [...temps.values()].some((track) => track.hot);
	if (tripped.length > 0) {
		const limit =
			tempAlertC === null
				? `at or over ${tripped.length === 1 ? 'its' : 'their'} max`
				: `at or over --temp-alert ${formatCelsius(tempAlertC)}`;
		const sensorLimit = tempAlertC === null && tripped.length === 1 ? ` (${formatCelsius(tripped[0]!.max)})` : '';
		const already = given.hot ? ' too' : '';
		return {
			state: {temps, hot: true},
			event: {
				kind: 'temp-high',
				severity: 'warn',
				message: `CPU hot${already}: ${named(tripped, packages)}, ${limit}${sensorLimit} for ${TEMP_ALERT_POLLS} polls`,
			},
		};
	}

	if (given.hot && !stillHot) {
		const limit = tempAlertC === null ? 'its max' : `--temp-alert ${formatCelsius(tempAlertC)}`;
		const read = reading.temps.filter((sensor) => limitOf(sensor, tempAlertC) !== null);
		return {
			state: {temps, hot: false},
			event: {
				kind: 'temp-normal',
				severity: 'info',
				message: `CPU temperature back under ${limit}${read.length > 0 ? `: ${named(read.slice(0, 1), packages)}` : ''}`,
			},
		};
	}

	return {state: {temps, hot: given.hot}, event: null};
}

function stepThrottle(
	reading: SensorReading,
	given: SensorEventState,
): Step<Pick<SensorEventState, 'throttleCount' | 'throttlingSince' | 'throttleQuiet'>> {
	const throttle = reading.throttle;
	if (throttle === null) {
		return {
			state: {throttleCount: given.throttleCount, throttlingSince: given.throttlingSince, throttleQuiet: given.throttleQuiet},
			event: null,
		};
	}

	const count = throttle.count;
	// The first count is the baseline; one that went back (the counters start again at boot) is a new baseline.
	const rise = given.throttleCount !== null && count > given.throttleCount ? count - given.throttleCount : 0;
	if (rise > 0) {
		if (given.throttlingSince !== null) {
			return {state: {throttleCount: count, throttlingSince: given.throttlingSince, throttleQuiet: 0}, event: null};
		}

		return {
			state: {throttleCount: count, throttlingSince: reading.at, throttleQuiet: 0},
			event: {
				kind: 'throttle-started',
				severity: 'warn',
				message: `CPU throttling: thermal_throttle count up by ${formatInteger(rise)} (${formatInteger(count)} since boot)`,
			},
		};
	}

	if (given.throttlingSince === null) return {state: {throttleCount: count, throttlingSince: null, throttleQuiet: 0}, event: null};
	const quiet = given.throttleQuiet + 1;
	if (quiet < THROTTLE_QUIET_POLLS) {
		return {state: {throttleCount: count, throttlingSince: given.throttlingSince, throttleQuiet: quiet}, event: null};
	}

	const lasted = Math.max(0, reading.at - given.throttlingSince) / 1000;
	return {
		state: {throttleCount: count, throttlingSince: null, throttleQuiet: 0},
		event: {
			kind: 'throttle-stopped',
			severity: 'info',
			message: `CPU throttling stopped after ${formatDuration(lasted)} (the count still for ${THROTTLE_QUIET_POLLS} polls)`,
		},
	};
}

/** The reader's one line without its "power: " lead (the event says what it is about). */
function reason(message: string): string {
	return message.replace(/^power:\s*/i, '');
}

function readable(power: PowerReading): power is Extract<PowerReading, {state: 'ok'}> {
	return power.state === 'ok' && power.packages.length > 0;
}

function stepPower(
	power: PowerReading,
	given: SensorEventState,
): {readonly state: Pick<SensorEventState, 'power' | 'deniedTold'>; readonly events: readonly EventDraft[]} {
	if (readable(power)) {
		if (given.power === 'lost') {
			const watts = power.watts === null ? '' : `: ${formatWatts(power.watts)}`;
			return {
				state: {power: 'ok', deniedTold: given.deniedTold},
				events: [{kind: 'power-restored', severity: 'info', message: `package power read again${watts}`}],
			};
		}

		return {state: {power: 'ok', deniedTold: given.deniedTold}, events: []};
	}

	if (given.power === 'ok') {
		const why = power.state === 'lost' || power.state === 'denied' ? reason(power.message) : 'no powercap zone any more';
		return {
			state: {power: 'lost', deniedTold: given.deniedTold || power.state === 'denied'},
			events: [{kind: 'power-lost', severity: 'warn', message: `package power reading lost: ${why}`}],
		};
	}

	if (power.state === 'denied' && !given.deniedTold) {
		return {
			state: {power: given.power, deniedTold: true},
			events: [{kind: 'power-denied', severity: 'info', message: `package power not shown: ${reason(power.message)}`}],
		};
	}

	return {state: {power: given.power, deniedTold: given.deniedTold}, events: []};
}
