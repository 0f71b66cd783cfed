/**
 * One miner's sensor reader: scans sysfs once (again every few minutes, or soon after a read failed), then at each
 * poll reads only the temperature inputs, the clocks of the miner's CPUs, their throttle counters and the package
 * energy counters, and keeps what the next reading needs (the energy and the time it was read, the throttle count).
 * The miner's CPUs are those its threads are pinned to; unpinned, those its threads last ran on, when its process
 * (the one listening on its HTTP port) can be looked into; else every online CPU.
 * A reading never throws: a broken or missing tree gives an empty or partial one.
 */
import {listeningPid, procRoot, threadCpus} from './proc.js';
import {scanSysfs, type Layout, type ZoneSpec} from './scan.js';
import {cpuPattern, Sysfs, sysfsRoot, type ReadText} from './sysfs.js';
import type {ClockReading, PackagePower, PowerReading, SensorReading, SnapshotView, TempSensor, ThrottleReading} from './types.js';

export type SamplerOptions = {
	/** The sysfs root; default RIGTOP_SYSFS, else /sys. */
	readonly root?: string | undefined;
	/** How a file is read (tests: a reader that refuses what a non-root user could not read). */
	readonly read?: ReadText;
	/** Epoch ms; tests set it so watts between two readings are exact. */
	readonly now?: () => number;
	/** How long a scan holds (default 5 minutes); the miner's process is looked for again as often. */
	readonly rescanMs?: number;
	/** The miner's HTTP port on this machine: its process's threads give the CPUs when they are not pinned. */
	readonly port?: number | undefined;
	/** The /proc root; default RIGTOP_PROC, else /proc. */
	readonly procRoot?: string | undefined;
	/** rigtop's own process, never taken for the miner's (a simulated one answers from inside it); default process.pid. */
	readonly selfPid?: number;
};

/** A scan holds this long; a failed read brings the next one forward, but not sooner than RETRY_MS after the last. */
const RESCAN_MS = 5 * 60_000;
const RETRY_MS = 30_000;

/** The one line said when energy_uj may not be read: what would allow it. */
export function deniedMessage(file: string): string {
	return `power: ${file} is root-only; run rigtop as root, or sudo chmod o+r it (a udev rule keeps that after a reboot)`;
}

/** At most this many CPUs are read at a poll: a big machine's clock is the mean of an even spread of them. */
export const MAX_CPUS_READ = 32;

/** `cpus` itself, or MAX_CPUS_READ of them spread evenly from the first to the last. */
function spread(cpus: readonly number[]): number[] {
	if (cpus.length <= MAX_CPUS_READ) return [...cpus];
	const step = (cpus.length - 1) / (MAX_CPUS_READ - 1);
	return Array.from({length: MAX_CPUS_READ}, (_, index) => cpus[Math.round(index * step)] ?? 0);
}

export class SensorSampler {
	readonly #sysfs: Sysfs;
	readonly #now: () => number;
	readonly #rescanMs: number;
	#layout: Layout | null = null;
	#scannedAt = 0;
	#scanning: Promise<Layout> | null = null;
	#failed = false;
	/** The miner's pinned CPUs, kept for polls that did not read its threads. */
	#affinity: readonly number[] = [];
	readonly #procRoot: string;
	readonly #port: number | null;
	readonly #selfPid: number;
	/** The miner's process, once found; when it was last looked for. */
	#pid: number | null = null;
	#lookedAt = Number.NEGATIVE_INFINITY;
	/** How many CPU threads the miner said it runs (kept for polls that did not read its threads). */
	#cpuThreads: number | null = null;
	/** Whether a reading has had the miner's snapshot: before one, whether its threads are pinned is not known. */
	#seenMiner = false;
	#throttle: {readonly file: string; readonly count: number} | null = null;
	readonly #energy = new Map<string, {readonly uj: number; readonly at: number; readonly watts: number | null}>();
	#powerRead = false;

	constructor(options: SamplerOptions = {}) {
		this.#sysfs = new Sysfs(sysfsRoot(options.root), options.read);
		this.#now = options.now ?? Date.now;
		this.#rescanMs = options.rescanMs ?? RESCAN_MS;
		this.#procRoot = procRoot(options.procRoot);
		this.#port = options.port !== undefined && options.port > 0 ? options.port : null;
		this.#selfPid = options.selfPid ?? process.pid;
	}

	/** The root read (for --json and the tests). */
	get root(): string {
		return this.#sysfs.root;
	}

