/**
 * History with the built CLI: a writing rigtop killed with SIGKILL at random moments (the store opens whole
 * again and lost at most the last five seconds of polls), a live rigtop and a crowd of cron-like --once runs on the
 * same miner at once, a restart that continues the history, `rigtop history` against the real store, and a
 * read-only state folder (history off with one line, the report printed all the same).
 */
import {spawn} from 'node:child_process';
import {chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {loadSqlite} from '../../source/history/sqlite.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {runCli} from './helpers/cli.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

function stateDir(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-history-'));
	cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
	return dir;
}

async function simulator(workerId: string): Promise<Simulator> {
	const sim = await startSimulator({dialect: '6', warm: true, workerId});
	cleanups.push(async () => sim.stop());
	return sim;
}

async function terminal(args: readonly string[], env: Record<string, string>): Promise<TmuxTerminal> {
	const term = await TmuxTerminal.start(['node', CLI, ...args], {cols: 80, rows: 24, env});
	cleanups.push(async () => term.kill());
	return term;
}

async function cli(args: readonly string[], env: Record<string, string>): Promise<{code: number; stdout: string; stderr: string}> {
	return runCli(args, {env, unset: []});
}

function openStore(file: string) {
	const {DatabaseSync} = loadSqlite();
	return new DatabaseSync(file, {readOnly: true});
}

describe('history with the built CLI', () => {
	it('survives kill -9 at random moments: the store opens whole every time and loses at most the last five seconds of polls', async () => {
		const sim = await simulator('kill-rig');
		const state = stateDir();
		const env = {XDG_STATE_HOME: state};
		const file = path.join(state, 'rigtop', 'history.sqlite');
		const killedAt: number[] = [];
		for (let round = 0; round < 4; round++) {
			const term = await terminal([sim.url, '--interval', '0.25'], env);
			await term.waitFor('kill-rig', 10_000);
			const pid = await term.programPid();
			await new Promise((resolve) => setTimeout(resolve, 700 + Math.random() * 6300));
			process.kill(pid, 'SIGKILL');
			killedAt.push(Date.now());
			await term.waitFor('[exit 137]', 5000);
			const screen = await term.screen();
			expect(screen).not.toMatch(/history off|damaged|ExperimentalWarning/);
			await term.kill();

			const db = openStore(file);
			try {
				expect(db.prepare('PRAGMA integrity_check').get()).toEqual({integrity_check: 'ok'});
				const last = (db.prepare('SELECT max(t) AS t FROM sample').get() as {t: number}).t;
				// Polls every 0.25 s, written every 5 s: at most those 5 s (and the poll in flight) lost, with room for
				// timers running late on a loaded machine.
				expect(killedAt.at(-1)! - last).toBeLessThan(7500);
			} finally {
				db.close();
			}
		}

		// Every run wrote into the one store, as the same miner, with its events.
		const db = openStore(file);
		try {
			expect(db.prepare('SELECT count(*) AS n FROM miner').get()).toEqual({n: 1});
			const started = db.prepare("SELECT count(*) AS n FROM event WHERE kind = 'started'").get() as {n: number};
			expect(started.n).toBe(4);
		} finally {
			db.close();
		}

		const listed = await cli(['history', '--list'], env);
		expect(listed.code).toBe(0);
		// Named as the exporter names it (no rigs file: host:port), the worker id beside.
		expect(listed.stdout).toMatch(/^127\.0\.0\.1:\d+ \(worker kill-rig\) {2}http:\/\/127\.0\.0\.1:\d+/);
	}, 90_000);

	it('a live rigtop and a crowd of --once runs on the same miner at once: no error, no damage, no doubled polls', async () => {
		const sim = await simulator('crowd-rig');
		const state = stateDir();
		const env = {XDG_STATE_HOME: state};
		const term = await terminal([sim.url, '--interval', '1'], env);
		await term.waitFor('crowd-rig', 10_000);
		const started = Date.now();
		const runs = await Promise.all(Array.from({length: 8}, async () => cli(['--once', sim.url], env)));
		for (const result of runs) {
			expect(result.code).toBe(0);
			expect(result.stderr).toBe('');
		}

		await new Promise((resolve) => setTimeout(resolve, 2500));
		await term.send('q');
		await term.waitFor('[exit 0]', 5000);
		const ended = Date.now();
		const db = openStore(path.join(state, 'rigtop', 'history.sqlite'));
		try {
			expect(db.prepare('PRAGMA integrity_check').get()).toEqual({integrity_check: 'ok'});
			const {n} = db.prepare('SELECT count(*) AS n FROM sample WHERE t >= ? AND t <= ?').get(started, ended) as {n: number};
			// One poll a second from the live rigtop; the --once runs fell within its spacing (or it within theirs).
			const seconds = (ended - started) / 1000;
			expect(n).toBeLessThanOrEqual(Math.ceil(seconds / 0.75) + 1);
			expect(n).toBeGreaterThanOrEqual(Math.floor(seconds / 2));
		} finally {
			db.close();
		}
	}, 60_000);

	it('continues the history after a restart, and rigtop history prints it as text, JSON and CSV', async () => {
		const sim = await simulator('again-rig');
		const state = stateDir();
		const env = {XDG_STATE_HOME: state};
		for (let session = 0; session < 2; session++) {
			const term = await terminal([sim.url, '--interval', '0.5'], env);
			await term.waitFor('again-rig', 10_000);
			await new Promise((resolve) => setTimeout(resolve, 1500));
			await term.send('q');
			await term.waitFor('[exit 0]', 5000);
			await term.kill();
		}

		const text = await cli(['history', sim.url, '--since', '10m'], env);
		expect(text.code).toBe(0);
		expect(text.stdout).toMatch(/^127\.0\.0\.1:\d+ \(worker again-rig, http:\/\/127\.0\.0\.1:\d+\), /);
		// Each run watched it under its name, its worker id beside it.
		expect(text.stdout.match(/watching 127\.0\.0\.1:\d+ \(again-rig\)/g)).toHaveLength(2);
		expect(text.stdout).toMatch(/hashrate {2}avg \d/);

		const json = JSON.parse((await cli(['history', sim.url, '--json'], env)).stdout) as {
			miner: {workerId: string};
			series: {time: string; resolution: string; hashrate: {avg: number | null}; link: string}[];
			events: {kind: string; time: string}[];
		};
		expect(json.miner.workerId).toBe('again-rig');
		expect(json.series.length).toBeGreaterThanOrEqual(4);
		// Every answered poll has its hashrate (on a loaded machine a poll may time out: stored as such, not as a rate).
		const live = json.series.filter((row) => row.link === 'live');
		expect(live.length).toBeGreaterThanOrEqual(json.series.length * 0.75);
		expect(live.every((row) => typeof row.hashrate.avg === 'number')).toBe(true);
		expect(json.events.filter((event) => event.kind === 'started')).toHaveLength(2);

		const csv = (await cli(['history', sim.url, '--csv'], env)).stdout.trim().split('\n');
		expect(csv[0]?.split(',').slice(0, 4)).toEqual(['time', 'record', 'resolution', 'polls']);
		const columns = csv[0]?.split(',').length;
		expect(csv.slice(1).every((line) => line.split(',').length >= (columns ?? 0))).toBe(true);
		const kind = csv[0]?.split(',').indexOf('event_kind') ?? -1;
		expect(csv.filter((line) => line.split(',')[1] === 'event' && line.split(',')[kind] === 'started')).toHaveLength(2);

		// The miner gone, the history is still found by the URL it was last seen at; bad usage is exit 2.
		await sim.stop();
		expect((await cli(['history', sim.url], env)).stdout).toMatch(/watching 127\.0\.0\.1:\d+ \(again-rig\)/);
		const bad = await cli(['history', sim.url, '--since', 'yesterday-ish'], env);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/--since takes a duration back from now/);
	}, 60_000);

	it('a read-only state folder turns history off with one line, and the report is printed all the same', async () => {
		const sim = await simulator('ro-rig');
		const base = stateDir();
		chmodSync(base, 0o755);
		const state = path.join(base, 'state');
		mkdirSync(path.join(state, 'rigtop'), {recursive: true});
		chmodSync(path.join(state, 'rigtop'), 0o555);
		chmodSync(state, 0o555);
		const env: NodeJS.ProcessEnv = {
			...process.env,
			XDG_STATE_HOME: state,
			HOME: base,
			XDG_CACHE_HOME: path.join(base, 'cache'),
		};
		delete env['CI'];
		let command: string[];
		if (process.getuid?.() === 0) {
			// root writes through any mode bits: run the CLI as nobody (a copy of it, readable by nobody), dropping the
			// rights after node has started; the read-only folders are nobody's own, as a user's would be.
			chownSync(state, 65534, 65534);
			chownSync(path.join(state, 'rigtop'), 65534, 65534);
			const app = path.join(base, 'app');
			cpSync(path.resolve('dist'), path.join(app, 'dist'), {recursive: true});
			cpSync(path.resolve('package.json'), path.join(app, 'package.json'));
			chmodSync(app, 0o755);
			const cliCopy = path.join(app, 'dist', 'cli.js');
			const script = path.join(base, 'as-nobody.mjs');
			writeFileSync(
				script,
				`process.setgid(65534); process.setuid(65534);
process.argv = [process.argv[0], ${JSON.stringify(cliCopy)}, ...process.argv.slice(2)];
await import(${JSON.stringify(`file://${cliCopy}`)});
`,
			);
			command = [script];
		} else {
			command = [CLI];
		}

		const result = await new Promise<{code: number | null; stdout: string; stderr: string}>((resolve) => {
			const child = spawn(process.execPath, [...command, '--once', sim.url], {env});
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
			child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
			child.on('exit', (code) => resolve({code, stdout, stderr}));
		});
		expect(result.stdout).toContain('ro-rig');
		expect(result.code).toBe(0);
		const lines = result.stderr.trim().split('\n');
		expect(lines).toHaveLength(1);
		// The folder stayed read-only (rigtop takes others' rights away, never gives its owner any).
		expect(statSync(path.join(state, 'rigtop')).mode & 0o777).toBe(0o500);
		expect(lines[0]).toMatch(
			/^rigtop: history off: .*history\.sqlite cannot be written \(.*(EACCES|permission denied).*\); fix its folder's permissions or set XDG_STATE_HOME$/i,
		);
	}, 30_000);
});
