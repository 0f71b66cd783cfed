/**
 * The built `rigtop watch` (issue 38): no terminal, a simulated miner watched, a loopback ntfy told when it goes down
 * and comes back, one logfmt line on stderr for each event and each notice sent, SIGTERM ends it with exit 0; the
 * notify file's token appears in no output, and the live view and --where take the same flags.
 */
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {startService} from '../helpers/notify-services.js';
import {until} from '../history/helpers.js';
import {runCli} from './helpers/cli.js';
import {startExporter} from './helpers/exporter.js';
import {CLI, cliIsBuilt} from './helpers/tmux.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SECRET = 'tk-w4tch-5ecr3t-71';
const PATIENCE_MS = 20_000;

function workDir(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-notify-watch-'));
	cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
	return dir;
}

async function sim(): Promise<Simulator> {
	const started = await startSimulator({dialect: '6', warm: true, workerId: 'watched', threads: 2});
	cleanups.push(async () => started.stop());
	return started;
}

/** A notify file of these lines, mode 0600. */
function notifyFile(dir: string, lines: readonly string[]): string {
	const file = path.join(dir, 'notify');
	writeFileSync(file, `# rigtop's channels\n${lines.join('\n')}\n`, {mode: 0o600});
	return file;
}

function env(dir: string): NodeJS.ProcessEnv {
	const copy: NodeJS.ProcessEnv = {...process.env, XDG_STATE_HOME: path.join(dir, 'state')};
	delete copy['CI'];
	delete copy['RIGTOP_NOTIFY'];
	return copy;
}

/** The built `rigtop watch …args` in its own state folder; SIGKILLed after the test unless it ended. */
function startWatch(args: readonly string[], dir: string, extra: NodeJS.ProcessEnv = {}) {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	const child = spawn('node', [CLI, 'watch', ...args], {env: {...env(dir), ...extra}, stdio: ['ignore', 'pipe', 'pipe']});
	let stderr = '';
	let stdout = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	cleanups.push(async () => {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGKILL');
			await exited;
		}
	});
	return {child, stderr: () => stderr, stdout: () => stdout, exit: async () => exited};
}

