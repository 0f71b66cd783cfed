// What notifications cost a steady poll (issue 38: "npm run bench shows notifications add no measurable CPU to a
// steady poll"). Started together, each a `rigtop watch` (no terminal, its logfmt on stderr) of the same N simulated
// miners (bench/sim-fleet.ts, a process of their own, not counted) at `-i 1`, each with a state folder of its own:
//
// - three WITH: --notify-file holding a loopback ntfy-like sink (this process answers 200, not counted) and a
//   heartbeat to it: the alert center's trouble changes, the notifier's timer, the outbox in the store, the pings;
// - three WITHOUT: no channel; started in turn with the three with (with, without, with, …).
// The spread within each three (highest over lowest) is the machine's noise between processes, which a difference
// must exceed to be measurable.
//
// Each process's CPU (user + system from /proc, its threads) from 20 to 110 s after start; the figure is the mean of
// the three with, the baseline the mean of the three without, the ratio printed. Goal: within the noise — the ratio
// at most 1 + the larger spread within a three (5 % at least). Settings: RIGTOP_BENCH_NOTIFY_RIGS (10),
// RIGTOP_BENCH_NOTIFY_FROM_SECONDS (20), RIGTOP_BENCH_NOTIFY_TO_SECONDS (110).
import {spawn} from 'node:child_process';
import {chmodSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import process from 'node:process';
import {binEnv, CLI, cpuMs, report, requireBuild, round, scratchDir, setting, sleep, startSimFleet, waitUntil} from './lib.mjs';

requireBuild();
const RIGS = setting('NOTIFY_RIGS', 10);
const from = setting('NOTIFY_FROM_SECONDS', 20);
const to = setting('NOTIFY_TO_SECONDS', 110);
const window = to - from;

// The sink: answers every request as ntfy does a publish (and a heartbeat its ping), counting them.
const received = {publish: 0, ping: 0};
const sink = http.createServer((request, response) => {
	request.resume();
	request.on('end', () => {
		if (request.url?.startsWith('/ping')) received.ping++;
		else received.publish++;
		response.writeHead(200, {'content-type': 'application/json'});
		response.end(JSON.stringify({id: 'bench', time: Math.floor(Date.now() / 1000), event: 'message'}));
	});
});
await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
const sinkPort = sink.address().port;

const fleet = await startSimFleet(RIGS);
const dir = scratchDir('notify');
const rigsFile = path.join(dir, 'rigs.json');
writeFileSync(rigsFile, JSON.stringify(fleet.urls.map((url, index) => ({name: `notify-rig-${String(index + 1).padStart(2, '0')}`, url}))));
const notifyFile = path.join(dir, 'notify');
writeFileSync(notifyFile, `ntfy://127.0.0.1:${sinkPort}/bench-notify\nheartbeat http://127.0.0.1:${sinkPort}/ping/bench\n`, {mode: 0o600});
chmodSync(notifyFile, 0o600);

/** rigtop watch, run as its bin (its shebang applies), with its own state folder; its stderr kept. */
function watch(name, extra) {
	const env = binEnv({
		...process.env,
		XDG_STATE_HOME: scratchDir(`notify-${name}-state`),
		XDG_CACHE_HOME: scratchDir(`notify-${name}-cache`),
	});
	delete env.RIGTOP_NOTIFY;
	delete env.CI;
	const child = spawn(CLI, ['watch', '--rigs', rigsFile, '-i', '1', ...extra], {env, stdio: ['ignore', 'ignore', 'pipe']});
	let log = '';
	child.stderr.setEncoding('utf8').on('data', (chunk) => {
		log = (log + chunk).slice(-200_000);
	});
	return {name, child, log: () => log};
}

// In turn (with, without, with, …): a process's place in the start order is no side's.
const runs = [0, 1, 2].flatMap((turn) => [watch(`with-${turn}`, ['--notify-file', notifyFile]), watch(`without-${turn}`, [])]);
const started = Date.now();
const at = async (seconds) => sleep(Math.max(0, started + seconds * 1000 - Date.now()));
try {
	// Every rig's first poll in each (its 'started' event), and the heartbeats' first pings.
	await waitUntil(
		() => runs.every((run) => (run.log().match(/event=started/g) ?? []).length >= RIGS) && received.ping > 0,
		30_000,
		'the first poll of every rig in each rigtop watch, and the first heartbeat',
	);
	for (const run of runs) if (run.child.exitCode !== null) throw new Error(`rigtop watch (${run.name}) ended:\n${run.log()}`);
	await at(from);
	const first = runs.map((run) => cpuMs(run.child.pid));
	await at(to);
	const used = runs.map((run, index) => cpuMs(run.child.pid) - first[index]);
	const withs = used.filter((_, index) => index % 2 === 0);
	const withouts = used.filter((_, index) => index % 2 === 1);
	const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
	const spreadOf = (values) => Math.max(...values) / Math.min(...values) - 1;
	const figure = mean(withs);
	const baseline = mean(withouts);
	const spread = Math.max(spreadOf(withs), spreadOf(withouts));
	const max = round(1 + Math.max(0.05, spread));
	const perSecond = (ms) => `${round(ms / window)} ms a second (${round((ms / (window * 1000)) * 100)} % of a core)`;
	report({
		name: `steady CPU of rigtop watch, ${RIGS} miners at -i 1, with notifications against without, ${from}–${to} s after start`,
		figure,
		unit: 'ms CPU',
		baseline,
		baselineText: 'the mean of three rigtop watch without a channel, started in turn with them in the same run',
		ratio: figure / baseline,
		goal: {of: 'ratio', max, text: `≤ ${max}× (1 + the larger spread within a three, 5 % at least): no measurable CPU`},
		command: 'node bench/run.mjs notify',
		details: [
			`with notifications (ntfy sink and heartbeat on loopback): ${withs.map(perSecond).join('; ')}`,
			`without: ${withouts.map(perSecond).join('; ')}; the larger spread within a three ${round(spread * 100)} %`,
			`the sink answered ${received.publish} publishes (a steady poll has no trouble to tell) and ${received.ping} heartbeat pings`,
		],
	});
} finally {
	for (const run of runs) run.child.kill('SIGTERM');
	await Promise.all(runs.map((run) => (run.child.exitCode === null ? new Promise((resolve) => run.child.once('exit', resolve)) : null)));
	await fleet.stop();
	sink.closeAllConnections();
	sink.close();
}
