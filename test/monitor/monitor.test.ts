import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import type {MinerSnapshot} from '../../source/miner/model.js';
import type {Clock} from '../../source/monitor/monitor.js';
import {Monitor, pollOnce} from '../../source/monitor/monitor.js';
import type {MonitorState} from '../../source/monitor/types.js';
import {makeSnapshot, withRates} from '../helpers/snapshot.js';
import type {Step} from './scripted-read.js';
import {refused, scriptedRead, timedOut, unauthorized} from './scripted-read.js';

const t0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const url = 'http://127.0.0.1:44444';
const ok = (snapshot: MinerSnapshot = makeSnapshot(), ms = 20): Step => ({ms, result: snapshot});
const fail = (error: Error, ms = 0): Step => ({ms, result: error});

let monitors: Monitor[] = [];
function watch(steps: readonly Step[] | ((call: number) => Step), options: Partial<ConstructorParameters<typeof Monitor>[0]> = {}) {
	const {read, log} = scriptedRead(steps);
	const monitor = new Monitor({read, url, intervalMs: 1000, random: () => 0, ...options});
	monitors.push(monitor);
	const states: MonitorState[] = [];
	monitor.subscribe(() => states.push(monitor.getState()));
	return {monitor, log, states};
}

const gaps = (starts: readonly number[]) => starts.slice(1).map((start, i) => start - starts[i]!);
const kinds = (state: MonitorState) => state.events.map((event) => event.kind);

beforeEach(() => {
	vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'Date'], now: t0});
});

afterEach(() => {
	for (const monitor of monitors) monitor.stop();
	monitors = [];
	vi.useRealTimers();
});

describe('Monitor polling', () => {
	it('polls at once, then every interval measured from the start of each poll', async () => {
		const {monitor, log} = watch([ok(makeSnapshot(), 300)]);
		monitor.start();
		expect(log.starts).toEqual([t0]);
		await vi.advanceTimersByTimeAsync(5300);
		expect(log.starts).toEqual([0, 1000, 2000, 3000, 4000, 5000].map((ms) => t0 + ms));
		expect(monitor.getState().polls).toBe(6);
		expect(monitor.getState().nextPollAt).toBe(t0 + 6000);
	});

	it('never overlaps polls, even when a read takes longer than the interval', async () => {
		const {monitor, log} = watch([ok(makeSnapshot(), 2600)]);
		monitor.start();
		await vi.advanceTimersByTimeAsync(20_000);
		expect(log.maxInFlight).toBe(1);
		// Each poll starts a short breather (a quarter interval) after the slow one before it ends.
		expect(new Set(gaps(log.starts))).toEqual(new Set([2850]));
	});

	it('setIntervalMs changes the cadence live: the poll due moves to the new interval from the last start', async () => {
		const {monitor, log} = watch([ok(makeSnapshot(), 100)]);
		monitor.start();
		await vi.advanceTimersByTimeAsync(2500);
		expect(log.starts).toEqual([0, 1000, 2000].map((ms) => t0 + ms));
		// Longer: the next poll is 5 s after the last start, not at 3 s.
		monitor.setIntervalMs(5000);
		expect(monitor.getState().nextPollAt).toBe(t0 + 7000);
		await vi.advanceTimersByTimeAsync(10_000);
		expect(log.starts.slice(3)).toEqual([7000, 12_000].map((ms) => t0 + ms));
		// Shorter, past due already: at once.
		monitor.setIntervalMs(500);
		expect(log.starts.at(-1)).toBe(t0 + 12_500);
		await vi.advanceTimersByTimeAsync(1000);
		expect(log.starts.slice(-2)).toEqual([13_000, 13_500].map((ms) => t0 + ms));
		expect(log.maxInFlight).toBe(1);
		expect(() => monitor.setIntervalMs(100)).toThrow(RangeError);
	});

	it('pollNow polls at once, or right after the poll in flight, never beside it', async () => {
		const {monitor, log} = watch([ok(makeSnapshot(), 400)]);
		monitor.start();
		await vi.advanceTimersByTimeAsync(500);
		expect(log.starts).toHaveLength(1);
		monitor.pollNow();
		expect(log.starts).toHaveLength(2);
		expect(log.starts[1]).toBe(t0 + 500);
		monitor.pollNow();
		monitor.pollNow();
		expect(log.inFlight).toBe(1);
		await vi.advanceTimersByTimeAsync(401);
		// The third request runs as soon as the second has settled (fake timers turn a 0 ms delay
		// scheduled during a tick into 1 ms), and only once however often pollNow was called.
		expect(log.starts).toHaveLength(3);
		const third = log.starts[2]!;
		expect(third - (t0 + 900)).toBeGreaterThanOrEqual(0);
		expect(third - (t0 + 900)).toBeLessThanOrEqual(1);
		await vi.advanceTimersByTimeAsync(1500);
		expect(log.starts).toEqual([t0, t0 + 500, third, third + 1000]);
		expect(log.maxInFlight).toBe(1);
	});

	it('does nothing on pollNow while stopped, and start() twice starts one chain', async () => {
		const {monitor, log} = watch([ok()]);
		monitor.pollNow();
		expect(log.starts).toHaveLength(0);
		monitor.start();
		monitor.start();
		await vi.advanceTimersByTimeAsync(2000);
		expect(log.starts).toHaveLength(3);
	});

	it('refuses an interval under 250 ms', () => {
		expect(() => new Monitor({read: scriptedRead([ok()]).read, url, intervalMs: 100})).toThrow(RangeError);
	});

	it('works on an injected clock', async () => {
		const timers = new Map<number, {at: number; fn: () => void}>();
		let now = 1_000_000;
		let id = 0;
		const clock: Clock = {
			now: () => now,
			setTimeout(fn, ms) {
				timers.set(++id, {at: now + ms, fn});
				return id;
			},
			clearTimeout(handle) {
				timers.delete(handle as number);
			},
		};
		const starts: number[] = [];
		const monitor = new Monitor({
			url,
			intervalMs: 2000,
			clock,
			read: async () => {
				starts.push(now);
				return makeSnapshot();
			},
		});
		monitors.push(monitor);
		monitor.start();
		for (let i = 0; i < 3; i++) {
			await vi.waitFor(() => expect(timers.size).toBe(1));
			const [key, timer] = [...timers.entries()][0]!;
			timers.delete(key);
			now = timer.at;
			timer.fn();
		}

		await vi.waitFor(() => expect(monitor.getState().polls).toBe(4));
		expect(starts).toEqual([1_000_000, 1_002_000, 1_004_000, 1_006_000]);
		monitor.stop();
		expect(timers.size).toBe(0);
	});
});

