/**
 * A miner on this machine gets the machine's sensor reading on each poll's snapshot (watchMiner composes it with the
 * miner's read); a rig elsewhere and a proxy never do.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {createFleet} from '../../source/exporter/fleet.js';
import type {MinerSnapshot} from '../../source/miner/model.js';
import {createSession, watchMiner, type WatchedMiner} from '../../source/session/session.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {fixture} from '../sensors/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The snapshot of the monitor's first answered poll. */
async function firstSnapshot(watched: WatchedMiner): Promise<MinerSnapshot> {
	const {monitor} = watched;
	cleanups.push(() => monitor.stop());
	return new Promise((resolve) => {
		const unsubscribe = monitor.subscribe(() => {
			const {snapshot} = monitor.getState();
			if (snapshot === null) return;
			unsubscribe();
			resolve(snapshot);
		});
		monitor.start();
	});
}

describe('sensors on the snapshot', () => {
	it("reads the sysfs tree beside each poll of a miner on loopback, its clock over the miner's pinned CPUs", async () => {
		const sim = await startSimulator({threads: 2, warm: true});
		cleanups.push(async () => sim.stop());
		const watched = watchMiner({url: sim.url, token: null}, 1000, undefined, () => true, {sysfsRoot: fixture('k10temp-tccd')});
		expect(watched.sensors).not.toBeNull();
		const snapshot = await firstSnapshot(watched);
		expect(snapshot.sensors?.temps[0]).toMatchObject({label: 'Tctl', celsius: 71.25, file: '/sys/class/hwmon/hwmon1/temp1_input'});
		expect(snapshot.sensors?.clock?.cpusFrom).toBe(snapshot.threads.some((thread) => thread.affinity !== null) ? 'affinity' : 'online');
		expect(snapshot.sensors?.power.state).toBe('ok');
	});

	it('reads nothing for a rig on another machine, nor with sensors turned off', () => {
		const remote = watchMiner({url: 'http://10.11.12.13:8080', token: null}, 1000, undefined, () => true, {sysfsRoot: fixture('zenpower')});
		expect(remote.sensors).toBeNull();
		const off = watchMiner({url: 'http://127.0.0.1:1', token: null}, 1000, undefined, () => true, {sensors: false});
		expect(off.sensors).toBeNull();
	});

	it("reads nothing for the exporter's miners: node_exporter serves the machine's sensors", () => {
		expect(createFleet([{url: 'http://127.0.0.1:1', token: null}], 1000).miners[0]?.sensors).toBeNull();
	});

	it('reads nothing beside a proxy, even on loopback', async () => {
		const proxy = await startSimulator({kind: 'proxy', warm: true, workers: 2});
		cleanups.push(async () => proxy.stop());
		const watched = watchMiner({url: proxy.url, token: null}, 1000, undefined, () => true, {sysfsRoot: fixture('zenpower')});
		const snapshot = await firstSnapshot(watched);
		expect(snapshot.proxy).not.toBeNull();
		expect(snapshot.sensors).toBeUndefined();
	});

	it("reads the demo's own tree for a session that says so", async () => {
		const sim = await startSimulator({threads: 2});
		const session = createSession([{url: sim.url, token: null}], 1000, {
			simulator: sim,
			stateDir: '/nonexistent/rigtop-demo',
			sysfs: {root: fixture('arm-thermal'), stop: () => undefined},
		});
		cleanups.push(async () => session.close());
		const [miner] = session.miners;
		if (!miner) throw new Error('no miner');
		expect((await firstSnapshot(miner)).sensors?.temps[0]?.label).toBe('cpu-thermal');
	});
});
