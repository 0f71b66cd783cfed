// Soak with a flapping miner: the built CLI (dist/cli.js) live in a real terminal (tmux) for a long time against the
// simulated miner (dist/xmrig-sim.js, its own process) that is stopped and started again every 10 s on the same port
// (each start is a new miner process: uptime from 0, so rigtop sees down → back up → restarted, over and over).
// rigtop's RSS is sampled every 30 s. Prints RSS at the start, after warm-up and at the end, the growth, whether
// rigtop is still alive, and the screen at the end. Goal: alive, RSS growth after warm-up < 10 MB.
//
//   node bench/soak-flap.bench.mjs [--minutes 30] [--flap-seconds 10] [--sample-seconds 30] [--interval 1]
//
// 30 minutes is too long for the default `npm run bench`: there (and under `node bench/run.mjs`) it prints a note and
// skips, unless RIGTOP_SOAK=1.
import {execFileSync} from 'node:child_process';
import {readlinkSync} from 'node:fs';
import process from 'node:process';
import {binEnv, CLI, childPids, report, requireBuild, round, rssBytes, sleep, startMiner, underBenchRunner} from './lib.mjs';

if (underBenchRunner() && process.env.RIGTOP_SOAK !== '1') {
	console.log('soak-flap: skipped (30 minutes). Run it with `node bench/soak-flap.bench.mjs [--minutes 30]`, or set RIGTOP_SOAK=1.');
	process.exit(0);
}

function option(name, fallback) {
	const at = process.argv.indexOf(`--${name}`);
	if (at === -1) return fallback;
	const value = Number(process.argv[at + 1]);
	if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
	return value;
}

const minutes = option('minutes', 30);
const flapMs = option('flap-seconds', 10) * 1000;
const sampleMs = option('sample-seconds', 30) * 1000;
const intervalSeconds = option('interval', 1);
const warmupMs = Math.min(60_000, (minutes * 60_000) / 5);
requireBuild();

/** The simulated miner on a fixed port (0 the first time), as a process of its own. */
const startSim = async (port) => startMiner({port, workerId: 'flap-rig'});

const socket = `rigtop-soak-flap-${process.pid}`;
const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'});
const screen = () => tmux('capture-pane', '-p', '-t', 'main');

/** rigtop's own pid: the pane's process, or the node process under it. */
function rigtopPid() {
	const panePid = Number(tmux('display-message', '-p', '-t', 'main', '#{pane_pid}').trim());
	// The node process itself (not the shell that started it); rigtop renames its process title, so go by the binary.
	const isCli = (pid) => {
		try {
			return readlinkSync(`/proc/${pid}/exe`) === process.execPath;
		} catch {
			return false;
		}
	};

	if (isCli(panePid)) return panePid;
	const children = childPids(panePid);
	return children.find((pid) => isCli(pid)) ?? children.flatMap((pid) => childPids(pid)).find((pid) => isCli(pid)) ?? null;
}

function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

const mb = (bytes) => Math.round((bytes / 1e6) * 10) / 10;

let sim = await startSim(0);
const port = Number(new URL(sim.url).port);
tmux(
	'-f',
	'/dev/null',
	'new-session',
	'-d',
	'-s',
	'main',
	'-x',
	'100',
	'-y',
	'30',
	// Its history in a scratch folder (binEnv's), not the user's.
	`env -u CI TERM=xterm-256color XDG_STATE_HOME='${binEnv().XDG_STATE_HOME}' ${process.execPath} ${CLI} ${sim.url} --interval ${intervalSeconds}; echo "[exit $?]"; sleep 3600`,
);
let stopped = false;
try {
	await sleep(1500);
	const pid = rigtopPid();
	if (pid === null) throw new Error(`rigtop did not start; screen:\n${screen()}`);
	console.log(
		`soak-flap: rigtop pid ${pid} watching ${sim.url} every ${intervalSeconds} s; the miner stops/starts every ${flapMs / 1000} s; ${minutes} min; RSS every ${sampleMs / 1000} s`,
	);

	const started = Date.now();
	const end = started + minutes * 60_000;
	const samples = [{at: 0, rss: rssBytes(pid)}];
	let flaps = 0;
	let nextFlap = started + flapMs;
	let nextSample = started + sampleMs;
	while (Date.now() < end && alive(pid)) {
		const wake = Math.min(nextFlap, nextSample, end);
		await sleep(Math.max(0, wake - Date.now()));
		if (Date.now() >= nextFlap) {
			if (stopped) sim = await startSim(port);
			else await sim.stop();
			stopped = !stopped;
			flaps++;
			nextFlap += flapMs;
		}

		if (Date.now() >= nextSample && alive(pid)) {
			const sample = {at: Date.now() - started, rss: rssBytes(pid)};
			samples.push(sample);
			console.log(`  ${Math.round(sample.at / 1000)} s: RSS ${mb(sample.rss)} MB (${flaps} flaps)`);
			nextSample += sampleMs;
		}
	}

	// End on a running miner, and see rigtop back live (after its retry backoff, at most 30 s).
	if (stopped) {
		sim = await startSim(port);
		stopped = false;
	}

	const backFrom = Date.now();
	let backAfter = null;
	while (Date.now() - backFrom < 40_000 && alive(pid)) {
		if (/● live/.test(screen())) {
			backAfter = Date.now() - backFrom;
			break;
		}

		await sleep(200);
	}

	const stillAlive = alive(pid);
	const last = stillAlive ? {at: Date.now() - started, rss: rssBytes(pid)} : samples.at(-1);
	const warm = samples.find((sample) => sample.at >= warmupMs) ?? samples.at(-1);
	const growth = last.rss - warm.rss;
	const finalScreen = screen();
	report({
		name: 'soak-flap (RSS growth, miner stopped/started every 10 s)',
		figure: growth / 1e6,
		unit: 'MB',
		goal: {
			of: 'figure',
			max: stillAlive && backAfter !== null ? 10 : -1,
			strict: true,
			text: 'rigtop alive and live again, RSS growth after warm-up < 10 MB',
		},
		command: 'RIGTOP_SOAK=1 node bench/run.mjs soak-flap',
		details: [
			`${minutes} min, ${flaps} stops/starts of the miner, poll every ${intervalSeconds} s`,
			`RSS: ${mb(samples[0].rss)} MB at start, ${mb(warm.rss)} MB after warm-up (${Math.round(warm.at / 1000)} s), ${mb(last.rss)} MB at the end (${growth >= 0 ? '+' : ''}${mb(growth)} MB)`,
			`RSS samples (MB): ${samples.map((sample) => mb(sample.rss)).join(', ')}`,
			`rigtop alive at the end: ${stillAlive ? 'yes' : 'NO'}; live again ${backAfter === null ? 'NOT within 40 s' : `${round(backAfter / 1000)} s`} after the last start of the miner`,
		],
		note: `alive ${stillAlive ? 'yes' : 'no'}; RSS ${mb(warm.rss)} → ${mb(last.rss)} MB over ${minutes} min with ${flaps} flaps`,
	});
	console.log(`\nscreen at the end:\n${finalScreen}`);
	if (!stillAlive || backAfter === null) process.exitCode = 1;
} finally {
	try {
		tmux('kill-server');
	} catch {
		// already gone
	}

	if (!stopped) await sim.stop();
}
