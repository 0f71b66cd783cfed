import {describe, expect, test} from 'vitest';
import {
	deriveSensorEvents,
	initialSensorEventState,
	TEMP_ALERT_POLLS,
	THROTTLE_QUIET_POLLS,
	type SensorEventOptions,
	type SensorEventState,
} from '../../source/monitor/sensor-events.js';
import type {SensorReading} from '../../source/sensors/types.js';
import {coretemp, DENIED_MESSAGE, DENIED_TOLD, k10temp, makeReading, powerOk} from '../helpers/sensors.js';

/** Runs the readings in order (undefined: a poll without one) and gives each poll's events as "kind: message". */
function run(readings: ReadonlyArray<SensorReading | undefined>, options: SensorEventOptions = {}) {
	let state: SensorEventState = initialSensorEventState;
	const polls: string[][] = [];
	for (const reading of readings) {
		const step = deriveSensorEvents(reading, state, options);
		state = step.state;
		polls.push(step.events.map((event) => `${event.kind}: ${event.message}`));
	}

	return {polls, all: polls.flat(), state};
}

const xeon = (celsius: number, cores = celsius - 3) =>
	makeReading({temps: [coretemp(0, 'Package id 0', celsius), coretemp(0, 'Core 0', cores), coretemp(0, 'Core 1', cores - 1)]});

describe('temperature', () => {
	test('at or over the sensor’s max for three polls in a row is one warning naming it; under max less 2 °C, its recovery', () => {
		const {polls, state} = run([xeon(70), xeon(80), xeon(81), xeon(82), xeon(85), xeon(79), xeon(78.5), xeon(77.9), xeon(80)]);
		expect(polls.slice(0, 3)).toEqual([[], [], []]);
		expect(polls[3]).toEqual(['temp-high: CPU hot: Package id 0 82°C, at or over its max (80°C) for 3 polls']);
		// Still hot, then 79 and 78.5 are within the 2 °C of hysteresis: nothing.
		expect(polls.slice(4, 7)).toEqual([[], [], []]);
		expect(polls[7]).toEqual(['temp-normal: CPU temperature back under its max: Package id 0 78°C']);
		// One poll at max again starts a new streak, not an alert.
		expect(polls[8]).toEqual([]);
		expect(state.hot).toBe(false);
	});

	test('a streak broken by one cool poll starts again', () => {
		const {all} = run([xeon(80), xeon(80), xeon(79), xeon(80), xeon(80)]);
		expect(all).toEqual([]);
		expect(run([xeon(80), xeon(80), xeon(79), xeon(80), xeon(80), xeon(80)]).all).toHaveLength(1);
	});

	test('--temp-alert is every sensor’s limit: k10temp has no max of its own, and is judged only with it', () => {
		const ryzen = (tctl: number, ccd: number) =>
			makeReading({temps: [k10temp('Tctl', tctl), k10temp('Tccd1', ccd), k10temp('Tccd2', ccd - 1)]});
		const readings = [ryzen(90, 88), ryzen(91, 89), ryzen(92, 90), ryzen(80, 70)];
		expect(run(readings).all).toEqual([]);
		expect(run(readings, {tempAlertC: 85}).all).toEqual([
			'temp-high: CPU hot: Tctl 92°C, Tccd1 90°C and 1 more, at or over --temp-alert 85°C for 3 polls',
			'temp-normal: CPU temperature back under --temp-alert 85°C: Tctl 80°C',
		]);
		// Under the coretemp's own max of 80 °C, but over the threshold given: the threshold wins.
		expect(run([xeon(76), xeon(76), xeon(76)], {tempAlertC: 75}).all).toEqual([
			'temp-high: CPU hot: Package id 0 76°C, at or over --temp-alert 75°C for 3 polls',
		]);
	});

	test('two packages: the second getting hot too is said, naming its package; the recovery waits for both', () => {
		const dual = (a: number, b: number) =>
			makeReading({
				temps: [coretemp(0, 'Package id 0', a), coretemp(0, 'Core 0', a - 5), coretemp(1, 'Package id 1', b), coretemp(1, 'Core 0', b)],
			});
		const {polls} = run([dual(81, 60), dual(81, 60), dual(81, 81), dual(81, 81), dual(81, 81), dual(70, 81), dual(70, 70)]);
		expect(polls[1]).toEqual([]);
		expect(polls[2]).toEqual(['temp-high: CPU hot: Package id 0 81°C, at or over its max (80°C) for 3 polls']);
		expect(polls[4]).toEqual(['temp-high: CPU hot too: Package id 1 81°C and Core 0 of package 1 81°C, at or over their max for 3 polls']);
		// Package 0 back, package 1 still hot: no recovery yet.
		expect(polls[5]).toEqual([]);
		expect(polls[6]).toEqual(['temp-normal: CPU temperature back under its max: Package id 0 70°C']);
	});

	test('a poll without a reading, or a sensor missing from one, changes nothing', () => {
		const {polls, state} = run([xeon(85, 70), undefined, xeon(85, 70), makeReading(), xeon(85, 70), makeReading(), xeon(60)]);
		expect(polls[4]).toEqual(['temp-high: CPU hot: Package id 0 85°C, at or over its max (80°C) for 3 polls']);
		expect(polls[5]).toEqual([]);
		expect(polls[6]).toEqual(['temp-normal: CPU temperature back under its max: Package id 0 60°C']);
		expect(state.hot).toBe(false);
		expect(TEMP_ALERT_POLLS).toBe(3);
	});
});

