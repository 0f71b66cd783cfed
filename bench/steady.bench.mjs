// Steady cost of watching one miner at `-i 1`: the built CLI in a real 80×24 pty, with a token file, beside
//
// - bench/bare-poller.mjs, a bare node:http script polling the same two endpoints (/2/summary and /2/backends) at the
//   same interval with no UI at all: rigtop's CPU from 30 to 90 s after start against the poller's over the same
//   window, goal ≤ 2×;
// - `watch -n1 curl` of the summary, in a pty of its own: rigtop's CPU over its first 25 s (start-up included)
//   against watch's (with every curl and shell it ran) over its first 25 s, goal ≤ 1×;
// - and rigtop's RSS (sampled every second, the highest reading), goal ≤ 100 MB; the poller's is printed beside it.
//
// All three start together; CPU is user + system from /proc (a process's own, plus its waited-for children for
// watch). No runtime V8 flags anywhere.
//
// With RIGTOP_BENCH_STEADY_BEFORE naming another build's cli.js (say, the commit before a change), that build runs
// beside rigtop from the start, in a pty of the same size against the same miner with its own state folder, and each
// figure's details give its CPU over the same windows and its RSS: a change measured against the build before it in
// the same run (docs/performance.md). It runs as its own file (its shebang applies; RIGTOP_BENCH_NODE_ARGS does not),
// and it is one more process on the machine while rigtop's own figures are taken.
//   RIGTOP_BENCH_STEADY_BEFORE=/tmp/rigtop-before/dist/cli.js node bench/run.mjs steady
import {spawn} from 'node:child_process';
import process from 'node:process';
import {clearInterval, setInterval} from 'node:timers';
import {
	BARE_POLLER,
	binEnv,
	CLI,
	cpuMs,
	inPty,
	report,
	round,
	rssBytes,
	scratchDir,
	setting,
	sleep,
	startMiner,
	waitUntil,
} from './lib.mjs';

const early = setting('STEADY_EARLY_SECONDS', 25);
const from = setting('STEADY_FROM_SECONDS', 30);
const to = setting('STEADY_TO_SECONDS', 90);
const miner = await startMiner({token: 'bench-token-0123'});
const env = binEnv({...process.env, XDG_CACHE_HOME: scratchDir('steady-cache')});
delete env.NODE_COMPILE_CACHE;
const token = 'bench-token-0123';

