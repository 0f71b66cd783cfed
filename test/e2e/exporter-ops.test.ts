/**
 * Running the built `rigtop exporter` as a service manager does: SIGHUP re-reads the rigs file (miners added are
 * polled, removed ones stop being polled and served, kept ones keep their counters), a broken file keeps the old set,
 * SIGTERM ends it with exit 0.
 */
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import packageJson from '../../package.json' with {type: 'json'};
import {eventually, freePort, parseSamples, select, type ParsedSample} from '../exporter/helpers/prometheus.js';
import {refused} from '../helpers/raw-server.js';
import {runCli} from './helpers/cli.js';
import {startExporter} from './helpers/exporter.js';
import {CLI} from './helpers/tmux.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function env(): NodeJS.ProcessEnv {
	const copy = {...process.env};
	delete copy['CI'];
	return copy;
}

async function scrape(url: string): Promise<ParsedSample[]> {
	const response = await fetch(url);
	return parseSamples(await response.text());
}

async function sim6(workerId: string): Promise<Simulator> {
	const started = await startSimulator({dialect: '6', warm: true, workerId, threads: 2});
	cleanups.push(async () => started.stop());
	return started;
}

const upMiners = (samples: readonly ParsedSample[]) =>
	select(samples, 'xmrig_up')
		.filter((sample) => sample.value === 1)
		.map((sample) => sample.labels['miner'])
		.sort();

describe('rigtop exporter and its signals', () => {
	it('SIGHUP: an added rig is polled, a removed one goes, a kept one keeps its counters; a broken file keeps the set; SIGTERM exits 0', async () => {
		const [a, b, c] = [await sim6('sim-a'), await sim6('sim-b'), await sim6('sim-c')];
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-reload-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		const rigsFile = path.join(dir, 'rigs.json');
		writeFileSync(
			rigsFile,
			JSON.stringify([
				{name: 'rig-a', url: a.url},
				{name: 'rig-b', url: b.url},
			]),
		);
		const exporter = await startExporter(['--rigs', rigsFile], cleanups);

		const before = await eventually(
			async () => {
				const samples = await scrape(exporter.metricsUrl);
				const polls = select(samples, 'xmrig_exporter_polls_total', {miner: 'rig-a'})[0]?.value ?? 0;
				return upMiners(samples).join() === 'rig-a,rig-b' && polls >= 3 ? samples : undefined;
			},
			20_000,
			'rig-a and rig-b up, rig-a polled 3 times',
		);
		// The landing page names the version the package has.
		expect(await (await fetch(exporter.metricsUrl.replace(/\/metrics$/, '/'))).text()).toContain(`rigtop exporter ${packageJson.version}<`);
		const pollsBefore = select(before, 'xmrig_exporter_polls_total', {miner: 'rig-a'})[0]!.value;
		const sharesBefore = select(before, 'xmrig_shares_total', {miner: 'rig-a'})[0]!.value;

		writeFileSync(
			rigsFile,
			JSON.stringify([
				{name: 'rig-a', url: a.url},
				{name: 'rig-c', url: c.url},
			]),
		);
		exporter.child.kill('SIGHUP');
		const after = await eventually(
			async () => {
				const samples = await scrape(exporter.metricsUrl);
				return upMiners(samples).join() === 'rig-a,rig-c' ? samples : undefined;
			},
			20_000,
			'rig-c up after SIGHUP',
		);
		expect(select(after, 'xmrig_up', {miner: 'rig-b'})).toEqual([]);
		expect(after.filter((sample) => sample.labels['miner'] === 'rig-b')).toEqual([]);
		expect(select(after, 'xmrig_exporter_miners')[0]?.value).toBe(2);
		// The same monitor: its poll count went on from where it was, and the miner's counters did not go back.
		expect(select(after, 'xmrig_exporter_polls_total', {miner: 'rig-a'})[0]!.value).toBeGreaterThanOrEqual(pollsBefore);
		expect(select(after, 'xmrig_shares_total', {miner: 'rig-a'})[0]!.value).toBeGreaterThanOrEqual(sharesBefore);
		expect(exporter.log()).toMatch(/reloaded: 2 miners \(1 added, 1 removed\)/);

		// rig-b is no longer polled: its request count stands still over several intervals.
		const bRequests = b.requests.length;
		await eventually(
			async () =>
				(select(await scrape(exporter.metricsUrl), 'xmrig_exporter_polls_total', {miner: 'rig-c'})[0]?.value ?? 0) >= 4 ? true : undefined,
			20_000,
			'rig-c polled 4 times',
		);
		expect(b.requests.length).toBe(bRequests);

		// A broken file: one line naming the problem, and the same two miners served.
		writeFileSync(rigsFile, '[{"name": "rig-a", "url": ');
		exporter.child.kill('SIGHUP');
		await eventually(async () => (/reload failed/.test(exporter.log()) ? true : undefined), 10_000, 'the reload failure logged');
		expect(exporter.log().match(/^.*reload failed.*$/gm)).toEqual([
			expect.stringMatching(
				new RegExp(
					`^ts=\\S+Z level=error msg="reload failed, still serving the 2 miners as before: --rigs ${rigsFile.replaceAll('/', '\\/')} is .*JSON`,
				),
			),
		]);
		expect(upMiners(await scrape(exporter.metricsUrl))).toEqual(['rig-a', 'rig-c']);
		expect(exporter.child.exitCode).toBe(null);

		exporter.child.kill('SIGTERM');
		expect(await exporter.exit()).toBe(0);
		expect(exporter.log()).toMatch(/ level=info msg="exporter stopped"\n$/);
	}, 90_000);
});