describe('Monitor failures', () => {
	it('backs off from the interval to the cap while the miner is unreachable, and snaps back on success', async () => {
		const failures = 8;
		const {monitor, log} = watch((call) => (call === 0 || call > failures ? ok(makeSnapshot(), 0) : fail(refused())));
		monitor.start();
		await vi.advanceTimersByTimeAsync(200_000);
		expect(gaps(log.starts).slice(0, 12)).toEqual([1000, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 1000, 1000, 1000]);
	});

	it('while backing off, probes the port every interval and polls as soon as it is open again', async () => {
		let open = false;
		const probes: number[] = [];
		const {monitor, log} = watch((call) => (call === 0 || open ? ok(makeSnapshot(), 0) : fail(refused())), {
			probe: async () => {
				probes.push(Date.now());
				return open;
			},
		});
		monitor.start();
		await vi.advanceTimersByTimeAsync(20_500);
		// Full polls back off (1, 2, 4, 8 s gaps) while a probe runs every interval in between.
		expect(gaps(log.starts).slice(0, 4)).toEqual([1000, 1000, 2000, 4000]);
		expect(probes.length).toBeGreaterThanOrEqual(10);
		expect(monitor.getState().status).toBe('down');
		open = true;
		const reopenedAt = Date.now();
		await vi.advanceTimersByTimeAsync(1000);
		expect(monitor.getState().status).toBe('live');
		expect(log.starts.at(-1)! - reopenedAt).toBeLessThanOrEqual(1000);
	});

	it('retries at the interval when something answers but fails (timeout, HTTP error): no backoff to wait out', async () => {
		const {monitor, log} = watch((call) => (call === 0 || call > 6 ? ok(makeSnapshot(), 0) : fail(timedOut())));
		monitor.start();
		await vi.advanceTimersByTimeAsync(10_000);
		expect(gaps(log.starts).slice(0, 8)).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]);
		expect(monitor.getState().status).toBe('live');
	});

	it('is down on the second refused connection in a row, not only after three polls', async () => {
		const {monitor} = watch((call) => (call === 0 ? ok(makeSnapshot(), 0) : fail(refused())));
		monitor.start();
		await vi.advanceTimersByTimeAsync(1000);
		expect(monitor.getState().status).toBe('stale');
		await vi.advanceTimersByTimeAsync(1000);
		expect(monitor.getState().status).toBe('down');
	});

	it('goes stale, then down, keeping the last values; then comes back up by itself', async () => {
		const good = withRates([4800, 4810, 4790]);
		const {monitor, states} = watch((call) => (call === 0 || call >= 4 ? ok(good, 0) : fail(timedOut())));
		monitor.start();
		await vi.advanceTimersByTimeAsync(0);
		const live = monitor.getState();
		expect(live.status).toBe('live');
		expect(live.lastSuccessAt).toBe(t0);

		await vi.advanceTimersByTimeAsync(1000);
		const stale = monitor.getState();
		expect(stale).toMatchObject({
			status: 'stale',
			snapshot: live.snapshot,
			consecutiveFailures: 1,
			failingSince: t0 + 1000,
			lastSuccessAt: t0,
		});
		expect(stale.error?.kind).toBe('timeout');
		expect(stale.recentRates).toBe(live.recentRates);
		expect(stale.events).toBe(live.events);
		expect(stale.nextPollAt).toBe(t0 + 2000);

		await vi.advanceTimersByTimeAsync(1000);
		expect(monitor.getState().status).toBe('stale');
		await vi.advanceTimersByTimeAsync(1000);
		const down = monitor.getState();
		expect(down).toMatchObject({status: 'down', snapshot: live.snapshot, consecutiveFailures: 3, lastAttemptAt: t0 + 3000});
		expect(down.events.at(-1)).toMatchObject({kind: 'down', severity: 'error', message: 'down: no answer within 5 s', at: t0 + 3000});

		await vi.advanceTimersByTimeAsync(1000);
		const back = monitor.getState();
		expect(back).toMatchObject({status: 'live', consecutiveFailures: 0, failingSince: null, error: null, lastSuccessAt: t0 + 4000});
		expect(back.events.at(-1)).toMatchObject({kind: 'up', severity: 'info', message: 'back up after 3s'});
		expect(kinds(back)).toEqual(['started', 'down', 'up']);
		expect(states.map((state) => state.status)).toEqual(['live', 'stale', 'stale', 'down', 'live']);
	});

	it('is down after failing for 2 intervals, even before the third failed poll', async () => {
		const {monitor} = watch((call) => (call === 0 ? ok(makeSnapshot(), 0) : fail(timedOut(), 2500)));
		monitor.start();
		await vi.advanceTimersByTimeAsync(1000 + 2500);
		expect(monitor.getState()).toMatchObject({status: 'down', consecutiveFailures: 1, failingSince: t0 + 1000});
		expect(monitor.getState().events.at(-1)?.kind).toBe('down');
	});

	it('is down at once when the first poll finds the connection refused', async () => {
		const {monitor} = watch([fail(refused())]);
		monitor.start();
		await vi.advanceTimersByTimeAsync(0);
		const state = monitor.getState();
		expect(state).toMatchObject({status: 'down', snapshot: null, consecutiveFailures: 1, failingSince: t0});
		expect(state.events.map((event) => event.message)).toEqual(['down: connection refused']);
		await vi.advanceTimersByTimeAsync(60_000);
		expect(monitor.getState().events).toHaveLength(1);
	});

	it('stays connecting (not stale) while a miner that never answered times out, then goes down', async () => {
		const {monitor} = watch([fail(timedOut(), 500)]);
		monitor.start();
		await vi.advanceTimersByTimeAsync(500);
		expect(monitor.getState()).toMatchObject({status: 'connecting', consecutiveFailures: 1});
		await vi.advanceTimersByTimeAsync(2000);
		expect(monitor.getState().status).toBe('down');
	});

	it('is error on an auth failure, says why once, keeps retrying, and recovers', async () => {
		const {monitor, log} = watch((call) => (call === 0 || call >= 5 ? ok(makeSnapshot(), 0) : fail(unauthorized())));
		monitor.start();
		await vi.advanceTimersByTimeAsync(1000);
		const state = monitor.getState();
		expect(state.status).toBe('error');
		expect(state.error?.kind).toBe('unauthorized');
		expect(state.error?.hint).toContain('token');
		expect(state.events.at(-1)).toMatchObject({kind: 'error', severity: 'error', message: 'error: the miner wants an access token'});
		// Retries every interval (the user may fix the token at any moment); the fifth attempt succeeds.
		await vi.advanceTimersByTimeAsync(4500);
		expect(gaps(log.starts)).toEqual([1000, 1000, 1000, 1000, 1000]);
		expect(kinds(monitor.getState())).toEqual(['started', 'error', 'up']);
		expect(monitor.getState().status).toBe('live');
	});

	it('treats an unexpected exception from the read as an error, with its message', async () => {
		const {monitor} = watch([fail(new TypeError('boom'))]);
		monitor.start();
		await vi.advanceTimersByTimeAsync(0);
		expect(monitor.getState().status).toBe('error');
		expect(monitor.getState().error?.message).toBe('unexpected failure reading the miner: boom');
	});
});

