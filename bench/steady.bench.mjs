// Steady cost of watching miners, against the monitors users keep open beside rigtop (issue 25). Started together,
// each in a real 80×24 pty (util-linux `script`) against the same simulated miner (with a token file):
//
// - rigtop at `-i 1` watching one miner: its CPU from 30 to 90 s after start against btop's over the same window,
//   btop (Debian's package) with a scratch config (`update_ms = 1000` in $XDG_CONFIG_HOME/btop/btop.conf): goal ≤ 1×;
// - rigtop at its default interval (2 s) against a second btop at its default update time (2000 ms): goal ≤ 1×;
// - rigtop watching a fleet of 10 simulated miners (their own process) at `-i 1`, against the 1 s btop: goal ≤ 1×;
// - for reference, over the same window: `htop -d 10` (1 s), `watch -n1 curl` of the summary (with every shell and
//   curl it ran) and bench/bare-poller.mjs (node:http polling the same two endpoints at 1 s, no UI at all);
// - RSS, sampled each second (the highest reading), for reference: the goal (≤ 100 MB at its highest over 30 minutes)
//   is judged by bench/soak-rss.bench.mjs.
//
// Without btop (or htop) installed the benchmark says so and skips that baseline: its figures are not judged.
// CPU is user + system from /proc (a process's own, all its threads; for watch, plus its waited-for children). No
// runtime V8 flags anywhere. Settings: RIGTOP_BENCH_STEADY_FROM_SECONDS / _TO_SECONDS (the window, 30 and 90).
//
// With RIGTOP_BENCH_STEADY_BEFORE naming another build's cli.js (say, the commit before a change), that build runs
// beside rigtop from the start, in a pty of the same size against the same miner with its own state folder, and the
// one-miner figures' details give its CPU over the same window and its RSS: a change measured against the build before
// it in the same run (docs/performance.md). It runs as its own file (its shebang applies; RIGTOP_BENCH_NODE_ARGS does
// not), and it is one more process on the machine while rigtop's own figures are taken.
//   RIGTOP_BENCH_STEADY_BEFORE=/tmp/rigtop-before/dist/cli.js node bench/run.mjs steady
import {spawn} from 'node:child_process';
import {readdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import {clearInterval, setInterval} from 'node:timers';
import {btopShownUpdateMs, commandPath, MB, monitorEnv, writeBtopConfig} from './baselines.mjs';
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
	startSimFleet,
	waitUntil,
} from './lib.mjs';

const from = setting('STEADY_FROM_SECONDS', 30);
const to = setting('STEADY_TO_SECONDS', 90);
const window = to - from;
const FLEET = 10;
const token = 'bench-token-0123';
const btop = commandPath('btop');
const htop = commandPath('htop');
if (btop === null)
	console.log('btop is not installed (Debian: apt install btop): its baseline is skipped, the goals against it are not judged');
if (htop === null) console.log('htop is not installed (Debian: apt install htop): its reference figure is skipped');

const miner = await startMiner({token});
const fleet = await startSimFleet(FLEET);
const env = binEnv({...process.env, XDG_CACHE_HOME: scratchDir('steady-cache')});
delete env.NODE_COMPILE_CACHE;

/** A program in an 80×24 pty, keeping the tail of what it writes (`seen()`), so a test of its screen can wait for it. */
function watched(command, args, options = {}) {
	let output = '';
	const pty = inPty(command, args, {
		...options,
		onOutput(chunk) {
			output = (output + chunk).slice(-20_000);
		},
	});
	return Object.assign(pty, {seen: () => output});
}