describe('--help and --version wherever they stand', () => {
	it("rigtop exporter --help prints the exporter's help and exits 0: no miner looked for, no port bound", async () => {
		const sim = await sim6('help-rig');
		const port = await freePort();
		for (const args of [
			['exporter', '--help', sim.url, '--listen', `127.0.0.1:${port}`],
			['exporter', sim.url, '--listen', `127.0.0.1:${port}`, '-h'],
			['help', 'exporter'],
		]) {
			const run = await runCli(args);
			expect({args, code: run.code, stderr: run.stderr}).toEqual({args, code: 0, stderr: ''});
			expect(run.stdout).toContain('$ rigtop exporter [URL…]');
			expect(run.stdout).toContain('/-/ready');
			expect(run.stdout).not.toContain('No XMRig');
		}

		expect(await refused(port)).toBe(true);
		expect(sim.requests).toEqual([]);
	});

	it('rigtop --help URL prints the help, not a snapshot; --version anywhere prints the version and binds nothing', async () => {
		const sim = await sim6('snap-rig');
		const help = await runCli(['--help', sim.url]);
		expect(help.code).toBe(0);
		expect(help.stdout).toContain('Usage');
		expect(help.stdout).toContain('rigtop exporter --help');
		expect(help.stdout).not.toContain('snap-rig');

		const port = await freePort();
		for (const args of [
			['exporter', '--version', '--listen', `127.0.0.1:${port}`, sim.url],
			['--version', '-i', '2', sim.url],
		]) {
			const run = await runCli(args);
			expect({args, code: run.code, stdout: run.stdout, stderr: run.stderr}).toEqual({
				args,
				code: 0,
				stdout: `${packageJson.version}\n`,
				stderr: '',
			});
		}

		expect(await refused(port)).toBe(true);
		expect(sim.requests).toEqual([]);
	});
});

