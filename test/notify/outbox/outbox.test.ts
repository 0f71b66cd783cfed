/**
 * The outbox against real loopback services and a real store file, on a clock the test moves: retries, Retry-After,
 * a channel down for ten minutes, a hanging channel, giving up, claims between two outboxes of one store.
 */
import {existsSync} from 'node:fs';
import {afterEach, describe, expect, it} from 'vitest';
import {HistoryStore} from '../../../source/history/store.js';
import {Outbox, type OutboxOptions} from '../../../source/notify/outbox/outbox.js';
import type {Channel} from '../../../source/notify/types.js';
import {fakeClock, httpChannel, resolved, rig, testScope, trouble, until, type FakeClock} from './helpers.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

const {cleanups, service, storeFile, openStore} = testScope();
afterEach(async () => cleanups.run());

function outbox(store: HistoryStore | null, channels: readonly Channel[], clock: FakeClock, extra: Partial<OutboxOptions> = {}) {
	const lines: string[] = [];
	const box = new Outbox({store, channels, report: (line) => lines.push(line), clock, ...extra});
	cleanups.add(() => box.close(0));
	return {box, lines};
}

type Row = {key: string; state: string; attempts: number; reason: string | null; next_try: number; first_try: number | null};
function rows(store: HistoryStore, channel: Channel): Row[] {
	return store.all<Row>(
		'SELECT key, state, attempts, reason, next_try, first_try FROM notify_outbox WHERE channel = ? ORDER BY id',
		channel.id,
	);
}

/** Moves the clock by `stepMs` until `done`, letting every request finish between steps. */
async function drive(clock: FakeClock, box: Outbox, done: () => boolean, stepMs = 10 * SECOND, maxSteps = 2000): Promise<void> {
	for (let step = 0; step < maxSteps; step++) {
		await box.idle();
		if (done()) return;
		clock.advance(stepMs);
	}

	throw new Error('never done');
}

