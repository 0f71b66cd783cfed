/**
 * `rigtop config get|set` and the batch (`--rigs`) as shipped, against an xmrig-proxy: the built CLI as a child
 * process, the simulated proxy (and a replay of a real xmrig-proxy 6.26's captures) on loopback. What the engine
 * writes of "the miner" is said of the proxy (source/config/words.ts, the config view's table): a set, a refusal, a
 * conflict, a backup that cannot be saved, a missing key, a restricted proxy; a miner keeps "the miner".
 */
import {execFile} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {promisify} from 'node:util';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type ProxySimulator, type Simulator} from '../../source/sim/simulator.js';
import {tempDir} from '../config/helpers/fixtures.js';
import {capture, routesProxy626, startReplayMiner, type ReplayMiner} from '../miner/helpers/replay-miner.js';
import {CLI, cliIsBuilt} from './helpers/tmux.js';

const run = promisify(execFile);
const TOKEN = 'e2e-proxy-words-token-3f';
const stops: (() => Promise<void>)[] = [];
let state: ReturnType<typeof tempDir> | null = null;

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await Promise.all(stops.splice(0).map(async (stop) => stop()));
	state?.remove();
	state = null;
});

type Ran = {code: number; stdout: string; stderr: string};

async function rigtop(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
	const full: NodeJS.ProcessEnv = {...process.env, RIGTOP_TOKEN: TOKEN, XDG_STATE_HOME: state?.dir, ...env};
	delete full['CI'];
	let result: Ran;
	try {
		const {stdout, stderr} = await run('node', [CLI, ...args], {env: full, timeout: 30_000});
		result = {code: 0, stdout, stderr};
	} catch (error) {
		const failure = error as {code?: number; stdout?: string; stderr?: string};
		result = {code: typeof failure.code === 'number' ? failure.code : -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? ''};
	}

	expect(result.stdout + result.stderr).not.toContain(TOKEN);
	return result;
}

async function proxy(): Promise<ProxySimulator> {
	const sim = await startSimulator({kind: 'proxy', token: TOKEN, restricted: false, seed: 7, workers: 2, applyDelayMs: 50});
	stops.push(async () => sim.stop());
	return sim;
}

async function miner(): Promise<Simulator> {
	const sim = await startSimulator({dialect: '6', token: TOKEN, restricted: false, workerId: 'e2e-words-miner', applyDelayMs: 50});
	stops.push(async () => sim.stop());
	return sim;
}

