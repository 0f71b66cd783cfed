/**
 * The sensor reader against real sysfs layouts (test/fixtures/sysfs/) and fake /proc trees: temperatures, clock (over
 * the miner's pinned CPUs, the CPUs its threads last ran on, or every online one), throttling, power, H/W.
 */
import {execFileSync} from 'node:child_process';
import {chmodSync, cpSync, mkdirSync, rmSync, symlinkSync} from 'node:fs';
import {afterEach, describe, expect, it} from 'vitest';
import {SensorSampler} from '../../source/sensors/sampler.js';
import {makeSnapshot, makeThreads} from '../helpers/snapshot.js';
import {fakeProc, fixture, manualNow, nonRootRead, treeCopy} from './helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function proc() {
	const tree = fakeProc();
	cleanups.push(tree.cleanup);
	return tree;
}

function copy(name: string) {
	const tree = treeCopy(name);
	cleanups.push(tree.cleanup);
	return tree;
}

describe('temperatures', () => {
	it('reads each coretemp package of a two-socket machine, its package sensor first, with its own max and crit', async () => {
		const reading = await new SensorSampler({root: fixture('coretemp-2pkg')}).read(null);
		expect(reading.temps.map((temp) => [temp.package, temp.label, temp.celsius, temp.headline])).toEqual([
			[0, 'Package id 0', 55, true],
			[0, 'Core 0', 52, false],
			[0, 'Core 1', 53, false],
			[1, 'Package id 1', 58, true],
			[1, 'Core 0', 55, false],
			[1, 'Core 1', 56, false],
		]);
		expect(reading.temps[0]).toMatchObject({source: 'coretemp', max: 84, crit: 94, file: '/sys/class/hwmon/hwmon1/temp1_input'});
		// acpitz and the x86_pkg_temp zone are not the CPU's sensors where coretemp is there.
		expect(reading.temps.some((temp) => temp.file.includes('hwmon0') || temp.source === 'thermal-zone')).toBe(false);
	});

	it('numbers two k10temp hwmons (a two-socket EPYC) as packages 0 and 1', async () => {
		const tree = copy('k10temp-tccd');
		cpSync(`${tree.root}/class/hwmon/hwmon1`, `${tree.root}/class/hwmon/hwmon3`, {recursive: true});
		tree.write('class/hwmon/hwmon3/temp1_input', '65000');
		const reading = await new SensorSampler({root: tree.root}).read(null);
		expect(reading.temps.filter((temp) => temp.headline).map((temp) => [temp.package, temp.celsius, temp.file])).toEqual([
			[0, 71.25, '/sys/class/hwmon/hwmon1/temp1_input'],
			[1, 65, '/sys/class/hwmon/hwmon3/temp1_input'],
		]);
	});

	it("takes coretemp's package from its device where no sensor is labelled with it", async () => {
		const tree = copy('coretemp-2pkg');
		// Socket 1's coretemp alone, without its package sensor: its device (platform coretemp.1) says which package.
		rmSync(`${tree.root}/class/hwmon/hwmon2`, {recursive: true});
		for (const file of ['temp1_label', 'temp1_input', 'temp1_max', 'temp1_crit', 'temp1_crit_alarm'])
			rmSync(`${tree.root}/class/hwmon/hwmon1/${file}`);
		mkdirSync(`${tree.root}/devices/platform/coretemp.1`, {recursive: true});
		symlinkSync(`${tree.root}/devices/platform/coretemp.1`, `${tree.root}/class/hwmon/hwmon1/device`);
		const reading = await new SensorSampler({root: tree.root}).read(null);
		expect(reading.temps.map((temp) => [temp.package, temp.label, temp.headline])).toEqual([
			[1, 'Core 0', true],
			[1, 'Core 1', false],
		]);
	});

	it("reads k10temp's Tctl as the headline and each CCD beside it, without limits where the driver has none", async () => {
		const reading = await new SensorSampler({root: fixture('k10temp-tccd')}).read(null);
		expect(reading.temps.map((temp) => [temp.label, temp.celsius, temp.headline, temp.max])).toEqual([
			['Tctl', 71.25, true, null],
			['Tccd1', 68.5, false, null],
			['Tccd2', 66.75, false, null],
		]);
		expect(reading.temps.every((temp) => temp.source === 'k10temp' && temp.package === 0)).toBe(true);
	});

	it("reads zenpower's Tdie as the headline", async () => {
		const reading = await new SensorSampler({root: fixture('zenpower')}).read(null);
		expect(reading.temps.map((temp) => [temp.label, temp.headline])).toEqual([
			['Tdie', true],
			['Tctl', false],
			['Tccd1', false],
		]);
		expect(reading.power).toEqual({state: 'none'});
	});

	it("reads an ARM board's CPU thermal zone with its lowest passive trip as max and its critical trip as crit", async () => {
		const reading = await new SensorSampler({root: fixture('arm-thermal')}).read(null);
		expect(reading.temps).toEqual([
			{
				source: 'thermal-zone',
				package: 0,
				label: 'cpu-thermal',
				celsius: 48.312,
				max: 70,
				crit: 95,
				headline: true,
				file: '/sys/class/thermal/thermal_zone0/temp',
			},
		]);
	});

	it('gives an empty reading, not a throw, for a root with nothing in it', async () => {
		const reading = await new SensorSampler({root: '/nonexistent/rigtop-sysfs'}).read(makeSnapshot());
		expect(reading).toMatchObject({temps: [], clock: null, throttle: null, power: {state: 'none'}, hashesPerWatt: null});
	});

	it('reads the tree under RIGTOP_SYSFS when no root is given', async () => {
		const before = process.env['RIGTOP_SYSFS'];
		process.env['RIGTOP_SYSFS'] = fixture('zenpower');
		try {
			const sampler = new SensorSampler();
			expect(sampler.root).toBe(fixture('zenpower'));
			expect((await sampler.read(null)).temps[0]?.label).toBe('Tdie');
		} finally {
			if (before === undefined) delete process.env['RIGTOP_SYSFS'];
			else process.env['RIGTOP_SYSFS'] = before;
		}
	});
});

