// Shared pieces of the benchmarks (bench/*.bench.mjs, run by bench/run.mjs after `npm run build`).
// Every benchmark prints its figure, the baseline measured in the same run, the ratio and whether
// the goal is met, then one machine-readable line `RESULT {json}` that bench/run.mjs collects into
// bench/results.json, docs/performance.md and the readme's Performance table.
import {execFileSync, spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import {setTimeout as sleep} from 'node:timers/promises';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {common} from '../scripts/build.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// RIGTOP_BENCH_CLI: another build's cli.js in place of this checkout's (to compare builds).
export const CLI = process.env.RIGTOP_BENCH_CLI || path.join(root, 'dist', 'cli.js');
export const SIM = path.join(root, 'dist', 'xmrig-sim.js');
export {sleep};

export function requireBuild() {
	for (const file of [CLI, SIM]) {
		if (!existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: run npm run build (npm run bench does)`);
	}
}

/**
 * The environment in which rigtop's bin runs as users run it (`rigtop …`, `npx rigtop …`): executed itself, so
 * its shebang line (and any node option on it) applies, with this process's Node first on PATH.
 */
export function binEnv(env = process.env) {
	// rigtop keeps its history under $XDG_STATE_HOME: a benchmark writes into a scratch folder of its own, never into
	// the history of the user who runs it (nor reads theirs), unless the caller names one.
	const state = env.RIGTOP_BENCH_STATE_HOME ?? scratchDir('state');
	return {...env, XDG_STATE_HOME: state, PATH: `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`};
}

/** The node options on the bin's shebang line (source/bin.ts): the in-process drivers run with them, as rigtop does. */
export function binNodeOptions() {
	requireBuild();
	const first = readFileSync(CLI, 'utf8').split('\n', 1)[0];
	const match = /^#!\/usr\/bin\/env -S node (.+)$/.exec(first);
	return match ? match[1].split(/\s+/).filter(Boolean) : [];
}

/** The bare node:http scripts the benchmarks measure rigtop against (bench/bare-once.mjs, bench/bare-poller.mjs). */
export const BARE_ONCE = path.join(root, 'bench', 'bare-once.mjs');
export const BARE_POLLER = path.join(root, 'bench', 'bare-poller.mjs');

/** A scratch directory for one benchmark run (token files, rigtop's compile cache). */
export function scratchDir(name) {
	return mkdtempSync(path.join(os.tmpdir(), `rigtop-bench-${name}-`));
}

/**
 * The simulated miner (dist/xmrig-sim.js) in a process of its own, so its CPU is never counted
 * as rigtop's. A warm 6.x rig with 8 threads on `port` (default: a free loopback port). With
 * `token`, the miner wants it (http.access-token) and `tokenFile` is a file that holds it.
 */
export async function startMiner({threads = 8, workerId = 'bench-rig', port = 0, token = null} = {}) {
	requireBuild();
	let tokenFile = null;
	if (token !== null) {
		tokenFile = path.join(scratchDir('token'), 'token');
		writeFileSync(tokenFile, `${token}\n`, {mode: 0o600});
	}

	const child = spawn(
		process.execPath,
		[
			SIM,
			'--http-port',
			String(port),
			'--sim-warm',
			'--threads',
			String(threads),
			'--api-worker-id',
			workerId,
			...(token === null ? [] : ['--http-access-token', token]),
		],
		{stdio: ['ignore', 'pipe', 'inherit']},
	);
	const url = await new Promise((resolve, reject) => {
		let out = '';
		child.stdout.on('data', (chunk) => {
			out += chunk;
			const match = /HTTP API (\S+):(\d+)/.exec(out);
			if (match) resolve(`http://${match[1]}:${match[2]}`);
		});
		child.on('exit', (code) => reject(new Error(`xmrig-sim exited (${code}) before listening: ${out}`)));
	});
	return {
		url,
		tokenFile,
		pid: child.pid,
		async stop() {
			if (child.exitCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		},
	};
}