describe('outbox: delivery', () => {
	it('a channel answering 500, 500, 200 receives the notice exactly once, written before it was sent', async () => {
		const clock = fakeClock();
		const ntfy = await service((index) => ({status: index < 2 ? 500 : 200}));
		const channel = httpChannel(ntfy.url);
		const store = openStore(storeFile());
		const {box, lines} = outbox(store, [channel], clock);
		expect(box.post(trouble('k1', [rig('rig-03', clock.now())], clock.now()))).toEqual([channel]);
		// Written before any answer.
		expect(rows(store, channel)).toMatchObject([{key: 'k1', state: 'pending'}]);
		await drive(clock, box, () => box.queued === 0);
		clock.advance(2 * 60 * MINUTE);
		await box.idle();
		expect(ntfy.requests.map((request) => request.status)).toEqual([500, 500, 200]);
		expect(ntfy.delivered()).toEqual(['k1']);
		expect(rows(store, channel)).toMatchObject([{key: 'k1', state: 'sent', attempts: 3, reason: null}]);
		expect(lines).toEqual([]);
		// The same key again (from this rigtop or another): never sent twice.
		expect(box.post(trouble('k1', [rig('rig-03', clock.now())], clock.now()))).toEqual([]);
		await box.idle();
		expect(ntfy.requests).toHaveLength(3);
	});

	it('every channel down for 10 minutes then back: everything delivered once, in order, on each', async () => {
		const clock = fakeClock();
		const start = clock.now();
		let down = true;
		const answer = () => (down ? {status: 503} : {status: 200});
		const ntfy = await service(answer);
		const gotify = await service(answer);
		const channels = [httpChannel(ntfy.url), httpChannel(gotify.url, 'gotify')];
		const store = openStore(storeFile());
		const {box, lines} = outbox(store, channels, clock);
		const keys: string[] = [];
		for (let minute = 0; minute < 10; minute++) {
			const key = `n${minute}`;
			keys.push(key);
			box.post(trouble(key, [rig(`rig-${minute}`, clock.now())], clock.now()));
			for (let tick = 0; tick < 6; tick++) {
				await box.idle();
				clock.advance(10 * SECOND);
			}
		}

		expect(clock.now() - start).toBe(10 * MINUTE);
		expect(ntfy.delivered()).toEqual([]);
		down = false;
		await drive(clock, box, () => box.queued === 0);
		expect(ntfy.delivered()).toEqual(keys);
		expect(gotify.delivered()).toEqual(keys);
		for (const channel of channels) expect(rows(store, channel).map((row) => row.state)).toEqual(keys.map(() => 'sent'));
		expect(lines).toEqual([]);
	});

	it('honours 429 Retry-After instead of its own backoff', async () => {
		const clock = fakeClock();
		const ntfy = await service((index) => (index === 0 ? {status: 429, headers: {'retry-after': '120'}} : {status: 200}));
		const channel = httpChannel(ntfy.url);
		const store = openStore(storeFile());
		const {box} = outbox(store, [channel], clock);
		const posted = clock.now();
		box.post(trouble('k1', [rig('rig-03', posted)], posted));
		await box.idle();
		expect(rows(store, channel)).toMatchObject([
			{state: 'pending', attempts: 1, next_try: posted + 120 * SECOND, reason: 'ntfy: 429 too many requests'},
		]);
		// Its own first wait (10 s) and more pass: not tried again before the service said.
		clock.advance(119 * SECOND);
		await box.idle();
		expect(ntfy.requests).toHaveLength(1);
		clock.advance(SECOND);
		await box.idle();
		expect(ntfy.delivered()).toEqual(['k1']);
	});

	it('a hanging channel holds no other: the other is sent while it hangs; the hang is cut at the deadline and tried again', async () => {
		const clock = fakeClock();
		const hanging = await service(() => 'hang');
		const fine = await service();
		const slow = httpChannel(hanging.url, 'discord');
		const quick = httpChannel(fine.url);
		const store = openStore(storeFile());
		const {box} = outbox(store, [slow, quick], clock);
		box.post(trouble('k1', [rig('rig-03', clock.now())], clock.now()));
		box.post(trouble('k2', [rig('rig-04', clock.now())], clock.now()));
		await until(() => rows(store, quick).every((row) => row.state === 'sent'), 'the quick channel sent');
		expect(fine.delivered()).toEqual(['k1', 'k2']);
		await until(() => hanging.requests.length === 1, 'the hanging channel asked');
		expect(rows(store, slow).map((row) => row.state)).toEqual(['pending', 'pending']);
		// Its deadline (10 s on the outbox's clock): aborted, to be tried again; nothing else was tried meanwhile.
		clock.advance(10 * SECOND);
		await box.idle();
		expect(rows(store, slow)[0]).toMatchObject({state: 'pending', attempts: 1, reason: 'discord: no answer within 10s'});
		expect(hanging.requests).toHaveLength(1);
	});

	it('a 4xx that will not change is said at once and not tried again; the next notice goes on', async () => {
		const clock = fakeClock();
		const ntfy = await service((index) => ({status: index === 0 ? 403 : 200}));
		const channel = httpChannel(ntfy.url);
		const store = openStore(storeFile());
		const {box, lines} = outbox(store, [channel], clock);
		box.post(trouble('k1', [rig('rig-03', clock.now())], clock.now()));
		box.post(trouble('k2', [rig('rig-04', clock.now())], clock.now()));
		await drive(clock, box, () => box.queued === 0);
		clock.advance(60 * MINUTE);
		await box.idle();
		expect(ntfy.requests.map((request) => [request.key, request.status])).toEqual([
			['k1', 403],
			['k2', 200],
		]);
		expect(lines).toEqual(['ntfy: 403 forbidden']);
		expect(rows(store, channel)).toMatchObject([
			{key: 'k1', state: 'failed', reason: 'ntfy: 403 forbidden'},
			{key: 'k2', state: 'sent'},
		]);
	});

	it('gives up after 12 tries with one line; a channel that fails never delays another', async () => {
		const clock = fakeClock();
		const start = clock.now();
		const broken = await service(() => ({status: 503}));
		const fine = await service();
		const bad = httpChannel(broken.url);
		const good = httpChannel(fine.url, 'gotify');
		const store = openStore(storeFile());
		const {box, lines} = outbox(store, [bad, good], clock);
		box.post(trouble('k1', [rig('rig-03', clock.now())], clock.now()));
		box.post(trouble('k2', [rig('rig-04', clock.now())], clock.now()));
		await box.idle();
		expect(fine.delivered()).toEqual(['k1', 'k2']);
		await drive(clock, box, () => box.queued === 0);
		expect(broken.requests).toHaveLength(12);
		expect(lines).toEqual(['ntfy: gave up after 12 tries: 503 service unavailable']);
		expect(rows(store, bad).map((row) => row.state)).toEqual(['failed', 'failed']);
		// 10+20+40+80+160 s, then 5 min each: the 12th try 35 minutes after the first.
		expect(clock.now() - start).toBeGreaterThanOrEqual(35 * MINUTE);
		expect(clock.now() - start).toBeLessThan(60 * MINUTE);
	});
});