describe('clock and throttling', () => {
	it("averages scaling_cur_freq over the CPUs the miner's threads are pinned to, beside cpuinfo_max_freq", async () => {
		const snapshot = makeSnapshot({threads: makeThreads(2).map((thread, index) => ({...thread, affinity: index + 2}))});
		const reading = await new SensorSampler({root: fixture('coretemp-2pkg')}).read(snapshot);
		expect(reading.clock).toEqual({
			averageMHz: 2650,
			maxMHz: 3700,
			cpus: [2, 3],
			cpusFrom: 'affinity',
			file: '/sys/devices/system/cpu/cpu{2-3}/cpufreq/scaling_cur_freq',
		});
	});

	it('averages over every online CPU when the threads are not pinned, and keeps the pinned CPUs when a poll read no threads', async () => {
		const sampler = new SensorSampler({root: fixture('arm-thermal')});
		const unpinned = makeSnapshot({threads: makeThreads(2).map((thread) => ({...thread, affinity: null}))});
		expect((await sampler.read(unpinned)).clock).toMatchObject({
			averageMHz: 1544,
			maxMHz: 1800,
			cpus: [0, 1, 2, 3, 4, 5],
			cpusFrom: 'online',
		});
		await sampler.read(makeSnapshot({threads: makeThreads(2).map((thread, index) => ({...thread, affinity: index + 4}))}));
		expect((await sampler.read(makeSnapshot({threads: []}))).clock).toMatchObject({averageMHz: 1800, cpus: [4, 5], cpusFrom: 'affinity'});
	});

	it("averages over the CPUs the unpinned miner's busiest threads last ran on, its process found by its HTTP port", async () => {
		const tree = proc();
		tree.listen(18_088, 4242, {family: 6});
		// The main thread and a libuv worker, then the two mining threads; CPU 9 is not on this board.
		tree.process(
			4100,
			[4242],
			[
				[0, 5],
				[1, 2],
				[4, 9000],
				[5, 8800],
			],
		);
		const unpinned = makeSnapshot({threads: makeThreads(2).map((thread) => ({...thread, affinity: null}))});
		const sampler = new SensorSampler({root: fixture('arm-thermal'), port: 18_088, procRoot: tree.root, selfPid: 1});
		expect((await sampler.read(unpinned)).clock).toEqual({
			averageMHz: 1800,
			maxMHz: 1800,
			cpus: [4, 5],
			cpusFrom: 'process',
			file: '/sys/devices/system/cpu/cpu{4-5}/cpufreq/scaling_cur_freq',
		});
		// Pinned threads win; without a port, or with no CPU of the board among the threads', every online CPU.
		const pinned = makeSnapshot({threads: makeThreads(2).map((thread, index) => ({...thread, affinity: index + 2}))});
		expect((await sampler.read(pinned)).clock).toMatchObject({cpus: [2, 3], cpusFrom: 'affinity'});
		expect((await new SensorSampler({root: fixture('arm-thermal'), procRoot: tree.root, selfPid: 1}).read(unpinned)).clock).toMatchObject({
			cpusFrom: 'online',
		});
		tree.exit(4100);
		tree.process(
			4100,
			[4242],
			[
				[9, 9000],
				[9, 8800],
			],
		);
		expect(
			(await new SensorSampler({root: fixture('arm-thermal'), port: 18_088, procRoot: tree.root, selfPid: 1}).read(unpinned)).clock,
		).toMatchObject({
			cpus: [0, 1, 2, 3, 4, 5],
			cpusFrom: 'online',
		});
	});

	it('finds the restarted miner at once, looks for a missing one again only after 30 s, and never takes itself', async () => {
		const tree = proc();
		const clock = manualNow();
		tree.listen(18_088, 4242);
		tree.process(
			4100,
			[4242],
			[
				[4, 900],
				[5, 800],
			],
		);
		const unpinned = makeSnapshot({threads: makeThreads(2).map((thread) => ({...thread, affinity: null}))});
		const sampler = new SensorSampler({root: fixture('arm-thermal'), port: 18_088, procRoot: tree.root, selfPid: 1, now: clock.now});
		expect((await sampler.read(unpinned)).clock).toMatchObject({cpus: [4, 5], cpusFrom: 'process'});
		// Restarted: the old process is gone, a new one listens on the port; threads move as the scheduler likes.
		tree.exit(4100);
		tree.process(
			4300,
			[4242],
			[
				[2, 900],
				[3, 800],
			],
		);
		clock.advance(1000);
		expect((await sampler.read(unpinned)).clock).toMatchObject({cpus: [2, 3], cpusFrom: 'process'});
		// Stopped: nothing listens; a miner started 10 s later is not looked for before 30 s have passed.
		tree.exit(4300);
		clock.advance(1000);
		expect((await sampler.read(unpinned)).clock).toMatchObject({cpusFrom: 'online'});
		tree.process(
			4400,
			[4242],
			[
				[1, 900],
				[1, 800],
			],
		);
		clock.advance(10_000);
		expect((await sampler.read(unpinned)).clock).toMatchObject({cpusFrom: 'online'});
		clock.advance(20_000);
		expect((await sampler.read(unpinned)).clock).toMatchObject({cpus: [1], cpusFrom: 'process'});
		// rigtop's own process (a simulated miner answers from inside it) is not the miner's.
		const self = new SensorSampler({root: fixture('arm-thermal'), port: 18_088, procRoot: tree.root, selfPid: 4400});
		expect((await self.read(unpinned)).clock).toMatchObject({cpusFrom: 'online'});
	});

	it('reads the /proc under RIGTOP_PROC when no root is given, and not before it has a snapshot of the miner', async () => {
		const tree = proc();
		tree.listen(18_088, 4242);
		tree.process(4100, [4242], [[5, 900]]);
		const before = process.env['RIGTOP_PROC'];
		process.env['RIGTOP_PROC'] = tree.root;
		try {
			const sampler = new SensorSampler({root: fixture('arm-thermal'), port: 18_088, selfPid: 1});
			expect((await sampler.read(null)).clock).toMatchObject({cpusFrom: 'online'});
			expect((await sampler.read(makeSnapshot({threads: []}))).clock).toMatchObject({cpus: [5], cpusFrom: 'process'});
		} finally {
			if (before === undefined) delete process.env['RIGTOP_PROC'];
			else process.env['RIGTOP_PROC'] = before;
		}
	});

	it('does not look into /proc for the miner where no CPU has a clock to read (a VM): its net/tcp is never opened', async () => {
		const tree = copy('arm-thermal');
		for (let cpu = 0; cpu < 6; cpu++) rmSync(`${tree.root}/devices/system/cpu/cpu${cpu}/cpufreq`, {recursive: true, force: true});
		const fake = proc();
		// A FIFO with no writer: opening it to read waits until a writer comes, so a lookup would hang the read.
		rmSync(`${fake.root}/net/tcp`);
		execFileSync('mkfifo', [`${fake.root}/net/tcp`]);
		const sampler = new SensorSampler({root: tree.root, port: 18_088, procRoot: fake.root, selfPid: 1});
		const reading = await sampler.read(makeSnapshot({threads: []}));
		expect(reading.clock).toBeNull();
		expect(reading.temps.length).toBeGreaterThan(0);
	});

	it('reads at most 32 CPUs of a big machine at a poll, spread evenly from the first to the last', async () => {
		const tree = copy('zenpower');
		tree.write('devices/system/cpu/online', '0-127');
		for (let cpu = 0; cpu < 128; cpu++) {
			mkdirSync(`${tree.root}/devices/system/cpu/cpu${cpu}/cpufreq`, {recursive: true});
			tree.write(`devices/system/cpu/cpu${cpu}/cpufreq/scaling_cur_freq`, String(cpu < 64 ? 3_000_000 : 4_000_000));
		}

		const clock = (await new SensorSampler({root: tree.root}).read(null)).clock;
		expect(clock?.cpus).toHaveLength(32);
		expect([clock?.cpus[0], clock?.cpus[31]]).toEqual([0, 127]);
		expect(clock?.averageMHz).toBe(3500);
	});

	it('sums thermal_throttle over those CPUs and says when the count rose since the last reading', async () => {
		const tree = copy('coretemp-2pkg');
		const sampler = new SensorSampler({root: tree.root});
		const first = await sampler.read(null);
		expect(first.throttle).toEqual({count: 6, rising: false, file: '/sys/devices/system/cpu/cpu{0-3}/thermal_throttle/*_throttle_count'});
		expect((await sampler.read(null)).throttle?.rising).toBe(false);
		tree.write('devices/system/cpu/cpu1/thermal_throttle/core_throttle_count', '3');
		expect((await sampler.read(null)).throttle).toMatchObject({count: 9, rising: true});
		expect((await sampler.read(null)).throttle).toMatchObject({count: 9, rising: false});
	});

	it('has no throttle reading where the kernel counts none (AMD)', async () => {
		expect((await new SensorSampler({root: fixture('k10temp-tccd')}).read(null)).throttle).toBeNull();
	});
});

