/**
 * Issue 28's alert end to end: the built CLI watching the built simulated miner (dist/xmrig-sim.js) on loopback, with
 * RIGTOP_SYSFS pointing at a copy of a real layout's tree (a two-package Xeon's coretemp and powercap). Raising a
 * sensor's temperature over its own max in that copy puts "CPU hot" in the dashboard's events pane after three polls;
 * bringing it back down, "back under".
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, expect, it} from 'vitest';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const SIM = path.resolve('dist/xmrig-sim.js');
const TOKEN = 'e2e-sensor-token';
let sim: ChildProcess | null = null;
let terminal: TmuxTerminal | null = null;
let dir = '';

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
	if (sim && sim.exitCode === null) {
		const exited = new Promise((resolve) => sim!.once('exit', resolve));
		sim.kill('SIGTERM');
		await exited;
	}

	sim = null;
	if (dir) rmSync(dir, {recursive: true, force: true});
});

/** The simulated miner as a process of its own; resolves to its address once it says where it listens. */
async function startSim(): Promise<string> {
	const child = spawn('node', [SIM, '--http-host', '127.0.0.1', '--http-port', '0', '--http-access-token', TOKEN, '--sim-warm'], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	sim = child;
	let out = '';
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`xmrig-sim did not start: ${out}`)), 10_000);
		child.stdout.setEncoding('utf8');
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (chunk: string) => (out += chunk));
		child.stdout.on('data', (chunk: string) => {
			out += chunk;
			const match = /HTTP API (\S+:\d+)/.exec(out);
			if (match) {
				clearTimeout(timer);
				resolve(match[1]!);
			}
		});
	});
}

/** The hwmon sensor of the tree that has a max of its own and a label: its input file, its label and its max (°C). */
function sensorWithMax(root: string): {input: string; label: string; max: number; celsius: number} {
	const hwmon = path.join(root, 'class/hwmon');
	for (const entry of readdirSync(hwmon).sort()) {
		const files = readdirSync(path.join(hwmon, entry));
		for (const file of files.filter((name) => /^temp\d+_max$/.test(name)).sort()) {
			const stem = file.replace(/_max$/, '');
			if (!files.includes(`${stem}_label`) || !files.includes(`${stem}_input`)) continue;
			const read = (suffix: string) => readFileSync(path.join(hwmon, entry, `${stem}_${suffix}`), 'utf8').trim();
			return {
				input: path.join(hwmon, entry, `${stem}_input`),
				label: read('label'),
				max: Number(read('max')) / 1000,
				celsius: Number(read('input')) / 1000,
			};
		}
	}

	throw new Error(`no hwmon sensor with a max and a label under ${hwmon}`);
}

it('a sensor of RIGTOP_SYSFS raised over its max shows "CPU hot" in the events pane; back down, "back under"', async () => {
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-sensors-'));
	const tree = path.join(dir, 'sys');
	cpSync(path.resolve('test/fixtures/sysfs/coretemp-2pkg'), tree, {recursive: true});
	const sensor = sensorWithMax(tree);
	expect(sensor.celsius).toBeLessThan(sensor.max);
	const address = await startSim();

	terminal = await TmuxTerminal.start(['node', CLI, address, '--interval', '0.5', '--no-history'], {
		cols: 120,
		rows: 40,
		env: {RIGTOP_TOKEN: TOKEN, RIGTOP_SYSFS: tree, NO_COLOR: '1'},
	});
	await terminal.waitFor((screen) => /live/.test(screen) && /kH\/s|H\/s/.test(screen), 10_000);
	const before = await terminal.screen();
	expect(before).not.toContain('CPU hot');

	// Three polls at or over the max: the warning, naming the sensor and its °C.
	writeFileSync(sensor.input, `${Math.round((sensor.max + 4) * 1000)}\n`);
	const hot = await terminal.waitFor('CPU hot', 15_000);
	expect(hot).toContain(
		`CPU hot: ${sensor.label} ${Math.round(sensor.max + 4)}°C, at or over its max (${Math.round(sensor.max)}°C) for 3 polls`,
	);

	// Down again, more than the 2 °C of hysteresis under the max: its recovery.
	writeFileSync(sensor.input, `${Math.round((sensor.max - 10) * 1000)}\n`);
	const back = await terminal.waitFor('CPU temperature back under its max', 15_000);
	expect(back.split('\n').filter((line) => line.includes('CPU hot'))).toHaveLength(1);
	await terminal.send('q', true);
	await terminal.waitFor('[exit 0]', 10_000);
});

it('--temp-alert C is the limit instead of the sensor\'s max: under its max, over the threshold, "CPU hot"', async () => {
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-sensors-'));
	const tree = path.join(dir, 'sys');
	cpSync(path.resolve('test/fixtures/sysfs/coretemp-2pkg'), tree, {recursive: true});
	const sensor = sensorWithMax(tree);
	const threshold = Math.round(sensor.celsius) + 5;
	expect(threshold + 2).toBeLessThan(sensor.max);
	const address = await startSim();

	terminal = await TmuxTerminal.start(['node', CLI, address, '--interval', '0.5', '--no-history', '--temp-alert', `${threshold}C`], {
		cols: 120,
		rows: 40,
		env: {RIGTOP_TOKEN: TOKEN, RIGTOP_SYSFS: tree, NO_COLOR: '1'},
	});
	await terminal.waitFor((screen) => /live/.test(screen) && /kH\/s|H\/s/.test(screen), 10_000);
	writeFileSync(sensor.input, `${(threshold + 2) * 1000}\n`);
	const hot = await terminal.waitFor('CPU hot', 15_000);
	expect(hot).toContain(`CPU hot: ${sensor.label} ${threshold + 2}°C, at or over --temp-alert ${threshold}°C for 3 polls`);
	await terminal.send('q', true);
	await terminal.waitFor('[exit 0]', 10_000);
});
