/**
 * One look over sysfs for what the sensor reader will read at each poll: which hwmon (or thermal zone) files hold the
 * CPU's temperatures and their limits, which CPUs have cpufreq and thermal_throttle, which powercap zones count a
 * package's energy. The limits and maximum clocks are read here once; a poll reads only the changing files.
 */
import {realpath} from 'node:fs/promises';
import path from 'node:path';
import {cleanOrNull} from '../text/clean.js';
import {parseCpuList, type Sysfs} from './sysfs.js';
import type {TempSource} from './types.js';

export type TempSpec = {
	readonly source: TempSource;
	readonly package: number;
	readonly label: string;
	/** The file holding the value (millidegrees), relative to the root. */
	readonly input: string;
	readonly max: number | null;
	readonly crit: number | null;
	readonly headline: boolean;
};

export type CpuSpec = {
	readonly cpu: number;
	/** cpufreq's scaling_cur_freq (kHz), relative; null where the CPU has no cpufreq. */
	readonly cur: string | null;
	readonly maxMHz: number | null;
	/** thermal_throttle's package and core counters, relative; empty where the kernel counts none. */
	readonly throttle: readonly string[];
};

export type ZoneSpec = {
	readonly package: number;
	readonly name: string;
	/** energy_uj, relative. */
	readonly energy: string;
	/** max_energy_range_uj: where energy_uj wraps to 0; null where unknown. */
	readonly range: number | null;
};

export type Layout = {
	readonly temps: readonly TempSpec[];
	readonly cpus: ReadonlyMap<number, CpuSpec>;
	/** Every online CPU (devices/system/cpu/online), else every CPU found. */
	readonly online: readonly number[];
	/** Whether any CPU has a clock (cpufreq) or throttle counters to read: none in many VMs and containers. */
	readonly clocked: boolean;
	readonly zones: readonly ZoneSpec[];
};

const HWMON = 'class/hwmon';
const THERMAL = 'class/thermal';
const CPU = 'devices/system/cpu';
const POWERCAP = 'class/powercap';

export async function scanSysfs(sysfs: Sysfs): Promise<Layout> {
	const [hwmonTemps, cpus, zones] = await Promise.all([scanHwmon(sysfs), scanCpus(sysfs), scanPowercap(sysfs)]);
	const temps = hwmonTemps.length > 0 ? hwmonTemps : await scanThermalZones(sysfs);
	return {temps, ...cpus, zones};
}

function celsius(milli: number | null): number | null {
	return milli === null ? null : milli / 1000;
}

/** Each package's sensors, the headline first; packages in order. */
function ordered(temps: TempSpec[]): TempSpec[] {
	return temps.sort((a, b) => a.package - b.package || Number(b.headline) - Number(a.headline));
}

async function scanHwmon(sysfs: Sysfs): Promise<TempSpec[]> {
	const temps: TempSpec[] = [];
	const seen = new Map<string, number>();
	for (const entry of await sysfs.list(HWMON)) {
		const dir = `${HWMON}/${entry}`;
		const name = await sysfs.text(`${dir}/name`);
		if (name !== 'k10temp' && name !== 'zenpower' && name !== 'coretemp') continue;
		const nth = seen.get(name) ?? 0;
		seen.set(name, nth + 1);
		const sensors = await hwmonSensors(sysfs, dir);
		if (sensors.length === 0) continue;
		let pkg = nth;
		if (name === 'coretemp') {
			const packageLabel = sensors.map((sensor) => /^Package id (\d+)$/.exec(sensor.label)).find(Boolean);
			if (packageLabel) pkg = Number(packageLabel[1]);
			else {
				const device = await devicePackage(sysfs, dir);
				if (device !== null) pkg = device;
			}
		}

		const preferred =
			name === 'coretemp'
				? sensors.find((sensor) => sensor.label.startsWith('Package id'))
				: name === 'k10temp'
					? (sensors.find((sensor) => sensor.label === 'Tctl') ?? sensors.find((sensor) => sensor.label === 'Tdie'))
					: (sensors.find((sensor) => sensor.label === 'Tdie') ?? sensors.find((sensor) => sensor.label === 'Tctl'));
		const headline = preferred ?? sensors[0];
		for (const sensor of sensors) temps.push({source: name, package: pkg, ...sensor, headline: sensor === headline});
	}

	return ordered(temps);
}

/** coretemp's package from its device ("…/coretemp.1"), where the label does not say. */
async function devicePackage(sysfs: Sysfs, dir: string): Promise<number | null> {
	try {
		const device = await realpath(sysfs.resolve(`${dir}/device`));
		const match = /\.(\d+)$/.exec(path.basename(device));
		return match ? Number(match[1]) : null;
	} catch {
		return null;
	}
}

async function hwmonSensors(sysfs: Sysfs, dir: string) {
	const files = await sysfs.list(dir);
	const indexes = files
		.map((file) => /^temp(\d+)_input$/.exec(file)?.[1])
		.filter((index): index is string => index !== undefined)
		.map(Number)
		.sort((a, b) => a - b);
	return Promise.all(
		indexes.map(async (index) => {
			const base = `${dir}/temp${index}`;
			const [label, max, crit] = await Promise.all([
				sysfs.text(`${base}_label`),
				sysfs.integer(`${base}_max`),
				sysfs.integer(`${base}_crit`),
			]);
			// A driver's label is shown as it is read: cleaned like any text from outside.
			return {label: cleanOrNull(label) ?? `temp${index}`, input: `${base}_input`, max: celsius(max), crit: celsius(crit)};
		}),
	);
}