describe('package power', () => {
	it('turns energy_uj into watts between two readings, each package apart and summed, and H/W from the 10 s rate', async () => {
		const tree = copy('coretemp-2pkg');
		const clock = manualNow();
		const sampler = new SensorSampler({root: tree.root, now: clock.now});
		const first = await sampler.read(makeSnapshot());
		expect(first.power).toMatchObject({state: 'ok', watts: null});
		expect(first.hashesPerWatt).toBeNull();
		tree.write('class/powercap/intel-rapl:0/energy_uj', String(240_236_000_000 + 200_000_000));
		tree.write('class/powercap/intel-rapl:1/energy_uj', String(240_237_000_000 + 100_000_000));
		clock.advance(2000);
		const snapshot = makeSnapshot({hashrate: {total: [15_000, 14_000, null]}});
		const second = await sampler.read(snapshot);
		expect(second.power).toEqual({
			state: 'ok',
			watts: 150,
			packages: [
				{package: 0, name: 'package-0', watts: 100, file: '/sys/class/powercap/intel-rapl:0/energy_uj'},
				{package: 1, name: 'package-1', watts: 50, file: '/sys/class/powercap/intel-rapl:1/energy_uj'},
			],
		});
		expect(second.hashesPerWatt).toBe(100);
		// The 60 s rate where the 10 s window is not known.
		tree.write('class/powercap/intel-rapl:0/energy_uj', String(240_436_000_000 + 200_000_000));
		tree.write('class/powercap/intel-rapl:1/energy_uj', String(240_337_000_000 + 100_000_000));
		clock.advance(2000);
		expect((await sampler.read(makeSnapshot({hashrate: {total: [null, 12_000, null]}}))).hashesPerWatt).toBe(80);
	});

	it('gives no figure for a counter that has not moved yet, measures the next from the same start, then keeps it', async () => {
		const tree = copy('k10temp-tccd');
		const clock = manualNow();
		const sampler = new SensorSampler({root: tree.root, now: clock.now});
		await sampler.read(null);
		clock.advance(500);
		const still = (await sampler.read(null)).power;
		expect(still.state === 'ok' && still.watts).toBeNull();
		tree.write('class/powercap/intel-rapl:0/energy_uj', String(1_000_000_000 + 200_000_000));
		clock.advance(1500);
		const moved = (await sampler.read(null)).power;
		expect(moved.state === 'ok' && moved.watts).toBe(100);
		// Between two updates of the counter the last figure stands: a 1 s poll of a counter updated every 1.2 s does
		// not blank the pane every few seconds.
		clock.advance(1000);
		const between = (await sampler.read(null)).power;
		expect(between.state === 'ok' && between.watts).toBe(100);
	});

	it('handles energy_uj wrapping round at max_energy_range_uj', async () => {
		const tree = copy('k10temp-tccd');
		const clock = manualNow();
		const sampler = new SensorSampler({root: tree.root, now: clock.now});
		tree.write('class/powercap/intel-rapl:0/energy_uj', String(65_532_610_987 - 50_000_000));
		await sampler.read(null);
		tree.write('class/powercap/intel-rapl:0/energy_uj', String(130_000_000));
		clock.advance(2000);
		const power = (await sampler.read(null)).power;
		expect(power.state === 'ok' && power.watts).toBe(90);
	});

	it('says in one line what would allow reading an energy_uj that root alone may read, and shows the rest', async () => {
		const tree = copy('k10temp-tccd');
		chmodSync(`${tree.root}/class/powercap/intel-rapl:0/energy_uj`, 0o400);
		const reading = await new SensorSampler({root: tree.root, read: nonRootRead}).read(null);
		expect(reading.power.state).toBe('denied');
		const message = reading.power.state === 'denied' ? reading.power.message : '';
		expect(message).not.toContain('\n');
		expect(message).toContain('/sys/class/powercap/intel-rapl:0/energy_uj');
		expect(message).toMatch(/root/);
		expect(message).toMatch(/chmod o\+r/);
		expect(reading.temps[0]?.label).toBe('Tctl');
		expect(reading.clock?.averageMHz).toBe(3750);
	});

	it('says the power reading was lost when an energy_uj that was read cannot be any more', async () => {
		const tree = copy('k10temp-tccd');
		const sampler = new SensorSampler({root: tree.root, read: nonRootRead});
		expect((await sampler.read(null)).power.state).toBe('ok');
		chmodSync(`${tree.root}/class/powercap/intel-rapl:0/energy_uj`, 0o000);
		const lost = (await sampler.read(null)).power;
		expect(lost).toEqual({state: 'lost', message: 'power: /sys/class/powercap/intel-rapl:0/energy_uj cannot be read any more (EACCES)'});
		chmodSync(`${tree.root}/class/powercap/intel-rapl:0/energy_uj`, 0o444);
		expect((await sampler.read(null)).power.state).toBe('ok');
	});

	it('reads the package zones only: not their sub-zones, not the mmio copy', async () => {
		const power = (await new SensorSampler({root: fixture('coretemp-2pkg')}).read(null)).power;
		expect(power.state === 'ok' && power.packages.map((pkg) => pkg.file)).toEqual([
			'/sys/class/powercap/intel-rapl:0/energy_uj',
			'/sys/class/powercap/intel-rapl:1/energy_uj',
		]);
	});
});

