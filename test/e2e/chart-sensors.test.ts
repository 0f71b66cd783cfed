/**
 * The chart's sensor series with the built CLI in tmux: `dist/xmrig-sim.js` on loopback writing a simulated sysfs
 * (--sim-sysfs: k10temp, cpufreq, powercap), rigtop reading it with RIGTOP_SYSFS, polls stored with their readings;
 * `g` then `s` draws the temperature, `ss` on the power; `rigtop history --json` prints the stored readings.
 */
import {execFile, spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const run = promisify(execFile);
const SIM = path.resolve('dist/xmrig-sim.js');
const BRAILLE = /[\u2801-\u28FF]/;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => {
				resolve(typeof address === 'object' && address !== null ? address.port : 0);
			});
		});
	});
}

/** The built simulator on loopback, writing its sysfs tree into `sysfs`; resolves once it answers. */
async function startSim(sysfs: string): Promise<{url: string; child: ChildProcess}> {
	const port = await freePort();
	const child = spawn('node', [SIM, '--http-port', String(port), '--sim-warm', '--sim-seed', '7', '--sim-sysfs', sysfs], {stdio: 'ignore'});
	cleanups.push(() => {
		child.kill();
	});
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 15_000;
	for (;;) {
		try {
			const response = await fetch(`${url}/2/summary`);
			if (response.ok) break;
		} catch {
			// not listening yet
		}

		if (Date.now() > deadline) throw new Error('the simulator did not answer');
		await new Promise((resolve) => setTimeout(resolve, 100));
	}

	return {url, child};
}

const plotOf = (screen: string) => screen.split('\n').filter((line) => /^ {0,4}[\d.]* [┤│]/.test(line));

describe('the chart of a miner on this machine, with RIGTOP_SYSFS', () => {
	it('s switches the chart to the stored temperature, then the power; rigtop history prints the readings', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-chart-sensors-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		const sysfs = path.join(dir, 'sys');
		const {url} = await startSim(sysfs);
		const env = {XDG_STATE_HOME: path.join(dir, 'state'), RIGTOP_SYSFS: sysfs};

		const terminal = await TmuxTerminal.start(['node', CLI, url, '--interval', '1'], {cols: 80, rows: 24, env});
		cleanups.push(async () => terminal.kill());
		await terminal.waitFor('● live', 15_000);
		// A few polls with their readings (the watts need two): several points of a 10-minute chart.
		await new Promise((resolve) => setTimeout(resolve, 8000));
		await terminal.send('g');
		// Seconds known, no span chosen: the 10 minutes that hold them.
		await terminal.waitFor('last 10 min');
		// Keys as a terminal delivers them typed fast: the hour, back to 10 minutes and the next series in one read.
		await terminal.send('21s', true);
		const chart = await terminal.waitFor(
			(screen) => screen.includes('temperature · last 10 min') && plotOf(screen).some((line) => BRAILLE.test(line)),
			10_000,
		);
		const lines = chart.split('\n');
		expect(lines[0]).toMatch(/min \d+°C avg \d+°C max \d+°C/);
		expect(lines[1]).toMatch(/^°C {4}⠤⠤ temperature/);
		expect(chart).toMatch(/Esc back .* s series/);

		await terminal.send('ss', true);
		const power = await terminal.waitFor((screen) => screen.includes('power · last 10 min'), 10_000);
		expect(power.split('\n')[1]).toMatch(/^W {5}⠤⠤ power/);
		expect(power.split('\n')[0]).toMatch(/min [\d.]+ W avg [\d.]+ W max [\d.]+ W/);
		await terminal.send('q');
		await terminal.waitFor('[exit 0]', 10_000);

		const history = spawnEnv(env);
		const {stdout} = await run('node', [CLI, 'history', url, '--json', '--since', '1h'], {env: history, timeout: 20_000});
		const doc = JSON.parse(stdout) as {
			series: {sensors: {temperature: {max: number; limit: number | null} | null; watts: unknown} | null}[];
		};
		const read = doc.series.filter((row) => row.sensors?.temperature);
		expect(read.length).toBeGreaterThan(3);
		expect(read.every((row) => (row.sensors?.temperature?.max ?? 0) > 20)).toBe(true);
		expect(doc.series.some((row) => row.sensors?.watts)).toBe(true);
	});
});

function spawnEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {...process.env, ...extra};
	delete env['CI'];
	return env;
}
