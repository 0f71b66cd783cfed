#!/usr/bin/env node
// Fleet benchmark: rigtop watching 100 simulated miners at a 1 s interval, in a real terminal (tmux).
//
//   node bench/fleet.bench.mjs            (builds dist/ first if it is missing)
//   RIGTOP_BENCH_RIGS=100 RIGTOP_BENCH_SECONDS=60 node bench/fleet.bench.mjs
//   RIGTOP_BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' …   (node options for rigtop, to profile it)
//
// The simulators run in a separate process (the simulator bundled from source/sim by esbuild), so their CPU is not
// counted. rigtop's CPU is utime+stime from /proc/<pid>/stat over the measured window, after a warm-up; its memory is
// VmRSS from /proc/<pid>/status, sampled every second, and VmHWM (its highest since it started), in MB of 10^6 bytes as
// every RSS goal. Beside it, over the same window, bench/bare-poller.mjs polls every simulator's summary at the same
// interval (what the fleet view reads for the rigs whose dashboard is not open) with no UI: the baseline. Goals: under
// 5 % of one core (issue 11) and RSS under 120 MB at its highest, start-up included (issues 11 and 25), and the frame
// still fits the terminal (the table scrolls). Exits 1 when a goal is missed or the frame does not fit, 2 when the
// bench could not run.
import {execFile, execFileSync, spawn} from 'node:child_process';
import process from 'node:process';
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {MB} from './baselines.mjs';
import {BARE_POLLER, binEnv, report, round, startSimFleet} from './lib.mjs';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, '.bench-out', 'fleet');
const RIGS = Number(process.env.RIGTOP_BENCH_RIGS ?? 100);
const SECONDS = Number(process.env.RIGTOP_BENCH_SECONDS ?? 60);
const WARMUP_SECONDS = Number(process.env.RIGTOP_BENCH_WARMUP ?? 10);
const COLS = 120;
const ROWS = 40;
const GOAL_CPU = 0.05;
const GOAL_RSS_MB = 120;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim()) || 100;

function cpuTicks(pid) {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// Fields after the command name (which may hold spaces) start after the last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return Number(fields[11]) + Number(fields[12]); // utime, stime
}

function memory(pid) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
	return {rss: (kb('VmRSS') * 1024) / MB, hwm: (kb('VmHWM') * 1024) / MB};
}

async function tmux(...args) {
	return run('tmux', ['-L', socket, ...args]);
}

const socket = `rigtop-bench-${process.pid}`;
let sims = null;
let poller = null;

let rigtopPid = null;

async function cleanup() {
	// Quit rigtop the way a user does (so a --cpu-prof profile gets written), then the terminal.
	if (rigtopPid !== null) {
		await tmux('send-keys', '-t', 'main', '-l', 'q').catch(() => undefined);
		for (let i = 0; i < 50 && existsSync(`/proc/${rigtopPid}`); i++) await sleep(100);
	}

	await tmux('kill-server').catch(() => undefined);
	poller?.kill('SIGTERM');
	await sims?.stop();
}

