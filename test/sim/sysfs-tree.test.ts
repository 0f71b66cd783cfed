/** The simulated sysfs of the demo and xmrig-sim --sim-sysfs, read by the real sensor reader. */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {SensorSampler} from '../../source/sensors/sampler.js';
import {startSimSysfs} from '../../source/sim/sysfs-tree.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('the simulated sysfs', () => {
	it('reads as a k10temp rig with its clocks, and power in the 85–110 W range as energy_uj grows', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-simsys-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		const sysfs = await startSimSysfs(path.join(dir, 'sysfs'), {cpus: 8, intervalMs: 60_000, seed: 7});
		cleanups.push(() => sysfs.stop());
		const sampler = new SensorSampler({root: sysfs.root});
		const first = await sampler.read(null);
		expect(first.temps.map((temp) => temp.label)).toEqual(['Tctl', 'Tccd1', 'Tccd2']);
		expect(first.temps[0]?.celsius).toBeGreaterThanOrEqual(64);
		expect(first.temps[0]?.celsius).toBeLessThanOrEqual(82);
		expect(first.clock).toMatchObject({maxMHz: 4650, cpus: [0, 1, 2, 3, 4, 5, 6, 7], cpusFrom: 'online'});
		await new Promise((resolve) => setTimeout(resolve, 250));
		await sysfs.step();
		const second = await sampler.read(null);
		// Watts are over the sampler's own interval, which includes the time the files took to write: a wide margin.
		const power = second.power;
		expect(power.state).toBe('ok');
		const watts = power.state === 'ok' ? (power.watts ?? 0) : 0;
		expect(watts).toBeGreaterThan(50);
		expect(watts).toBeLessThan(160);
	});
});