describe('the log', () => {
	it('--log.format=json: every line is JSON with a time and a level; no token of a miner or of /metrics in any line', async () => {
		const MINER_TOKEN = 'miner-secret-7f3a9c21';
		const METRICS_TOKEN = 'metrics-secret-0b8e44d2';
		const secured = await startSimulator({dialect: '6', warm: true, token: MINER_TOKEN, workerId: 'secured'});
		cleanups.push(async () => secured.stop());
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-log-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		writeFileSync(path.join(dir, 'miner-token'), MINER_TOKEN, {mode: 0o600});
		writeFileSync(path.join(dir, 'wrong-token'), 'not-the-token', {mode: 0o600});
		writeFileSync(path.join(dir, 'metrics-token'), METRICS_TOKEN, {mode: 0o600});
		const rigsFile = path.join(dir, 'rigs.json');
		writeFileSync(
			rigsFile,
			JSON.stringify([
				{name: 'secured', url: secured.url, tokenFile: 'miner-token'},
				{name: 'wrong', url: secured.url.replace('127.0.0.1', 'localhost'), tokenFile: 'wrong-token'},
			]),
		);
		const exporter = await startExporter(
			['--rigs', rigsFile, '--metrics-token-file', path.join(dir, 'metrics-token'), '--log.format=json', '--log.level', 'debug'],
			cleanups,
		);
		// The wrong token makes an error line; a reload makes more.
		await eventually(async () => (/"level":"error"/.test(exporter.log()) ? true : undefined), 15_000, 'the wrong token logged');
		exporter.child.kill('SIGHUP');
		await eventually(async () => (/reloaded/.test(exporter.log()) ? true : undefined), 15_000, 'the reload logged');
		exporter.child.kill('SIGTERM');
		expect(await exporter.exit()).toBe(0);

		const lines = exporter.log().trimEnd().split('\n');
		expect(lines.length).toBeGreaterThanOrEqual(4);
		for (const line of lines) {
			const entry = JSON.parse(line) as Record<string, unknown>;
			expect(Object.keys(entry).slice(0, 3)).toEqual(['ts', 'level', 'msg']);
			expect(new Date(entry['ts'] as string).toISOString()).toBe(entry['ts']);
			expect(['debug', 'info', 'warn', 'error']).toContain(entry['level']);
		}

		expect(lines.some((line) => (JSON.parse(line) as {level: string}).level === 'error')).toBe(true);
		expect(exporter.log()).not.toContain(MINER_TOKEN);
		expect(exporter.log()).not.toContain(METRICS_TOKEN);
		expect(exporter.log()).not.toContain('not-the-token');
	});

	it('--log.level=warn leaves the info lines out; a bad --log.level or --log.format is bad usage; the live view has no log flags', async () => {
		const sim = await sim6('quiet-rig');
		const port = await freePort();
		const child = spawn('node', [CLI, 'exporter', sim.url, '--listen', `127.0.0.1:${port}`, '--log.level=warn'], {
			env: env(),
			stdio: ['ignore', 'ignore', 'pipe'],
		});
		let log = '';
		child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
		const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
		await eventually(
			async () =>
				(await fetch(`http://127.0.0.1:${port}/-/ready`).then(
					(response) => response.status,
					() => 0,
				)) === 200
					? true
					: undefined,
			15_000,
			'ready',
		);
		child.kill('SIGTERM');
		expect(await exited).toBe(0);
		expect(log).toBe('');

		const bad = await runCli(['exporter', sim.url, '--log.level', 'loud']);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/^rigtop: --log\.level "loud": write debug, info, warn, error\n/);
		const live = await runCli(['--once', sim.url, '--log.format=json']);
		expect(live.code).toBe(2);
		expect(live.stderr).toMatch(/^rigtop: --log\.format goes with rigtop exporter or rigtop watch\n/);
	});
});

describe('--no-thread-metrics through the built CLI', () => {
	it('serves no per-thread series and reads /2/backends at most once; the live view refuses the flag', async () => {
		const sim = await sim6('lean-rig');
		const exporter = await startExporter([sim.url, '--no-thread-metrics'], cleanups);
		const samples = await eventually(
			async () => {
				const scraped = await scrape(exporter.metricsUrl);
				return (select(scraped, 'xmrig_exporter_polls_total')[0]?.value ?? 0) >= 4 ? scraped : undefined;
			},
			20_000,
			'4 polls',
		);
		expect(select(samples, 'xmrig_hashrate_hashes_per_second').length).toBeGreaterThan(0);
		expect(select(samples, 'xmrig_thread_hashrate_hashes_per_second')).toEqual([]);
		expect(sim.requests.filter((request) => request.path === '/2/backends').length).toBeLessThanOrEqual(1);
		// The heap served is the worker's, the one that is bounded (64 MB of old generation for one miner, run.ts).
		const limit = select(samples, 'nodejs_heap_size_limit_bytes')[0]!.value;
		expect(limit).toBeGreaterThan(64 * 2 ** 20);
		expect(limit).toBeLessThan(128 * 2 ** 20);
		expect(select(samples, 'nodejs_heap_size_used_bytes')[0]!.value).toBeLessThan(limit);
		exporter.child.kill('SIGTERM');
		expect(await exporter.exit()).toBe(0);

		const live = await runCli(['--once', sim.url, '--no-thread-metrics']);
		expect(live.code).toBe(2);
		expect(live.stderr).toMatch(/^rigtop: --no-thread-metrics goes with rigtop exporter\n/);
	});
});