describe('Monitor drops at the start of a session', () => {
	it('a miner resumed just before rigtop started (its 10 s window still low) is not a drop; one that stays low is, after the grace', async () => {
		// 10 s at 3.3 kH/s against a 15 m average of 4.9: what a miner resumed seconds ago reads, for a few polls.
		const low = withRates([3300, 4200, 4900]);
		const {monitor} = watch((call) => ok(call < 8 ? low : withRates([4950, 4900, 4900])));
		monitor.start();
		await vi.advanceTimersByTimeAsync(10_000);
		expect(kinds(monitor.getState())).not.toContain('hashrate-drop');
		// Still low well past the grace: that is a drop.
		const {monitor: stuck} = watch(() => ok(low));
		stuck.start();
		await vi.advanceTimersByTimeAsync(20_000);
		expect(kinds(stuck.getState())).toContain('hashrate-drop');
	});
});

describe('Monitor stop', () => {
	it('aborts the read in flight and leaves no timer', async () => {
		const {monitor, log} = watch([ok(makeSnapshot(), 800)]);
		monitor.start();
		await vi.advanceTimersByTimeAsync(300);
		expect(vi.getTimerCount()).toBe(1);
		monitor.stop();
		expect(log.signals[0]?.aborted).toBe(true);
		expect(log.aborted).toBe(1);
		expect(vi.getTimerCount()).toBe(0);
		await vi.advanceTimersByTimeAsync(10_000);
		expect(log.starts).toHaveLength(1);
		expect(monitor.getState().polls).toBe(0);
		monitor.stop();
	});

	it('clears the pending poll while waiting, and can start again', async () => {
		const {monitor, log} = watch([ok(makeSnapshot(), 0)]);
		monitor.start();
		await vi.advanceTimersByTimeAsync(100);
		expect(monitor.getState().nextPollAt).toBe(t0 + 1000);
		monitor.stop();
		expect(vi.getTimerCount()).toBe(0);
		expect(monitor.getState().nextPollAt).toBeNull();
		monitor.start();
		await vi.advanceTimersByTimeAsync(0);
		expect(log.starts).toHaveLength(2);
		expect(monitor.getState().polls).toBe(2);
	});

	it('ignores the late answer of a read that did not honour the abort', async () => {
		let release: (snapshot: MinerSnapshot) => void = () => undefined;
		let calls = 0;
		const monitor = new Monitor({
			url,
			intervalMs: 1000,
			read: () => {
				calls++;
				return new Promise((resolve) => {
					release = resolve;
				});
			},
		});
		monitors.push(monitor);
		monitor.start();
		monitor.stop();
		release(makeSnapshot());
		await vi.advanceTimersByTimeAsync(5000);
		expect(calls).toBe(1);
		expect(monitor.getState().snapshot).toBeNull();
		expect(vi.getTimerCount()).toBe(0);
	});
});