describe('rigtop config against an xmrig-proxy says the proxy, built', () => {
	it('a missing key, nothing to change, an API change refused, restricted mode set and then met: all of the proxy', async () => {
		state = tempDir('rigtop-e2e-proxy-words-');
		const sim = await proxy();
		const missing = await rigtop(['config', 'get', 'cpu.huge-pages', sim.url]);
		expect(missing).toEqual({code: 1, stdout: '', stderr: "rigtop: the proxy's config has no key cpu.huge-pages\n"});

		const same = await rigtop(['config', 'set', 'custom-diff=0', sim.url]);
		expect(same).toEqual({code: 0, stdout: 'nothing to change: the proxy already has these values\n', stderr: ''});

		const refused = await rigtop(['config', 'set', 'http.port=1', sim.url]);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain("http.port can cut rigtop off from the proxy's API; nothing was applied: run again with --yes");

		const before = sim.configText();
		const restricted = await rigtop(['config', 'set', 'http.restricted=true', '--yes', sim.url]);
		expect(restricted.stderr).toBe('');
		expect(restricted.code).toBe(0);
		expect(restricted.stdout).toContain('http.restricted: false → true  applied');
		expect(restricted.stdout).toContain('restricted mode is on now: the proxy no longer lets rigtop read or change its config');
		expect(sim.configText()).toBe(before.replace('"restricted": false', '"restricted": true'));
		// The event it left in the history says so too, as the config view's does.
		const history = await rigtop(['history', sim.url]);
		expect(history.stdout).toMatch(
			/config apply: applied 1 change: http\.restricted: false → true; .*restricted mode is on now: the proxy no longer lets rigtop/,
		);

		// Its config is refused now; its summary (still readable) says it is a proxy.
		const locked = await rigtop(['config', 'get', sim.url]);
		expect(locked.code).toBe(1);
		expect(locked.stderr).toContain('rigtop: the proxy is in restricted mode: it shows its status but does not let anyone read its config');
		expect(locked.stderr).toContain("set http.restricted to false in the proxy's config file");
		expect(locked.stderr).toContain('and restart the proxy');
		for (const output of [missing, same, refused, restricted, locked]) expect(output.stdout + output.stderr).not.toMatch(/\bminer\b/);
	});

	it("a backup that cannot be saved: could not save a backup of the proxy's config, nothing was sent to the proxy", async () => {
		state = tempDir('rigtop-e2e-proxy-words-');
		const sim = await proxy();
		const file = path.join(state.dir, 'a-file');
		writeFileSync(file, 'not a directory');
		const before = sim.configText();
		const result = await rigtop(['config', 'set', 'custom-diff=5000', '--no-history', sim.url], {XDG_STATE_HOME: file});
		expect(result.code).toBe(1);
		expect(result.stdout).toBe('');
		expect(result.stderr).toMatch(/^rigtop: could not save a backup of the proxy's config in .*a-file\/rigtop\/backups: /);
		expect(result.stderr).toContain('fix: nothing was sent to the proxy; its config is unchanged\n');
		expect(result.stderr).not.toMatch(/\bminer\b/);
		expect(sim.configText()).toBe(before);
	});

	it("a real xmrig-proxy 6.26 whose config changes under the set: the proxy's config changed, changed on the proxy", async () => {
		state = tempDir('rigtop-e2e-proxy-words-');
		const original = capture('../xmrig-proxy/v6.26/get_1_config.txt');
		// The same length, so the capture's Content-Length still holds.
		const changed = original.replace('"custom-diff": 0,', '"custom-diff": 9,');
		expect(changed).not.toBe(original);
		let reads = 0;
		const real: ReplayMiner = await startReplayMiner({
			...routesProxy626(),
			'GET /1/config': () => (++reads === 1 ? original : changed),
		});
		stops.push(async () => real.close());
		const result = await rigtop(['config', 'set', 'mode=simple', '--no-history', real.url]);
		expect(result.code).toBe(1);
		expect(result.stderr.split('\n').slice(0, 2)).toEqual([
			"rigtop: the proxy's config changed since rigtop read it (1 difference); nothing was applied: re-read the config and make the changes again",
			'  custom-diff: 0 → 9 (changed on the proxy)',
		]);
		expect(real.seen()).not.toContain('PUT /1/config');
	});

	it("a batch names each rig: the proxy rigs say the proxy (a refused one by the rigs file's kind), the miner rig the miner", async () => {
		state = tempDir('rigtop-e2e-proxy-words-');
		const [px, six] = await Promise.all([proxy(), miner()]);
		const wrong = path.join(state.dir, 'wrong-token');
		writeFileSync(wrong, 'not-the-token\n', {mode: 0o600});
		const rigs = path.join(state.dir, 'rigs.json');
		writeFileSync(
			rigs,
			JSON.stringify([
				{name: 'proxy-a', url: px.url},
				{name: 'six', url: six.url},
				// The same proxy under another address and the wrong token: it refuses to say what it is.
				{name: 'proxy-b', url: px.url.replace('127.0.0.1', 'localhost'), tokenFile: wrong, kind: 'proxy'},
			]),
		);
		const refused = await rigtop(['config', 'set', 'http.port=1', '--rigs', rigs]);
		expect(refused.code).toBe(1);
		const lines = refused.stdout.trimEnd().split('\n');
		expect(lines.slice(0, 2)).toEqual([
			"proxy-a  failed  http.port can cut rigtop off from the proxy's API: --yes confirms it",
			"six      failed  http.port can cut rigtop off from the miner's API: --yes confirms it",
		]);
		expect(lines[2]).toMatch(/^proxy-b {2}failed {2}the proxy refused /);
		expect(lines[2]).not.toMatch(/\bminer\b/);
		expect(lines.at(-1)).toBe('3 rigs: ok=0 changed=0 skipped=0 failed=3 unreachable=0');
		const json = await rigtop(['config', 'set', 'http.port=1', '--rigs', rigs, '--json']);
		const document = JSON.parse(json.stdout) as {rigs: {name: string; reason: string}[]};
		expect(document.rigs.slice(0, 2).map((rig) => [rig.name, rig.reason])).toEqual([
			['proxy-a', "http.port can cut rigtop off from the proxy's API: --yes confirms it"],
			['six', "http.port can cut rigtop off from the miner's API: --yes confirms it"],
		]);
	});
});

describe('rigtop config against a miner keeps the miner, built', () => {
	it('a missing key, nothing to change, an API change refused: the miner', async () => {
		state = tempDir('rigtop-e2e-proxy-words-');
		const sim = await miner();
		const missing = await rigtop(['config', 'get', 'mode', sim.url]);
		expect([missing.code, missing.stdout]).toEqual([1, '']);
		expect(missing.stderr).toMatch(/^rigtop: the miner's config has no key mode\b/);
		const same = await rigtop(['config', 'set', 'cpu.huge-pages=true', sim.url]);
		expect(same).toEqual({code: 0, stdout: 'nothing to change: the miner already has these values\n', stderr: ''});
		const refused = await rigtop(['config', 'set', 'http.port=1', sim.url]);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain("http.port can cut rigtop off from the miner's API; nothing was applied");
		for (const output of [missing, same, refused]) expect(output.stdout + output.stderr).not.toMatch(/\bproxy\b/);
	});
});