describe('keeping it light', () => {
	it('scans once, then reads only the files a poll needs, and scans again after a read failed', async () => {
		const tree = copy('k10temp-tccd');
		const files: string[] = [];
		const clock = manualNow();
		const sampler = new SensorSampler({
			root: tree.root,
			now: clock.now,
			read: async (file) => {
				files.push(file.slice(tree.root.length));
				return nonRootRead(file);
			},
		});
		await sampler.read(null);
		files.length = 0;
		await sampler.read(null);
		// 3 temperatures, 16 clocks, 1 energy counter: nothing else.
		expect(files).toHaveLength(20);
		expect(files.every((file) => /temp\d_input|scaling_cur_freq|energy_uj$/.test(file))).toBe(true);
		tree.write('class/hwmon/hwmon1/temp3_input', 'garbage');
		await sampler.read(null);
		clock.advance(30_000);
		files.length = 0;
		await sampler.read(null);
		expect(files).toContain('/class/hwmon/hwmon1/name');
	});

	it('warm() starts the scan before the first reading, which then reads only what a poll needs', async () => {
		const tree = copy('k10temp-tccd');
		const files: string[] = [];
		const sampler = new SensorSampler({
			root: tree.root,
			read: async (file) => {
				files.push(file.slice(tree.root.length));
				return nonRootRead(file);
			},
		});
		// The scan starts at once (the poll's HTTP read runs meanwhile), and the reading after it scans nothing again.
		await sampler.warm();
		expect(files).toContain('/class/hwmon/hwmon1/name');
		const scanned = files.length;
		const reading = await sampler.read(null);
		expect(reading.temps.length).toBeGreaterThan(0);
		// The reading itself scanned nothing again: 3 temperatures, 16 clocks, 1 energy counter.
		expect(files.length - scanned).toBe(20);
	});
});