describe('Monitor state', () => {
	it('bounds the history, one 10 s sample per good poll, a new array only when it grows', async () => {
		const rates = [100, 200, null, 400, 500, 600, 700];
		const {monitor, states} = watch((call) => {
			const rate = rates[call > 3 ? call - 1 : call];
			return call === 3 || rate === undefined ? fail(timedOut()) : ok(withRates([rate, 4000, 4000]), 0);
		});
		monitor.start();
		await vi.advanceTimersByTimeAsync(7000);
		expect(states).toHaveLength(8);
		expect(states[3]!.recentRates).toBe(states[2]!.recentRates);
		expect(states[4]!.recentRates).not.toBe(states[3]!.recentRates);
		const small = new Monitor({read: scriptedRead([ok()]).read, url, intervalMs: 1000, recentSize: 5});
		expect(small.getState().recentRates).toEqual([]);
		expect(monitor.getState().recentRates).toEqual([100, 200, null, 400, 500, 600, 700]);
	});

	it('drops the oldest samples beyond recentSize', async () => {
		let call = 0;
		const {monitor} = watch(() => ok(withRates([++call * 10, 4000, 4000]), 0), {recentSize: 5});
		monitor.start();
		await vi.advanceTimersByTimeAsync(7000);
		expect(monitor.getState().recentRates).toEqual([40, 50, 60, 70, 80]);
	});

	it('keeps a session average of the non-null samples, reset when the miner restarts', async () => {
		const script = [
			withRates([null, null, null], {uptime: 100}),
			withRates([1000, 1000, null], {uptime: 101}),
			withRates([2000, 1500, null], {uptime: 102}),
			withRates([3000, 2000, null], {uptime: 103}),
			withRates([null, null, null], {uptime: 2}),
			withRates([500, null, null], {uptime: 3}),
		];
		const {monitor, states} = watch(script.map((snapshot) => ok(snapshot, 0)));
		monitor.start();
		await vi.advanceTimersByTimeAsync(5000);
		expect(states.map((state) => state.sessionAverage)).toEqual([null, 1000, 1500, 2000, null, 500]);
		expect(kinds(monitor.getState())).toEqual(['started', 'restarted']);
		expect(monitor.getState().recentRates).toEqual([null, 1000, 2000, 3000, null, 500]);
	});

	it('counts failed polls, restarts seen and the last poll duration (getStats), up to date when subscribers are told', async () => {
		const script: Step[] = [
			ok(withRates([1000, 1000, null], {uptime: 100}), 40),
			fail(timedOut(), 300),
			ok(withRates([1000, 1000, null], {uptime: 102}), 10),
			ok(withRates([1000, 1000, null], {uptime: 3}), 25),
			fail(refused(), 5),
		];
		const {monitor} = watch(script);
		const seen: Array<ReturnType<Monitor['getStats']>> = [];
		monitor.subscribe(() => seen.push(monitor.getStats()));
		expect(monitor.getStats()).toEqual({failures: 0, restarts: 0, lastDurationMs: null});
		monitor.start();
		await vi.advanceTimersByTimeAsync(4400);
		expect(seen).toEqual([
			{failures: 0, restarts: 0, lastDurationMs: 40},
			{failures: 1, restarts: 0, lastDurationMs: 300},
			{failures: 1, restarts: 0, lastDurationMs: 10},
			{failures: 1, restarts: 1, lastDurationMs: 25},
			{failures: 2, restarts: 1, lastDurationMs: 5},
		]);
	});

	it('keeps the same state object until something changes, and the same parts across polls', async () => {
		const {monitor, states} = watch([ok(makeSnapshot(), 0)]);
		const initial = monitor.getState();
		expect(monitor.getState()).toBe(initial);
		monitor.start();
		await vi.advanceTimersByTimeAsync(1000);
		expect(states).toHaveLength(2);
		const [first, second] = states as [MonitorState, MonitorState];
		expect(second).not.toBe(first);
		expect(monitor.getState()).toBe(second);
		expect(second.polls).toBe(2);
		// An identical answer keeps the snapshot object and the event list.
		expect(second.snapshot).toBe(first.snapshot);
		expect(second.events).toBe(first.events);
	});

	it('stops telling a listener once it unsubscribed', async () => {
		const {monitor} = watch([ok(makeSnapshot(), 0)]);
		let calls = 0;
		const unsubscribe = monitor.subscribe(() => calls++);
		monitor.start();
		await vi.advanceTimersByTimeAsync(1000);
		expect(calls).toBe(2);
		unsubscribe();
		unsubscribe();
		await vi.advanceTimersByTimeAsync(1000);
		expect(calls).toBe(2);
	});

	it('is named host:port, unless a name was configured; the worker id goes beside the name, never instead', async () => {
		const {monitor} = watch([ok(makeSnapshot({workerId: 'garage-rig'}), 0)]);
		expect(monitor.getState().name).toBe('127.0.0.1:44444');
		monitor.start();
		await vi.advanceTimersByTimeAsync(0);
		expect(monitor.getState().snapshot?.workerId).toBe('garage-rig');
		expect(monitor.getState().name).toBe('127.0.0.1:44444');
		expect(monitor.getState().events[0]?.message).toBe('watching 127.0.0.1:44444 (garage-rig), XMRig 6.26.0');
		const named = watch([ok(makeSnapshot(), 0)], {name: 'rig-A'}).monitor;
		expect(named.getState().name).toBe('rig-A');
		named.start();
		await vi.advanceTimersByTimeAsync(0);
		expect(named.getState().name).toBe('rig-A');
		expect(named.getState().events[0]?.message).toBe('watching rig-A (rig-01), XMRig 6.26.0');
	});

	it('never shows credentials from the URL', () => {
		const {monitor} = watch([ok()], {url: 'http://admin:hunter2@10.1.2.3:8080'});
		expect(monitor.getState().url).toBe('http://10.1.2.3:8080');
		expect(JSON.stringify(monitor.getState())).not.toContain('hunter2');
	});

	it('logs events from outside, numbered in order and bounded by maxEvents', async () => {
		const {monitor, states} = watch([ok(makeSnapshot(), 0)], {maxEvents: 3});
		monitor.start();
		await vi.advanceTimersByTimeAsync(0);
		vi.setSystemTime(t0 + 42);
		monitor.addEvent('resumed', 'info', 'config applied');
		expect(states.at(-1)).toBe(monitor.getState());
		expect(monitor.getState().events.at(-1)).toEqual({seq: 2, at: t0 + 42, kind: 'resumed', severity: 'info', message: 'config applied'});
		for (const message of ['a', 'b', 'c']) monitor.addEvent('paused', 'warn', message);
		const events = monitor.getState().events;
		expect(events.map((event) => event.message)).toEqual(['a', 'b', 'c']);
		expect(events.map((event) => event.seq)).toEqual([3, 4, 5]);
	});

	it('derives miner events from one poll to the next', async () => {
		const script = [
			makeSnapshot(),
			makeSnapshot({paused: true}),
			makeSnapshot({paused: true, results: {good: 1204, total: 1209, rejected: 5}}),
			makeSnapshot({paused: false, results: {good: 1205, total: 1210, rejected: 5}, connection: {connected: false, ip: null, uptime: 0}}),
		];
		const {monitor} = watch(script.map((snapshot) => ok(snapshot, 0)));
		monitor.start();
		await vi.advanceTimersByTimeAsync(3000);
		expect(monitor.getState().events.map((event) => [event.seq, event.message])).toEqual([
			[1, 'watching 127.0.0.1:44444 (rig-01), XMRig 6.26.0'],
			[2, 'paused'],
			[3, '2 shares rejected (5 of 1 209)'],
			[4, 'pool lost: pool.example.org:443'],
			[5, 'resumed'],
		]);
	});
});

describe('pollOnce', () => {
	it('gives the state after one good poll and leaves nothing running', async () => {
		const {read, log} = scriptedRead([ok(makeSnapshot(), 30)]);
		const done = pollOnce(read, url);
		await vi.advanceTimersByTimeAsync(30);
		const state = await done;
		expect(state).toMatchObject({status: 'live', name: '127.0.0.1:44444', polls: 1, nextPollAt: null});
		expect(kinds(state)).toEqual(['started']);
		expect(log.starts).toHaveLength(1);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('reads as down for any transient failure, and as error for the rest', async () => {
		for (const [error, status] of [
			[refused(), 'down'],
			[timedOut(), 'down'],
			[unauthorized(), 'error'],
		] as const) {
			const state = await pollOnce(scriptedRead([fail(error)]).read, url, {name: 'rig-9'});
			expect(state.status).toBe(status);
			expect(state.error).toBe(error);
			expect(vi.getTimerCount()).toBe(0);
		}
	});
});