/** ms from spawning a command to its exit (its output read and dropped); rejects on a non-zero exit. */
export function timeToExit(command, args, {env = process.env} = {}) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(command, args, {stdio: ['ignore', 'pipe', 'pipe'], env});
		let errors = '';
		child.stdout.resume();
		child.stderr.on('data', (chunk) => {
			errors += chunk;
		});
		child.on('error', reject);
		child.on('close', (code) => {
			const ms = performance.now() - started;
			if (code === 0) resolve(ms);
			else reject(new Error(`${path.basename(command)} ${args.join(' ')} exited ${code}: ${errors.slice(-500)}`));
		});
	});
}

/** CPU time (user + system, ms) a process has used, and with `children` what its waited-for children used. */
export function cpuMs(pid, {children = false} = {}) {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// Fields after the command name (which may hold spaces) start after the last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const ticks = (index) => Number(fields[index - 3]);
	const own = ticks(14) + ticks(15);
	const waited = children ? ticks(16) + ticks(17) : 0;
	return ((own + waited) * 1000) / clockTicks();
}

let ticksPerSecond = 0;
function clockTicks() {
	if (ticksPerSecond === 0) {
		try {
			ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim()) || 100;
		} catch {
			ticksPerSecond = 100; // USER_HZ on every Linux the project targets
		}
	}

	return ticksPerSecond;
}

/** The direct children of a process (from /proc/<pid>/task/<pid>/children). */
export function childPids(pid) {
	try {
		return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
	} catch {
		return [];
	}
}

/** Resident set size (bytes) of a process. */
export function rssBytes(pid) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = /VmRSS:\s+(\d+) kB/.exec(status);
	return match ? Number(match[1]) * 1024 : 0;
}

export function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function percentile(values, p) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Benchmarks' own settings from the environment (for quick local runs); the readme's figures use the defaults. */
export function setting(name, fallback) {
	const value = process.env[`RIGTOP_BENCH_${name}`];
	return value === undefined || value === '' ? fallback : Number(value);
}

/**
 * Bundles a benchmark entry (a TS/TSX file under bench/ importing the real source) with the shipped
 * bundle's esbuild settings (production React, the versioned patches) into .bench-out/<name>/<name>.mjs and
 * its chunks, split as the shipped CLI is (Ink imports React DevTools, left external, only from a chunk of its
 * own that loads when DEV=true); returns the entry's path.
 */
export async function bundleEntry(entry) {
	const name = path.basename(entry).replace(/\.[^.]+$/, '');
	const outdir = path.join(root, '.bench-out', name);
	rmSync(outdir, {recursive: true, force: true});
	mkdirSync(outdir, {recursive: true});
	await build({...common, entryPoints: {[name]: path.join(root, entry)}, outdir, splitting: true, outExtension: {'.js': '.mjs'}});
	return path.join(outdir, `${name}.mjs`);
}

