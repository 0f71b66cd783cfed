/**
 * Nothing lost, nothing twice, across processes: a real second rigtop (a child Node process) posting at the same
 * moment on the same store, and one SIGKILLed with a notice pending while the channel is down — the next outbox
 * sends it once, as what is still true. And the collapsing itself, on notices made by hand.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {chmodSync, chownSync, mkdirSync} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import {createInterface} from 'node:readline';
import {build} from 'esbuild';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {HistoryWriter} from '../../../source/history/writer.js';
import {collapsePending} from '../../../source/notify/outbox/collapse.js';
import {endFromHistory} from '../../../source/notify/outbox/history-end.js';
import {Outbox} from '../../../source/notify/outbox/outbox.js';
import type {Notice} from '../../../source/notify/types.js';
import {eventRecord, goodSample, observation, sixFacts, tempDir} from '../../history/helpers.js';
import {fakeClock, httpChannel, resolved, rig, testScope, trouble, until, type Service} from './helpers.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

const {cleanups, service, storeFile, openStore} = testScope();
afterEach(async () => cleanups.run());

let bundle = '';
beforeAll(async () => {
	const temp = tempDir();
	bundle = path.join(temp.dir, 'child.mjs');
	await build({
		entryPoints: [path.join(import.meta.dirname, 'child.ts')],
		bundle: true,
		platform: 'node',
		format: 'esm',
		outfile: bundle,
		logLevel: 'silent',
	});
	return () => temp.cleanup();
});

/** Starts the child rigtop; resolves with it and its stdout lines as they come. */
function child(task: {file: string; url: string; mode: 'hold' | 'race' | 'once'; notices: Notice[]; asNobody?: boolean}): {
	process: ChildProcess;
	lines: string[];
	stderr: string[];
} {
	const spawned = spawn(process.execPath, [bundle, JSON.stringify(task)], {stdio: ['pipe', 'pipe', 'pipe']});
	const lines: string[] = [];
	const stderr: string[] = [];
	createInterface({input: spawned.stdout}).on('line', (line) => lines.push(line));
	createInterface({input: spawned.stderr}).on('line', (line) => stderr.push(line));
	cleanups.add(() => {
		if (spawned.exitCode === null && spawned.signalCode === null) spawned.kill('SIGKILL');
	});
	return {process: spawned, lines, stderr};
}

async function exited(spawned: ChildProcess): Promise<void> {
	if (spawned.exitCode !== null || spawned.signalCode !== null) return;
	await new Promise((resolve) => spawned.once('exit', resolve));
}

const RIG = 'http://rig-03.lan:8080';

describe('outbox: two rigtops in two processes on one store', () => {
	it('each trouble is sent once, whichever process saw it first', async () => {
		const ntfy = await service();
		const channel = httpChannel(ntfy.url);
		const file = storeFile();
		const store = openStore(file);
		const since = Date.now();
		// 20 rigs down together; each rigtop saw each a few seconds apart from the other and made its own keys.
		const ours = Array.from({length: 20}, (_, index) => trouble(`ours-${index}`, [rig(`rig-${index}`, since + index * 100)], since));
		const theirs = Array.from({length: 20}, (_, index) => trouble(`theirs-${index}`, [rig(`rig-${index}`, since + 3 * SECOND)], since));
		const other = child({file, url: ntfy.url, mode: 'race', notices: theirs});
		await until(() => other.lines.includes('ready'), 'the child ready');
		const box = new Outbox({store, channels: [channel], report: () => undefined});
		cleanups.add(() => box.close(0));
		other.process.stdin?.write('go\n');
		for (const notice of ours) box.post(notice);
		await until(() => other.lines.includes('done'), 'the child done');
		await box.idle();
		await exited(other.process);
		expect(other.stderr).toEqual([]);
		const told = ntfy.delivered().map((key) => key.replace(/^(ours|theirs)-/, ''));
		expect(told.toSorted()).toEqual(Array.from({length: 20}, (_, index) => String(index)).toSorted());
		expect(ntfy.requests).toHaveLength(20);
	});
});

