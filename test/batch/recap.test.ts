/**
 * A mixed fleet counted as Ansible's recap counts hosts (issue 35, item 8): real simulators on loopback (two XMRig 6.x
 * miners, an xmrig-proxy, a restricted miner, a closed port) through `runBatchCommand`. A rig the change is not for (a
 * proxy for a miner's key or a pause, a miner for a proxy's key) is skipped and fails nothing; a rig that should have
 * taken it and did not (restricted, a miner lacking the key) failed; a closed port unreachable. Exit 0 when nothing
 * failed, 1 when a rig failed (over unreachable), 3 when none failed but one was unreachable; --dry-run alike.
 */
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {runBatchCommand, type BatchPlan} from '../../source/commands/batch/batch.js';
import {startSimulator, type ProxySimulator, type Simulator} from '../../source/sim/simulator.js';
import {tempDir} from '../config/helpers/fixtures.js';

const TOKEN = 'recap-token-77';

type Fleet = {
	one: Simulator;
	two: Simulator;
	proxy: ProxySimulator;
	lockedProxy: ProxySimulator;
	restricted: Simulator;
	down: Simulator;
};
let fleet: Fleet;
let temp: ReturnType<typeof tempDir>;

beforeEach(async () => {
	const miner = async (workerId: string, restricted = false) =>
		startSimulator({dialect: '6', token: TOKEN, restricted, seed: 9, applyDelayMs: 30, workerId});
	fleet = {
		one: await miner('one'),
		two: await miner('two'),
		proxy: await startSimulator({kind: 'proxy', token: TOKEN, restricted: false, workerId: 'proxy', workers: 2}),
		lockedProxy: await startSimulator({kind: 'proxy', token: TOKEN, restricted: true, workerId: 'locked-proxy', workers: 1}),
		restricted: await miner('locked', true),
		down: await miner('gone'),
	};
	// `two` already has what the batches set: ok, not changed.
	fleet.two.setConfigText(fleet.two.configText().replace('"yield": true', '"yield": false'));
	await fleet.down.stop();
	temp = tempDir('rigtop-recap-');
});

afterEach(async () => {
	for (const sim of Object.values(fleet)) await sim.stop();
	temp.remove();
});

/** A rigs file of these rigs (by their names), then the batch run on it: its exit code, its lines. */
async function batch(words: readonly string[], names: readonly (keyof Fleet)[], options: Partial<BatchPlan> = {}) {
	const rigsFile = path.join(temp.dir, 'rigs.json');
	writeFileSync(rigsFile, JSON.stringify(names.map((name) => ({name, url: fleet[name].url}))));
	let out = '';
	let err = '';
	const code = await runBatchCommand({
		words,
		urls: [],
		rigsFile,
		tokenFile: undefined,
		tokenEnv: TOKEN,
		tokenFlag: undefined,
		configPath: undefined,
		dryRun: false,
		parallel: undefined,
		yes: false,
		add: false,
		readOnly: false,
		history: false,
		backupDir: path.join(temp.dir, 'backups'),
		verifyIntervalMs: 30,
		verifyTimeoutMs: 2000,
		requestTimeoutMs: 3000,
		discovery: {homeDir: temp.dir, procRoot: path.join(temp.dir, 'no-proc')},
		signal: new AbortController().signal,
		stdout: {write: (text: string) => (out += text)},
		stderr: {
			write: (text: string) => {
				err += text;
				return true;
			},
		},
		...options,
	});
	const lines = out.trimEnd().split('\n');
	const lineOf = (name: string) => (lines.find((line) => line.startsWith(`${name} `)) ?? '').slice(name.length).trim();
	return {code, summary: lines.at(-1), lineOf, out, err};
}

