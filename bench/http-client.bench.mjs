// HTTP client cost at fleet scale: 100 simulated miners, each asked for its summary once a second, by rigtop's
// MinerClient (node:http, an Agent per miner, deadline, caps, typed errors) against bare node:http requests (http.get
// without an agent, body parsed: the baseline), with undici's request() through one shared Agent for reference. Each
// variant runs in a process of its own, three times, alternating; the figure is the median CPU share of one core
// (user + system) after a warm-up. Goal: ≤ 1.25× the baseline (what rigtop's own handling costs on top).
import {execFileSync} from 'node:child_process';
import process from 'node:process';
import {bundleEntry, median, report, round, setting, startSimFleet} from './lib.mjs';

const count = setting('HTTP_MINERS', 100);
const warmup = setting('HTTP_WARMUP', 8);
const seconds = setting('HTTP_SECONDS', 20);
const rounds = setting('HTTP_ROUNDS', 3);
const driver = await bundleEntry('bench/http-client-driver.ts');
const fleet = await startSimFleet(count);
try {
	const shares = {rigtop: [], 'shared-agent': [], 'node-http': []};
	const rss = {rigtop: [], 'shared-agent': [], 'node-http': []};
	for (let round_ = 0; round_ < rounds; round_++) {
		for (const variant of Object.keys(shares)) {
			const line = execFileSync(process.execPath, [driver, JSON.stringify(fleet.urls), variant, String(warmup), String(seconds)], {
				encoding: 'utf8',
			});
			const result = JSON.parse(line.trim().split('\n').at(-1));
			if (result.failed > 0 || result.answered < count * seconds * 0.9)
				throw new Error(`${variant}: ${result.answered} answers, ${result.failed} failures`);
			shares[variant].push(result.share * 100);
			rss[variant].push(result.rssMb);
		}
	}

	const rigtop = median(shares.rigtop);
	const baseline = median(shares['node-http']);
	report({
		name: `HTTP client, ${count} miners at 1 s`,
		figure: rigtop,
		unit: '% of one core',
		baseline,
		baselineText: 'bare node:http requests (no agent)',
		ratio: rigtop / baseline,
		goal: {of: 'ratio', max: 1.25, text: '≤ 1.25×'},
		command: 'node bench/run.mjs http-client',
		details: [
			`undici request() through one shared Agent, for reference: ${round(median(shares['shared-agent']))} % of one core`,
			`RSS at the end: rigtop ${round(median(rss.rigtop), 0)} MB, shared Agent ${round(median(rss['shared-agent']), 0)} MB, node:http ${round(median(rss['node-http']), 0)} MB`,
			`runs (% of one core): rigtop ${shares.rigtop.map((v) => round(v, 1)).join(', ')}; shared Agent ${shares['shared-agent'].map((v) => round(v, 1)).join(', ')}; node:http ${shares['node-http'].map((v) => round(v, 1)).join(', ')}`,
			`median of ${rounds} runs each (alternating), ${seconds} s measured after ${warmup} s of warm-up; the simulators run in their own process`,
		],
	});
} finally {
	await fleet.stop();
}
