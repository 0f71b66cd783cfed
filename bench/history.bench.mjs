// History's cost (docs/history.md):
// - CPU: rigtop watching one miner at a 1 s interval in a real 80×24 pty WITH history, against the same CLI with
//   --no-history, both running at once on the same simulated miner, measured over the same window from /proc; a few
//   pairs, the median ratio. Goal: ≤ 1.05× (≤ 5 % extra on the steady figure).
// - Bytes written per day per miner: what the history process wrote (write() calls, /proc/PID/io wchar, and what
//   reached the block layer, write_bytes) beyond the --no-history one, over the window, per day.
// - The size of a 7-day store of one miner polled every 2 s, and the CPU of storing one poll, in process
//   (bench/history-driver.ts, the real store code).
import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {bundleEntry, CLI, cpuMs, inPty, median, report, round, setting, sleep, startMiner, waitUntil} from './lib.mjs';

const seconds = setting('HISTORY_SECONDS', 60);
const warmupSeconds = setting('HISTORY_WARMUP_SECONDS', 20);
const pairs = setting('HISTORY_PAIRS', 3);
const interval = setting('HISTORY_INTERVAL', 1);

function io(pid) {
	const text = readFileSync(`/proc/${pid}/io`, 'utf8');
	const field = (name) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(text)?.[1] ?? 0);
	return {wchar: field('wchar'), writeBytes: field('write_bytes')};
}

async function startRigtop(url, args, stateHome) {
	let output = '';
	const saved = process.env.XDG_STATE_HOME;
	process.env.XDG_STATE_HOME = stateHome;
	const pty = inPty(process.execPath, [CLI, url, '--interval', String(interval), ...args], {
		onOutput(chunk) {
			output += chunk;
			if (output.length > 100_000) output = output.slice(-10_000);
		},
	});
	if (saved === undefined) delete process.env.XDG_STATE_HOME;
	else process.env.XDG_STATE_HOME = saved;
	await waitUntil(() => output.includes('bench-rig') && pty.innerPid() !== undefined, 15_000, 'the first frame');
	return {pty, pid: pty.innerPid()};
}

const miner = await startMiner();
const runs = [];
try {
	for (let pair = 0; pair < pairs; pair++) {
		const state = mkdtempSync(path.join(tmpdir(), 'rigtop-bench-history-'));
		try {
			// Started in turn, in alternating order, so neither always has the head start.
			const first = pair % 2 === 0 ? 'history' : 'none';
			const started = {};
			for (const which of first === 'history' ? ['history', 'none'] : ['none', 'history']) {
				started[which] = await startRigtop(miner.url, which === 'history' ? [] : ['--no-history'], path.join(state, which));
			}

			await sleep(warmupSeconds * 1000);
			const cpu0 = {history: cpuMs(started.history.pid), none: cpuMs(started.none.pid)};
			const io0 = {history: io(started.history.pid), none: io(started.none.pid)};
			await sleep(seconds * 1000);
			const cpu = {history: cpuMs(started.history.pid) - cpu0.history, none: cpuMs(started.none.pid) - cpu0.none};
			const io1 = {history: io(started.history.pid), none: io(started.none.pid)};
			runs.push({
				cpu,
				wchar: io1.history.wchar - io0.history.wchar - (io1.none.wchar - io0.none.wchar),
				writeBytes: io1.history.writeBytes - io0.history.writeBytes - (io1.none.writeBytes - io0.none.writeBytes),
			});
			await started.history.pty.stop();
			await started.none.pty.stop();
		} finally {
			rmSync(state, {recursive: true, force: true});
		}
	}

	const driver = await bundleEntry('bench/history-driver.ts');
	const inProcess = JSON.parse(execFileSync(process.execPath, [driver, '5000'], {encoding: 'utf8'}).trim());
	const ratios = runs.map((run) => run.cpu.history / run.cpu.none);
	const ratio = median(ratios);
	const perDay = (bytes) => (bytes / seconds) * 86_400;
	const wcharDay = median(runs.map((run) => perDay(run.wchar)));
	const blockDay = median(runs.map((run) => perDay(run.writeBytes)));
	const mb = (bytes) => `${round(bytes / 1e6, 1)} MB`;
	const steadyPerPoll = median(runs.map((run) => run.cpu.none / (seconds / interval)));
	report({
		name: `history's CPU (one miner at a ${interval} s interval, ${seconds} s, median of ${runs.length} pairs)`,
		figure: median(runs.map((run) => run.cpu.history)),
		unit: 'ms CPU',
		baseline: median(runs.map((run) => run.cpu.none)),
		baselineText: 'the same CLI with --no-history, same miner, same window',
		ratio,
		goal: {of: 'ratio', max: 1.05, text: '≤ 1.05× (≤ 5 % extra)'},
		details: [
			`pairs (history / none, ms CPU): ${runs.map((run) => `${round(run.cpu.history)} / ${round(run.cpu.none)} = ${round(run.cpu.history / run.cpu.none, 3)}×`).join('; ')}`,
			`storing one poll, in process: ${round(inProcess.write.cpuMsPerPoll, 3)} ms CPU (${round(inProcess.write.wallMsPerPoll, 3)} ms wall) over ${inProcess.write.polls} polls = ${round((inProcess.write.cpuMsPerPoll / steadyPerPoll) * 100, 1)} % of a steady poll's ${round(steadyPerPoll, 2)} ms`,
			`written per day per miner at ${interval} s, live: ${mb(wcharDay)} through write() (the WAL's pages and its checkpoints; the pty output of both processes cancels out), ${mb(blockDay)} accounted to the block layer (with the pages of the WAL index that SQLite maps in memory, -shm, dirtied again after each writeback)`,
			`written per day per miner through write(), in process (polls batched every 5 s as the recorder does, summaries, bounds): ${mb(inProcess.bytesPerDay.at2s)} at the default 2 s interval, ${mb(inProcess.bytesPerDay.at1s)} at 1 s (commits, not polls, set it)`,
			`a 7-day store of one miner polled every 2 s: ${mb(inProcess.week.fileBytes)} on disk (${mb(inProcess.week.usedBytes)} in use; rows ${JSON.stringify(inProcess.week.rows)})`,
			`reads on it (median of 50, ms): ${Object.entries(inProcess.week.reads)
				.map(([name, ms]) => `${name} ${round(ms, 3)}`)
				.join(', ')}`,
		],
		extra: {
			wcharPerDay: wcharDay,
			blockPerDay: blockDay,
			weekFileBytes: inProcess.week.fileBytes,
			writeCpuMsPerPoll: inProcess.write.cpuMsPerPoll,
		},
	});
} finally {
	await miner.stop();
}
