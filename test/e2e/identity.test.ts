/**
 * Another miner at a watched address, in a real terminal: the built CLI watches a simulator, which stops; another
 * (another MAC, so another id; up for days) starts on the same port. The dashboard says so once, counts from the new
 * miner's values with no rejected-share event from the jump, and the store keeps the two apart.
 */
import {execFile} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

let terminal: TmuxTerminal | null = null;

/** Runs the built CLI without blocking this process (the simulators answer from it). */
async function cli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{status: number; stdout: string; stderr: string}> {
	return new Promise((resolve) => {
		execFile(process.execPath, [CLI, ...args], {env, encoding: 'utf8'}, (error, stdout, stderr) => {
			resolve({status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr});
		});
	});
}
const simulators: Simulator[] = [];
const dirs: string[] = [];

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
	for (const sim of simulators.splice(0)) await sim.stop();
	for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true});
});

it('says once that a different miner answers at the address, shows its shares, and keeps each history apart', async () => {
	const state = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-identity-'));
	dirs.push(state);
	const first = await startSimulator({dialect: '6', workerId: 'e2e-first', mac: '02:00:00:00:00:0a', seed: 1});
	simulators.push(first);
	const {port} = first;
	terminal = await TmuxTerminal.start(['node', CLI, first.url, '--interval', '0.5'], {cols: 100, rows: 30, env: {XDG_STATE_HOME: state}});
	await terminal.waitFor((screen) => screen.includes('e2e-first') && /● live/.test(screen), 5000);

	await first.stop();
	await terminal.waitFor(/stale|down/, 8000);
	const second = await startSimulator({dialect: '6', workerId: 'e2e-second', mac: '02:00:00:00:00:0b', warm: true, seed: 2, port});
	simulators.push(second);
	const message = `a different miner now answers at 127.0.0.1:${port}: e2e-second, XMRig 6.26.0`;
	const swapped = await terminal.waitFor((screen) => screen.includes(message) && /● live/.test(screen), 15_000);
	expect(swapped.split('\n')[0]).toContain('e2e-second');
	expect(swapped).not.toMatch(/shares? rejected|restarted/);
	// The shares pane: the new miner's own counters.
	const summary = (await (await fetch(`${second.url}/2/summary`)).json()) as {results: {shares_total: number}};
	expect(summary.results.shares_total).toBeGreaterThan(1000);
	expect(swapped).toMatch(/\d[\d ]* \/ \d[\d ]{3,} good/);

	// The event view reads the store: the event is there once.
	await terminal.send('e', true);
	const events = await terminal.waitFor((screen) => screen.includes('events') && screen.includes(message), 5000);
	expect(events.split(message)).toHaveLength(2);
	await terminal.send('q', true);
	await terminal.waitFor('[exit 0]', 5000);

	// Two miners stored; `rigtop history URL` shows the one answering now and names the other.
	const env: NodeJS.ProcessEnv = {...process.env, XDG_STATE_HOME: state};
	delete env['CI'];
	const list = await cli(['history', '--list', '--json'], env);
	const miners = JSON.parse(list.stdout) as {name: string; url: string; workerId: string}[];
	// One address, two miners: both named by it (as the exporter does), told apart by the worker id beside.
	expect(miners.map((miner) => miner.name)).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`]);
	expect(miners.map((miner) => miner.workerId).sort()).toEqual(['e2e-first', 'e2e-second']);
	const shown = await cli(['history', second.url], env);
	expect(shown.status).toBe(0);
	expect(shown.stdout.split('\n')[0]).toContain('e2e-second');
	expect(shown.stdout).toContain(message);
	expect(shown.stdout).not.toContain('watching e2e-first');
	expect(shown.stderr).toMatch(
		new RegExp(
			`another miner was seen at 127\\.0\\.0\\.1:${port} before: 127\\.0\\.0\\.1:${port} \\(worker e2e-first\\) \\(id [0-9a-f]{16}\\)`,
		),
	);
});

it('an apply by rigtop config set in another process shows in the watching dashboard, its event view and rigtop history', async () => {
	const state = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-config-set-'));
	dirs.push(state);
	const token = 'e2e-config-set-token';
	const sim = await startSimulator({dialect: '6', workerId: 'e2e-watched', warm: true, token, restricted: false, applyDelayMs: 100});
	simulators.push(sim);
	terminal = await TmuxTerminal.start(['node', CLI, sim.url, '--interval', '0.5'], {
		cols: 100,
		rows: 30,
		env: {XDG_STATE_HOME: state, RIGTOP_TOKEN: token},
	});
	await terminal.waitFor((screen) => screen.includes('e2e-watched') && /● live/.test(screen), 5000);

	const env: NodeJS.ProcessEnv = {...process.env, XDG_STATE_HOME: state, RIGTOP_TOKEN: token};
	delete env['CI'];
	const set = await cli(['config', 'set', 'colors=false', sim.url], env);
	expect(set.status).toBe(0);
	expect(set.stdout).toContain('colors: true → false  applied');
	// The dashboard's events pane reads the store again at the next poll: the config view's words, once.
	const pane = await terminal.waitFor(/config apply: applied 1 change/, 8000);
	expect(pane.match(/config apply: applied 1 change/g)).toHaveLength(1);
	await terminal.send('e', true);
	await terminal.waitFor((screen) => screen.includes('events') && screen.includes('config apply: applied 1 change'), 5000);
	await terminal.send('q', true);
	await terminal.waitFor('[exit 0]', 5000);

	const shown = await cli(['history', sim.url], env);
	expect(shown.status).toBe(0);
	expect(shown.stdout).toMatch(/ info +config apply: applied 1 change: colors: \w+ → false; your config as it was is saved in /);
	expect(shown.stdout).not.toContain(token);
});