	/**
	 * Starts the scan a first reading needs (about 20 ms of directory reads) without waiting for it: called as a poll
	 * starts, the scan runs while the miner answers, so the first poll's reading waits for the longer of the two, not
	 * both in turn. The promise, which callers need not wait for, settles when the scan is done; it never rejects.
	 */
	async warm(): Promise<void> {
		await this.#currentLayout(this.#now()).then(
			() => undefined,
			() => {
				this.#failed = true;
			},
		);
	}

	/** What the machine says now, beside this snapshot of its miner. */
	async read(snapshot: SnapshotView | null): Promise<SensorReading> {
		const at = this.#now();
		try {
			const layout = await this.#currentLayout(at);
			this.#failed = false;
			const [temps, clockAndThrottle, power] = await Promise.all([
				this.#temps(layout),
				this.#clock(layout, snapshot, at),
				this.#power(layout, at),
			]);
			const watts = power.state === 'ok' ? power.watts : null;
			const [rate10, rate60] = snapshot?.hashrate.total ?? [null, null];
			const rate = rate10 ?? rate60 ?? null;
			return {
				at,
				temps,
				...clockAndThrottle,
				power,
				hashesPerWatt: rate !== null && watts !== null && watts > 0 ? rate / watts : null,
			};
		} catch {
			this.#failed = true;
			return {at, temps: [], clock: null, throttle: null, power: {state: 'none'}, hashesPerWatt: null};
		}
	}

	async #currentLayout(now: number): Promise<Layout> {
		const age = now - this.#scannedAt;
		const stale = this.#layout === null || age >= this.#rescanMs || (this.#failed && age >= RETRY_MS);
		if (!stale && this.#layout) return this.#layout;
		this.#scanning ??= scanSysfs(this.#sysfs).finally(() => {
			this.#scanning = null;
		});
		const layout = await this.#scanning;
		this.#layout = layout;
		this.#scannedAt = now;
		return layout;
	}

	async #temps(layout: Layout): Promise<TempSensor[]> {
		const values = await Promise.all(layout.temps.map(async (spec) => this.#sysfs.integer(spec.input)));
		const temps: TempSensor[] = [];
		layout.temps.forEach((spec, index) => {
			const milli = values[index];
			if (milli === null || milli === undefined) {
				this.#failed = true;
				return;
			}

			temps.push({
				source: spec.source,
				package: spec.package,
				label: spec.label,
				celsius: milli / 1000,
				max: spec.max,
				crit: spec.crit,
				headline: spec.headline,
				file: this.#sysfs.shown(spec.input),
			});
		});
		return temps;
	}

	/**
	 * The CPUs the miner's threads are pinned to (kept while a poll did not read its threads), else the CPUs its
	 * threads last ran on, else every online CPU.
	 */
	async #minerCpus(layout: Layout, snapshot: SnapshotView | null, at: number): Promise<{cpus: number[]; from: ClockReading['cpusFrom']}> {
		if (snapshot) this.#seenMiner = true;
		if (snapshot && snapshot.threads.length > 0) {
			const cpuThreads = snapshot.threads.filter((thread) => thread.backend === 'cpu');
			const pinned = cpuThreads
				.filter((thread) => thread.affinity !== null && thread.affinity >= 0)
				.map((thread) => thread.affinity as number);
			this.#affinity = [...new Set(pinned)].sort((a, b) => a - b);
			this.#cpuThreads = cpuThreads.length > 0 ? cpuThreads.length : null;
		}

		const known = this.#affinity.filter((cpu) => layout.cpus.has(cpu));
		if (known.length > 0) return {cpus: spread(known), from: 'affinity'};
		// Without a CPU that has cpufreq or throttle counters (a VM, a container) there is nothing to read over them:
		// /proc is not scanned for the miner's process.
		const ran = (this.#seenMiner && layout.clocked ? ((await this.#processCpus(at)) ?? []) : []).filter((cpu) => layout.cpus.has(cpu));
		if (ran.length > 0) return {cpus: spread(ran), from: 'process'};
		return {cpus: spread(layout.online), from: 'online'};
	}

	/**
	 * The CPUs the miner process's threads last ran on; null without a port, or where its process is not found (none
	 * listens on the port, or it is another user's): then it is looked for again RETRY_MS later, not at every poll.
	 * A process that is gone (the miner restarted) is looked for again at once, and a found one every rescan.
	 */
	async #processCpus(at: number): Promise<number[] | null> {
		if (this.#port === null) return null;
		const since = at - this.#lookedAt;
		if (this.#pid !== null && since < this.#rescanMs) {
			const cpus = await threadCpus(this.#procRoot, this.#pid, this.#cpuThreads);
			if (cpus !== null) return cpus;
		} else if (this.#pid === null && since < RETRY_MS) return null;

		this.#lookedAt = at;
		this.#pid = await listeningPid(this.#procRoot, this.#port, this.#selfPid);
		return this.#pid === null ? null : threadCpus(this.#procRoot, this.#pid, this.#cpuThreads);
	}

	async #clock(
		layout: Layout,
		snapshot: SnapshotView | null,
		at: number,
	): Promise<{clock: ClockReading | null; throttle: ThrottleReading | null}> {
		const {cpus, from} = await this.#minerCpus(layout, snapshot, at);
		const specs = cpus.map((cpu) => layout.cpus.get(cpu)).filter((spec) => spec !== undefined);
		const withFreq = specs.filter((spec) => spec.cur !== null);
		const [freqs, counts] = await Promise.all([
			Promise.all(withFreq.map(async (spec) => this.#sysfs.integer(spec.cur ?? ''))),
			Promise.all(specs.flatMap((spec) => spec.throttle).map(async (file) => this.#sysfs.integer(file))),
		]);
		let clock: ClockReading | null = null;
		const read = freqs.filter((freq) => freq !== null);
		if (read.length < freqs.length) this.#failed = true;
		if (read.length > 0) {
			const maxes = withFreq.map((spec) => spec.maxMHz).filter((max) => max !== null);
			const averaged = withFreq.map((spec) => spec.cpu);
			clock = {
				averageMHz: read.reduce((sum, freq) => sum + freq, 0) / read.length / 1000,
				maxMHz: maxes.length > 0 ? Math.max(...maxes) : null,
				cpus: averaged,
				cpusFrom: from,
				file: this.#sysfs.shown(`devices/system/cpu/${cpuPattern(averaged)}/cpufreq/scaling_cur_freq`),
			};
		}

		let throttle: ThrottleReading | null = null;
		const throttled = specs.filter((spec) => spec.throttle.length > 0);
		if (counts.length > 0 && counts.every((count) => count !== null)) {
			const count = counts.reduce((sum, value) => sum + value, 0);
			const file = this.#sysfs.shown(
				`devices/system/cpu/${cpuPattern(throttled.map((spec) => spec.cpu))}/thermal_throttle/*_throttle_count`,
			);
			const previous = this.#throttle;
			throttle = {count, rising: previous !== null && previous.file === file && count > previous.count, file};
			this.#throttle = {file, count};
		} else if (counts.length > 0) this.#failed = true;

		return {clock, throttle};
	}

	async #power(layout: Layout, at: number): Promise<PowerReading> {
		if (layout.zones.length === 0) {
			if (this.#powerRead) return {state: 'lost', message: 'power: no powercap zone any more under /sys/class/powercap'};
			return {state: 'none'};
		}

		const results = await Promise.all(layout.zones.map(async (zone) => ({zone, result: await this.#sysfs.read(zone.energy)})));
		const packages: PackagePower[] = [];
		for (const {zone, result} of results) {
			const file = this.#sysfs.shown(zone.energy);
			if (!result.ok || !/^\d+$/.test(result.text)) {
				const code = result.ok ? 'not a number' : result.code;
				this.#energy.delete(zone.energy);
				if (this.#powerRead) {
					this.#failed = true;
					return {state: 'lost', message: `power: ${file} cannot be read any more (${code})`};
				}

				if (code === 'EACCES' || code === 'EPERM') return {state: 'denied', message: deniedMessage(file)};
				return {state: 'none'};
			}

			packages.push({package: zone.package, name: zone.name, watts: this.#watts(zone, Number(result.text), at), file});
		}

		this.#powerRead = true;
		const watts = packages.every((pkg) => pkg.watts !== null) ? packages.reduce((sum, pkg) => sum + (pkg.watts ?? 0), 0) : null;
		return {state: 'ok', packages, watts};
	}

	/**
	 * W since the previous reading of this zone; a counter that went down wrapped at max_energy_range_uj. A counter
	 * that has not moved has not been updated yet (a package under a miner draws power): the zone's last figure stands
	 * (none before its first), so a poll between two updates does not blank the pane, and the next reading measures
	 * from the same start.
	 */
	#watts(zone: ZoneSpec, uj: number, at: number): number | null {
		const previous = this.#energy.get(zone.energy);
		if (previous && previous.uj === uj) return previous.watts;
		let watts: number | null = null;
		if (previous && at > previous.at) {
			let delta = uj - previous.uj;
			if (delta < 0 && zone.range !== null && zone.range > previous.uj) delta += zone.range;
			if (delta >= 0) watts = delta / 1e6 / ((at - previous.at) / 1000);
		}

		this.#energy.set(zone.energy, {uj, at, watts});
		return watts;
	}
}
