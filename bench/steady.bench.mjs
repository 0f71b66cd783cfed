// Steady cost: CPU time (user + system) of rigtop watching one miner at a 1 s interval in a real
// 80×24 pty, against a `curl -s URL/2/summary >/dev/null; sleep 1` shell loop (what `watch -n1
// curl …` does), both measured over the same 60 s window from /proc. Goal: ≤ 0.5×.
import {spawn} from 'node:child_process';
import process from 'node:process';
import {CLI, cpuMs, inPty, report, round, rssBytes, setting, sleep, waitUntil, startMiner} from './lib.mjs';

const seconds = setting('STEADY_SECONDS', 60);
// Steady state: past start-up and V8's first rounds of optimizing the hot code.
const warmupSeconds = setting('STEADY_WARMUP_SECONDS', 30);
const miner = await startMiner();
let output = '';
const rigtop = inPty(process.execPath, [CLI, miner.url, '--interval', '1'], {
	onOutput(chunk) {
		output += chunk;
		if (output.length > 100_000) output = output.slice(-10_000);
	},
});
const loop = spawn('sh', ['-c', `while :; do curl -s ${miner.url}/2/summary >/dev/null; sleep 1; done`], {stdio: 'ignore', detached: true});
try {
	await waitUntil(() => output.includes('bench-rig') && rigtop.innerPid() !== undefined, 10_000, 'the first frame');
	const pid = rigtop.innerPid();
	await sleep(warmupSeconds * 1000);
	const rigtopStart = cpuMs(pid);
	const loopStart = cpuMs(loop.pid, {children: true});
	await sleep(seconds * 1000);
	const rigtopCpu = cpuMs(pid) - rigtopStart;
	const loopCpu = cpuMs(loop.pid, {children: true}) - loopStart;
	const rss = rssBytes(pid);
	report({
		name: `steady cost (CPU over ${seconds} s at a 1 s interval)`,
		figure: rigtopCpu,
		unit: 'ms CPU',
		baseline: loopCpu,
		baselineText: 'curl + sleep shell loop, same window',
		ratio: rigtopCpu / loopCpu,
		goal: {of: 'ratio', max: 0.5, text: '≤ 0.5×'},
		details: [
			`rigtop: ${round((rigtopCpu / (seconds * 1000)) * 100)} % of one core; RSS at the end ${round(rss / 1e6, 1)} MB`,
			`loop: the shell and every curl and sleep it ran (their CPU is added to the shell's when they end)`,
		],
		note:
			rigtopCpu / loopCpu <= 0.5
				? undefined
				: `rigtop used ${round(rigtopCpu / seconds)} ms of CPU per 1 s poll (${round((rigtopCpu / (seconds * 1000)) * 100)} % of a core). It draws one frame per poll (the "ago" clock moves with the data, so its ticks add none) and, watching one miner, runs without V8's optimizing compiler (whose background compiles cost more than they saved at one poll a second). What is left is that frame — a React update and Ink's layout, frame and terminal diff of the whole dashboard, which Ink 6.8 redoes in full whatever changed — the poll's two requests on two new connections (XMRig closes each), and garbage collection. The loop's ${round(loopCpu / seconds)} ms per second is two short processes (curl, sleep); ≤ 0.5× would need about ${round((loopCpu * 0.5) / seconds)} ms per poll.`,
	});
} finally {
	try {
		process.kill(-loop.pid, 'SIGTERM');
	} catch {
		// gone
	}

	await rigtop.stop();
	await miner.stop();
}