describe('a mixed fleet, counted as Ansible counts', () => {
	it("a miner's key: the proxy is skipped, so the dry run and the run exit 0", async () => {
		const dry = await batch(['config', 'set', 'cpu.yield=false'], ['one', 'two', 'proxy'], {dryRun: true});
		expect(dry.lineOf('proxy')).toBe("skipped  not for this rig: only XMRig's config has cpu.yield");
		expect([dry.code, dry.summary]).toEqual([0, '3 rigs: ok=1 changed=1 skipped=1 failed=0 unreachable=0']);
		const run = await batch(['config', 'set', 'cpu.yield=false'], ['one', 'two', 'proxy']);
		expect([run.code, run.summary]).toEqual([0, '3 rigs: ok=1 changed=1 skipped=1 failed=0 unreachable=0']);
		expect(fleet.one.configText()).toContain('"yield": false');
		// --add adds no miner's key to a proxy.
		const added = await batch(['config', 'set', 'cpu.yield=true'], ['proxy'], {add: true, dryRun: true});
		expect([added.code, added.lineOf('proxy')]).toEqual([0, "skipped  not for this rig: only XMRig's config has cpu.yield"]);
	});

	it("a proxy's key: the miners are skipped", async () => {
		const run = await batch(['config', 'set', 'workers=false'], ['one', 'proxy'], {dryRun: true});
		expect(run.lineOf('one')).toBe("skipped  not for this rig: only xmrig-proxy's config has workers");
		expect([run.code, run.summary]).toEqual([0, '2 rigs: ok=0 changed=1 skipped=1 failed=0 unreachable=0']);
	});

	it('a closed port is unreachable: exit 3, run or dry run; a restricted rig failed: exit 1 over it', async () => {
		const dry = await batch(['config', 'set', 'cpu.yield=false'], ['one', 'proxy', 'down'], {dryRun: true});
		expect(dry.lineOf('down')).toMatch(/^unreachable {2}down: /);
		expect([dry.code, dry.summary]).toEqual([3, '3 rigs: ok=0 changed=1 skipped=1 failed=0 unreachable=1']);
		const run = await batch(['config', 'set', 'cpu.yield=false'], ['one', 'proxy', 'down']);
		expect([run.code, run.summary]).toEqual([3, '3 rigs: ok=0 changed=1 skipped=1 failed=0 unreachable=1']);

		const locked = await batch(['config', 'set', 'cpu.yield=false'], ['two', 'proxy', 'restricted', 'down'], {dryRun: true});
		expect(locked.lineOf('restricted')).toMatch(/^failed {2}read-only: the miner's API is restricted/);
		expect([locked.code, locked.summary]).toEqual([1, '4 rigs: ok=1 changed=0 skipped=1 failed=1 unreachable=1']);
	});

	it('a miner lacking the key failed; the proxy lacking it skipped', async () => {
		fleet.two.setConfigText(fleet.two.configText().replace(/\s*"yield": false,/, ''));
		const run = await batch(['config', 'set', 'cpu.yield=false'], ['two', 'proxy'], {dryRun: true});
		expect(run.lineOf('two')).toBe('failed  lacks cpu.yield (--add adds it)');
		expect([run.code, run.summary]).toEqual([1, '2 rigs: ok=0 changed=0 skipped=1 failed=1 unreachable=0']);
	});

	it('pause and resume: the proxy skipped, the restricted miner failed, the closed port unreachable', async () => {
		const dry = await batch(['pause'], ['one', 'proxy'], {dryRun: true});
		expect(dry.lineOf('proxy')).toMatch(/^skipped {2}cannot pause: xmrig-proxy [\d.]+ has no pause or resume/);
		expect([dry.code, dry.summary]).toEqual([0, '2 rigs: ok=0 changed=1 skipped=1 failed=0 unreachable=0']);
		const paused = await batch(['pause'], ['one', 'proxy', 'down']);
		expect([paused.code, paused.summary]).toEqual([3, '3 rigs: ok=0 changed=1 skipped=1 failed=0 unreachable=1']);
		const resumed = await batch(['resume'], ['one', 'proxy', 'restricted', 'down']);
		expect(resumed.lineOf('restricted')).toMatch(/^failed {2}cannot resume: the miner's API is restricted/);
		expect([resumed.code, resumed.summary]).toEqual([1, '4 rigs: ok=0 changed=1 skipped=1 failed=1 unreachable=1']);
	});

	it("a restricted proxy asked for a miner's key, a restricted miner for a proxy's: skipped, not failed (review, finding 3)", async () => {
		const dry = await batch(['config', 'set', 'cpu.yield=false'], ['one', 'lockedProxy'], {dryRun: true});
		expect(dry.lineOf('lockedProxy')).toBe("skipped  not for this rig: only XMRig's config has cpu.yield");
		expect([dry.code, dry.summary]).toEqual([0, '2 rigs: ok=0 changed=1 skipped=1 failed=0 unreachable=0']);
		const run = await batch(['config', 'set', 'cpu.yield=false'], ['one', 'lockedProxy']);
		expect([run.code, run.summary]).toEqual([0, '2 rigs: ok=0 changed=1 skipped=1 failed=0 unreachable=0']);
		const proxyKey = await batch(['config', 'set', 'workers=false'], ['restricted', 'proxy'], {dryRun: true});
		expect(proxyKey.lineOf('restricted')).toBe("skipped  not for this rig: only xmrig-proxy's config has workers");
		expect([proxyKey.code, proxyKey.summary]).toEqual([0, '2 rigs: ok=0 changed=1 skipped=1 failed=0 unreachable=0']);
		// A key the restricted rig's own kind has still fails it: it should have taken it.
		const own = await batch(['config', 'set', 'donate-level=2'], ['lockedProxy'], {dryRun: true});
		expect([own.code, own.lineOf('lockedProxy')]).toEqual([1, expect.stringMatching(/^failed {2}read-only: /)]);
	});

	it("a change of both kinds' keys: each rig takes its own, and says the others were not for it (review, finding 4)", async () => {
		const before = fleet.proxy.configText();
		expect(before).not.toContain('"donate-level": 1,');
		const run = await batch(['config', 'set', 'donate-level=1', 'cpu.yield=false'], ['one', 'proxy']);
		expect([run.code, run.summary]).toEqual([0, '2 rigs: ok=0 changed=2 skipped=0 failed=0 unreachable=0']);
		expect(fleet.proxy.configText()).toContain('"donate-level": 1,');
		expect(fleet.one.configText()).toContain('"yield": false');
		expect(run.out).toContain("not for this rig: only XMRig's config has cpu.yield");
	});
});
