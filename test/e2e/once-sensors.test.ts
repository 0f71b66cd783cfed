/** The built CLI's --once with RIGTOP_SYSFS: this machine's sensors beside a miner on loopback, and never a remote one. */
import {execFile} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {afterEach, describe, expect, it} from 'vitest';
import {parseCpuList} from '../../source/sensors/sysfs.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {startSimSysfs} from '../../source/sim/sysfs-tree.js';
import {CLI} from './helpers/tmux.js';

const run = promisify(execFile);
const TREES = path.resolve('test/fixtures/sysfs');
let simulators: Simulator[] = [];

afterEach(async () => {
	await Promise.all(simulators.map(async (sim) => sim.stop()));
	simulators = [];
});

async function once(args: string[], sysfs: string): Promise<string> {
	const env: NodeJS.ProcessEnv = {...process.env, RIGTOP_SYSFS: path.join(TREES, sysfs), NO_COLOR: '1'};
	delete env['CI'];
	const {stdout} = await run('node', [CLI, '--once', ...args], {env, timeout: 20_000});
	return stdout;
}

describe('rigtop --once with RIGTOP_SYSFS', () => {
	it('prints the temperatures, clock and power of the tree beside a local miner', async () => {
		const sim = await startSimulator({warm: true, threads: 4});
		simulators.push(sim);
		const text = await once([sim.url], 'k10temp-tccd');
		expect(text).toMatch(/^ {2}temp {6}Tctl 71°C {2}Tccd1 69°C {2}Tccd2 67°C$/m);
		expect(text).toMatch(/^ {2}clock {5}3\.\d\d GHz of 4\.95 GHz {2}over (the miner's )?\d+ CPUs$/m);
		expect(text).toMatch(/^ {2}power {5}— {2}—$/m);
	});

	it("gives the demo's simulated package about its own watts over the quarter second it measures", async () => {
		// The simulated tree draws 85–110 W. Its counter was rewritten once a second, so --once's 250 ms window read
		// either no change (— W) or a whole second's energy (about 4× the watts). The bounds leave room for a late timer
		// in a loaded test run (the tree is written from this process).
		const sim = await startSimulator({warm: true, threads: 2});
		simulators.push(sim);
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-once-power-'));
		const sysfs = await startSimSysfs(path.join(dir, 'sysfs'), {cpus: 4, seed: 3});
		try {
			for (let round = 0; round < 3; round++) {
				const env: NodeJS.ProcessEnv = {...process.env, RIGTOP_SYSFS: sysfs.root, NO_COLOR: '1'};
				delete env['CI'];
				const {stdout} = await run('node', [CLI, '--once', '--json', sim.url], {env, timeout: 20_000});
				const miner = (JSON.parse(stdout) as {miners: Array<{miner: {sensors?: {power: {state: string; watts?: number | null}}}}>})
					.miners[0];
				const power = miner?.miner.sensors?.power;
				expect(power?.state).toBe('ok');
				expect(power?.watts).toBeGreaterThan(85 * 0.5);
				expect(power?.watts).toBeLessThan(110 * 1.6);
			}
		} finally {
			sysfs.stop();
			rmSync(dir, {recursive: true, force: true});
		}
	});

	it("averages an unpinned miner's clock over the CPUs its process's threads last ran on, found in this machine's /proc", async () => {
		const sim = await startSimulator({warm: true, threads: 2});
		simulators.push(sim);
		// Its threads unpinned (affinity -1); the miner's process, as rigtop finds it by the port, is this test's.
		const config = JSON.parse(sim.configText()) as {cpu: Record<string, unknown>};
		config.cpu['rx'] = [-1, -1];
		sim.setConfigText(JSON.stringify(config, null, 4));
		const json = JSON.parse(await once(['--json', sim.url], 'k10temp-tccd')) as {
			miners: Array<{miner: {threads: Array<{affinity: number | null}>; sensors?: {clock: {cpus: number[]; cpusFrom: string}}}}>;
		};
		const miner = json.miners[0]?.miner;
		expect(miner?.threads.map((thread) => thread.affinity)).toEqual([null, null]);
		expect(miner?.sensors?.clock.cpusFrom).toBe('process');
		const online = parseCpuList(readFileSync('/sys/devices/system/cpu/online', 'utf8'));
		expect(miner?.sensors?.clock.cpus.length).toBeGreaterThan(0);
		for (const cpu of miner?.sensors?.clock.cpus ?? []) expect(online).toContain(cpu);
		expect(await once([sim.url], 'k10temp-tccd')).toMatch(/^ {2}clock {5}3\.\d\d GHz of 4\.95 GHz {2}over the miner's \d+ CPUs?$/m);
	});

	it('--json carries each reading with the file it came from', async () => {
		const sim = await startSimulator({warm: true, threads: 2});
		simulators.push(sim);
		const json = JSON.parse(await once(['--json', sim.url], 'arm-thermal')) as {
			miners: Array<{miner: {sensors?: {temps: Array<{file: string; max: number}>}}}>;
		};
		expect(json.miners[0]?.miner.sensors?.temps).toMatchObject([{file: '/sys/class/thermal/thermal_zone0/temp', max: 70}]);
	});
});