describe('outbox: claims between rigtops sharing the store', () => {
	it('of two outboxes on one store, exactly one sends a trouble (since within a minute); the resolved is sent once too', async () => {
		const clock = fakeClock();
		const ntfy = await service();
		const file = storeFile();
		const channel = httpChannel(ntfy.url);
		const a = outbox(openStore(file), [channel], clock).box;
		const b = outbox(openStore(file), [channel], clock).box;
		const since = clock.now();
		expect(a.post(trouble('a-down', [rig('rig-03', since)], since))).toEqual([channel]);
		// The other rigtop saw it 20 s later (it polls at another moment), and made its own key.
		expect(b.post(trouble('b-down', [rig('rig-03', since + 20 * SECOND)], since + 20 * SECOND))).toEqual([]);
		expect(b.post(resolved('b-up', [rig('rig-03', since + 20 * SECOND, {until: since + 5 * MINUTE})], since + 5 * MINUTE))).toEqual([]);
		expect(a.post(resolved('a-up', [rig('rig-03', since, {until: since + 5 * MINUTE})], since + 5 * MINUTE))).toEqual([channel]);
		// A new outage after it ended is a new happening: its claim is new.
		const again = since + 5 * MINUTE + 30 * SECOND;
		expect(b.post(trouble('b-down-2', [rig('rig-03', again)], again))).toEqual([channel]);
		await a.idle();
		await b.idle();
		// Two outboxes, two queues: each key once (the order between them is theirs).
		expect(ntfy.delivered().toSorted()).toEqual(['a-down', 'a-up', 'b-down-2']);
	});

	it('claims are per channel: of two outboxes on one store, each tells its own channel, and their shared one once', async () => {
		const clock = fakeClock();
		const shared = await service();
		const onlyA = await service();
		const onlyB = await service();
		const file = storeFile();
		const [sharedChannel, aChannel, bChannel] = [httpChannel(shared.url), httpChannel(onlyA.url, 'gotify'), httpChannel(onlyB.url, 'json')];
		const a = outbox(openStore(file), [sharedChannel, aChannel], clock).box;
		const b = outbox(openStore(file), [sharedChannel, bChannel], clock).box;
		const since = clock.now();
		expect(a.post(trouble('a-down', [rig('rig-03', since)], since))).toEqual([sharedChannel, aChannel]);
		expect(b.post(trouble('b-down', [rig('rig-03', since + 20 * SECOND)], since + 20 * SECOND))).toEqual([bChannel]);
		await a.idle();
		await b.idle();
		expect(shared.delivered()).toEqual(['a-down']);
		expect(onlyA.delivered()).toEqual(['a-down']);
		expect(onlyB.delivered()).toEqual(['b-down']);
	});

	it('a holder whose lease ran out is taken over: its all-clear is still sent, by the other', async () => {
		const clock = fakeClock();
		const ntfy = await service();
		const file = storeFile();
		const channel = httpChannel(ntfy.url);
		const a = outbox(openStore(file), [channel], clock).box;
		const since = clock.now();
		a.post(trouble('a-down', [rig('rig-03', since)], since));
		await a.idle();
		// a stops renewing (hung or gone) without letting go; b starts 3 minutes later.
		await a.close(0);
		const store = openStore(file);
		store.run('UPDATE notify_claim SET lease = ?', since + 2 * MINUTE);
		store.run('UPDATE notify_writer SET lease = ?', since + 2 * MINUTE);
		clock.advance(3 * MINUTE);
		const b = outbox(store, [channel], clock).box;
		expect(b.post(trouble('b-down', [rig('rig-03', since + 10 * SECOND)], since + 10 * SECOND))).toEqual([]);
		expect(b.post(resolved('b-up', [rig('rig-03', since + 10 * SECOND, {until: clock.now()})], clock.now()))).toEqual([channel]);
		await b.idle();
		expect(ntfy.delivered()).toEqual(['a-down', 'b-up']);
	});

	it('an all-clear already sent by its holder is not sent again by another, even when that holder has gone quiet', async () => {
		const clock = fakeClock();
		const ntfy = await service();
		const file = storeFile();
		const channel = httpChannel(ntfy.url);
		const a = outbox(openStore(file), [channel], clock).box;
		const since = clock.now();
		a.post(trouble('a-down', [rig('rig-03', since)], since));
		a.post(resolved('a-up', [rig('rig-03', since, {until: since + MINUTE})], since + MINUTE));
		await a.idle();
		// a has nothing open any more: its lease is not renewed and runs out.
		clock.advance(5 * MINUTE);
		const b = outbox(openStore(file), [channel], clock).box;
		expect(b.post(resolved('b-up', [rig('rig-03', since + 15 * SECOND, {until: since + MINUTE})], clock.now()))).toEqual([]);
		expect(b.post(trouble('b-down', [rig('rig-03', since + 15 * SECOND)], since + 15 * SECOND))).toEqual([]);
		await b.idle();
		expect(ntfy.delivered()).toEqual(['a-down', 'a-up']);
	});
});

