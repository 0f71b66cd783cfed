// Steady cost: CPU time (user + system) of rigtop watching one miner at a 1 s interval in a real
// 80×24 pty, against a `curl -s URL/2/summary >/dev/null; sleep 1` shell loop (what `watch -n1
// curl …` does), both measured over the same 60 s window from /proc. Goal: ≤ 0.5×.
import {spawn} from 'node:child_process';
import process from 'node:process';
import {CLI, cpuMs, inPty, report, round, rssBytes, setting, sleep, waitUntil, startMiner} from './lib.mjs';

const seconds = setting('STEADY_SECONDS', 60);
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
	await sleep(3000); // warm-up
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
				: `rigtop used ${round(rigtopCpu / seconds)} ms of CPU per 1 s poll (${round((rigtopCpu / (seconds * 1000)) * 100)} % of a core): the HTTP round trip and normalizing (about 1 ms, per-poll bench), then a React update, layout, frame and terminal diff of the whole dashboard (about 4 ms, render bench), plus timers and garbage collection in a long-lived V8 process. The loop's ${round(loopCpu / seconds)} ms per second is two short processes (curl, sleep). ≤ 0.5× would need about ${round((loopCpu * 0.5) / seconds)} ms per poll: skipping renders when no shown value changed, and a cheaper frame path, are the levers.`,
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
