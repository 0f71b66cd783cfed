/**
 * The notification policy (issue 38, item 3) on a fake clock: groups, blips, repeats, one resolved notice per group,
 * flapping, news, mutes, priorities and stable keys.
 */
import {describe, expect, it} from 'vitest';
import type {TroubleChange} from '../../../source/alerts/types.js';
import {NoticePolicy, type PolicySettings} from '../../../source/notify/policy/engine.js';
import {MAX_NAMED} from '../../../source/notify/policy/words.js';
import type {Notice} from '../../../source/notify/types.js';

const T0 = Date.UTC(2026, 11, 8, 2, 0, 0);
const S = 1000;
const M = 60 * S;
const H = 60 * M;

const rig = (n: number) => `rig-${String(n).padStart(2, '0')}`;
const url = (n: number) => `http://10.0.0.${n}:8080`;

function down(n: number, at: number): TroubleChange {
	return {rig: rig(n), url: url(n), at, trouble: 'down', open: true, severity: 'error', message: 'down: connection refused'};
}

function up(n: number, at: number): TroubleChange {
	return {rig: rig(n), url: url(n), at, trouble: 'down', open: false, severity: 'info', message: 'up: back after a while'};
}

/** An engine on a fake clock: every change at its own time, `to` runs the clock on, calling due when it is due. */
class Run {
	readonly policy: NoticePolicy;
	readonly sent: Notice[] = [];
	now = T0;

	constructor(settings: PolicySettings = {}) {
		this.policy = new NoticePolicy(settings);
	}

	feed(change: TroubleChange): this {
		this.to(change.at);
		this.sent.push(...this.policy.change(change, change.at));
		return this;
	}

	/** Runs the clock to `at`, waking only when the engine says something is due (no busy tick). */
	to(at: number): this {
		for (;;) {
			const next = this.policy.nextDue(this.now);
			if (next === null || next > at) break;
			this.now = Math.max(this.now, next);
			this.sent.push(...this.policy.due(this.now));
		}

		this.now = at;
		return this;
	}

	kinds(): string[] {
		return this.sent.map((notice) => `${notice.kind} ${notice.title}`);
	}
}

