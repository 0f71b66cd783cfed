/**
 * Notifications end to end (issue 38, "Done when"), through the built CLI's `rigtop watch` and loopback servers that
 * answer as ntfy and a JSON webhook do (test/helpers/notify-services.ts):
 *
 * - twenty simulated miners stopped together are one message per channel naming the twenty, and their return one
 *   resolved message;
 * - a channel answering 500, 500, then 200 gets the message delivered once (retried, never sent twice);
 * - rigtop watch killed (SIGKILL) while its channel is down loses nothing: started again with the channel up, it sends
 *   the pending message once, collapsed to what is still true when the rig came back meanwhile;
 * - a store that cannot be written: notifications are still sent, and one line says they are not kept.
 */
import {chmodSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {startService, type ReceivedRequest, type RunningService} from '../helpers/notify-services.js';
import {cliIsBuilt} from './helpers/tmux.js';
import {startWatch, type WatchProcess} from './helpers/watch-process.js';

const work = mkdtempSync(path.join(tmpdir(), 'rigtop-notify-fleet-'));
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

let dirs = 0;
/** A folder of this test's own. */
function folder(name: string): string {
	const dir = path.join(work, `${name}-${++dirs}`);
	return mkdtempSync(`${dir}-`);
}

const rigName = (index: number) => `rig-${String(index + 1).padStart(2, '0')}`;

async function simulator(index: number, port = 0): Promise<Simulator> {
	const sim = await startSimulator({dialect: '6', warm: true, seed: 3800 + index, workerId: rigName(index), port});
	cleanups.push(async () => sim.stop());
	return sim;
}

async function service(name: 'ntfy' | 'json', options: Parameters<typeof startService>[1] = {}): Promise<RunningService> {
	const running = await startService(name, options);
	cleanups.push(async () => running.close());
	return running;
}

/** A free loopback port (nothing listens there once this returns). */
async function freePort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as net.AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

function notifyFile(dir: string, urls: readonly string[]): string {
	const file = path.join(dir, 'notify');
	writeFileSync(file, `${urls.join('\n')}\n`, {mode: 0o600});
	chmodSync(file, 0o600);
	return file;
}

function rigsFile(dir: string, sims: readonly Simulator[]): string {
	const file = path.join(dir, 'rigs.json');
	writeFileSync(file, JSON.stringify(sims.map((sim, index) => ({name: rigName(index), url: sim.url}))));
	return file;
}

function watch(args: readonly string[], state: string): WatchProcess {
	const running = startWatch([...args, '--log.format', 'json', '-i', '1'], {XDG_STATE_HOME: state});
	cleanups.push(async () => running.stop('SIGKILL'));
	return running;
}

type LogLine = {readonly level: string; readonly msg: string; readonly [field: string]: unknown};
const logLines = (running: WatchProcess): LogLine[] =>
	running.lines().flatMap((line) => {
		try {
			return [JSON.parse(line) as LogLine];
		} catch {
			return [];
		}
	});

/** The webhook's notices (its JSON bodies), and ntfy's (their JSON publishes). */
type Hooked = {readonly kind: string; readonly trouble: string; readonly title: string; readonly rigs: readonly {readonly rig: string}[]};
const hooked = (json: RunningService): Hooked[] =>
	json.received.filter((request) => request.status === 200).map((request) => request.json as Hooked);
type Published = {readonly title: string; readonly message: string; readonly tags: readonly string[]};
const published = (ntfy: RunningService): Published[] =>
	ntfy.received.filter((request: ReceivedRequest) => request.status === 200).map((request) => request.json as Published);

describe('twenty miners stopped together', () => {
	it('are one message per channel naming the twenty, and their return one resolved message', async () => {
		const RIGS = 20;
		const dir = folder('twenty');
		const sims: Simulator[] = [];
		for (let index = 0; index < RIGS; index++) sims.push(await simulator(index));
		const ports = sims.map((sim) => Number(new URL(sim.url).port));
		const ntfy = await service('ntfy');
		const json = await service('json');
		const file = notifyFile(dir, [`ntfy://127.0.0.1:${ntfy.port}/rigs-38`, `json://127.0.0.1:${json.port}/hook`]);
		const running = watch(['--rigs', rigsFile(dir, sims), '--notify-file', file, '--notify-group', '10s'], path.join(dir, 'state'));
		await running.until(() => expect(logLines(running).filter((line) => line['event'] === 'started')).toHaveLength(RIGS));

		await Promise.all(sims.map(async (sim) => sim.stop()));
		await running.until(() => {
			expect(hooked(json).length).toBeGreaterThan(0);
			expect(published(ntfy).length).toBeGreaterThan(0);
		}, 90_000);
		const [down] = hooked(json);
		expect(down).toMatchObject({kind: 'trouble', trouble: 'down'});
		expect(down?.rigs.map((rig) => rig.rig).sort()).toEqual(Array.from({length: RIGS}, (_, index) => rigName(index)));
		expect(down?.title).toMatch(/^20 rigs down\b/);
		const [phone] = published(ntfy);
		expect(phone?.title).toBe(down?.title);
		// A phone's message names the first ten and counts the rest; the webhook's JSON has every rig.
		expect(Array.from({length: RIGS}, (_, index) => rigName(index)).filter((name) => phone?.message.includes(name))).toHaveLength(10);
		expect(phone?.message).toMatch(/\band 10 more$/);

		// Back on their ports (new processes: their restarts, if told, are news told once for all of them).
		for (const [index, port] of ports.entries()) sims[index] = await simulator(index, port);
		await running.until(() => {
			expect(hooked(json).map((notice) => notice.kind)).toContain('resolved');
			expect(published(ntfy)).toHaveLength(hooked(json).length);
		}, 90_000);
		const resolved = hooked(json).find((notice) => notice.kind === 'resolved');
		expect(resolved?.title).toBe('resolved: 20 rigs down');
		expect(resolved?.rigs.map((rig) => rig.rig).sort()).toEqual(Array.from({length: RIGS}, (_, index) => rigName(index)));
		expect(published(ntfy).map((notice) => notice.title)).toContain('resolved: 20 rigs down');
		// Still one message of each: the twenty down once, back once (and news, if any, once).
		expect(await running.stop()).toBe(0);
		const kinds = hooked(json).map((notice) => notice.kind);
		expect(kinds.filter((kind) => kind === 'trouble')).toEqual(['trouble']);
		expect(kinds.filter((kind) => kind === 'resolved')).toEqual(['resolved']);
		expect(kinds.filter((kind) => kind !== 'trouble' && kind !== 'resolved').length).toBeLessThanOrEqual(1);
		expect(
			published(ntfy)
				.map((notice) => notice.title)
				.sort(),
		).toEqual(
			hooked(json)
				.map((notice) => notice.title)
				.sort(),
		);
	}, 240_000);
});

describe('delivery', () => {
	it('a channel answering 500, 500, then 200 gets the message once; the other channel once, at once', async () => {
		const dir = folder('retry');
		const sim = await simulator(0);
		// With Retry-After: 1 (honoured on a 5xx as on a 429), so the test waits seconds, not the backoff's 10 s and 20 s.
		const ntfy = await service('ntfy', {faults: [500, 500], retryAfter: '1'});
		const json = await service('json');
		const file = notifyFile(dir, [`ntfy://127.0.0.1:${ntfy.port}/retry-38`, `json://127.0.0.1:${json.port}/hook`]);
		const running = watch(['--rigs', rigsFile(dir, [sim]), '--notify-file', file, '--notify-group', '0'], path.join(dir, 'state'));
		await running.until(() => expect(logLines(running).some((line) => line['event'] === 'started')).toBe(true));
		await sim.stop();
		await running.until(() => expect(ntfy.received.map((request) => request.status)).toEqual([500, 500, 200]), 90_000);
		// The same message each time (its key), delivered once; the webhook had it at the first try.
		const bodies = new Set(ntfy.received.map((request) => request.body));
		expect(bodies.size).toBe(1);
		expect(hooked(json)).toHaveLength(1);
		expect(hooked(json)[0]).toMatchObject({kind: 'trouble', trouble: 'down', title: 'rig-01 down'});
		const sent = logLines(running).filter((line) => line.msg.startsWith('sent: '));
		expect(sent.map((line) => line['service']).sort()).toEqual(['json', 'ntfy']);
		expect(logLines(running).filter((line) => line.msg.startsWith('not sent: ') && line['service'] === 'ntfy')).toHaveLength(2);
		expect(await running.stop()).toBe(0);
		expect(ntfy.received).toHaveLength(3);
	}, 180_000);

	it('rigtop watch killed (SIGKILL) while the channel is down sends the message once when started again, collapsed if the rig came back', async () => {
		const dir = folder('killed');
		const state = path.join(dir, 'state');
		const sim = await simulator(0);
		const simPort = Number(new URL(sim.url).port);
		const port = await freePort();
		const file = notifyFile(dir, [`ntfy://127.0.0.1:${port}/killed-38`]);
		const args = ['--rigs', rigsFile(dir, [sim]), '--notify-file', file, '--notify-group', '0'];
		const first = watch(args, state);
		await first.until(() => expect(logLines(first).some((line) => line['event'] === 'started')).toBe(true));
		await sim.stop();
		// The channel refuses (nothing listens): the message is tried and stays pending.
		await first.until(() => expect(logLines(first).some((line) => line.msg.startsWith('not sent: rig-01 down'))).toBe(true), 90_000);
		expect(await first.stop('SIGKILL')).toBeNull();

		// The rig comes back while no rigtop watches, then the channel, then rigtop.
		await simulator(0, simPort);
		const ntfy = await service('ntfy', {port});
		const second = watch(args, state);
		await second.until(() => expect(published(ntfy)).toHaveLength(1), 90_000);
		const [message] = published(ntfy);
		expect(message?.title).toMatch(/^rig-01 was down \d\d:\d\d(:\d\d)?–\d\d:\d\d/);
		// Nothing more comes of it, up to a stop that sends whatever is due: the one message, and no stale "down".
		await second.until(() => expect(logLines(second).some((line) => line.msg.startsWith('sent: '))).toBe(true));
		expect(await second.stop()).toBe(0);
		expect(ntfy.received).toHaveLength(1);
		expect(logLines(second).filter((line) => line.msg.startsWith('sent: '))).toHaveLength(1);
		expect(ntfy.received.map((request) => (request.json as Published).title)).not.toContain('rig-01 down');
	}, 180_000);

	it('a store that cannot be written: the message is still sent, and one line says notifications are not kept', async () => {
		const dir = folder('unwritable');
		const sim = await simulator(0);
		const json = await service('json');
		const file = notifyFile(dir, [`json://127.0.0.1:${json.port}/hook`]);
		// A folder under /proc: nothing can be made there, whoever runs the test (root included).
		const running = watch(['--rigs', rigsFile(dir, [sim]), '--notify-file', file, '--notify-group', '0'], '/proc/rigtop-e2e-notify-nope');
		await running.until(() => expect(logLines(running).some((line) => line['event'] === 'started')).toBe(true));
		await sim.stop();
		await running.until(() => expect(hooked(json)).toHaveLength(1), 90_000);
		expect(hooked(json)[0]).toMatchObject({kind: 'trouble', trouble: 'down'});
		expect(await running.stop()).toBe(0);
		const notKept = running.lines().filter((line) => /not kept/.test(line));
		expect(notKept).toHaveLength(1);
	}, 120_000);
});
