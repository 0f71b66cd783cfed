/**
 * A state folder where nothing can be made (XDG_STATE_HOME under /proc stands in for a read-only or full disk: root
 * writes through file modes, not into /proc; a symlink to an unmounted disk is the same on any system), with the
 * built CLI: the live view draws the dashboard and says history is off in one line, --once prints its report and
 * exits 0, the exporter serves /metrics, `config set` stops before any PUT with one line naming the folder and the
 * fix, `rigtop history` says there is nothing in one line; none of them spins a core (Node's recursive mkdir looped
 * there forever: the live view drew nothing at 97% CPU, --once never returned). And a --once against a wrong
 * address leaves no miner in `rigtop history --list`.
 */
import {execFile} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, symlinkSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {startExporter} from './helpers/exporter.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const run = promisify(execFile);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

let ticksPerSecond = 100;
beforeAll(async () => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	ticksPerSecond = Number((await run('getconf', ['CLK_TCK'])).stdout.trim()) || 100;
});

/** A folder under /proc: nothing can be made there, whoever runs the test. */
const UNDER_PROC = '/proc/rigtop-e2e-nope';

function tempDir(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-unwritable-'));
	cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
	return dir;
}

/** A state folder behind a symlink to a disk that is not mounted. */
function danglingState(): string {
	const dir = tempDir();
	const state = path.join(dir, 'state');
	symlinkSync(path.join(dir, 'unmounted', 'state'), state);
	return state;
}

async function simulator(options: Parameters<typeof startSimulator>[0] = {}): Promise<Simulator> {
	const sim = await startSimulator({dialect: '6', warm: true, ...options});
	cleanups.push(async () => sim.stop());
	return sim;
}

async function cli(args: readonly string[], env: Record<string, string>): Promise<{code: number; stdout: string; stderr: string}> {
	const childEnv: NodeJS.ProcessEnv = {...process.env, ...env};
	delete childEnv['CI'];
	try {
		// The timeout is a bound on a hang (the old loop never returned), far above the fraction of a second it takes.
		const {stdout, stderr} = await run('node', [CLI, ...args], {env: childEnv, timeout: 20_000});
		return {code: 0, stdout, stderr};
	} catch (error) {
		const failure = error as {code?: number; killed?: boolean; stdout?: string; stderr?: string};
		if (failure.killed) throw new Error(`rigtop ${args.join(' ')} did not return within 20 s`, {cause: error});
		return {code: typeof failure.code === 'number' ? failure.code : -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? ''};
	}
}