describe('the notification policy', () => {
	it('twenty rigs down within the window: one notice naming them (bounded), then one resolved when the last is back', () => {
		const run = new Run();
		for (let n = 1; n <= 20; n++) run.feed(down(n, T0 + n * S));
		expect(run.sent).toEqual([]);
		// The window runs 30 s from the first: nothing before its end…
		expect(run.policy.nextDue(run.now)).toBe(T0 + S + 30 * S);
		run.to(T0 + S + 30 * S - 1);
		expect(run.sent).toEqual([]);
		run.to(T0 + 31 * S);
		expect(run.sent).toHaveLength(1);
		const [notice] = run.sent;
		expect(notice).toMatchObject({
			kind: 'trouble',
			trouble: 'down',
			severity: 'error',
			priority: 'high',
			title: '20 rigs down',
			at: T0 + 31 * S,
		});
		expect(notice?.rigs).toHaveLength(20);
		expect(notice?.rigs[6]).toEqual({rig: 'rig-07', url: url(7), since: T0 + 7 * S, message: 'down: connection refused'});
		const lines = notice?.body.split('\n') ?? [];
		expect(lines).toHaveLength(MAX_NAMED + 1);
		expect(lines[0]).toBe('rig-01: down: connection refused');
		expect(lines.at(-1)).toBe('and 10 more');

		// Back one by one: nothing until the last.
		for (let n = 1; n <= 19; n++) run.feed(up(n, T0 + 10 * M + n * S));
		expect(run.sent).toHaveLength(1);
		run.to(T0 + 30 * M);
		expect(run.sent).toHaveLength(1);
		run.feed(up(20, T0 + 40 * M));
		expect(run.sent).toHaveLength(2);
		const resolved = run.sent[1];
		expect(resolved).toMatchObject({kind: 'resolved', trouble: 'down', priority: 'low', title: 'resolved: 20 rigs down'});
		expect(resolved?.rigs.map((each) => each.until! - each.since)).toEqual([...Array.from({length: 19}, () => 10 * M), 40 * M - 20 * S]);
		const out = resolved?.body.split('\n') ?? [];
		expect(out[0]).toMatch(/^rig-01 down 10m \(\d\d:\d\d–\d\d:\d\d\)$/);
		expect(out.at(-1)).toBe('and 10 more');
		// Nothing left to do: the caller's timer is not a busy tick.
		expect(run.policy.nextDue(run.now)).toBeNull();
	});

	it('a blip inside the window is not told, and neither is its all-clear', () => {
		const run = new Run();
		run.feed(down(3, T0));
		run.feed(up(3, T0 + 20 * S));
		run.to(T0 + 2 * H);
		expect(run.sent).toEqual([]);
		expect(run.policy.nextDue(run.now)).toBeNull();

		// One of two back within the window: the other alone is told, and resolved alone.
		run.feed(down(4, T0 + 3 * H));
		run.feed(down(5, T0 + 3 * H + 5 * S));
		run.feed(up(4, T0 + 3 * H + 10 * S));
		run.to(T0 + 3 * H + M);
		run.feed(up(5, T0 + 3 * H + 2 * M));
		expect(run.kinds()).toEqual(['trouble rig-05 down', 'resolved resolved: rig-05 down']);
	});

	it('with a window of 0 tells each trouble as it opens, from the change itself', () => {
		const policy = new NoticePolicy({groupMs: 0});
		expect(policy.change(down(3, T0), T0).map((notice) => notice.title)).toEqual(['rig-03 down']);
		expect(policy.change(down(7, T0), T0).map((notice) => notice.title)).toEqual(['rig-07 down']);
		expect(policy.change(up(3, T0 + M), T0 + M).map((notice) => notice.title)).toEqual(['resolved: rig-03 down']);
	});

	it("in the notifier's form: take records, nextDue says when, due hands out; flush tells a window not over", () => {
		const policy = new NoticePolicy({groupMs: 0});
		policy.take(down(3, T0), T0);
		expect(policy.nextDue()).toBe(T0);
		expect(policy.due(T0 + S).map((notice) => notice.title)).toEqual(['rig-03 down']);
		expect(policy.due(T0 + S)).toEqual([]);

		const held = new NoticePolicy();
		held.take(down(4, T0), T0);
		held.take(down(5, T0 + S), T0 + S);
		expect(held.nextDue()).toBe(T0 + 30 * S);
		expect(held.due(T0 + 2 * S)).toEqual([]);
		expect(held.flush(T0 + 2 * S).map((notice) => notice.title)).toEqual(['2 rigs down']);
		expect(held.nextDue()).toBe(T0 + 2 * S + 4 * H);
	});

	it('repeats a group while rigs of it are open (every 4 h by default), naming only those still out; 0 repeats never', () => {
		const run = new Run();
		run.feed(down(3, T0));
		run.feed(down(7, T0 + 2 * S));
		run.to(T0 + 30 * S);
		run.feed(up(3, T0 + H));
		run.to(T0 + 30 * S + 4 * H - 1);
		expect(run.kinds()).toEqual(['trouble 2 rigs down']);
		// What is open now (for a channel that holds state): rig-07 alone.
		expect(run.policy.openNow(run.now)).toEqual([
			{rig: 'rig-07', url: url(7), trouble: 'down', severity: 'error', since: T0 + 2 * S, message: 'down: connection refused'},
		]);
		run.to(T0 + 30 * S + 4 * H);
		expect(run.kinds()).toEqual(['trouble 2 rigs down', 'repeat still rig-07 down (for 4h)']);
		expect(run.sent[1]).toMatchObject({priority: 'high', body: 'rig-07: down: connection refused (for 4h)'});
		expect(run.sent[1]?.rigs.map((each) => each.rig)).toEqual(['rig-07']);
		run.to(T0 + 30 * S + 8 * H);
		expect(run.kinds().filter((kind) => kind.startsWith('repeat'))).toHaveLength(2);
		expect(run.sent[2]?.key).not.toBe(run.sent[1]?.key);
		run.feed(up(7, T0 + 9 * H));
		expect(run.sent.at(-1)).toMatchObject({kind: 'resolved', title: 'resolved: 2 rigs down'});
		expect(
			run.sent
				.at(-1)
				?.body.split('\n')
				.map((line) => line.split(' (')[0]),
		).toEqual(['rig-03 down 1h', 'rig-07 down 8h 59m']);

		const never = new Run({repeatMs: 0});
		never.feed(down(3, T0));
		never.to(T0 + 48 * H);
		expect(never.kinds()).toEqual(['trouble rig-03 down']);
		expect(never.policy.nextDue(never.now)).toBeNull();
	});

	it('a rig down 3 times in 10 minutes is one flapping notice, then one when it settles (and how)', () => {
		const run = new Run();
		// First down: told at the window's end. Back, down again within the window of the second group: a blip.
		run.feed(down(3, T0));
		run.to(T0 + 30 * S);
		run.feed(up(3, T0 + M));
		run.feed(down(3, T0 + 2 * M));
		run.feed(up(3, T0 + 2 * M + 10 * S));
		expect(run.kinds()).toEqual(['trouble rig-03 down', 'resolved resolved: rig-03 down']);
		// The third down within 10 minutes: flapping, told at once, high.
		run.feed(down(3, T0 + 3 * M));
		expect(run.sent.at(-1)).toMatchObject({kind: 'flapping', priority: 'high', title: 'rig-03 flapping: down 3 times in 10m'});
		// Its further opens and closes are not told.
		for (let k = 0; k < 10; k++) {
			run.feed(up(3, T0 + 4 * M + k * 2 * M));
			run.feed(down(3, T0 + 5 * M + k * 2 * M));
		}

		run.feed(up(3, T0 + 30 * M));
		expect(run.sent).toHaveLength(3);
		expect(run.policy.nextDue(run.now)).toBe(T0 + 40 * M);
		run.to(T0 + 40 * M);
		expect(run.sent).toHaveLength(4);
		expect(run.sent.at(-1)).toMatchObject({kind: 'resolved', priority: 'low', title: 'rig-03 settled, no longer down'});
		expect(run.sent.at(-1)?.rigs[0]).toMatchObject({rig: 'rig-03', until: T0 + 30 * M});

		// Settled while down: said so, and it is an open trouble like any other (repeated, then resolved).
		const still = new Run({flap: {count: 3, windowMs: 10 * M}});
		for (let k = 0; k < 3; k++) {
			still.feed(down(4, T0 + k * M));
			if (k < 2) still.feed(up(4, T0 + k * M + 10 * S));
		}

		expect(still.kinds()).toEqual(['flapping rig-04 flapping: down 3 times in 10m']);
		still.to(T0 + 12 * M);
		expect(still.sent.at(-1)).toMatchObject({kind: 'trouble', priority: 'high', title: 'rig-04 settled, down'});
		still.to(T0 + 12 * M + 4 * H);
		expect(still.sent.at(-1)?.title).toBe('still rig-04 down (for 4h)');
		still.feed(up(4, T0 + 5 * H));
		expect(still.sent.at(-1)).toMatchObject({kind: 'resolved', title: 'resolved: rig-04 down'});

		// Settable: 5 downs in 1 minute never comes from 3 in 10.
		const lax = new Run({flap: {count: 5, windowMs: M}});
		for (let k = 0; k < 3; k++) {
			lax.feed(down(5, T0 + k * 3 * M));
			lax.feed(up(5, T0 + k * 3 * M + 5 * S));
		}

		expect(lax.kinds().filter((kind) => kind.startsWith('flapping'))).toEqual([]);
	});

	it('one-shot news is grouped within the window and told as info, low, never resolved', () => {
		const run = new Run();
		const news = (n: number, at: number, trouble = 'restarted'): TroubleChange => ({
			rig: rig(n),
			url: url(n),
			at,
			trouble,
			open: null,
			severity: 'warn',
			message: `${trouble}: uptime went back`,
		});
		run.feed(news(1, T0));
		run.feed(news(2, T0 + 10 * S));
		run.feed(news(3, T0 + 20 * S, 'replaced'));
		run.feed(news(4, T0 + 40 * S));
		run.to(T0 + 10 * H);
		expect(run.kinds()).toEqual(['info 2 rigs restarted', 'info rig-03 replaced', 'info rig-04 restarted']);
		expect(run.sent.every((notice) => notice.priority === 'low' && notice.rigs.every((each) => each.until === undefined))).toBe(true);
		expect(run.sent[0]?.body).toBe('rig-01: restarted: uptime went back\nrig-02: restarted: uptime went back');
		expect(run.policy.nextDue(run.now)).toBeNull();
	});

	it('a rig back from an outage it was told of with a new miner process: told back, its restart no notice of its own', () => {
		const run = new Run();
		const restarted = (n: number, at: number): TroubleChange => ({
			rig: rig(n),
			url: url(n),
			at,
			trouble: 'restarted',
			open: null,
			severity: 'warn',
			message: 'miner restarted (up 4s)',
		});
		run.feed(down(1, T0)).feed(down(2, T0));
		run.to(T0 + 5 * M);
		run.feed(up(1, T0 + 5 * M)).feed(restarted(1, T0 + 5 * M));
		run.feed(up(2, T0 + 5 * M + 2 * S)).feed(restarted(2, T0 + 5 * M + 2 * S));
		// A blip never told (inside its window), then a restart: the restart is the only news of it, so it is told.
		run
			.feed(down(3, T0 + 20 * M))
			.feed(up(3, T0 + 20 * M + 5 * S))
			.feed(restarted(3, T0 + 20 * M + 5 * S));
		// Back long ago, restarted now: news again.
		run.feed(restarted(1, T0 + 3 * H));
		run.to(T0 + 10 * H);
		expect(run.kinds()).toEqual([
			'trouble 2 rigs down',
			'resolved resolved: 2 rigs down',
			'info rig-03 restarted',
			'info rig-01 restarted',
		]);
	});

	it('leaves a muted rig out of every notice; a group of muted rigs only sends nothing, even its all-clear', () => {
		let mutedUntil = T0 + H;
		const run = new Run({muted: (ref, now) => ref.rig === 'rig-03' && now < mutedUntil});
		run.feed(down(3, T0));
		run.feed(down(7, T0 + S));
		run.to(T0 + M);
		expect(run.kinds()).toEqual(['trouble rig-07 down']);
		expect(run.sent[0]?.rigs.map((each) => each.rig)).toEqual(['rig-07']);
		run.feed(up(7, T0 + 2 * M));
		run.feed(up(3, T0 + 3 * M));
		expect(run.kinds()).toEqual(['trouble rig-07 down', 'resolved resolved: rig-07 down']);

		run.feed(down(3, T0 + 10 * M));
		run.to(T0 + 20 * M);
		run.feed(up(3, T0 + 30 * M));
		expect(run.sent).toHaveLength(2);

		// The mute over: rig-03 is told again.
		mutedUntil = 0;
		run.feed(down(3, T0 + 2 * H));
		run.to(T0 + 3 * H);
		expect(run.kinds().at(-1)).toBe('trouble rig-03 down');
	});

	it('gives priorities by severity: error high, warn default; a worker of a proxy is named with it', () => {
		const run = new Run();
		const gone = (worker: string, at: number): TroubleChange => ({
			rig: 'proxy-1',
			url: 'http://10.0.0.9:3344',
			worker,
			at,
			trouble: 'worker-gone',
			open: true,
			severity: 'warn',
			message: `worker ${worker} gone: no connection left`,
		});
		run.feed(gone('a', T0));
		run.feed(gone('b', T0 + S));
		run.to(T0 + M);
		expect(run.sent[0]).toMatchObject({priority: 'default', title: '2 workers gone'});
		expect(run.sent[0]?.body).toBe('a (proxy-1): worker a gone: no connection left\nb (proxy-1): worker b gone: no connection left');
		expect(run.sent[0]?.rigs.map((each) => each.worker)).toEqual(['a', 'b']);
	});

	it('makes the same keys in two engines fed the same changes, and a different key for every notice', () => {
		const script = (run: Run) => {
			for (let n = 1; n <= 5; n++) run.feed(down(n, T0 + n * S));
			run.to(T0 + M);
			for (let k = 0; k < 3; k++) {
				run.feed(down(9, T0 + 2 * M + k * M));
				run.feed(up(9, T0 + 2 * M + k * M + 45 * S));
			}

			run.to(T0 + 5 * H);
			for (let n = 1; n <= 5; n++) run.feed(up(n, T0 + 6 * H + n * S));
			run.to(T0 + 7 * H);
			return run.sent;
		};

		const first = script(new Run());
		const second = script(new Run());
		expect(first.length).toBeGreaterThanOrEqual(5);
		expect(second.map((notice) => notice.key)).toEqual(first.map((notice) => notice.key));
		expect(second).toEqual(first);
		expect(new Set(first.map((notice) => notice.key)).size).toBe(first.length);

		// Rigs that open at one time in another order: the same notice, the same key.
		const told = (order: readonly number[]) => {
			const run = new Run();
			for (const n of order) run.feed(down(n, T0));
			return run.to(T0 + M).sent;
		};

		const [forward] = told([1, 2, 3, 10]);
		const [backward] = told([10, 3, 2, 1]);
		expect(backward).toEqual(forward);
		expect(forward?.rigs.map((each) => each.rig)).toEqual(['rig-01', 'rig-02', 'rig-03', 'rig-10']);
	});
});
