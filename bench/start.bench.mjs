// Start: from process start to the first frame that shows the miner's data (a hashrate), for the
// built CLI in a real 80×24 pty, against `node -e 0` (start to exit) run the same way.
// Goal: ≤ 3×.
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import {clearInterval, setInterval} from 'node:timers';
import {CLI, inPty, median, report, round, setting, startMiner} from './lib.mjs';

const runs = setting('START_RUNS', 15);

/** ms from spawning `script` until `done(output)` holds (or the command exits, for the baseline). */
async function timeRun(command, args, done) {
	let output = '';
	const started = performance.now();
	let finished = 0;
	const session = inPty(command, args, {
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

const miner = await startMiner();
try {
	const hasData = (output) => /\d H\/s|kH\/s|MH\/s/.test(output) && output.includes('bench-rig');
	const rigtop = [];
	const baseline = [];
	const loadOnly = [];
	// Warm the file cache, then alternate.
	await timeRun(process.execPath, ['-e', '0']);
	await timeRun(process.execPath, [CLI, miner.url], hasData);
	for (let i = 0; i < runs; i++) {
		baseline.push(await timeRun(process.execPath, ['-e', '0']));
		rigtop.push(await timeRun(process.execPath, [CLI, miner.url], hasData));
		loadOnly.push(await timeRun(process.execPath, [CLI, '--version']));
	}

	const figure = median(rigtop);
	const base = median(baseline);
	const load = median(loadOnly);
	report({
		name: 'start (to the first frame with miner data)',
		figure,
		unit: 'ms',
		baseline: base,
		baselineText: '`node -e 0`, start to exit',
		ratio: figure / base,
		goal: {of: 'ratio', max: 3, text: '≤ 3×'},
		details: [
			`median of ${runs} runs each, in an 80×24 pty (util-linux script), alternating; both include script's own start`,
			`rigtop min ${round(Math.min(...rigtop))} / max ${round(Math.max(...rigtop))} ms; node -e 0 min ${round(Math.min(...baseline))} / max ${round(Math.max(...baseline))} ms`,
			`\`rigtop --version\` (load the bundle, print, exit): median ${round(load)} ms = ${round(load / base)}× node -e 0`,
		],
		note:
			figure / base <= 3
				? undefined
				: `the live path loads about 1.1 MB of code before its first frame (undici, React, Ink, yoga, the screens; \`rigtop --version\`, which loads the whole bundle but runs only the flag parser, takes ${round(load)} ms = ${round(load / base)}× \`node -e 0\`), with no compile cache on Node 20 (module.enableCompileCache is Node 22.1+); see bench/RESULTS.md for where the rest goes.`,
	});
} finally {
	await miner.stop();
}