/** Runs a command to its end; resolves with its stdout (rejects on a non-zero exit). */
export function runToEnd(command, args, options = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {stdio: ['ignore', 'pipe', 'inherit'], ...options});
		let out = '';
		child.stdout.on('data', (chunk) => {
			out += chunk;
		});
		child.on('error', reject);
		child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited ${code}`))));
	});
}

const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
export {round};

/**
 * Prints a benchmark's result: the figure, the baseline, the ratio, the goal and whether it is met,
 * then the RESULT line. `goal` is {max, of: 'ratio' | 'figure' | 'none', text, strict?} (strict: the figure must stay
 * under max; 'none': a figure for reference, beside the judged ones, never judged). A ratio goal whose baseline could
 * not be measured (a baseline program not installed, say) is not judged: `unjudged` says why, and `meets` is null.
 * `command` is what reproduces the figure (the readme's table shows it).
 */
export function report(result) {
	const {name, figure, unit, baseline, baselineText, ratio, goal, details = [], unjudged} = result;
	const judged = goal.of === 'ratio' ? ratio : figure;
	const judgeable = goal.of !== 'none' && typeof judged === 'number' && Number.isFinite(judged);
	const meets = judgeable ? (goal.strict ? judged < goal.max : judged <= goal.max) : null;
	const why = goal.of === 'none' ? 'not judged' : `not judged: ${unjudged ?? 'no baseline measured'}`;
	console.log(`\n${name}: ${round(figure)} ${unit}`);
	if (baseline !== undefined) console.log(`  baseline (${baselineText}): ${round(baseline)} ${unit}`);
	if (ratio !== undefined) console.log(`  ratio: ${round(ratio)}×`);
	for (const line of details) console.log(`  ${line}`);
	console.log(`  goal: ${goal.text} → ${meets === null ? why : meets ? 'MET' : 'NOT MET'}`);
	console.log(
		`RESULT ${JSON.stringify({...result, figure: round(figure), baseline: baseline === undefined ? undefined : round(baseline), ratio: ratio === undefined ? undefined : round(ratio), meets})}`,
	);
	return meets;
}

/**
 * True when this benchmark runs under bench/run.mjs (which says so in the environment: with --node 26 it starts a
 * benchmark through npx, not as its child) or `npm run bench`: the long soaks then run only with RIGTOP_SOAK=1.
 */
export function underBenchRunner() {
	if (process.env.RIGTOP_BENCH_RUNNER === '1' || process.env.npm_lifecycle_event === 'bench') return true;
	try {
		return readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8')
			.split('\0')
			.some((part) => part.endsWith('bench/run.mjs'));
	} catch {
		return false;
	}
}

/** Waits until `test()` is true (polling), or throws after `timeoutMs`. */
export async function waitUntil(test, timeoutMs, what) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await test()) return;
		await sleep(20);
	}

	throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

const shellQuote = (value) => `'${String(value).replaceAll("'", "'\\''")}'`;

/**
 * Runs a command in a real pseudo-terminal of the given size (util-linux `script`), with CI unset
 * and TERM=xterm-256color. Returns the script process; `onOutput(chunk)` sees every byte the
 * command writes to the terminal, `innerPid()` is the command's own pid (script's child, which
 * execs it), and stop() ends it.
 */
export function inPty(command, args, {cols = 80, rows = 24, onOutput = () => undefined, env: baseEnv = process.env} = {}) {
	const env = {...baseEnv, TERM: 'xterm-256color'};
	delete env.CI;
	const line = `stty cols ${cols} rows ${rows}; exec ${[command, ...args].map(shellQuote).join(' ')}`;
	const child = spawn('script', ['-qfec', line, '/dev/null'], {stdio: ['pipe', 'pipe', 'ignore'], env, detached: true});
	child.stdout.on('data', onOutput);
	const exited = new Promise((resolve) => child.once('exit', resolve));
	return {
		child,
		exited,
		innerPid: () => childPids(child.pid)[0],
		async stop() {
			if (child.exitCode === null && child.signalCode === null) {
				try {
					process.kill(-child.pid, 'SIGTERM');
				} catch {
					// already gone
				}
			}

			await exited;
		},
	};
}

/**
 * Starts `count` simulated miners in a process of their own (bench/sim-fleet.ts), so their CPU is not counted as the
 * measured process's. Resolves with {urls, pid, stop()}.
 */
export async function startSimFleet(count) {
	const script = await bundleEntry('bench/sim-fleet.ts');
	const child = spawn(process.execPath, [script, String(count)], {stdio: ['ignore', 'pipe', 'inherit']});
	const urls = await new Promise((resolve, reject) => {
		let text = '';
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (chunk) => {
			text += chunk;
			if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))));
		});
		child.once('exit', (code) => reject(new Error(`the simulators exited (${code})`)));
	});
	return {
		urls,
		pid: child.pid,
		async stop() {
			if (child.exitCode !== null) return;
			child.kill('SIGTERM');
			await new Promise((resolve) => {
				child.once('exit', resolve);
				setTimeout(resolve, 3000);
			});
		},
	};
}