// rigtop's bin executed itself, as a user runs it (its shebang applies); with RIGTOP_BENCH_NODE_ARGS, through
// `node OPTIONS` instead (to measure an option). The 2 s rigtop and the fleet's run as the bin, with their own state.
const nodeArgs = (process.env.RIGTOP_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const rigtopArgs = [miner.url, '--token-file', miner.tokenFile, '-i', '1'];
const rigtop = watched(nodeArgs.length > 0 ? process.execPath : CLI, nodeArgs.length > 0 ? [...nodeArgs, CLI, ...rigtopArgs] : rigtopArgs, {
	env,
});
const ownState = (name) => ({
	...env,
	XDG_STATE_HOME: scratchDir(`steady-${name}-state`),
	XDG_CACHE_HOME: scratchDir(`steady-${name}-cache`),
});
const rigtop2 = watched(CLI, [miner.url, '--token-file', miner.tokenFile], {env: ownState('default-interval')});
const rigsFile = path.join(scratchDir('steady-fleet'), 'rigs.json');
writeFileSync(rigsFile, JSON.stringify(fleet.urls.map((url, index) => ({name: `fleet-rig-${String(index + 1).padStart(2, '0')}`, url}))));
const rigtopFleet = watched(CLI, ['--rigs', rigsFile, '-i', '1'], {env: ownState('fleet')});
const beforeCli = process.env.RIGTOP_BENCH_STEADY_BEFORE || null;
const before = beforeCli ? watched(beforeCli, rigtopArgs, {env: ownState('before')}) : null;

/** btop with a scratch config whose update time is `updateMs`. */
function startBtop(updateMs) {
	const home = scratchDir(`steady-btop-${updateMs}`);
	writeBtopConfig(home, updateMs);
	return watched(btop, ['--utf-force'], {env: monitorEnv(home)});
}

const btop1 = btop === null ? null : startBtop(1000);
const btop2 = btop === null ? null : startBtop(2000);
const htopPty = htop === null ? null : watched(htop, ['-d', '10'], {env: monitorEnv(scratchDir('steady-htop'))});
const poller = spawn(process.execPath, [BARE_POLLER, '1', miner.tokenFile, miner.url], {stdio: ['ignore', 'pipe', 'inherit']});
const watch = inPty('watch', ['-n1', 'curl', '-s', '-H', `Authorization: Bearer ${token}`, `${miner.url}/2/summary`]);
const started = Date.now();
const at = async (seconds) => sleep(Math.max(0, started + seconds * 1000 - Date.now()));
const ptys = [rigtop, rigtop2, rigtopFleet, before, btop1, btop2, htopPty].filter((pty) => pty !== null);
try {
	await waitUntil(
		() =>
			rigtop.seen().includes('bench-rig') &&
			rigtop2.seen().includes('bench-rig') &&
			rigtopFleet.seen().includes(`fleet-rig-${FLEET}`) &&
			(before === null || before.seen().includes('bench-rig')) &&
			[btop1, btop2].every((pty) => pty === null || btopShownUpdateMs(pty.seen()) !== null) &&
			ptys.every((pty) => pty.innerPid() !== undefined) &&
			watch.innerPid() !== undefined,
		20_000,
		'the first frame of every program',
	);
	// btop shows its update time in its header: the scratch config was read (else its figures are not judged).
	const btopShown = {1000: btopShownUpdateMs(btop1?.seen() ?? ''), 2000: btopShownUpdateMs(btop2?.seen() ?? '')};
	const btopTook = (updateMs) => btopShown[updateMs] === updateMs;
	const btopProblem = (updateMs) =>
		btop === null
			? 'btop is not installed'
			: `btop did not read its scratch config (its header shows ${btopShown[updateMs]} ms, not ${updateMs})`;
	const processes = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).length;

	/** Each program measured: its pid, and how its CPU is read (watch with its waited-for children). */
	const measured = {
		rigtop: {pid: rigtop.innerPid()},
		rigtop2: {pid: rigtop2.innerPid()},
		fleet: {pid: rigtopFleet.innerPid()},
		before: {pid: before?.innerPid()},
		btop1: {pid: btop1?.innerPid()},
		btop2: {pid: btop2?.innerPid()},
		htop: {pid: htopPty?.innerPid()},
		poller: {pid: poller.pid},
		watch: {pid: watch.innerPid(), children: true},
	};
	/** A program's CPU so far, or NaN when it is not running (not installed, or ended). */
	const cpu = ({pid, children = false}) => {
		try {
			return pid === undefined ? Number.NaN : cpuMs(pid, {children});
		} catch {
			return Number.NaN;
		}
	};

	const peak = Object.fromEntries(Object.keys(measured).map((key) => [key, 0]));
	const sampler = setInterval(() => {
		for (const [key, {pid}] of Object.entries(measured)) {
			try {
				if (pid !== undefined) peak[key] = Math.max(peak[key], rssBytes(pid) / MB);
			} catch {
				// a process that has just ended
			}
		}
	}, 1000);
	await at(from);
	const first = Object.fromEntries(Object.entries(measured).map(([key, entry]) => [key, cpu(entry)]));
	await at(to);
	/** CPU (ms) over the window, NaN when the program did not run through it. */
	const used = Object.fromEntries(Object.entries(measured).map(([key, entry]) => [key, cpu(entry) - first[key]]));
	clearInterval(sampler);

	const has = (value) => Number.isFinite(value) && value > 0;
	const perSecond = (ms) =>
		Number.isFinite(ms) ? `${round(ms / window)} ms a second (${round((ms / (window * 1000)) * 100)} % of a core)` : 'not measured';
	const command = 'node bench/run.mjs steady';
	const windowText = `${from}–${to} s after start`;
	/** A CPU figure of rigtop's against one baseline's, over the window. */
	const against = ({name, mine, theirs, label, baselineText, goal, unjudged, details = []}) =>
		report({
			name,
			figure: mine,
			unit: 'ms CPU',
			...(has(theirs) ? {baseline: theirs, baselineText, ratio: mine / theirs} : {unjudged}),
			goal,
			command,
			details: [
				`rigtop ${perSecond(mine)}; ${has(theirs) ? `${label} ${perSecond(theirs)}` : (unjudged ?? `${label}: not measured`)}`,
				...details,
			],
		});
	const btopNote = `${processes} processes on the machine (btop and htop read each one's /proc at every update)`;
	const reference = {of: 'none', text: 'reference'};
	const beforeLine = () => {
		if (before === null) return [];
		const theirs = used.before;
		const text = has(theirs)
			? `the build before: ${perSecond(theirs)}, rigtop ${round(used.rigtop / theirs)}× it`
			: 'the build before: no figure (it ended early, or used no CPU in the window)';
		return [`${text} (RIGTOP_BENCH_STEADY_BEFORE=${beforeCli}, beside it in the same run)`];
	};

	against({
		name: `steady CPU, one miner at -i 1, ${windowText}`,
		mine: used.rigtop,
		theirs: btopTook(1000) ? used.btop1 : Number.NaN,
		label: 'btop',
		baselineText: 'btop at update_ms = 1000, same pty size and window',
		goal: {of: 'ratio', max: 1, text: '≤ 1× btop (1 s)'},
		unjudged: btopProblem(1000),
		details: [btopNote, ...beforeLine()],
	});
	against({
		name: `steady CPU, one miner at the default -i 2, ${windowText}`,
		mine: used.rigtop2,
		theirs: btopTook(2000) ? used.btop2 : Number.NaN,
		label: 'btop',
		baselineText: 'btop at its default update_ms = 2000, same pty size and window',
		goal: {of: 'ratio', max: 1, text: '≤ 1× btop (2 s)'},
		unjudged: btopProblem(2000),
		details: has(used.btop1) ? [`against btop at 1 s: ${round(used.rigtop2 / used.btop1)}×`] : [],
	});
	against({
		name: `steady CPU, fleet of ${FLEET} at -i 1, ${windowText}`,
		mine: used.fleet,
		theirs: btopTook(1000) ? used.btop1 : Number.NaN,
		label: 'btop',
		baselineText: 'btop at update_ms = 1000, same pty size and window',
		goal: {of: 'ratio', max: 1, text: '≤ 1× btop (1 s)'},
		unjudged: btopProblem(1000),
		details: [`${FLEET} simulated miners in a process of their own (not counted), the fleet view in 80×24`],
	});
	against({
		name: `steady CPU against htop -d 10, one miner at -i 1, ${windowText}`,
		mine: used.rigtop,
		theirs: used.htop,
		label: 'htop',
		baselineText: 'htop -d 10 (1 s), same pty size and window',
		goal: reference,
		unjudged: htop === null ? 'htop is not installed' : 'htop did not run through the window',
	});
	against({
		name: `steady CPU against watch -n1 curl, one miner at -i 1, ${windowText}`,
		mine: used.rigtop,
		theirs: used.watch,
		label: 'watch',
		baselineText: '`watch -n1 curl` of the summary with every shell and curl it ran, same window',
		goal: reference,
	});
	against({
		name: `steady CPU against the bare poller, one miner at -i 1, ${windowText}`,
		mine: used.rigtop,
		theirs: used.poller,
		label: 'the poller',
		baselineText: 'bare node:http poller of the same two endpoints, same window',
		goal: reference,
	});
	const rss = (key) => (peak[key] > 0 ? `${round(peak[key], 1)} MB` : 'not measured');
	report({
		name: `RSS watching one miner at -i 1, first ${to} s (highest, sampled each second)`,
		figure: peak.rigtop,
		unit: 'MB',
		...(peak.btop1 > 0 ? {baseline: peak.btop1, baselineText: 'btop at 1 s, same run', ratio: peak.rigtop / peak.btop1} : {}),
		goal: {of: 'none', text: 'reference (≤ 100 MB over 30 min: soak-rss)'},
		command,
		details: [
			`rigtop at the default 2 s ${rss('rigtop2')}, watching the fleet of ${FLEET} ${rss('fleet')}; htop ${rss('htop')}; the bare poller ${rss('poller')}`,
			...(before === null ? [] : [`the build before: ${rss('before')}`]),
		],
	});
} finally {
	poller.kill('SIGTERM');
	await Promise.all([...ptys, watch].map((pty) => pty.stop()));
	await fleet.stop();
	await miner.stop();
}
