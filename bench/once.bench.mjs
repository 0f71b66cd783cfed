// --once: `rigtop --once --json URL --token-file FILE` (the first snapshot of a miner on loopback; a URL is given, so
// no discovery), process start to exit, against bench/bare-once.mjs, a bare node:http script that makes the same
// single request and prints the body, on the same Node. Alternating runs; the figure is the median.
// rigtop's compile cache is on (its own, in $XDG_CACHE_HOME/rigtop, here a scratch directory filled by the warm-up
// run), as for any user from the second start on. Goal: ≤ 1.5×.
import path from 'node:path';
import process from 'node:process';
import {BARE_ONCE, binEnv, CLI, median, report, round, scratchDir, setting, startMiner, timeToExit} from './lib.mjs';

const runs = setting('ONCE_RUNS', 30);
const miner = await startMiner({token: 'bench-token-0123'});
const env = binEnv({...process.env, XDG_CACHE_HOME: scratchDir('once-cache')});
delete env.NODE_COMPILE_CACHE;
try {
	// rigtop's bin, executed itself (its shebang applies); the bare script through node.
	const rigtopArgs = ['--once', '--json', miner.url, '--token-file', miner.tokenFile];
	const bareArgs = [BARE_ONCE, miner.url, miner.tokenFile];
	const versionArgs = ['--version'];
	// Warm the file cache and rigtop's compile cache, then alternate.
	for (let i = 0; i < 2; i++) {
		await timeToExit(CLI, rigtopArgs, {env});
		await timeToExit(process.execPath, bareArgs, {env});
	}

	const rigtop = [];
	const bare = [];
	const version = [];
	for (let i = 0; i < runs; i++) {
		if (i % 2 === 0) {
			rigtop.push(await timeToExit(CLI, rigtopArgs, {env}));
			bare.push(await timeToExit(process.execPath, bareArgs, {env}));
		} else {
			bare.push(await timeToExit(process.execPath, bareArgs, {env}));
			rigtop.push(await timeToExit(CLI, rigtopArgs, {env}));
		}

		if (i % 3 === 0) version.push(await timeToExit(CLI, versionArgs, {env}));
	}

	const figure = median(rigtop);
	const baseline = median(bare);
	report({
		name: '--once --json, start to exit',
		figure,
		unit: 'ms',
		baseline,
		baselineText: 'bare node:http script, same request',
		ratio: figure / baseline,
		goal: {of: 'ratio', max: 1.5, text: '≤ 1.5×'},
		command: 'node bench/run.mjs once',
		details: [
			`median of ${runs} runs each, alternating; rigtop min ${round(Math.min(...rigtop))} / max ${round(Math.max(...rigtop))} ms, bare min ${round(Math.min(...bare))} / max ${round(Math.max(...bare))} ms`,
			`rigtop --version: median ${round(median(version))} ms (${round(median(version) / baseline)}× the bare request)`,
			`rigtop's compile cache on (warmed by the first runs); ${path.basename(BARE_ONCE)} needs none`,
		],
	});
} finally {
	await miner.stop();
}