describe('outbox: mutes', () => {
	it('mutes a rig by name or URL until a time, remembered in the store for the next rigtop', async () => {
		const clock = fakeClock();
		const file = storeFile();
		const a = outbox(openStore(file), [], clock).box;
		const until = clock.now() + 60 * MINUTE;
		a.mute('rig-03', until);
		a.mute('http://rig-07.lan:8080', until + MINUTE);
		expect(a.muted(rig('rig-03', 0), clock.now())).toBe(true);
		expect(a.muted(rig('rig-07', 0), clock.now())).toBe(true);
		expect(a.muted(rig('rig-04', 0), clock.now())).toBe(false);
		expect(a.muted(rig('rig-03', 0), until)).toBe(false);
		await a.close(0);
		const b = outbox(openStore(file), [], clock).box;
		expect(b.list(clock.now())).toEqual([
			{rig: 'rig-03', until},
			{rig: 'http://rig-07.lan:8080', until: until + MINUTE},
		]);
		expect(b.unmute('rig-03')).toBe(true);
		expect(b.unmute('rig-03')).toBe(false);
		expect(b.muted(rig('rig-03', 0), clock.now())).toBe(false);
	});
});

describe('outbox: the store off', () => {
	it('--no-history: delivered from memory, said once, mutes kept in memory', async () => {
		const clock = fakeClock();
		const ntfy = await service((index) => ({status: index === 0 ? 500 : 200}));
		const channel = httpChannel(ntfy.url);
		const {box, lines} = outbox(null, [channel], clock, {offReason: '--no-history'});
		expect(box.kept).toBe(false);
		box.post(trouble('k1', [rig('rig-03', clock.now())], clock.now()));
		expect(box.post(trouble('k1', [rig('rig-03', clock.now())], clock.now()))).toEqual([]);
		await drive(clock, box, () => box.queued === 0);
		expect(ntfy.delivered()).toEqual(['k1']);
		expect(lines).toEqual(['notifications not kept: --no-history']);
		box.mute('rig-03', clock.now() + MINUTE);
		expect(box.muted(rig('rig-03', 0), clock.now())).toBe(true);
	});

	it('a store that fills up while rigtop runs: what is queued goes on from memory, the one line said once', async () => {
		const clock = fakeClock();
		const ntfy = await service(() => ({status: 503}));
		const channel = httpChannel(ntfy.url);
		const notices: string[] = [];
		const store = HistoryStore.open({file: storeFile(), maxBytes: 96 * 1024, notify: (line) => notices.push(line)});
		cleanups.add(() => store.close());
		const {box, lines} = outbox(store, [channel], clock);
		expect(box.kept).toBe(true);
		const keys: string[] = [];
		for (let index = 0; index < 400 && box.kept; index++) {
			const key = `k${index}`;
			keys.push(key);
			box.post(trouble(key, [rig(`rig-${index}`, clock.now())], clock.now(), {body: 'x'.repeat(800)}));
		}

		expect(box.kept).toBe(false);
		expect(store.enabled).toBe(false);
		expect(notices).toHaveLength(1);
		expect(lines).toEqual([
			expect.stringMatching(/^notifications not kept: the disk is full \(or the store reached its bound, 96 KiB\) writing /),
		]);
		ntfy.answer(() => ({status: 200}));
		await drive(clock, box, () => box.queued === 0);
		expect(ntfy.delivered()).toEqual(keys);
		expect(lines).toHaveLength(1);
	});
});

