/**
 * Sensor readings for unit tests, shaped as source/sensors/types.ts has them: a one-package Ryzen's k10temp (Tctl with
 * a max of 95, two CCDs), its cpufreq clock, a rising-free throttle count and its RAPL package power.
 */
import type {PowerReading, SensorReading, TempSensor} from '../../source/sensors/types.js';

export function makeTemp(overrides: Partial<TempSensor> = {}): TempSensor {
	return {
		source: 'k10temp',
		package: 0,
		label: 'Tctl',
		celsius: 71.25,
		max: 95,
		crit: null,
		headline: true,
		file: '/sys/class/hwmon/hwmon2/temp1_input',
		...overrides,
	};
}

export function okPower(watts: number | null, packages = 1): PowerReading {
	return {
		state: 'ok',
		watts,
		packages: Array.from({length: packages}, (_, index) => ({
			package: index,
			name: `package-${index}`,
			watts: watts === null ? null : watts / packages,
			file: `/sys/class/powercap/intel-rapl:${index}/energy_uj`,
		})),
	};
}

export function makeReading(overrides: Partial<SensorReading> = {}): SensorReading {
	return {
		at: 0,
		temps: [
			makeTemp(),
			makeTemp({label: 'Tccd1', celsius: 68.5, max: null, headline: false, file: '/sys/class/hwmon/hwmon2/temp3_input'}),
			makeTemp({label: 'Tccd2', celsius: 76, max: null, headline: false, file: '/sys/class/hwmon/hwmon2/temp4_input'}),
		],
		clock: {
			averageMHz: 3850,
			maxMHz: 4200,
			cpus: [0, 1, 2, 3],
			cpusFrom: 'affinity',
			file: '/sys/devices/system/cpu/cpu{0-3}/cpufreq/scaling_cur_freq',
		},
		throttle: null,
		power: okPower(142.3),
		hashesPerWatt: 70.31,
		...overrides,
	};
}
