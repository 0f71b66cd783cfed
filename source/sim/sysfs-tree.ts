/**
 * A simulated sysfs for the demo and xmrig-sim's --sim-sysfs: an AMD Zen rig as the kernel shows it (k10temp with Tctl
 * and two CCDs, cpufreq for each CPU, a powercap package zone), its temperatures and clocks drifting and its
 * energy_uj growing at a plausible 85–110 W; the counter is rewritten every 50 ms, the rest every second. rigtop reads it with RIGTOP_SYSFS (or the demo's
 * own sensor root) as it would read /sys. Each file is replaced whole (written aside, then renamed), so a read never
 * sees one half-written.
 */
import {mkdir, rename, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {createRandom} from './random.js';

export type SimSysfs = {
	readonly root: string;
	/** Writes the next second's values now (tests). */
	step(): Promise<void>;
	stop(): void;
};

/** max_energy_range_uj of a Zen package zone: energy_uj wraps to 0 past it. */
const ENERGY_RANGE_UJ = 65_532_610_987;
const MAX_KHZ = 4_650_000;

/** Starts the tree under `root` (created), for `cpus` CPUs, updated every `intervalMs` (default 1 s). */
export async function startSimSysfs(
	root: string,
	options: {readonly cpus?: number; readonly intervalMs?: number; readonly energyIntervalMs?: number; readonly seed?: number} = {},
): Promise<SimSysfs> {
	const cpus = Math.max(1, options.cpus ?? 8);
	const random = createRandom(options.seed ?? Date.now());
	const hwmon = 'class/hwmon/hwmon2';
	const zone = 'class/powercap/intel-rapl:0';
	let watts = 97;
	let tctl = 72;
	let energy = Math.floor(random.next() * ENERGY_RANGE_UJ);
	let last = Date.now();
	let stopped = false;

	const put = async (relative: string, text: string) => {
		const file = path.join(root, relative);
		const aside = `${file}.${process.pid}.tmp`;
		await writeFile(aside, `${text}\n`);
		await rename(aside, file);
	};

	// The package's energy so far, at the watts of the moment.
	const advanceEnergy = () => {
		const now = Date.now();
		energy = (energy + Math.round(watts * Math.max(0, now - last) * 1000)) % ENERGY_RANGE_UJ;
		last = now;
	};

	const step = async () => {
		// A slow random walk kept inside the rig's range: watts 85–110, Tctl 64–82 °C following the power.
		advanceEnergy();
		watts = Math.min(110, Math.max(85, watts + random.normal() * 1.5));
		tctl = Math.min(82, Math.max(64, tctl + (58 + watts / 5 - tctl) * 0.1 + random.normal() * 0.4));
		const milli = (celsius: number) => String(Math.round(celsius * 8) * 125);
		await Promise.all([
			put(`${hwmon}/temp1_input`, milli(tctl)),
			put(`${hwmon}/temp3_input`, milli(tctl - 3 + random.normal() * 0.3)),
			put(`${hwmon}/temp4_input`, milli(tctl - 4.5 + random.normal() * 0.3)),
			...Array.from({length: cpus}, async (_, cpu) =>
				put(
					`devices/system/cpu/cpu${cpu}/cpufreq/scaling_cur_freq`,
					String(Math.round(3_900_000 + random.normal() * 60_000 - (tctl - 70) * 8000)),
				),
			),
		]);
	};

	// One write at a time, so the counter never goes back.
	let writing = false;
	const writeEnergy = async () => {
		if (writing) return;
		writing = true;
		try {
			advanceEnergy();
			await put(`${zone}/energy_uj`, String(energy));
		} finally {
			writing = false;
		}
	};

	const dirs = [hwmon, zone, ...Array.from({length: cpus}, (_, cpu) => `devices/system/cpu/cpu${cpu}/cpufreq`)];
	await Promise.all(dirs.map(async (dir) => mkdir(path.join(root, dir), {recursive: true})));
	await Promise.all([
		put(`${hwmon}/name`, 'k10temp'),
		put(`${hwmon}/temp1_label`, 'Tctl'),
		put(`${hwmon}/temp3_label`, 'Tccd1'),
		put(`${hwmon}/temp4_label`, 'Tccd2'),
		put('devices/system/cpu/online', cpus === 1 ? '0' : `0-${cpus - 1}`),
		put(`${zone}/name`, 'package-0'),
		put(`${zone}/max_energy_range_uj`, String(ENERGY_RANGE_UJ)),
		...Array.from({length: cpus}, async (_, cpu) => put(`devices/system/cpu/cpu${cpu}/cpufreq/cpuinfo_max_freq`, String(MAX_KHZ))),
	]);
	await step();
	await writeEnergy();

	const timer = setInterval(() => {
		if (!stopped) void step().catch(() => undefined);
	}, options.intervalMs ?? 1000);
	timer.unref();
	// A real package's counter moves about every millisecond; one rewritten each second made `--once`'s quarter-second
	// window read no change or a whole second's energy (— or about 4× the watts). Every 50 ms it is within a fifth.
	const energyTimer = setInterval(() => {
		if (!stopped) void writeEnergy().catch(() => undefined);
	}, options.energyIntervalMs ?? 50);
	energyTimer.unref();
	return {
		root,
		async step() {
			await step();
			await writeEnergy();
		},
		stop() {
			stopped = true;
			clearInterval(timer);
			clearInterval(energyTimer);
		},
	};
}