describe('outbox: closing', () => {
	it('a request still in flight at the deadline is abandoned: its row stays pending and the next start sends it', async () => {
		const clock = fakeClock();
		const hanging = await service(() => 'hang');
		const channel = httpChannel(hanging.url);
		const file = storeFile();
		const store = openStore(file);
		const {box} = outbox(store, [channel], clock);
		box.post(trouble('k1', [rig('rig-03', clock.now())], clock.now()));
		await until(() => hanging.requests.length === 1, 'asked');
		await box.close(50);
		expect(rows(store, channel)).toMatchObject([{key: 'k1', state: 'pending'}]);
		hanging.answer(() => ({status: 200}));
		const next = outbox(openStore(file), [channel], clock).box;
		expect(await next.recover(() => null)).toBe(1);
		await next.idle();
		expect(hanging.delivered()).toEqual(['k1']);
		expect(rows(store, channel)).toMatchObject([{key: 'k1', state: 'sent'}]);
	});
});

describe('outbox: a store that cannot be made', () => {
	it.skipIf(!existsSync('/proc/self'))('under /proc: delivered from memory, and the one line says why', async () => {
		const clock = fakeClock();
		const ntfy = await service();
		const channel = httpChannel(ntfy.url);
		const store = HistoryStore.open({file: '/proc/rigtop-nope/rigtop/history.sqlite'});
		cleanups.add(() => store.close());
		const {box, lines} = outbox(store, [channel], clock);
		box.post(trouble('k1', [rig('rig-03', clock.now())], clock.now()));
		await box.idle();
		expect(ntfy.delivered()).toEqual(['k1']);
		expect(lines).toEqual([
			'notifications not kept: the folder /proc/rigtop-nope cannot be made (ENOENT); set XDG_STATE_HOME to a writable folder',
		]);
	});
});

describe('outbox: bounded, and quiet when nothing happens', () => {
	it('a rigtop with nothing to tell writes nothing; sent rows and ended claims go after their time', async () => {
		const clock = fakeClock();
		const ntfy = await service();
		const channel = httpChannel(ntfy.url);
		const store = openStore(storeFile());
		const {box} = outbox(store, [channel], clock);
		clock.advance(10 * MINUTE);
		expect(store.all('SELECT * FROM notify_writer')).toEqual([]);
		const since = clock.now();
		box.post(trouble('k1', [rig('rig-03', since)], since));
		box.post(resolved('k2', [rig('rig-03', since, {until: since + MINUTE})], since + MINUTE));
		await box.idle();
		expect(rows(store, channel).map((row) => row.state)).toEqual(['sent', 'sent']);
		expect(store.all('SELECT trouble, ended FROM notify_claim')).toEqual([{trouble: 'down', ended: since + MINUTE}]);
		clock.advance(8 * 24 * 60 * MINUTE);
		expect(rows(store, channel)).toEqual([]);
		expect(store.all('SELECT * FROM notify_claim')).toEqual([]);
	});
});