describe('throttling', () => {
	const at = (count: number | null, seconds: number) => makeReading({throttle: count, at: 1_764_000_000_000 + seconds * 1000});

	test('the count rising is a warning once; still for five polls, its end with how long it lasted', () => {
		const readings = [at(12, 0), at(12, 2), at(30, 4), at(41, 6), at(41, 8), at(41, 10), at(41, 12), at(41, 14), at(41, 16), at(41, 18)];
		const {polls} = run(readings);
		expect(polls.slice(0, 2)).toEqual([[], []]);
		expect(polls[2]).toEqual(['throttle-started: CPU throttling: thermal_throttle count up by 18 (30 since boot)']);
		expect(polls.slice(3, 3 + THROTTLE_QUIET_POLLS)).toEqual([[], [], [], [], []]);
		expect(polls[8]).toEqual(['throttle-stopped: CPU throttling stopped after 12s (the count still for 5 polls)']);
		expect(polls[9]).toEqual([]);
	});

	test('a rise within the quiet polls keeps it going; a count that went back (a reboot) is a new baseline, no event', () => {
		const {all} = run([at(5, 0), at(6, 2), at(6, 4), at(6, 6), at(7, 8), at(7, 10), at(0, 12), at(0, 14), at(0, 16), at(0, 18), at(0, 20)]);
		expect(all).toEqual([
			'throttle-started: CPU throttling: thermal_throttle count up by 1 (6 since boot)',
			'throttle-stopped: CPU throttling stopped after 16s (the count still for 5 polls)',
		]);
	});

	test('a machine without the counter (ARM, AMD) says nothing', () => {
		expect(run([at(null, 0), at(null, 2), at(null, 4)]).all).toEqual([]);
	});
});

describe('package power', () => {
	const power = (reading: SensorReading['power']) => makeReading({power: reading});

	test('read, then lost, then read again: a warning with the reader’s reason and its recovery', () => {
		const {all} = run([
			power(powerOk(120)),
			power(powerOk(121)),
			power({state: 'lost', message: 'intel-rapl:0/energy_uj could not be read: EIO'}),
			power({state: 'lost', message: 'intel-rapl:0/energy_uj could not be read: EIO'}),
			power(powerOk(118)),
		]);
		expect(all).toEqual([
			'power-lost: package power reading lost: intel-rapl:0/energy_uj could not be read: EIO',
			'power-restored: package power read again: 118 W',
		]);
	});

	test('the reader’s own line is said without its "power: " lead', () => {
		const lost = {state: 'lost', message: 'power: /sys/class/powercap/intel-rapl:0/energy_uj cannot be read any more (EIO)'} as const;
		expect(run([power(powerOk(90)), power(lost)]).all).toEqual([
			'power-lost: package power reading lost: /sys/class/powercap/intel-rapl:0/energy_uj cannot be read any more (EIO)',
		]);
	});

	test('the zones vanishing is a loss too; never read at all is none', () => {
		expect(run([power(powerOk(90)), power({state: 'none'})]).all).toEqual([
			'power-lost: package power reading lost: no powercap zone any more',
		]);
		expect(run([power(powerOk(90)), power({state: 'ok', packages: [], watts: null})]).all).toHaveLength(1);
		expect(run([power({state: 'none'}), power({state: 'none'})]).all).toEqual([]);
	});

	test('refused from the start is said once, as information, with what would allow it; reading it later is no recovery', () => {
		const denied = power({state: 'denied', message: DENIED_MESSAGE});
		const {all} = run([denied, denied, denied, power(powerOk(100))]);
		expect(all).toEqual([`power-denied: package power not shown: ${DENIED_TOLD}`]);
		expect(DENIED_TOLD).toMatch(/^\/sys\/class\/powercap\/intel-rapl:0\/energy_uj is root-only; run rigtop as root/);
	});

	test('the first reading’s watts are unknown (no earlier energy to compare): still read, no event', () => {
		expect(
			run([power({state: 'ok', packages: [{package: 0, name: 'package-0', watts: null, file: 'f'}], watts: null}), power(powerOk(100))])
				.all,
		).toEqual([]);
	});
});
