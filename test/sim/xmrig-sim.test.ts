/**
 * The xmrig-sim executable as a real process: bundled from source/sim/main.ts the way scripts/build.mjs
 * does, started with XMRig's options, driven over HTTP, stopped with signals.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {build} from 'esbuild';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {SensorSampler} from '../../source/sensors/sampler.js';
import {fixture, waitFor} from './helpers.js';

let dir = '';
let bundle = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-xmrig-sim-'));
	bundle = path.join(dir, 'xmrig-sim.mjs');
	await build({
		entryPoints: ['source/sim/main.ts'],
		outfile: bundle,
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node22',
		// jsonc-parser's UMD main has require()s esbuild cannot follow; its ESM build is what rigtop bundles too.
		mainFields: ['module', 'main'],
		logLevel: 'error',
	});
});

afterEach(() => {
	for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

afterAll(() => {
	rmSync(dir, {recursive: true, force: true});
});

type Running = {child: ChildProcess; firstLine: string; stderr: () => string; exit: Promise<number | null>};

async function run(args: string[]): Promise<Running> {
	const child = spawn(process.execPath, [bundle, ...args], {stdio: ['ignore', 'pipe', 'pipe']});
	children.push(child);
	let stdout = '';
	let stderr = '';
	child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
	const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	await waitFor(() => stdout.includes('\n') || child.exitCode !== null, 10_000, `xmrig-sim output (stderr: ${stderr})`);
	return {child, firstLine: stdout.split('\n')[0]!, stderr: () => stderr, exit};
}

function apiPort(line: string): number {
	const match = /^HTTP API 127\.0\.0\.1:(\d+)$/.exec(line);
	if (!match) throw new Error(`unexpected first line: ${line}`);
	return Number(match[1]);
}

describe('xmrig-sim', () => {
	it('serves the API on a random port given --http-port 0 and exits 0 on SIGTERM', async () => {
		const sim = await run(['--http-port', '0', '--http-access-token', 'cli-token', '--http-no-restricted', '--sim-warm']);
		const port = apiPort(sim.firstLine);
		expect((await fetch(`http://127.0.0.1:${port}/2/summary`)).status).toBe(401);
		const summary = await fetch(`http://127.0.0.1:${port}/2/summary`, {headers: {Authorization: 'Bearer cli-token'}});
		expect(((await summary.json()) as {version: string; uptime: number}).version).toBe('6.26.0');
		expect(sim.firstLine).not.toContain('cli-token');
		sim.child.kill('SIGTERM');
		expect(await sim.exit).toBe(0);
		expect(sim.stderr()).not.toContain('cli-token');
	});

	it('reads a current-layout config file and writes accepted PUTs back to it', async () => {
		const file = path.join(dir, 'config-6.json');
		const original = fixture('v6.26/configs/config_main_as_autosaved_on_start.json').replace('"port": 18090', '"port": 0');
		writeFileSync(file, original);
		const sim = await run(['-c', file]);
		const port = apiPort(sim.firstLine);
		const auth = {Authorization: 'Bearer testtoken'};
		expect(await (await fetch(`http://127.0.0.1:${port}/1/config`, {headers: auth})).text()).toBe(original);
		const changed = original.replace('"print-time": 60', '"print-time": 30');
		const put = await fetch(`http://127.0.0.1:${port}/1/config`, {
			method: 'PUT',
			headers: {...auth, 'Content-Type': 'application/json'},
			body: changed,
		});
		expect(put.status).toBe(204);
		expect(readFileSync(file, 'utf8')).toBe(changed);
		sim.child.kill('SIGINT');
		expect(await sim.exit).toBe(0);
	});

	it('speaks 2.14 for an older-layout config file (api.port)', async () => {
		const file = path.join(dir, 'config-214.json');
		writeFileSync(file, fixture('v2.14-configs/config_restricted-notoken_as_written.json').replace('"port": 18092', '"port": 0'));
		const sim = await run([`--config=${file}`, '--api-port', '0']);
		const port = apiPort(sim.firstLine);
		const answer = await fetch(`http://127.0.0.1:${port}/anything`, {headers: {Authorization: 'Bearer ignored'}});
		expect(answer.status).toBe(200);
		expect(((await answer.json()) as {version: string}).version).toBe('2.14.4');
		sim.child.kill('SIGTERM');
		expect(await sim.exit).toBe(0);
	});

	it('keeps running with the API off when nothing turns it on', async () => {
		const sim = await run(['--sim-dialect', '5']);
		expect(sim.firstLine).toBe('HTTP API disabled');
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(sim.child.exitCode).toBeNull();
		sim.child.kill('SIGTERM');
		expect(await sim.exit).toBe(0);
	});

	it('fails with a message for a config file it cannot read', async () => {
		const child = spawn(process.execPath, [bundle, '-c', path.join(dir, 'nope.json')], {stdio: ['ignore', 'pipe', 'pipe']});
		children.push(child);
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
		const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
		expect(code).toBe(1);
		expect(stderr).toContain('unable to open');
	});

	for (const flag of ['--help', '-h']) {
		it(`${flag} prints the usage and exits 0, as XMRig does (no warning, no server)`, async () => {
			const sim = await run([flag]);
			expect(await sim.exit).toBe(0);
			expect(sim.firstLine).toBe('Usage: xmrig-sim [OPTIONS]');
			expect(sim.stderr()).toBe('');
		});
	}

	it('--sim-kind proxy serves an xmrig-proxy with --sim-workers miners behind it, config file and all', async () => {
		const sim = await run([
			'--sim-kind',
			'proxy',
			'--http-port',
			'0',
			'--http-access-token',
			'px',
			'--sim-workers',
			'2',
			'--sim-warm',
			'--sim-seed',
			'7',
		]);
		const port = apiPort(sim.firstLine);
		const auth = {Authorization: 'Bearer px'};
		expect((await fetch(`http://127.0.0.1:${port}/1/workers`)).status).toBe(401);
		const summary = (await (await fetch(`http://127.0.0.1:${port}/1/summary`, {headers: auth})).json()) as {kind: string; uptime: number};
		expect(summary.kind).toBe('proxy');
		expect(summary.uptime).toBeGreaterThan(3 * 86400);
		const workers = (await (await fetch(`http://127.0.0.1:${port}/1/workers`, {headers: auth})).json()) as {workers: unknown[][]};
		expect(workers.workers.map((row) => row[0])).toEqual(['rig-01', 'rig-02']);
		sim.child.kill('SIGTERM');
		expect(await sim.exit).toBe(0);

		const file = path.join(dir, 'proxy.json');
		writeFileSync(file, fixture('../xmrig-proxy/v6.26/get_1_config.txt').split('\r\n\r\n')[1]!.replace('"port": 13341', '"port": 0'));
		const fromFile = await run(['--sim-kind=proxy', '-c', file]);
		const filePort = apiPort(fromFile.firstLine);
		const own = (await (
			await fetch(`http://127.0.0.1:${filePort}/1/summary`, {headers: {Authorization: 'Bearer proxy-secret-3b7'}})
		).json()) as {
			worker_id: string;
		};
		expect(own.worker_id).toBe('capture-proxy');
		fromFile.child.kill('SIGTERM');
		expect(await fromFile.exit).toBe(0);
	});

	it('--sim-sysfs writes a simulated sysfs that rigtop reads as a k10temp rig with growing energy', async () => {
		const tree = path.join(dir, 'sysfs');
		const sim = await run(['--http-port', '0', '--threads', '2', '--sim-sysfs', tree]);
		apiPort(sim.firstLine);
		const sampler = new SensorSampler({root: tree});
		const first = await sampler.read(null);
		expect(first.temps[0]).toMatchObject({source: 'k10temp', label: 'Tctl'});
		expect(first.clock?.cpus).toEqual([0, 1]);
		const energy = () => Number(readFileSync(path.join(tree, 'class/powercap/intel-rapl:0/energy_uj'), 'utf8'));
		const before = energy();
		await waitFor(() => energy() !== before, 5000, 'energy_uj to grow');
		sim.child.kill('SIGTERM');
		expect(await sim.exit).toBe(0);
	});

	it('--version prints the version of the dialect and exits 0', async () => {
		const sim = await run(['--version', '--sim-dialect', '2']);
		expect(await sim.exit).toBe(0);
		expect(sim.firstLine).toMatch(/^XMRig 2\.16\.0/);
	});

	it('a warm simulator stopped and started again on the same port answers a lower uptime: the restart shows', async () => {
		const uptimes: number[] = [];
		let port = 0;
		for (let start = 0; start < 3; start++) {
			const sim = await run(['--http-port', String(port), '--sim-warm', '--api-worker-id', 'restarting-rig']);
			port = apiPort(sim.firstLine);
			const summary = (await (await fetch(`http://127.0.0.1:${port}/2/summary`)).json()) as {uptime: number};
			uptimes.push(summary.uptime);
			// It has been up for days, and moves on while it runs.
			expect(summary.uptime).toBeGreaterThan(3 * 86400);
			if (start === 0) {
				await new Promise((resolve) => setTimeout(resolve, 1100));
				const later = (await (await fetch(`http://127.0.0.1:${port}/2/summary`)).json()) as {uptime: number};
				expect(later.uptime).toBeGreaterThan(summary.uptime);
				uptimes[0] = later.uptime;
			}

			sim.child.kill('SIGTERM');
			expect(await sim.exit).toBe(0);
		}

		// Every start begins at the same warm uptime, never above the last answer of the process before it.
		expect(uptimes[1]).toBeLessThan(uptimes[0]!);
		expect(uptimes[2]).toBe(uptimes[1]);
	});
});
