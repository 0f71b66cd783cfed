// Per poll: rigtop's client round trip (MinerClient.getJson('/2/summary'): deadline, body cap,
// typed errors) against a bare node:http request (http.get without an agent, body parsed) to the
// same simulated miner. Goal: ≤ 1.3×.
import {execFileSync} from 'node:child_process';
import process from 'node:process';
import {bundleEntry, median, percentile, report, round, setting, startMiner} from './lib.mjs';

const rounds = setting('POLL_ROUNDS', 2000);
const driver = await bundleEntry('bench/per-poll-driver.ts');
const miner = await startMiner();
try {
	const times = JSON.parse(execFileSync(process.execPath, [driver, miner.url, String(rounds)], {encoding: 'utf8'}).trim());
	const rigtop = median(times.rigtop);
	const bare = median(times.bare);
	report({
		name: 'per poll (client round trip)',
		figure: rigtop,
		unit: 'ms',
		baseline: bare,
		baselineText: 'bare node:http request',
		command: 'node bench/run.mjs per-poll',
		ratio: rigtop / bare,
		goal: {of: 'ratio', max: 1.3, text: '≤ 1.3×'},
		details: [
			`median of ${times.rigtop.length} round trips each, alternating, on one loopback simulator (GET /2/summary)`,
			`p90: rigtop ${round(percentile(times.rigtop, 90))} ms, bare ${round(percentile(times.bare, 90))} ms`,
			`a whole poll (summary + backends, normalized): median ${round(median(times.poll))} ms over ${times.poll.length}`,
		],
	});
} finally {
	await miner.stop();
}