/** The CPU time (user + system) the process has used, seconds. */
function cpuSeconds(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// After "(comm) ": field 3 (state) is index 0, so utime (14) and stime (15) are 11 and 12.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/**
 * Asserts the process does not spin: over three seconds of wall time it uses well under half of one core. (The loop
 * this guards against used 97%; a poll every second costs a few percent.) A bound against a spin, not a timing goal.
 */
async function expectNoSpin(pid: number): Promise<void> {
	const before = cpuSeconds(pid);
	const started = Date.now();
	await new Promise((resolve) => setTimeout(resolve, 3000));
	const used = cpuSeconds(pid) - before;
	const wall = (Date.now() - started) / 1000;
	expect(used / wall).toBeLessThan(0.5);
}

async function freePort(): Promise<number> {
	const sim = await startSimulator({dialect: '6'});
	const {port} = sim;
	await sim.stop();
	return port;
}

const historyOffLine = (folder: string) =>
	`history off: the folder ${folder} cannot be made (ENOENT); set XDG_STATE_HOME to a writable folder`;

describe('a state folder where nothing can be made', () => {
	it('--once prints its report and exits 0, history off in one line on stderr', async () => {
		const sim = await simulator({workerId: 'once-rig'});
		const result = await cli(['--once', sim.url], {XDG_STATE_HOME: UNDER_PROC});
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^127\.0\.0\.1:\d+ \(once-rig\) +XMRig 6\.\d+\.\d+/);
		expect(result.stdout).toContain('hashrate');
		expect(result.stderr).toBe(`rigtop: ${historyOffLine(UNDER_PROC)}\n`);

		// The same behind a symlink to a disk that is not mounted, and as JSON.
		const dangling = danglingState();
		const json = await cli(['--once', '--json', sim.url], {XDG_STATE_HOME: dangling});
		expect(json.code).toBe(0);
		expect(JSON.parse(json.stdout)).toBeTruthy();
		expect(json.stderr).toMatch(
			/^rigtop: history off: the folder .*\/state cannot be made \(.*\); set XDG_STATE_HOME to a writable folder\n$/,
		);
	});

	it('the live view draws the dashboard, says history is off in one line, serves --metrics, and does not spin', async () => {
		const sim = await simulator({workerId: 'live-rig'});
		const port = await freePort();
		const term = await TmuxTerminal.start(['node', CLI, sim.url, '--interval', '1', '--metrics', `127.0.0.1:${port}`], {
			cols: 100,
			rows: 30,
			env: {XDG_STATE_HOME: UNDER_PROC},
		});
		cleanups.push(async () => term.kill());
		const screen = await term.waitFor(
			(text) => text.includes('live-rig') && text.includes('● live') && text.includes('history off'),
			10_000,
		);
		expect(screen).toContain('Hashrate');
		// One line (cut at the edge of the terminal), once.
		const lines = screen.split('\n').filter((line) => line.includes('history off'));
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain(`history off: the folder ${UNDER_PROC} cannot be made`);
		expect(screen).not.toMatch(/ExperimentalWarning|Error:|at .*\(node:/);
		const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
		expect(metrics).toMatch(/^xmrig_up\{[^}]*\} 1$/m);

		await expectNoSpin(await term.programPid());
		// Still polling: the dashboard goes on.
		const seen = sim.requests.length;
		await term.waitFor(() => sim.requests.length > seen, 5000);
		await term.send('q', true);
		await term.waitFor('[exit 0]', 5000);
	}, 40_000);

	it('rigtop exporter serves /metrics and does not spin', async () => {
		const sim = await simulator({workerId: 'exp-rig'});
		const env: NodeJS.ProcessEnv = {...process.env, XDG_STATE_HOME: UNDER_PROC};
		delete env['CI'];
		const exporter = await startExporter([sim.url], cleanups, {interval: '1', env, stdout: 'ignore'});
		const url = exporter.metricsUrl;
		// Up once its first poll is in.
		const deadline = Date.now() + 15_000;
		while (!/^xmrig_up\{[^}]*\} 1$/m.test(await (await fetch(url)).text()) && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 100));
		}

		await expectNoSpin(exporter.child.pid!);
		expect(await (await fetch(url)).text()).toMatch(/^xmrig_up\{[^}]*\} 1$/m);
		expect(exporter.log()).toMatch(/^ts=\S+Z level=info msg="serving http:\/\/127\.0\.0\.1:\d+\/metrics: 1 miner, polled every 1 s"\n$/);
	}, 30_000);

	it('config set stops before any PUT: exit 1, one line naming the folder and the fix', async () => {
		const token = 'e2e-unwritable-token-7f3a';
		const sim = await simulator({workerId: 'cfg-rig', token, restricted: false});
		const before = sim.configText();
		const result = await cli(['config', 'set', 'cpu.enabled=false', sim.url], {XDG_STATE_HOME: UNDER_PROC, RIGTOP_TOKEN: token});
		expect(result.code).toBe(1);
		const lines = result.stderr.trim().split('\n');
		expect(lines[0]).toBe(
			`rigtop: could not save a backup of the miner's config in ${UNDER_PROC}/rigtop/backups: that directory cannot be made (ENOENT); ` +
				'set XDG_STATE_HOME to a writable directory',
		);
		expect(lines.slice(1)).toEqual(['fix: nothing was sent to the miner; its config is unchanged']);
		expect(sim.configText()).toBe(before);
		expect(sim.requests.filter((request) => request.method === 'PUT')).toEqual([]);
		expect(`${result.stdout}${result.stderr}`).not.toContain(token);
	});

	it('rigtop history says in one line that nothing is stored, exit 1', async () => {
		const sim = await simulator();
		for (const args of [
			['history', sim.url],
			['history', '--list'],
		]) {
			const result = await cli(args, {XDG_STATE_HOME: UNDER_PROC});
			expect(result.code).toBe(1);
			expect(result.stdout).toBe('');
			expect(result.stderr).toBe(`rigtop: no history is stored yet (${UNDER_PROC}/rigtop/history.sqlite does not exist)\n`);
		}
	});
});

