/**
 * What rigtop reads on the rig itself, beside the miner's answer: the CPU's temperature (hwmon, or an ARM board's
 * thermal zone), its clock (cpufreq) and throttling (thermal_throttle), and the package's power (powercap's
 * `energy_uj`). Read only for a miner on this machine, under a root that defaults to /sys (RIGTOP_SYSFS in tests; its
 * process's threads under /proc, RIGTOP_PROC).
 * No React and no I/O here: the shapes only.
 */

/** Which kernel interface a temperature came from. */
export type TempSource = 'k10temp' | 'zenpower' | 'coretemp' | 'thermal-zone';

/** One temperature sensor, e.g. k10temp's Tctl, coretemp's "Package id 0" or "Core 3", an ARM board's cpu_thermal zone. */
export type TempSensor = {
	readonly source: TempSource;
	/** 0-based CPU package (socket) the sensor belongs to; 0 on a one-package machine and on ARM boards. */
	readonly package: number;
	/** The sensor's own label (`temp1_label`), else its driver's name for it ("Tctl", "Package id 0", "Core 3", "cpu_thermal"). */
	readonly label: string;
	/** °C (the kernel's millidegrees / 1000). */
	readonly celsius: number;
	/** °C: the sensor's own `tempN_max` (a thermal zone: its lowest passive or hot trip point); null where it has none. */
	readonly max: number | null;
	/** °C: the sensor's own `tempN_crit` (a thermal zone: its critical trip point); null where it has none. */
	readonly crit: number | null;
	/** Whether this is the package's headline sensor (Tctl/Tdie, "Package id N", the CPU zone); exactly one per package. */
	readonly headline: boolean;
	/** The file read, as the user would `cat` it (under /sys even when RIGTOP_SYSFS moved the root), for --json. */
	readonly file: string;
};

/** The clock of the CPUs the miner's threads run on (cpufreq). */
export type ClockReading = {
	/** MHz: the mean of `scaling_cur_freq` over those CPUs. */
	readonly averageMHz: number;
	/** MHz: the highest `cpuinfo_max_freq` among them; null where no CPU says. */
	readonly maxMHz: number | null;
	/** The CPUs averaged over (the miner's threads' affinity, its threads' last CPUs, or every online CPU; at most 32, spread evenly). */
	readonly cpus: readonly number[];
	/**
	 * How `cpus` was chosen, for --json and --once ("over the miner's N CPUs"): the threads' affinity; unpinned,
	 * the CPUs the miner process's threads last ran on (`/proc/PID/task/TID/stat`, that process found by its HTTP port);
	 * else every online CPU.
	 */
	readonly cpusFrom: 'affinity' | 'process' | 'online';
	/** The files read, as a pattern: "/sys/devices/system/cpu/cpu{0-7}/cpufreq/scaling_cur_freq". */
	readonly file: string;
};

/** thermal_throttle's counters summed over the miner's CPUs (package and core), where the kernel counts them (x86). */
export type ThrottleReading = {
	/** package_throttle_count + core_throttle_count, summed; the event is its rise between two polls. */
	readonly count: number;
	/** Whether the count rose since the previous reading (false on the first). */
	readonly rising: boolean;
	readonly file: string;
};

/** One package's power between two polls, from `intel-rapl:N/energy_uj` (AMD Zen exposes the same on current kernels). */
export type PackagePower = {
	readonly package: number;
	/** The zone's own `name` ("package-0"). */
	readonly name: string;
	/** W over the time since the previous reading, wrap-around (max_energy_range_uj) handled; null on the first reading. */
	readonly watts: number | null;
	readonly file: string;
};

export type PowerReading =
	| {readonly state: 'ok'; readonly packages: readonly PackagePower[]; readonly watts: number | null}
	/** energy_uj exists but rigtop may not read it (root-only since 2020 kernels); `message` says once what would allow it. */
	| {readonly state: 'denied'; readonly message: string}
	/** Was readable, is not any more (the event "power reading lost"); `message` says why in one line. */
	| {readonly state: 'lost'; readonly message: string}
	/** No powercap zone on this machine. */
	| {readonly state: 'none'};

export type SensorReading = {
	/** Epoch ms of the reading. */
	readonly at: number;
	/** Every CPU temperature found, package by package, the headline first in each; empty where none. */
	readonly temps: readonly TempSensor[];
	readonly clock: ClockReading | null;
	readonly throttle: ThrottleReading | null;
	readonly power: PowerReading;
	/** H/W: the miner's 10 s hashrate (else 60 s) over the package watts; null where either is unknown. */
	readonly hashesPerWatt: number | null;
};

/**
 * What a sampler reads of its miner's latest snapshot: the hashrate (for hashes per watt) and the threads' backends and
 * pinning (for which CPUs' clock to read). The miner's `MinerSnapshot` (source/miner/model.ts) meets this shape; the
 * sensors stand below the miner and do not import it.
 */
export type SnapshotView = {
	readonly hashrate: {readonly total: readonly [number | null, number | null, ...Array<number | null>]};
	readonly threads: ReadonlyArray<{readonly backend: string; readonly affinity: number | null}>;
};