describe('outbox: a rigtop killed with notices pending', () => {
	async function killedWithPending(notices: Notice[], ntfy: Service, file: string): Promise<void> {
		const killed = child({file, url: ntfy.url, mode: 'hold', notices});
		await until(() => killed.lines.includes('posted') && ntfy.requests.length >= 1, 'the child posted and tried');
		killed.process.kill('SIGKILL');
		await exited(killed.process);
		expect(killed.process.signalCode).toBe('SIGKILL');
	}

	it('the next rigtop sends it once, collapsed: the trouble ended meanwhile (from the history’s events)', async () => {
		const ntfy = await service(() => ({status: 503}));
		const channel = httpChannel(ntfy.url);
		const file = storeFile();
		const since = Date.now() - 40 * MINUTE;
		const back = since + 30 * MINUTE;
		await killedWithPending([trouble('k-down', [rig('rig-03', since, {url: RIG})], since)], ntfy, file);
		const store = openStore(file);
		expect(store.all('SELECT key, state FROM notify_outbox')).toEqual([{key: 'k-down', state: 'pending'}]);
		// Meanwhile the rig came back: its `up` is in the history (another rigtop, or this one's first poll, stored it).
		const writer = new HistoryWriter(store);
		writer.write(
			[observation(goodSample(back, 1000), sixFacts('id-3'), {url: RIG, name: 'rig-03'})],
			[eventRecord(back, 'up', 'back up', {url: RIG, name: 'rig-03'})],
		);
		ntfy.answer(() => ({status: 200}));
		const tried = ntfy.requests.length;
		const lines: string[] = [];
		const box = new Outbox({store, channels: [channel], report: (line) => lines.push(line)});
		cleanups.add(() => box.close(0));
		expect(await box.recover(endFromHistory(store))).toBe(1);
		await until(() => box.queued === 0, 'sent');
		await box.idle();
		const after = ntfy.requests.slice(tried);
		expect(after).toHaveLength(1);
		expect(after[0]).toMatchObject({key: 'k-down~collapsed', kind: 'collapsed', status: 200});
		expect(after[0]?.title).toMatch(/^rig-03 was down \d\d:\d\d–\d\d:\d\d \(30m\)$/);
		expect(store.all('SELECT key, state FROM notify_outbox ORDER BY id')).toEqual([
			{key: 'k-down', state: 'merged'},
			{key: 'k-down~collapsed', state: 'sent'},
		]);
		expect(lines).toEqual([]);
		// Once: another rigtop starting later finds nothing to send.
		const again = new Outbox({store: openStore(file), channels: [channel], report: () => undefined});
		cleanups.add(() => again.close(0));
		expect(await again.recover(endFromHistory(store))).toBe(0);
		expect(ntfy.requests.slice(tried)).toHaveLength(1);
	});

	it('a trouble still open is sent as it was, once; a pending resolved whose trouble was never sent is merged into one', async () => {
		const ntfy = await service(() => ({status: 503}));
		const channel = httpChannel(ntfy.url);
		const file = storeFile();
		const since = Date.now() - 20 * MINUTE;
		const rig7 = rig('rig-07', since, {url: 'http://rig-07.lan:8080'});
		const rig3 = rig('rig-03', since, {url: RIG});
		await killedWithPending(
			[
				trouble('k-7', [rig7], since),
				trouble('k-3', [rig3], since),
				resolved('k-3-up', [{...rig3, until: since + 5 * MINUTE}], since + 5 * MINUTE),
			],
			ntfy,
			file,
		);
		ntfy.answer(() => ({status: 200}));
		const tried = ntfy.requests.length;
		const store = openStore(file);
		const box = new Outbox({store, channels: [channel], report: () => undefined});
		cleanups.add(() => box.close(0));
		// Nothing in the history about rig-07: still down, as last known. rig-03's end is in its resolved notice.
		expect(await box.recover(endFromHistory(store, {settleMs: 0}))).toBe(2);
		await until(() => box.queued === 0, 'sent');
		await box.idle();
		expect(ntfy.requests.slice(tried).map((request) => [request.key, request.kind])).toEqual([
			['k-7', 'trouble'],
			['k-3~collapsed', 'collapsed'],
		]);
	});
});

describe('outbox: recovery in one process (its lease ran out)', () => {
	it('a pending notice of a writer whose lease ran out is taken over once; the first poll says when it ended', async () => {
		const stuck = fakeClock();
		const ntfy = await service(() => ({status: 503}));
		const channel = httpChannel(ntfy.url);
		const file = storeFile();
		const since = stuck.now();
		const first = new Outbox({store: openStore(file), channels: [channel], report: () => undefined, clock: stuck});
		cleanups.add(() => first.close(0));
		first.post(trouble('k-down', [rig('rig-03', since)], since));
		await first.idle();
		// Its clock stops (it hangs: it never renews its lease, never closes); 3 minutes later another starts.
		const clock = fakeClock(since + 3 * MINUTE);
		ntfy.answer(() => ({status: 200}));
		const store = openStore(file);
		const second = new Outbox({store, channels: [channel], report: () => undefined, clock});
		cleanups.add(() => second.close(0));
		const ended = clock.now() - MINUTE;
		expect(await second.recover(() => ended)).toBe(1);
		await second.idle();
		expect(ntfy.delivered()).toEqual(['k-down~collapsed']);
		expect(await second.recover()).toBe(0);
		// The hung one wakes up: its notice is no longer its own to send.
		stuck.advance(3 * MINUTE);
		await first.idle();
		expect(first.queued).toBe(0);
		expect(ntfy.delivered()).toEqual(['k-down~collapsed']);
	});
});

