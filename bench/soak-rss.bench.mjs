// RSS over a long session (issue 25): rigtop watching one miner at `-i 1` for RIGTOP_BENCH_RSS_MINUTES (30), as a user
// leaves it open, with its RSS sampled every RIGTOP_BENCH_RSS_SAMPLE_SECONDS (5). Goal: ≤ 100 MB at its highest, on
// each Node line — not only in the first minutes (a session's RSS has been seen climbing for 20 minutes and more).
// Prints the curve: RSS at the start, the end and its highest, one reading a minute, and the creep, the slope of the
// least-squares line through the readings after the warm-up (the first fifth, at most 5 minutes), in MB a minute.
//
// rigtop's bin in a real 80×24 pty (as bench/steady.bench.mjs runs it), against the simulated miner (its own
// process) with a token file; btop at 1 s beside it (a scratch config, update_ms = 1000) for the baseline: its highest
// RSS over the same session. Without btop the RSS goal is still judged (it is absolute); only the baseline is skipped.
//
//   node bench/soak-rss.bench.mjs                        (after npm run build)
//   RIGTOP_SOAK=1 node bench/run.mjs rss --node 22,26    (under the runner it runs only with RIGTOP_SOAK=1)
import process from 'node:process';
import {clearInterval, setInterval} from 'node:timers';
import {btopShownUpdateMs, commandPath, MB, monitorEnv, rssCurve, writeBtopConfig} from './baselines.mjs';
import {binEnv, CLI, inPty, report, round, rssBytes, scratchDir, setting, sleep, startMiner, underBenchRunner, waitUntil} from './lib.mjs';

const minutes = setting('RSS_MINUTES', 30);
const sampleSeconds = setting('RSS_SAMPLE_SECONDS', 5);
if (underBenchRunner() && process.env.RIGTOP_SOAK !== '1') {
	console.log(`soak-rss: skipped (${minutes} minutes). Run it with \`node bench/soak-rss.bench.mjs\`, or set RIGTOP_SOAK=1.`);
	process.exit(0);
}

const GOAL_MB = 100;
const warmupMs = Math.min(5 * 60_000, (minutes * 60_000) / 5);
const btop = commandPath('btop');
if (btop === null) console.log('btop is not installed (Debian: apt install btop): its baseline is skipped (the RSS goal is still judged)');

const token = 'bench-token-0123';
const miner = await startMiner({token});
const env = binEnv({...process.env, XDG_CACHE_HOME: scratchDir('rss-cache')});
delete env.NODE_COMPILE_CACHE;
let output = '';
const rigtop = inPty(CLI, [miner.url, '--token-file', miner.tokenFile, '-i', '1'], {
	env,
	onOutput(chunk) {
		output = (output + chunk).slice(-20_000);
	},
});
let btopOutput = '';
const btopHome = scratchDir('rss-btop');
if (btop !== null) writeBtopConfig(btopHome, 1000);
const btopPty =
	btop === null
		? null
		: inPty(btop, ['--utf-force'], {
				env: monitorEnv(btopHome),
				onOutput(chunk) {
					btopOutput = (btopOutput + chunk).slice(-20_000);
				},
			});
try {
	await waitUntil(
		() =>
			output.includes('bench-rig') &&
			rigtop.innerPid() !== undefined &&
			(btopPty === null || (btopShownUpdateMs(btopOutput) !== null && btopPty.innerPid() !== undefined)),
		20_000,
		'the first frame',
	);
	const pid = rigtop.innerPid();
	const btopPid = btopPty?.innerPid();
	const btopTook = btopShownUpdateMs(btopOutput) === 1000;
	console.log(
		`soak-rss: rigtop pid ${pid} watching ${miner.url} every 1 s for ${minutes} min, RSS every ${sampleSeconds} s${btopPid === undefined ? '' : `; btop (pid ${btopPid}) at 1 s beside it`}`,
	);
	const started = Date.now();
	const samples = [];
	let btopPeak = 0;
	const sample = () => {
		samples.push({at: Date.now() - started, rss: rssBytes(pid)});
		if (btopPid !== undefined) {
			try {
				btopPeak = Math.max(btopPeak, rssBytes(btopPid));
			} catch {
				// btop has ended: its highest reading so far stands
			}
		}
	};

	sample();
	let lastMinute = 0;
	const sampler = setInterval(() => {
		try {
			sample();
		} catch {
			// rigtop has ended: said below
		}

		const minute = Math.floor(samples.at(-1).at / 60_000);
		if (minute > lastMinute) {
			lastMinute = minute;
			console.log(
				`  ${minute} min: RSS ${round(samples.at(-1).rss / MB, 1)} MB, highest ${round(Math.max(...samples.map((s) => s.rss)) / MB, 1)} MB`,
			);
		}
	}, sampleSeconds * 1000);
	while (Date.now() - started < minutes * 60_000 && rigtop.child.exitCode === null) await sleep(1000);
	clearInterval(sampler);
	const alive = rigtop.child.exitCode === null;
	if (alive) sample();
	const curve = rssCurve(samples, warmupMs);
	const everyMinute = samples.filter(
		(reading, index) =>
			index === 0 || index === samples.length - 1 || Math.floor(reading.at / 60_000) > Math.floor(samples[index - 1].at / 60_000),
	);
	const signed = (value) => `${value >= 0 ? '+' : ''}${round(value, 2)}`;
	report({
		name: `RSS watching one miner at -i 1 over ${minutes} min (highest)`,
		figure: curve.max,
		unit: 'MB',
		...(btopTook && btopPeak > 0
			? {baseline: btopPeak / MB, baselineText: 'btop at 1 s beside it, its highest', ratio: curve.max / (btopPeak / MB)}
			: {}),
		goal: {of: 'figure', max: alive ? GOAL_MB : -1, text: `≤ ${GOAL_MB} MB`},
		command: 'RIGTOP_SOAK=1 node bench/run.mjs rss',
		details: [
			`${curve.readings} readings, one every ${sampleSeconds} s; rigtop ${alive ? 'alive at the end' : 'ENDED before the end (the goal is not met)'}`,
			`RSS ${round(curve.start, 1)} MB at the start, ${round(curve.end, 1)} MB at the end, ${round(curve.max, 1)} MB at its highest`,
			`creep after ${round(curve.creepFrom / 60_000, 1)} min (least-squares line): ${signed(curve.creepPerMinute)} MB a minute`,
			`each minute and the end (MB): ${everyMinute.map((reading) => round(reading.rss / MB, 1)).join(', ')}`,
			...(btop === null
				? []
				: btopTook
					? []
					: [`btop did not read its scratch config (its header shows ${btopShownUpdateMs(btopOutput)} ms): no baseline`]),
		],
	});
	if (!alive) process.exitCode = 1;
} finally {
	await btopPty?.stop();
	await rigtop.stop();
	await miner.stop();
}