let output = '';
// rigtop's bin executed itself, as a user runs it (its shebang applies); with RIGTOP_BENCH_NODE_ARGS, through
// `node OPTIONS` instead (to measure an option).
const nodeArgs = (process.env.RIGTOP_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const rigtopArgs = [miner.url, '--token-file', miner.tokenFile, '-i', '1'];
const rigtop = inPty(nodeArgs.length > 0 ? process.execPath : CLI, nodeArgs.length > 0 ? [...nodeArgs, CLI, ...rigtopArgs] : rigtopArgs, {
	env,
	onOutput(chunk) {
		output += chunk;
		if (output.length > 100_000) output = output.slice(-10_000);
	},
});
const beforeCli = process.env.RIGTOP_BENCH_STEADY_BEFORE || null;
let beforeOutput = '';
const before = beforeCli
	? inPty(beforeCli, rigtopArgs, {
			env: {...env, XDG_STATE_HOME: scratchDir('steady-before-state'), XDG_CACHE_HOME: scratchDir('steady-before-cache')},
			onOutput(chunk) {
				beforeOutput = (beforeOutput + chunk).slice(-10_000);
			},
		})
	: null;
const poller = spawn(process.execPath, [BARE_POLLER, '1', miner.tokenFile, miner.url], {stdio: ['ignore', 'pipe', 'inherit']});
const watch = inPty('watch', ['-n1', 'curl', '-s', '-H', `Authorization: Bearer ${token}`, `${miner.url}/2/summary`]);
const started = Date.now();
const at = async (seconds) => sleep(Math.max(0, started + seconds * 1000 - Date.now()));
try {
	await waitUntil(
		() =>
			output.includes('bench-rig') &&
			rigtop.innerPid() !== undefined &&
			watch.innerPid() !== undefined &&
			(before === null || (beforeOutput.includes('bench-rig') && before.innerPid() !== undefined)),
		10_000,
		'the first frame',
	);
	const pid = rigtop.innerPid();
	const watchPid = watch.innerPid();
	const beforePid = before?.innerPid();
	let peakRss = 0;
	let pollerPeakRss = 0;
	let beforePeakRss = 0;
	const sampler = setInterval(() => {
		try {
			peakRss = Math.max(peakRss, rssBytes(pid));
			pollerPeakRss = Math.max(pollerPeakRss, rssBytes(poller.pid));
			if (beforePid !== undefined) beforePeakRss = Math.max(beforePeakRss, rssBytes(beforePid));
		} catch {
			// a process that has just ended
		}
	}, 1000);
	await at(early);
	const rigtopEarly = cpuMs(pid);
	const watchEarly = cpuMs(watchPid, {children: true});
	/** The build before's CPU so far, or NaN once it has ended (its lines then say so; rigtop's figures stand). */
	const beforeCpu = () => {
		try {
			return beforePid === undefined ? Number.NaN : cpuMs(beforePid);
		} catch {
			return Number.NaN;
		}
	};
	const beforeEarly = beforeCpu();
	await at(from);
	const rigtopFrom = cpuMs(pid);
	const pollerFrom = cpuMs(poller.pid);
	const beforeFrom = beforeCpu();
	await at(to);
	const rigtopWindow = cpuMs(pid) - rigtopFrom;
	const pollerWindow = cpuMs(poller.pid) - pollerFrom;
	const beforeWindow = beforeCpu() - beforeFrom;
	/** The build RIGTOP_BENCH_STEADY_BEFORE names, over the same window: one line of details, or none. */
	const beside = (text) =>
		beforePid === undefined ? [] : [`${text} (RIGTOP_BENCH_STEADY_BEFORE=${beforeCli}, beside it in the same run)`];
	/** "the build before: 9.1 ms a second, rigtop 0.9× it", or why there is no figure. */
	const compared = (mine, theirs, perSecond) =>
		Number.isFinite(theirs) && theirs > 0
			? `the build before: ${perSecond ? `${round(theirs / perSecond)} ms of CPU a second` : `${theirs} ms`}, rigtop ${round(mine / theirs)}× it`
			: 'the build before: no figure (it ended early, or used no CPU in the window)';
	clearInterval(sampler);
	const window = to - from;
	const command = 'node bench/run.mjs steady';
	report({
		name: `steady CPU, one miner at -i 1, ${from}–${to} s after start`,
		figure: rigtopWindow,
		unit: 'ms CPU',
		baseline: pollerWindow,
		baselineText: 'bare node:http poller of the same two endpoints, same window',
		ratio: rigtopWindow / pollerWindow,
		goal: {of: 'ratio', max: 2, text: '≤ 2×'},
		command,
		details: [
			`rigtop ${round(rigtopWindow / window)} ms of CPU a second (${round((rigtopWindow / (window * 1000)) * 100)} % of one core); the poller ${round(pollerWindow / window)} ms`,
			...beside(compared(rigtopWindow, beforeWindow, window)),
		],
	});
	report({
		name: `first ${early} s CPU, one miner at -i 1`,
		figure: rigtopEarly,
		unit: 'ms CPU',
		baseline: watchEarly,
		baselineText: '`watch -n1 curl` of the summary, its first 25 s',
		ratio: rigtopEarly / watchEarly,
		goal: {of: 'ratio', max: 1, text: '≤ 1×'},
		command,
		details: [
			'rigtop from its start (start-up included); watch with every shell and curl it ran',
			...beside(compared(rigtopEarly, beforeEarly, 0)),
		],
	});
	report({
		name: 'RSS watching one miner (highest, sampled each second)',
		figure: peakRss / 2 ** 20,
		unit: 'MiB',
		baseline: pollerPeakRss / 2 ** 20,
		baselineText: 'bare node:http poller',
		ratio: peakRss / pollerPeakRss,
		goal: {of: 'figure', max: 100, text: '≤ 100 MB'},
		command,
		details: [`over the first ${to} s`, ...beside(`the build before: ${round(beforePeakRss / 2 ** 20)} MiB`)],
	});
} finally {
	poller.kill('SIGTERM');
	await before?.stop();
	await watch.stop();
	await rigtop.stop();
	await miner.stop();
}