/** The zone types that are a CPU's on ARM boards (cpu_thermal, cpu-thermal, soc_thermal, bigcore0-thermal…) and x86's. */
const HEADLINE_ZONES = ['cpu_thermal', 'cpu-thermal', 'soc_thermal', 'soc-thermal', 'x86_pkg_temp'];

function isCpuZone(type: string): boolean {
	return HEADLINE_ZONES.includes(type) || /cpu|soc|core/i.test(type);
}

async function scanThermalZones(sysfs: Sysfs): Promise<TempSpec[]> {
	const zones: Array<Omit<TempSpec, 'headline' | 'package'>> = [];
	for (const entry of await sysfs.list(THERMAL)) {
		if (!/^thermal_zone\d+$/.test(entry)) continue;
		const dir = `${THERMAL}/${entry}`;
		const type = await sysfs.text(`${dir}/type`);
		if (type === null || !isCpuZone(type)) continue;
		const limits: number[] = [];
		let crit: number | null = null;
		for (const file of await sysfs.list(dir)) {
			const match = /^trip_point_(\d+)_type$/.exec(file);
			if (!match) continue;
			const [kind, temp] = await Promise.all([sysfs.text(`${dir}/${file}`), sysfs.integer(`${dir}/trip_point_${match[1]}_temp`)]);
			if (temp === null || temp <= 0) continue;
			if (kind === 'passive' || kind === 'hot') limits.push(temp);
			else if (kind === 'critical') crit = crit === null ? temp : Math.min(crit, temp);
		}

		zones.push({
			source: 'thermal-zone',
			label: type,
			input: `${dir}/temp`,
			max: limits.length > 0 ? celsius(Math.min(...limits)) : null,
			crit: celsius(crit),
		});
	}

	// x86_pkg_temp is one zone per package; an ARM board's zones are all package 0, with one headline.
	const packages = zones.filter((zone) => zone.label === 'x86_pkg_temp');
	if (packages.length > 0) return packages.map((zone, index) => ({...zone, package: index, headline: true}));
	const headline = zones.find((zone) => HEADLINE_ZONES.includes(zone.label)) ?? zones[0];
	return ordered(zones.map((zone) => ({...zone, package: 0, headline: zone === headline})));
}

async function scanCpus(sysfs: Sysfs): Promise<{cpus: Map<number, CpuSpec>; online: number[]; clocked: boolean}> {
	const found = (await sysfs.list(CPU))
		.map((entry) => /^cpu(\d+)$/.exec(entry)?.[1])
		.filter((index): index is string => index !== undefined)
		.map(Number);
	const onlineText = await sysfs.text(`${CPU}/online`);
	const online = onlineText === null ? found.sort((a, b) => a - b) : parseCpuList(onlineText);
	const specs = await Promise.all(
		online.map(async (cpu): Promise<CpuSpec> => {
			const dir = `${CPU}/cpu${cpu}`;
			const [cur, max, packageCount, coreCount] = await Promise.all([
				sysfs.integer(`${dir}/cpufreq/scaling_cur_freq`),
				sysfs.integer(`${dir}/cpufreq/cpuinfo_max_freq`),
				sysfs.integer(`${dir}/thermal_throttle/package_throttle_count`),
				sysfs.integer(`${dir}/thermal_throttle/core_throttle_count`),
			]);
			const throttle: string[] = [];
			if (packageCount !== null) throttle.push(`${dir}/thermal_throttle/package_throttle_count`);
			if (coreCount !== null) throttle.push(`${dir}/thermal_throttle/core_throttle_count`);
			return {
				cpu,
				cur: cur === null ? null : `${dir}/cpufreq/scaling_cur_freq`,
				maxMHz: max === null ? null : max / 1000,
				throttle,
			};
		}),
	);
	const clocked = specs.some((spec) => spec.cur !== null || spec.throttle.length > 0);
	return {cpus: new Map(specs.map((spec) => [spec.cpu, spec])), online, clocked};
}

/** The package zones (intel-rapl:N named package-N; AMD Zen's too), not their sub-zones (intel-rapl:N:M) nor psys. */
async function scanPowercap(sysfs: Sysfs): Promise<ZoneSpec[]> {
	const zones: ZoneSpec[] = [];
	for (const entry of await sysfs.list(POWERCAP)) {
		const match = /^intel-rapl:(\d+)$/.exec(entry);
		if (!match) continue;
		const dir = `${POWERCAP}/${entry}`;
		const name = await sysfs.text(`${dir}/name`);
		if (name === null || !name.startsWith('package')) continue;
		const pkg = /^package-(\d+)$/.exec(name)?.[1];
		zones.push({
			package: pkg === undefined ? Number(match[1]) : Number(pkg),
			name,
			energy: `${dir}/energy_uj`,
			range: await sysfs.integer(`${dir}/max_energy_range_uj`),
		});
	}

	return zones.sort((a, b) => a.package - b.package);
}
