/**
 * Sensor readings for tests of what is made of them (events, alerts), shaped as the reader makes them
 * (source/sensors/types.ts): a Ryzen's k10temp (Tctl, Tccd1, Tccd2: no max of their own), a two-package Xeon's
 * coretemp (Package id N and its cores, max 80 °C and crit 100 °C as coretemp reports TjMax less its offset), the
 * package power of powercap's intel-rapl zones.
 */
import {deniedMessage} from '../../source/sensors/sampler.js';
import type {PowerReading, SensorReading, TempSensor} from '../../source/sensors/types.js';

export function coretemp(pkg: number, label: string, celsius: number, max: number | null = 80): TempSensor {
	const headline = label.startsWith('Package');
	const index = headline ? 1 : Number(label.replace(/\D+/g, '')) + 2;
	return {
		source: 'coretemp',
		package: pkg,
		label,
		celsius,
		max,
		crit: max === null ? null : 100,
		headline,
		file: `/sys/class/hwmon/hwmon${2 + pkg}/temp${index}_input`,
	};
}

export function k10temp(label: 'Tctl' | 'Tccd1' | 'Tccd2', celsius: number): TempSensor {
	const index = label === 'Tctl' ? 1 : label === 'Tccd1' ? 3 : 4;
	return {
		source: 'k10temp',
		package: 0,
		label,
		celsius,
		max: null,
		crit: null,
		headline: label === 'Tctl',
		file: `/sys/class/hwmon/hwmon1/temp${index}_input`,
	};
}

export function powerOk(...watts: number[]): PowerReading {
	const packages = watts.map((value, pkg) => ({
		package: pkg,
		name: `package-${pkg}`,
		watts: value,
		file: `/sys/class/powercap/intel-rapl:${pkg}/energy_uj`,
	}));
	return {state: 'ok', packages, watts: watts.reduce((sum, value) => sum + value, 0)};
}

/** What the reader says of a root-only energy_uj ("power: … is root-only; …"). */
export const DENIED_MESSAGE = deniedMessage('/sys/class/powercap/intel-rapl:0/energy_uj');
/** The same, as the events say it (without the reader's "power: " lead). */
export const DENIED_TOLD = DENIED_MESSAGE.replace(/^power: /, '');

export type ReadingParts = {
	readonly at?: number;
	readonly temps?: readonly TempSensor[];
	readonly throttle?: number | null;
	readonly power?: PowerReading;
};

/** One reading: no sensors, no throttle counter and no powercap zone unless given. */
export function makeReading(parts: ReadingParts = {}): SensorReading {
	const throttle = parts.throttle ?? null;
	return {
		at: parts.at ?? 1_764_000_000_000,
		temps: parts.temps ?? [],
		clock: {
			averageMHz: 3400,
			maxMHz: 4200,
			cpus: [0, 1, 2, 3],
			cpusFrom: 'online',
			file: '/sys/devices/system/cpu/cpu{0-3}/cpufreq/scaling_cur_freq',
		},
		throttle:
			throttle === null
				? null
				: {count: throttle, rising: false, file: '/sys/devices/system/cpu/cpu{0-3}/thermal_throttle/{package,core}_throttle_count'},
		power: parts.power ?? {state: 'none'},
		hashesPerWatt: null,
	};
}