/**
 * Whether this machine lets the test mount a small tmpfs in a mount namespace of its own (root with CAP_SYS_ADMIN,
 * util-linux's unshare): a real disk that fills up, seen by rigtop alone and gone with it.
 */
async function canMountPrivately(): Promise<boolean> {
	const dir = tempDir();
	try {
		await run('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs "$0"', dir], {
			timeout: 5000,
		});
		return true;
	} catch {
		return false;
	}
}

describe('a disk that fills up under a running rigtop', () => {
	it('the live view turns history off with one line and goes on, without spinning', async (context) => {
		if (!(await canMountPrivately())) {
			context.skip();
			return;
		}

		const sim = await simulator({workerId: 'full-rig'});
		const state = tempDir();
		// 64 KiB: the new store (its WAL, the shared-memory file and the file itself) fits; a few flushes later the
		// WAL cannot grow: SQLITE_FULL, as on any full disk.
		const term = await TmuxTerminal.start(
			[
				'unshare',
				'--mount',
				'--propagation',
				'private',
				'sh',
				'-c',
				'mount -t tmpfs -o size=64k tmpfs "$0" && exec "$@"',
				state,
				'node',
				CLI,
				sim.url,
				'--interval',
				'0.25',
			],
			{cols: 100, rows: 30, env: {XDG_STATE_HOME: state}},
		);
		cleanups.push(async () => term.kill());
		await term.waitFor((text) => text.includes('full-rig') && text.includes('● live'), 10_000);
		const screen = await term.waitFor('history off', 40_000);
		const lines = screen.split('\n').filter((line) => line.includes('history off'));
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain('history off: the disk is full');
		expect(screen).not.toMatch(/ExperimentalWarning|Error:|at .*\(node:/);
		await expectNoSpin(await term.programPid());
		const seen = sim.requests.length;
		await term.waitFor(() => sim.requests.length > seen, 5000);
		expect((await term.screen()).split('\n').filter((line) => line.includes('history off'))).toHaveLength(1);
		await term.send('q', true);
		await term.waitFor('[exit 0]', 5000);
	}, 90_000);
});

describe('a cache folder where nothing can be made', () => {
	it('--once goes on without the compile cache (Node made its folder with the same endless mkdir)', async () => {
		const sim = await simulator({workerId: 'cache-rig'});
		const result = await cli(['--once', sim.url], {XDG_CACHE_HOME: UNDER_PROC});
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^127\.0\.0\.1:\d+ \(cache-rig\) +XMRig/);
		expect(result.stderr).toBe('');
	});
});

describe('an address that never answered', () => {
	it('--once against it leaves no miner in rigtop history --list; one that answered is listed', async () => {
		const state = tempDir();
		const sim = await simulator({workerId: 'kept-rig'});
		const wrong = `127.0.0.1:${await freePort()}`;
		expect((await cli(['--once', wrong], {XDG_STATE_HOME: state})).code).toBe(1);
		expect((await cli(['--once', sim.url], {XDG_STATE_HOME: state})).code).toBe(0);
		expect((await cli(['--once', wrong], {XDG_STATE_HOME: state})).code).toBe(1);
		const list = await cli(['history', '--list'], {XDG_STATE_HOME: state});
		expect(list.code).toBe(0);
		const lines = list.stdout.trim().split('\n');
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(/^127\.0\.0\.1:\d+ \(worker kept-rig\) {2}http:\/\/127\.0\.0\.1:\d+ {2}first seen/);
		expect(list.stdout).not.toContain(wrong);
		const history = await cli(['history', wrong], {XDG_STATE_HOME: state});
		expect(history.code).toBe(1);
	}, 30_000);
});
