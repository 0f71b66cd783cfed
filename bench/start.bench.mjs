// Start: from process start to the first frame of the live dashboard that shows the miner's data (a hashrate), for
// the built CLI watching a miner on loopback with a token file, in a real 80×24 pty, against bench/bare-once.mjs (a
// bare node:http script that makes one request and prints the body) run the same way, start to exit.
//
// The goal is the figure before the move to Node 22+ and Ink 8 (issue 11): the build of commit a109146 (Ink 6.8 and
// every bundle patch of that time), measured in the same run when RIGTOP_BENCH_BEFORE names its cli.js:
//
//   git worktree add /tmp/rigtop-before a109146 && (cd /tmp/rigtop-before && npm ci && node scripts/build.mjs)
//   RIGTOP_BENCH_BEFORE=/tmp/rigtop-before/dist/cli.js node bench/run.mjs start
//
// rigtop's compile cache is on (its own, in $XDG_CACHE_HOME/rigtop: a scratch directory, filled by the warm-up run).
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import {clearInterval, setInterval} from 'node:timers';
import {BARE_ONCE, binEnv, CLI, inPty, median, report, round, scratchDir, setting, startMiner} from './lib.mjs';

const runs = setting('START_RUNS', 15);
const before = process.env.RIGTOP_BENCH_BEFORE || null;
const env = binEnv({...process.env, XDG_CACHE_HOME: scratchDir('start-cache')});
delete env.NODE_COMPILE_CACHE;

/** ms from spawning `script` until `done(output)` holds (or, without `done`, until the command exits). */
async function timeRun(command, args, done) {
	let output = '';
	const started = performance.now();
	let finished = 0;
	const session = inPty(command, args, {
		env,
		onOutput(chunk) {
			output += chunk;
			if (!finished && done && done(output)) finished = performance.now();
		},
	});
	await (done
		? new Promise((resolve, reject) => {
				const timer = setInterval(() => {
					if (finished) {
						clearInterval(timer);
						resolve();
					} else if (performance.now() - started > 10_000) {
						clearInterval(timer);
						reject(new Error(`no miner data on screen after 10 s:\n${output.slice(-2000)}`));
					}
				}, 2);
			})
		: session.exited);
	if (!done) finished = performance.now();
	await session.stop();
	return finished - started;
}

const miner = await startMiner({token: 'bench-token-0123'});
try {
	const hasData = (output) => /\d H\/s|kH\/s|MH\/s/.test(output) && output.includes('bench-rig');
	// Each build's bin executed itself, as a user runs it (its shebang applies).
	const live = (cli) => () => timeRun(cli, [miner.url, '--token-file', miner.tokenFile], hasData);
	const variants = {
		rigtop: live(CLI),
		...(before ? {before: live(before)} : {}),
		bare: () => timeRun(process.execPath, [BARE_ONCE, miner.url, miner.tokenFile]),
	};
	const times = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
	// Warm the file cache and rigtop's compile cache, then alternate.
	for (const run of Object.values(variants)) await run();
	for (let i = 0; i < runs; i++) {
		for (const [name, run] of Object.entries(variants)) times[name].push(await run());
	}

	const figure = median(times.rigtop);
	const baseline = median(times.bare);
	const beforeRatio = before ? median(times.before) / baseline : null;
	report({
		name: 'start, to the first frame with miner data',
		figure,
		unit: 'ms',
		baseline,
		baselineText: 'bare node:http script, one request, start to exit',
		ratio: figure / baseline,
		goal: before
			? {of: 'ratio', max: beforeRatio, text: `≤ ${round(beforeRatio)}× (the pre-move build, same run)`}
			: {of: 'ratio', max: Number.POSITIVE_INFINITY, text: 'not judged: set RIGTOP_BENCH_BEFORE to the pre-move build'},
		command: 'RIGTOP_BENCH_BEFORE=… node bench/run.mjs start',
		details: [
			`median of ${runs} runs each, in an 80×24 pty (util-linux script), in turn; every time includes script's own start`,
			`rigtop min ${round(Math.min(...times.rigtop))} / max ${round(Math.max(...times.rigtop))} ms; bare min ${round(Math.min(...times.bare))} / max ${round(Math.max(...times.bare))} ms`,
			before
				? `before the move (the build RIGTOP_BENCH_BEFORE names): median ${round(median(times.before))} ms = ${round(beforeRatio)}× the bare request (min ${round(Math.min(...times.before))} / max ${round(Math.max(...times.before))} ms)`
				: 'before the move: not measured (RIGTOP_BENCH_BEFORE unset)',
		],
	});
} finally {
	await miner.stop();
}