async function main() {
	if (!existsSync(path.join(root, 'dist', 'cli.js')))
		execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], {stdio: 'inherit'});
	rmSync(outDir, {recursive: true, force: true});
	mkdirSync(outDir, {recursive: true});

	// 1. The simulators, in a process of their own.
	sims = await startSimFleet(RIGS);
	const {urls} = sims;

	// 2. rigtop in tmux, against every simulator, through a rigs file.
	const rigsFile = path.join(outDir, 'rigs.json');
	writeFileSync(rigsFile, JSON.stringify(urls.map((url, i) => ({name: `rig-${String(i + 1).padStart(3, '0')}`, url}))));
	const pidFile = path.join(outDir, 'rigtop.pid');
	// rigtop's bin executed itself with this Node first on PATH, as a user runs it (its shebang applies); with
	// RIGTOP_BENCH_NODE_ARGS, through `node OPTIONS` instead.
	const nodeArgs = process.env.RIGTOP_BENCH_NODE_ARGS ?? '';
	const cli = process.env.RIGTOP_BENCH_CLI ?? path.join(root, 'dist', 'cli.js');
	const launcher = nodeArgs.trim() === '' ? `'${cli}'` : `'${process.execPath}' ${nodeArgs} '${cli}'`;
	// Its history in a scratch folder (binEnv's), not the user's.
	const state = binEnv().XDG_STATE_HOME;
	const command = `echo $$ > '${pidFile}'; exec env -u CI TERM=xterm-256color XDG_STATE_HOME='${state}' PATH='${path.dirname(process.execPath)}':"$PATH" ${launcher} --rigs '${rigsFile}' -i 1`;
	await run('tmux', [
		'-L',
		socket,
		'-f',
		'/dev/null',
		'new-session',
		'-d',
		'-s',
		'main',
		'-x',
		String(COLS),
		'-y',
		String(ROWS),
		'sh',
		'-c',
		command,
	]);
	let pid = null;
	for (let i = 0; i < 50 && pid === null; i++) {
		await sleep(100);
		if (existsSync(pidFile)) pid = Number(readFileSync(pidFile, 'utf8').trim()) || null;
	}

	if (pid === null) throw new Error('rigtop did not start');
	rigtopPid = pid;
	const screen = async () => (await tmux('capture-pane', '-p', '-t', 'main')).stdout;
	const deadline = Date.now() + 30_000;
	while (!new RegExp(`● ${RIGS} live`).test(await screen())) {
		if (Date.now() > deadline) throw new Error(`not every rig went live within 30 s; screen:\n${await screen()}`);
		await sleep(250);
	}

	console.log(
		`fleet bench: ${RIGS} simulated miners, 1 s interval, Node ${process.version}, ${COLS}×${ROWS} terminal; warm-up ${WARMUP_SECONDS} s, measuring ${SECONDS} s…`,
	);
	poller = spawn(process.execPath, [BARE_POLLER, '1', '-', '--summary-only', ...urls], {stdio: 'ignore'});
	await sleep(WARMUP_SECONDS * 1000);

	// 3. Measure, beside the bare poller (started with the warm-up).
	const startTicks = cpuTicks(pid);
	const startPollerTicks = cpuTicks(poller.pid);
	const startSimTicks = cpuTicks(sims.pid);
	const started = process.hrtime.bigint();
	let peakRss = 0;
	let scrolled = false;
	for (let second = 0; second < SECONDS; second++) {
		await sleep(1000);
		peakRss = Math.max(peakRss, memory(pid).rss);
		// Midway, scroll to the end of the table and back (the view stays responsive under load).
		if (second === Math.floor(SECONDS / 2)) {
			await tmux('send-keys', '-t', 'main', 'End');
			scrolled = true;
		}
	}

	const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
	const cpu = (cpuTicks(pid) - startTicks) / ticksPerSecond / elapsed;
	const simCpu = (cpuTicks(sims.pid) - startSimTicks) / ticksPerSecond / elapsed;
	const pollerCpu = (cpuTicks(poller.pid) - startPollerTicks) / ticksPerSecond / elapsed;
	const pollerRss = memory(poller.pid).rss;
	const {rss, hwm} = memory(pid);
	const finalScreen = await screen();
	const lines = finalScreen.replace(/\n+$/, '').split('\n');
	const fits =
		lines.length <= ROWS &&
		/^ rigtop {2}\d+ rigs/.test(lines[0] ?? '') &&
		/q quit/.test(finalScreen) &&
		(!scrolled || new RegExp(`▸.? ?rig-${String(RIGS).padStart(3, '0')}`).test(finalScreen));

	// 4. Report.
	const reproduce = 'node bench/run.mjs fleet';
	const details = [
		`${RIGS} simulated miners at a 1 s interval, ${COLS}×${ROWS} terminal; ${SECONDS} s measured after ${WARMUP_SECONDS} s of warm-up; the simulators (${round(simCpu * 100, 1)} % of one core) are not counted`,
		`frame ${fits ? 'fits' : 'DOES NOT FIT'} the terminal (${lines.length} lines; header "${(lines[0] ?? '').trim().slice(0, 60)}")`,
	];
	const cpuMet = report({
		name: `fleet of ${RIGS} at 1 s, CPU`,
		figure: cpu * 100,
		unit: '% of one core',
		baseline: pollerCpu * 100,
		baselineText: `bare node:http poller of the ${RIGS} summaries`,
		ratio: cpu / pollerCpu,
		goal: {of: 'figure', max: GOAL_CPU * 100, strict: true, text: `< ${GOAL_CPU * 100} %`},
		command: reproduce,
		details,
	});
	const rssMet = report({
		name: `fleet of ${RIGS} at 1 s, RSS (highest)`,
		figure: Math.max(peakRss, hwm),
		unit: 'MB',
		baseline: pollerRss,
		baselineText: 'bare node:http poller',
		ratio: Math.max(peakRss, hwm) / pollerRss,
		goal: {of: 'figure', max: GOAL_RSS_MB, strict: true, text: `< ${GOAL_RSS_MB} MB`},
		command: reproduce,
		details: [`${rss.toFixed(1)} MB at the end, ${peakRss.toFixed(1)} MB the highest sample, ${hwm.toFixed(1)} MB high-water (VmHWM)`],
	});
	return cpuMet && rssMet && fits ? 0 : 1;
}

main()
	.then(async (code) => {
		await cleanup();
		process.exit(code);
	})
	.catch(async (error) => {
		console.error(`fleet bench failed: ${error instanceof Error ? error.message : String(error)}`);
		await cleanup();
		process.exit(2);
	});
