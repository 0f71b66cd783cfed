/** `--once` and `--once --json` with this machine's sensors beside a miner on loopback (RIGTOP_SYSFS trees). */
import {afterEach, describe, expect, it} from 'vitest';
import type {RunPlan} from '../../../source/commands/command.js';
import {runOnce} from '../../../source/commands/once/once.js';
import {formatOnceText} from '../../../source/commands/once/report.js';
import {deniedMessage} from '../../../source/sensors/sampler.js';
import type {SensorReading} from '../../../source/sensors/types.js';
import {createSession, type MonitorSettings} from '../../../source/session/session.js';
import {startSimulator} from '../../../source/sim/simulator.js';
import {makeSnapshot} from '../../helpers/snapshot.js';
import {fixture, treeCopy} from '../../sensors/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function sink(): NodeJS.WritableStream & {text(): string} {
	let text = '';
	return {
		write(chunk: string) {
			text += chunk;
			return true;
		},
		text: () => text,
	} as unknown as NodeJS.WritableStream & {text(): string};
}

async function once(json: boolean, settings: MonitorSettings): Promise<string> {
	const sim = await startSimulator({threads: 4, warm: true});
	cleanups.push(async () => sim.stop());
	const session = createSession([{url: sim.url, token: null, name: 'here'}], 2000, null, settings);
	cleanups.push(async () => session.close());
	const out = sink();
	expect(await runOnce(session, {json} as RunPlan, out)).toBe(0);
	return out.text();
}

describe('rigtop --once with sensors', () => {
	it('says each package headline with its max, the core range, the clock, throttling and the power', async () => {
		const text = await once(false, {sysfsRoot: fixture('coretemp-2pkg')});
		expect(text).toMatch(
			/^ {2}temp {6}Package id 0 55°C \(max 84°C\) {2}cores 52°C–53°C\n {12}Package id 1 58°C \(max 84°C\) {2}cores 55°C–56°C$/m,
		);
		expect(text).toMatch(/^ {2}clock {5}2\.\d\d GHz of 3\.70 GHz {2}over (the miner's )?\d CPUs {2}throttled \d+×$/m);
		expect(text).toMatch(/^ {2}power {5}— {2}package-0 — {2}package-1 — {2}—$/m);
		expect(text.split('\n').every((line) => line.length <= 80)).toBe(true);
	});

	it('says in one line what would allow reading a root-only energy_uj, and the rest beside it', () => {
		const sensors: SensorReading = {
			at: 0,
			temps: [{source: 'k10temp', package: 0, label: 'Tctl', celsius: 71.25, max: null, crit: null, headline: true, file: '/sys/x'}],
			clock: null,
			throttle: null,
			power: {state: 'denied', message: deniedMessage('/sys/class/powercap/intel-rapl:0/energy_uj')},
			hashesPerWatt: null,
		};
		const text = formatOnceText([{url: 'http://127.0.0.1:8080', name: 'here', snapshot: makeSnapshot({sensors}), error: null}], 0);
		expect(text).toMatch(/^ {2}temp {6}Tctl 71°C$/m);
		expect(text).toMatch(/^ {2}power {5}\/sys\/class\/powercap\/intel-rapl:0\/energy_uj is root-only; run rigtop$/m);
		expect(text).toMatch(/^ {12}as root, or sudo chmod o\+r it/m);
	});

	it("says the clock is over the miner's CPUs when they are its threads' (pinned or last run on), one CPU in the singular", () => {
		const text = (from: 'affinity' | 'process' | 'online', cpus: number[]): string => {
			const clock = {averageMHz: 3800, maxMHz: 4650, cpus, cpusFrom: from, file: '/sys/x'};
			const sensors: SensorReading = {at: 0, temps: [], clock, throttle: null, power: {state: 'none'}, hashesPerWatt: null};
			return formatOnceText([{url: 'http://127.0.0.1:8080', name: 'here', snapshot: makeSnapshot({sensors}), error: null}], 0);
		};
		expect(text('process', [3])).toMatch(/^ {2}clock {5}3\.80 GHz of 4\.65 GHz {2}over the miner's 1 CPU$/m);
		expect(text('process', [2, 3])).toMatch(/over the miner's 2 CPUs$/m);
		expect(text('affinity', [0, 1, 2])).toMatch(/over the miner's 3 CPUs$/m);
		expect(text('online', [0, 1, 2, 3])).toMatch(/ {2}over 4 CPUs$/m);
	});

	it('carries every reading in --json with the file it came from', async () => {
		const json = JSON.parse(await once(true, {sysfsRoot: fixture('k10temp-tccd')})) as {
			miners: Array<{
				miner: {
					sensors: {
						temps: Array<{label: string; file: string}>;
						clock: {file: string};
						power: {state: string; packages: Array<{file: string; watts: number}>};
					};
				};
			}>;
		};
		const sensors = json.miners[0]?.miner.sensors;
		expect(sensors?.temps.map((temp) => [temp.label, temp.file])).toEqual([
			['Tctl', '/sys/class/hwmon/hwmon1/temp1_input'],
			['Tccd1', '/sys/class/hwmon/hwmon1/temp3_input'],
			['Tccd2', '/sys/class/hwmon/hwmon1/temp4_input'],
		]);
		expect(sensors?.clock.file).toMatch(/^\/sys\/devices\/system\/cpu\/cpu\{?[\d,-]+\}?\/cpufreq\/scaling_cur_freq$/);
		expect(sensors?.power).toMatchObject({state: 'ok', packages: [{file: '/sys/class/powercap/intel-rapl:0/energy_uj', watts: null}]});
	});

	it('measures the power over a quarter second at least: a counter that moves in between gives watts', async () => {
		const tree = treeCopy('k10temp-tccd');
		cleanups.push(tree.cleanup);
		// The package used 20 J 100 ms after the first reading: a poll read at once (a few ms on loopback) would see
		// the counter unmoved and say nothing; read after the window, it says at most 20 J / 0.25 s = 80 W. The move is
		// timed from the first reading itself (not from the test's start, which a loaded machine can stretch past it),
		// and both it and the window's end are timers of this process: the move, due first, always comes first.
		const sim = await startSimulator({threads: 4, warm: true});
		cleanups.push(async () => sim.stop());
		const session = createSession([{url: sim.url, token: null, name: 'here'}], 2000, null, {sysfsRoot: tree.root});
		cleanups.push(async () => session.close());
		const sampler = session.miners[0]?.sensors;
		if (!sampler) throw new Error('no sensors for a miner on loopback');
		const read = sampler.read.bind(sampler);
		let readings = 0;
		sampler.read = async (snapshot) => {
			const reading = await read(snapshot);
			readings++;
			if (readings === 1) {
				const moved = setTimeout(() => {
					tree.write('class/powercap/intel-rapl:0/energy_uj', String(1_000_000_000 + 20_000_000));
				}, 100);
				cleanups.push(() => {
					clearTimeout(moved);
				});
			}

			return reading;
		};

		const out = sink();
		expect(await runOnce(session, {json: true} as RunPlan, out)).toBe(0);
		expect(readings).toBe(2);
		const json = JSON.parse(out.text()) as {miners: Array<{miner: {sensors: {power: {watts: number}}}}>};
		const watts = json.miners[0]?.miner.sensors.power.watts ?? 0;
		expect(watts).toBeGreaterThan(10);
		expect(watts).toBeLessThanOrEqual(80);
	});
});
