import {execFile} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {keysHelpLines} from '../../source/ui/keys/reference.js';
import {routesProxy626, startReplayMiner, type ReplayMiner} from '../miner/helpers/replay-miner.js';
import {runCli} from './helpers/cli.js';
import {CLI} from './helpers/tmux.js';

const run = promisify(execFile);
let simulators: Simulator[] = [];
let replays: ReplayMiner[] = [];

afterEach(async () => {
	await Promise.all(simulators.map(async (sim) => sim.stop()));
	await Promise.all(replays.map(async (replay) => replay.close()));
	simulators = [];
	replays = [];
});

async function rigtop(args: string[], env: Record<string, string> = {}): Promise<{code: number; stdout: string; stderr: string}> {
	return runCli(args, {env});
}

describe('rigtop --once', () => {
	it('--json gives the normalized model of a 6.x and a 2.x miner, exit 0', async () => {
		const six = await startSimulator({dialect: '6', warm: true, workerId: 'json-six'});
		const two = await startSimulator({dialect: '2', warm: true, workerId: 'json-two'});
		simulators.push(six, two);
		const result = await rigtop(['--once', '--json', six.url, two.url.replace('http://', '')]);
		expect(result.stderr).toBe('');
		expect(result.code).toBe(0);
		const report = JSON.parse(result.stdout) as {
			miners: {
				ok: boolean;
				miner: {workerId: string; dialect: string; version: string; hashrate: {total: unknown[]}; threads: unknown[]};
			}[];
		};
		expect(report.miners).toHaveLength(2);
		const [first, second] = report.miners;
		expect(first?.miner.workerId).toBe('json-six');
		expect(first?.miner.dialect).toBe('v2');
		expect(first?.miner.version).toBe('6.26.0');
		expect(second?.miner.workerId).toBe('json-two');
		expect(second?.miner.dialect).toBe('v1');
		expect(second?.miner.threads.length).toBeGreaterThan(0);
		expect(typeof first?.miner.hashrate.total[0]).toBe('number');
	});

	it('exits 1 with a one-line reason when a miner cannot be read, and still reports the others', async () => {
		const six = await startSimulator({dialect: '6', warm: true, workerId: 'still-here'});
		simulators.push(six);
		const dead = await startSimulator({dialect: '6'});
		const deadUrl = dead.url;
		await dead.stop();
		const result = await rigtop(['--once', six.url, deadUrl]);
		expect(result.code).toBe(1);
		expect(result.stdout).toContain('still-here');
		expect(result.stdout).toMatch(/connection refused/i);
		expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /); // no stack trace
	});

	it('a wrong token is a clear 403 message, and the token never appears in the output', async () => {
		const six = await startSimulator({dialect: '6', token: 'right-token-123'});
		simulators.push(six);
		const result = await rigtop(['--once', six.url], {RIGTOP_TOKEN: 'wrong-token-456'});
		expect(result.code).toBe(1);
		expect(result.stdout).toMatch(/token/i);
		expect(result.stdout + result.stderr).not.toContain('wrong-token-456');
		expect(result.stdout + result.stderr).not.toContain('right-token-123');
	});

	it('bad usage exits 2', async () => {
		expect((await rigtop(['--interval', '0.1', 'localhost:1'])).code).toBe(2);
		expect((await rigtop(['http://'])).code).toBe(2);
		expect((await rigtop(['--no-such-flag'])).code).toBe(2);
	});

	it('when stdout is not a terminal it says so in one line and prints one snapshot', async () => {
		const six = await startSimulator({dialect: '6', warm: true, workerId: 'piped-rig'});
		simulators.push(six);
		const result = await rigtop([six.url]);
		expect(result.code).toBe(0);
		expect(result.stderr.trim().split('\n')).toHaveLength(1);
		expect(result.stderr).toMatch(/not a terminal/);
		expect(result.stdout).toContain('piped-rig');
	});

	it('--version and --help work; the help lists the keys from the keymap', async () => {
		expect((await rigtop(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
		const help = (await rigtop(['--help'])).stdout;
		expect(help).toContain('--token-file');
		for (const line of keysHelpLines()) expect(help).toContain(line.trim());
		// It fits an 80-column terminal.
		for (const line of help.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
	});
});

/** A `--require` hook that writes, as the process exits, the list of the modules it loaded to `out`. */
const moduleListHook = (out: string) =>
	`process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));`;

/**
 * Runs the built CLI with `args` under `node --require HOOK`, whose source `hook(out)` gets the file it may write to, in
 * a fresh folder removed after (its state folder the history's; with `token`, a 0600 token file passed with
 * --token-file); CI unset, `env` added. Resolves with its stdout and what the hook wrote.
 */
async function runWithHook(
	hook: (out: string) => string,
	args: readonly string[],
	options: {token?: string; env?: NodeJS.ProcessEnv} = {},
): Promise<{stdout: string; written: string}> {
	const work = mkdtempSync(path.join(tmpdir(), 'rigtop-hook-'));
	try {
		const hookFile = path.join(work, 'hook.cjs');
		const out = path.join(work, 'out.txt');
		writeFileSync(hookFile, hook(out));
		const tokenArgs: string[] = [];
		if (options.token !== undefined) {
			const tokenFile = path.join(work, 'token');
			writeFileSync(tokenFile, `${options.token}\n`, {mode: 0o600});
			tokenArgs.push('--token-file', tokenFile);
		}

		const env: NodeJS.ProcessEnv = {...process.env, XDG_STATE_HOME: path.join(work, 'state'), ...options.env};
		delete env['CI'];
		const {stdout} = await run('node', ['--require', hookFile, CLI, ...args, ...tokenArgs], {env, timeout: 20_000});
		return {stdout, written: readFileSync(out, 'utf8')};
	} finally {
		rmSync(work, {recursive: true, force: true});
	}
}

describe('what --once loads', () => {
	// Each of Node's own modules that a run loads is compiled at every start, and without Node's code cache when the
	// node has any V8 option (Node 22): node:crypto was about 6 ms, child_process about 5 (docs/performance.md).
	it('neither node:crypto nor child_process, with a token file and the history on', async () => {
		const six = await startSimulator({dialect: '6', warm: true, workerId: 'modules', token: 'modules-token'});
		simulators.push(six);
		const {stdout, written} = await runWithHook(moduleListHook, ['--once', '--json', six.url], {token: 'modules-token'});
		expect((JSON.parse(stdout) as {miners: {ok: boolean}[]}).miners[0]?.ok).toBe(true);
		const loaded = written.split('\n');
		// The run did load what it needs (the check is not vacuous): HTTP and the history store.
		expect(loaded).toContain('NativeModule http');
		expect(loaded).toContain('NativeModule sqlite');
		expect(loaded.filter((name) => /^NativeModule (crypto|child_process)$/.test(name))).toEqual([]);
		// perf_hooks is what meow's package normalization loads (normalize-package-data → hosted-git-info →
		// lru-cache reads globalThis.performance): it runs when anything reads `cli.pkg`, 10–17 ms of every start.
		expect(loaded).not.toContain('NativeModule perf_hooks');
	});

	it('no ICU collator, though its sensors list sysfs folders', async () => {
		// The first Intl.Collator of a process (or localeCompare with options) loads ICU's collation data: 7 ms of CPU on
		// Node 22, 12 on Node 26. A local --once read its sysfs folders in that order (docs/performance.md).
		const six = await startSimulator({dialect: '6', warm: true, workerId: 'collator', token: 'collator-token'});
		simulators.push(six);
		const counter = (counted: string) =>
			[
				'let made = 0;',
				'const Real = Intl.Collator;',
				'Intl.Collator = new Proxy(Real, {construct(target, args) { made++; return Reflect.construct(target, args); }, apply(target, self, args) { made++; return Reflect.apply(target, self, args); }});',
				'const compare = String.prototype.localeCompare;',
				'String.prototype.localeCompare = function (...args) { if (args.length > 1) made++; return compare.apply(this, args); };',
				`process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(counted)}, String(made)));`,
			].join('\n');
		const {stdout, written} = await runWithHook(counter, ['--once', '--json', six.url], {
			token: 'collator-token',
			env: {RIGTOP_SYSFS: path.resolve('test/fixtures/sysfs/k10temp-tccd')},
		});
		const miner = (JSON.parse(stdout) as {miners: {ok: boolean; miner?: {sensors?: {temps: unknown[]}}}[]}).miners[0];
		expect(miner?.ok).toBe(true);
		// The sensors were read (the folders were listed): the check is not vacuous.
		expect(miner?.miner?.sensors?.temps.length).toBeGreaterThan(0);
		expect(written).toBe('0');
	});

	it('--version after other words prints the version without normalizing package data (no perf_hooks)', async () => {
		// A lone --version is meow's (it exits before rigtop's code); after other words it is rigtop's own.
		const {stdout, written} = await runWithHook(moduleListHook, ['127.0.0.1:9', '--once', '--version']);
		expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
		const loaded = written.split('\n');
		// The hook did write the list (the check is not vacuous).
		expect(loaded).toContain('NativeModule fs');
		expect(loaded).not.toContain('NativeModule perf_hooks');
	});
});

describe('rigtop --once on an xmrig-proxy (its real 6.26 answers, replayed)', () => {
	it('prints the proxy as a proxy, text and JSON, exit 0, and no pool password', async () => {
		const proxy = await startReplayMiner(routesProxy626());
		replays.push(proxy);
		const env = {RIGTOP_TOKEN: 'proxy-secret-3b7'};
		const text = await rigtop(['--once', proxy.url], env);
		expect(text.stderr).toBe('');
		expect(text.code).toBe(0);
		const lines = text.stdout.split('\n');
		// Named by its address, its worker id beside it.
		expect(lines[0]).toBe(`${new URL(proxy.url).host} (capture-proxy)  xmrig-proxy 6.26.0  nicehash  up 49s  connected`);
		expect(lines).toContain('  upstreams 1 active  0 sleep  0 error  of 1');
		expect(lines).toContain('  hashrate  1m 950 H/s~  10m 90.0 H/s~  1h 10.0 H/s~  12h 0.00 H/s~');
		expect(lines).toContain('            24h 0.00 H/s~  since start 1.18 kH/s');
		expect(text.stdout).toMatch(/rig-6\.26 {2}127\.0\.0\.1 +550 H\/s~ +50\.0 H\/s~ {2}11\/1\/0 /u);
		expect(text.stdout).toMatch(/rig-5\.11 {2}127\.0\.0\.1 +400 H\/s~ +40\.0 H\/s~ {2}9\/2\/0 /u);
		expect(text.stdout).not.toMatch(/\b(10s|60s|15m)\b|invalid {2}up/u);

		const json = await rigtop(['--once', '--json', proxy.url], env);
		expect(json.code).toBe(0);
		const report = JSON.parse(json.stdout) as {
			miners: {ok: boolean; miner: {dialect: string; kind: string; algo: unknown}; proxy: {hashrate: unknown; workers: {name: string}[]}}[];
		};
		const [only] = report.miners;
		expect(only?.ok).toBe(true);
		expect(only?.miner).toMatchObject({dialect: 'proxy', kind: 'proxy', algo: null});
		expect(only?.proxy.hashrate).toEqual({'1m': 950, '10m': 90, '1h': 10, '12h': 0, '24h': 0});
		expect(only?.proxy.workers.map((worker) => worker.name)).toEqual(['rig-6.26', 'rig-5.11']);
		for (const out of [text.stdout, text.stderr, json.stdout, json.stderr]) {
			expect(out).not.toContain('fixture-pool-pass1');
			expect(out).not.toContain('proxy-secret-3b7');
		}
	});
});