describe('collapsing what a dead rigtop left', () => {
	const at = Date.UTC(2026, 11, 8, 2, 10);
	const open = () => null;

	it('keeps what is still true, collapses what ended, and merges an all-clear whose trouble was never told', async () => {
		const a = rig('rig-a', at);
		const b = rig('rig-b', at);
		const steps = await collapsePending(
			[
				trouble('t', [a, b], at),
				trouble('r', [a, b], at, {kind: 'repeat'}),
				resolved('u', [{...a, until: at + 30 * MINUTE}], at + 30 * MINUTE),
			],
			new Set(),
			(one) => (one.rig === 'rig-a' ? at + 30 * MINUTE : null),
			at + 60 * MINUTE,
		);
		expect(
			steps.map((step) => ('keep' in step ? ['keep', step.keep.key] : ['drop', step.drop.key, step.into?.key ?? null, step.by])),
		).toEqual([
			['drop', 't', 't~collapsed', 't~collapsed'],
			['drop', 'r', null, 't~collapsed'],
			['drop', 'u', null, 't~collapsed'],
		]);
		const made = 'drop' in steps[0]! ? steps[0].into : null;
		expect(made?.title).toBe('1 rig down, 1 back');
		expect(made?.body.split('\n')).toEqual([
			expect.stringMatching(/^rig-a was down \d\d:\d\d–\d\d:\d\d \(30m\)$/),
			expect.stringMatching(/^rig-b down since \d\d:\d\d$/),
		]);
		expect(made?.rigs.map((one) => one.until)).toEqual([at + 30 * MINUTE, undefined]);
	});

	it('a trouble told before wants its all-clear as it is; never a "down" for a rig that is up', async () => {
		const a = rig('rig-a', at);
		const told = new Set([`${a.url}\u0000down\u0000${at}`]);
		const steps = await collapsePending([resolved('u', [{...a, until: at + MINUTE}], at + MINUTE)], told, open, at + 2 * MINUTE);
		expect(steps).toEqual([{keep: resolved('u', [{...a, until: at + MINUTE}], at + MINUTE)}]);
		const up = await collapsePending([trouble('t', [a], at)], new Set(), () => at + MINUTE, at + 2 * MINUTE);
		expect(up.every((step) => 'drop' in step && step.into?.kind === 'collapsed' && !step.into.title.includes('since'))).toBe(true);
	});
});

describe('when a trouble ended, from the history', () => {
	it('a rig that answers at this rigtop’s first poll (no `up` logged: it was never seen down) is told as back, not down', async () => {
		const clock = fakeClock(Date.now() - 20 * MINUTE);
		const ntfy = await service(() => ({status: 503}));
		const channel = httpChannel(ntfy.url);
		const file = storeFile();
		const since = clock.now();
		const first = new Outbox({store: openStore(file), channels: [channel], report: () => undefined, clock});
		cleanups.add(() => first.close(0));
		first.post(trouble('k-down', [rig('rig-03', since, {url: RIG})], since));
		await first.idle();
		ntfy.answer(() => ({status: 200}));
		const store = openStore(file);
		const second = new Outbox({store, channels: [channel], report: () => undefined, clock: fakeClock(since + 20 * MINUTE)});
		cleanups.add(() => second.close(0));
		const recovering = second.recover(endFromHistory(store, {settleMs: 50}));
		// This rigtop's first poll, stored while recovery waits for it: the rig answers.
		const polled = since + 20 * MINUTE;
		new HistoryWriter(store).write([observation(goodSample(polled, 1000), sixFacts('id-3'), {url: RIG, name: 'rig-03'})], []);
		expect(await recovering).toBe(1);
		await second.idle();
		expect(ntfy.requests.slice(1)).toMatchObject([{key: 'k-down~collapsed', kind: 'collapsed', status: 200}]);
		expect(ntfy.requests[1]?.title).toMatch(/^rig-03 was down \d\d:\d\d–\d\d:\d\d \(20m\)$/);
	});
});

describe('outbox: a store in a read-only folder', () => {
	it('delivers from memory and says once that notifications are not kept', async () => {
		const ntfy = await service();
		const base = path.dirname(path.dirname(storeFile()));
		const folder = path.join(base, 'rigtop');
		mkdirSync(folder, {recursive: true});
		const root = process.getuid?.() === 0;
		chmodSync(base, 0o755);
		if (root) chownSync(folder, 65534, 65534);
		chmodSync(folder, 0o555);
		cleanups.add(() => chmodSync(folder, 0o755));
		const since = Date.now();
		const notices = [trouble('k1', [rig('rig-03', since)], since), trouble('k2', [rig('rig-04', since)], since)];
		const run = child({file: path.join(folder, 'history.sqlite'), url: ntfy.url, mode: 'once', notices, asNobody: root});
		await exited(run.process);
		expect(run.lines).toEqual(['done 0']);
		expect(ntfy.delivered()).toEqual(['k1', 'k2']);
		expect(run.stderr).toEqual([
			expect.stringMatching(
				/^history off: .*history\.sqlite cannot be written \(.*(EACCES|permission denied).*\); fix its folder's permissions/i,
			),
			expect.stringMatching(
				/^notifications not kept: .*history\.sqlite cannot be written \(.*(EACCES|permission denied).*\); fix its folder's permissions/i,
			),
		]);
	});
});