describe('rigtop watch', () => {
	it('tells ntfy when the miner goes down and when it is back, logs each event and notice, stops on SIGTERM', async () => {
		const dir = workDir();
		const miner = await sim();
		const ntfy = await startService('ntfy');
		cleanups.push(async () => ntfy.close());
		const beat = await startService('heartbeat');
		cleanups.push(async () => beat.close());
		const file = notifyFile(dir, [
			`ntfy://${SECRET}@127.0.0.1:${ntfy.port}/rigs`,
			`heartbeat http://127.0.0.1:${beat.port}/ping/${SECRET}`,
		]);
		const watch = startWatch([miner.url, '--notify-file', file, '--notify-group', '1s', '--interval', '0.5'], dir);
		await until(() => /msg="watching 1 miner, polled every 0\.5 s"/.test(watch.stderr()), PATIENCE_MS, 'the start line');
		const stderr = () => watch.stderr();
		expect(stderr()).toMatch(
			/^ts=\S+ level=info msg="watching 1 miner, polled every 0\.5 s" version=\S+ channels=1 heartbeat=true history=true$/m,
		);
		await until(() => beat.received.length >= 1, PATIENCE_MS, 'the first heartbeat');
		await miner.stop();
		await until(() => ntfy.received.length >= 1, PATIENCE_MS, 'the down notice');
		expect(String((ntfy.received[0]?.json as {title?: unknown}).title)).toMatch(/ down$/);
		// The event and the notice, each a logfmt line; the channel named by its shown address only.
		await until(() => /msg="sent: /.test(stderr()), PATIENCE_MS, 'the sent line');
		expect(stderr()).toMatch(/^ts=\S+ level=warn msg="down: [^"]*" rig=\S+ event=down$/m);
		expect(stderr()).toMatch(
			new RegExp(
				`^ts=\\S+ level=info msg="sent: [^"]+ down" notice=trouble trouble=down channel=ntfy://127\\.0\\.0\\.1:${ntfy.port} service=ntfy ms=\\d+ status=200$`,
				'm',
			),
		);
		await until(() => beat.received.some((request) => request.path.endsWith('/fail')), PATIENCE_MS, 'the fail ping');

		await miner.start();
		await until(() => ntfy.received.length >= 2, PATIENCE_MS, 'the resolved notice');
		expect(String((ntfy.received[1]?.json as {title?: unknown}).title)).toMatch(/^resolved: /);

		watch.child.kill('SIGTERM');
		expect(await watch.exit()).toBe(0);
		expect(stderr()).toMatch(/level=info msg="watch stopped"\n$/);
		expect(watch.stdout()).toBe('');
		expect(stderr()).not.toContain(SECRET);
		// The heartbeat URL's token is in its path: never in a line.
		expect(stderr()).not.toContain('/ping/');
	}, 90_000);

	it('SIGKILLed while its channel fails: the next start sends what was pending, once', async () => {
		const dir = workDir();
		const miner = await sim();
		// The first try fails; the outbox would try again 10 s later, but rigtop is killed before.
		const ntfy = await startService('ntfy', {faults: [500]});
		cleanups.push(async () => ntfy.close());
		const file = notifyFile(dir, [`ntfy://127.0.0.1:${ntfy.port}/rigs`]);
		const args = [miner.url, '--notify-file', file, '--notify-group', '0', '--interval', '0.5'];
		const first = startWatch(args, dir);
		await until(() => /msg="watching/.test(first.stderr()), PATIENCE_MS, 'the first start');
		await miner.stop();
		await until(() => /msg="not sent: /.test(first.stderr()), PATIENCE_MS, 'the failed try');
		expect(ntfy.received).toHaveLength(1);
		expect(first.stderr()).toMatch(/level=warn msg="not sent: [^"]+ down: ntfy: 500[^"]*" notice=trouble trouble=down/);
		first.child.kill('SIGKILL');
		await first.exit();

		const second = startWatch(args, dir);
		await until(() => ntfy.received.length === 2, PATIENCE_MS, 'the pending notice sent');
		expect(ntfy.received.map((request) => request.status)).toEqual([500, 200]);
		expect(String((ntfy.received[1]?.json as {title?: unknown}).title)).toMatch(/ down$/);
		await until(() => /msg="sent: /.test(second.stderr()), PATIENCE_MS, 'its log line');
		second.child.kill('SIGTERM');
		expect(await second.exit()).toBe(0);
		// Sent once: nothing more came while it ran and stopped.
		expect(ntfy.received).toHaveLength(2);
	}, 60_000);

	it('a store that cannot be made: notifications go on from memory, and say they are not kept', async () => {
		const dir = workDir();
		const miner = await sim();
		const ntfy = await startService('ntfy');
		cleanups.push(async () => ntfy.close());
		const file = notifyFile(dir, [`ntfy://127.0.0.1:${ntfy.port}/rigs`]);
		const watch = startWatch([miner.url, '--notify-file', file, '--notify-group', '0', '--interval', '0.5'], dir, {
			XDG_STATE_HOME: '/proc/rigtop-nope',
		});
		await until(() => /msg="watching/.test(watch.stderr()), PATIENCE_MS, 'the start');
		expect(watch.stderr()).toMatch(/level=warn msg="history off: the folder \/proc\/rigtop-nope cannot be made/);
		expect(watch.stderr()).toMatch(/level=warn msg="notifications not kept: [^"]+"/);
		await miner.stop();
		await until(() => ntfy.received.length === 1, PATIENCE_MS, 'the down notice, from memory');
		watch.child.kill('SIGTERM');
		expect(await watch.exit()).toBe(0);
	}, 60_000);

	it('a notify file others may read is refused: exit 2, one line saying chmod 600, no secret', async () => {
		const dir = workDir();
		const file = path.join(dir, 'notify');
		writeFileSync(file, `ntfys://ntfy.sh/${SECRET}\n`, {mode: 0o644});
		const result = await runCli(['watch', '127.0.0.1:9', '--notify-file', file], {env: env(dir)});
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(
			/^rigtop: notify file .*: others may read it \(mode 0644\); it holds tokens: run chmod 600 .*\nRun rigtop --help for usage\.\n$/,
		);
		expect(result.stdout + result.stderr).not.toContain(SECRET);
	});

	it('--where lists the channels by their shown address only', async () => {
		const dir = workDir();
		const miner = await sim();
		const file = notifyFile(dir, [
			`tgram://123456789:AAH${SECRET.replaceAll('-', '')}x/987654`,
			`ntfys://ntfy.sh/${SECRET}`,
			`https://discord.com/api/webhooks/123456789/${SECRET}-abcdef`,
			`heartbeat https://hc-ping.com/${SECRET}`,
		]);
		const result = await runCli(['--where', miner.url, '--notify-file', file], {env: env(dir)});
		expect(result.code).toBe(0);
		expect(result.stdout).toContain(
			[
				'rigtop will notify 3 channels:',
				'  telegram  tgram://api.telegram.org',
				'  ntfy  ntfys://ntfy.sh',
				'  discord  https://discord.com',
				'  heartbeat  https://hc-ping.com',
			].join('\n'),
		);
		expect(result.stdout + result.stderr).not.toContain(SECRET);
		expect(result.stdout + result.stderr).not.toContain(SECRET.replaceAll('-', ''));
	});
});

describe('rigtop exporter --notify-file', () => {
	it("notifies from the exporter's worker, where its monitors are: a down notice, a log line for it", async () => {
		const dir = workDir();
		const miner = await sim();
		const ntfy = await startService('ntfy');
		cleanups.push(async () => ntfy.close());
		const file = notifyFile(dir, [`ntfy://${SECRET}@127.0.0.1:${ntfy.port}/rigs`]);
		const exporter = await startExporter([miner.url, '--notify-file', file, '--notify-group', '0'], cleanups, {env: env(dir)});
		await miner.stop();
		await until(() => ntfy.received.length >= 1, PATIENCE_MS, 'the down notice');
		expect(String((ntfy.received[0]?.json as {title?: unknown}).title)).toMatch(/ down$/);
		await until(() => /msg="sent: /.test(exporter.log()), PATIENCE_MS, 'the sent line');
		expect(exporter.log()).toMatch(
			new RegExp(`level=info msg="sent: [^"]+ down" notice=trouble trouble=down channel=ntfy://127\\.0\\.0\\.1:${ntfy.port} service=ntfy`),
		);
		exporter.child.kill('SIGTERM');
		expect(await exporter.exit()).toBe(0);
		expect(exporter.log()).not.toContain(SECRET);
	}, 60_000);
});
