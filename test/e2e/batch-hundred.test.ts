/**
 * A batch against 100 simulated rigs (issue 27: "finishes in seconds with the result of each"): 100 simulators on
 * loopback in this process, the built CLI's `rigtop pause --rigs FILE`, `rigtop resume` and `rigtop config set --rigs`
 * against them: one line per rig, every rig applied, exit 0. The wall time is printed, not asserted (no timing goals
 * in tests); docs/performance.md has the figure and the command.
 */
import {execFile} from 'node:child_process';
import {chmod, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {performance} from 'node:perf_hooks';
import {promisify} from 'node:util';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt} from './helpers/tmux.js';

const run = promisify(execFile);
const TOKEN = 'e2e-hundred-token-3b';
const RIGS = 100;
const sims: Simulator[] = [];
let dir = '';
let rigs = '';

beforeAll(async () => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	dir = await mkdtemp(path.join(tmpdir(), 'rigtop-hundred-e2e-'));
	for (let index = 0; index < RIGS; index++) {
		sims.push(await startSimulator({dialect: index % 2 === 0 ? '6' : '5', token: TOKEN, restricted: false, seed: index, applyDelayMs: 40}));
	}

	const tokenFile = path.join(dir, 'token');
	await writeFile(tokenFile, TOKEN);
	await chmod(tokenFile, 0o600);
	rigs = path.join(dir, 'rigs.json');
	const name = (index: number) => `rig-${String(index + 1).padStart(3, '0')}`;
	await writeFile(rigs, JSON.stringify(sims.map((sim, index) => ({name: name(index), url: sim.url, tokenFile}))));
}, 120_000);

afterAll(async () => {
	await Promise.all(sims.splice(0).map(async (sim) => sim.stop()));
	await rm(dir, {recursive: true, force: true});
});

/** How many of the simulators say they are paused (their summaries, read over HTTP). */
async function pausedCount(): Promise<number> {
	const states = await Promise.all(
		sims.map(async (sim) => {
			const response = await fetch(`${sim.url}/2/summary`, {headers: {authorization: `Bearer ${TOKEN}`}});
			return ((await response.json()) as {paused: boolean}).paused;
		}),
	);
	return states.filter(Boolean).length;
}

async function timed(args: string[]): Promise<{code: number; stdout: string; seconds: number}> {
	const env: NodeJS.ProcessEnv = {...process.env, XDG_STATE_HOME: path.join(dir, 'state')};
	delete env['CI'];
	const started = performance.now();
	let result: {code: number; stdout: string};
	try {
		const {stdout} = await run('node', [CLI, ...args], {env, timeout: 120_000, maxBuffer: 8 * 1024 * 1024});
		result = {code: 0, stdout};
	} catch (error) {
		const failure = error as {code?: number; stdout?: string};
		result = {code: typeof failure.code === 'number' ? failure.code : -1, stdout: failure.stdout ?? ''};
	}

	const seconds = (performance.now() - started) / 1000;
	console.log(`rigtop ${args.join(' ')}: ${RIGS} rigs in ${seconds.toFixed(2)} s (wall, process start included)`);
	expect(result.stdout).not.toContain(TOKEN);
	return {...result, seconds};
}

describe('a batch against 100 simulated rigs, built', () => {
	it('pause, resume and config set --rigs: one line per rig, every rig applied, exit 0', async () => {
		const paused = await timed(['pause', '--rigs', rigs]);
		expect(paused.code).toBe(0);
		const lines = paused.stdout.trimEnd().split('\n');
		expect(lines).toHaveLength(RIGS + 1);
		lines.slice(0, RIGS).forEach((line, index) => {
			expect(line).toBe(`rig-${String(index + 1).padStart(3, '0')}  applied  paused (read back)`);
		});
		expect(lines.at(-1)).toBe(`${RIGS} rigs: ok=0 changed=${RIGS} skipped=0 failed=0 unreachable=0`);
		expect(await pausedCount()).toBe(RIGS);

		const resumed = await timed(['resume', '--rigs', rigs, '--json']);
		expect(resumed.code).toBe(0);
		const document = JSON.parse(resumed.stdout) as {rigs: {result: string}[]; summary: {applied: number}};
		expect(document.rigs).toHaveLength(RIGS);
		expect(document.summary.applied).toBe(RIGS);
		expect(await pausedCount()).toBe(0);

		const set = await timed(['config', 'set', 'cpu.huge-pages-jit=true', '--rigs', rigs]);
		expect(set.code).toBe(0);
		const setLines = set.stdout.trimEnd().split('\n');
		expect(setLines).toHaveLength(RIGS + 1);
		for (const line of setLines.slice(0, RIGS)) expect(line).toMatch(/^rig-\d{3} {2}applied {2}cpu\.huge-pages-jit: false → true$/);
		expect(setLines.at(-1)).toBe(`${RIGS} rigs: ok=0 changed=${RIGS} skipped=0 failed=0 unreachable=0`);
		expect(sims.every((sim) => (JSON.parse(sim.configText()) as {cpu: Record<string, unknown>}).cpu['huge-pages-jit'] === true)).toBe(true);
	}, 300_000);
});
