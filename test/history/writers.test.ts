import {afterEach, describe, expect, it} from 'vitest';
import {HistoryReader} from '../../source/history/read.js';
import {HistoryRecorder} from '../../source/history/recorder.js';
import type {HistoryStore} from '../../source/history/store.js';
import {HistoryWriter} from '../../source/history/writer.js';
import type {MonitorState} from '../../source/monitor/types.js';
import {describeEvents} from '../../source/ui/text/event-lines.js';
import {makeSnapshot} from '../helpers/snapshot.js';
import {eventRecord, goodSample, manualClock, observation, openStore, sixFacts, tempDir} from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

const MINUTE = 60_000;

/**
 * Two rigtops on one history file: connections `a` and `b` to one store in a fresh folder, each with its writer (ids 1
 * and 2), both on one manual `clock`; the connections are closed and the folder removed after the test.
 */
function twoRigtops(): {
	clock: ReturnType<typeof manualClock>;
	a: HistoryStore;
	b: HistoryStore;
	writerA: HistoryWriter;
	writerB: HistoryWriter;
} {
	const temp = tempDir();
	const clock = manualClock();
	const a = openStore(temp.dir, {now: clock.now}).store;
	const b = openStore(temp.dir, {now: clock.now}).store;
	cleanups.push(
		() => a.close(),
		() => b.close(),
		temp.cleanup,
	);
	const writerA = new HistoryWriter(a, {now: clock.now, writerId: 1});
	const writerB = new HistoryWriter(b, {now: clock.now, writerId: 2});
	return {clock, a, b, writerA, writerB};
}

describe('history store: two rigtops on one miner', () => {
	it('neither doubles the polls, the summaries nor the events (two connections to one file, interleaved)', () => {
		const {clock, a, b, writerA, writerB} = twoRigtops();
		const start = clock.now();
		// Both poll every 2 s, one second apart, for ten minutes; each sees the pool go and come back, at its own poll.
		for (let t = start; t < start + 10 * MINUTE; t += 2000) {
			clock.set(t);
			const eventsA = t === start + 4 * MINUTE ? [eventRecord(t, 'pool-lost', 'pool lost: pool.example:3333')] : [];
			writerA.write([observation(goodSample(t, 1000), sixFacts('id-a'), {spacingMs: 1500})], eventsA);
			clock.set(t + 1000);
			const eventsB =
				t === start + 4 * MINUTE
					? [eventRecord(t + 1000, 'pool-lost', 'pool lost: pool.example:3333'), eventRecord(t + 1000, 'action', 'pause sent to the miner')]
					: t === start + 6 * MINUTE
						? [eventRecord(t + 1000, 'down', 'down: timed out')]
						: [];
			writerB.write([observation(goodSample(t + 1000, 1000), sixFacts('id-a'), {spacingMs: 1500})], eventsB);
			if (t === start + 6 * MINUTE) writerA.write([], [eventRecord(t + 1500, 'down', 'down: connection refused')]);
		}

		const miner = writerA.minerOf(0) ?? 0;
		expect(writerB.minerOf(0)).toBe(miner);
		// Both make the summaries (as each does every ten minutes, and when closing).
		writerA.summarize([miner], true);
		writerB.summarize([miner], true);
		const polls = a.get<{n: number}>('SELECT count(*) AS n FROM sample WHERE miner = ?', miner)?.n;
		expect(polls).toBe(300); // one per 2 s, not 600
		const minute = a.get<{n: number}>('SELECT n FROM summary_1m WHERE miner = ? ORDER BY t LIMIT 1 OFFSET 2', miner);
		expect(minute?.n).toBe(30);
		expect(a.get<{n: number}>('SELECT count(*) AS n FROM summary_1m WHERE miner = ?', miner)?.n).toBeLessThanOrEqual(10);
		const events = new HistoryReader(b).events(miner, {since: 0});
		// Each happening once, whoever saw it first; B's own action is its own.
		expect(events.map((event) => event.kind)).toEqual(['pool-lost', 'action', 'down']);
	});

	it("another rigtop's refused token is not the rig's trouble: not stored, and not read where an old rigtop stored it", () => {
		const {clock, b, writerA, writerB} = twoRigtops();
		const t = clock.now();
		writerA.write([observation(goodSample(t, 1000), sixFacts('id-a'))], []);
		const miner = writerA.minerOf(0) ?? 0;
		// B's token is refused: as this rigtop logs it (watcher), and as a rigtop before this change stored it.
		writerB.write([], [eventRecord(t + 1000, 'error', 'error: forbidden (HTTP 403)', {severity: 'error', watcher: true})]);
		writerB.write([], [eventRecord(t + 2000, 'error', 'error: not authorized (HTTP 401)', {severity: 'error'})]);
		// The rig really goes down (both see it) and A sees it back.
		clock.set(t + 120_000);
		writerA.write([], [eventRecord(t + 120_000, 'down', 'down: connection refused', {severity: 'error'})]);
		writerB.write([], [eventRecord(t + 121_000, 'down', 'down: connection refused', {severity: 'error'})]);
		writerA.write([], [eventRecord(t + 129_000, 'up', 'back up after 9s', {severity: 'info'})]);
		// Another kind of error (not a miner at the address) is still the rig's.
		writerB.write([], [eventRecord(t + 200_000, 'error', 'error: not an XMRig answer', {severity: 'error'})]);

		const stored = b.all<{text: string}>('SELECT text FROM event WHERE miner = ? ORDER BY t', miner).map((row) => row.text);
		expect(stored).not.toContain('error: forbidden (HTTP 403)');
		const events = new HistoryReader(b).events(miner, {since: 0});
		expect(events.map((event) => event.text)).toEqual(['down: connection refused', 'back up after 9s', 'error: not an XMRig answer']);
		const lines = describeEvents(events, t + 300_000);
		expect(lines[1]?.text).toMatch(/^back up · down \S+, 9s$/);
	});

	it("the rig's sensors' events are one happening too, whatever degrees each rigtop read", () => {
		const {clock, b, writerA, writerB} = twoRigtops();
		const t = clock.now();
		const pair = [
			['temp-high', 'CPU hot: Tctl 95°C', 'CPU hot: Tctl 96°C'],
			[
				'throttle-started',
				'CPU throttling: thermal_throttle count up by 3 (40 since boot)',
				'CPU throttling: thermal_throttle count up by 5 (42 since boot)',
			],
			['throttle-stopped', 'CPU throttling stopped after 30s', 'CPU throttling stopped after 32s'],
			['temp-normal', 'CPU temperature back under its max: Tctl 80°C', 'CPU temperature back under its max: Tctl 79°C'],
			['power-lost', 'package power reading lost: EIO', 'package power reading lost: EACCES'],
			['power-restored', 'package power read again: 120 W', 'package power read again: 121 W'],
			['power-denied', 'package power not shown: root only', 'package power not shown: root only (chmod o+r)'],
		] as const;
		pair.forEach(([kind, textA, textB], index) => {
			const at = t + index * 5000;
			clock.set(at);
			writerA.write([observation(goodSample(at, 1000), sixFacts('id-a'), {spacingMs: 1500})], [eventRecord(at, kind, textA)]);
			clock.set(at + 1000);
			writerB.write([observation(goodSample(at + 1000, 1000), sixFacts('id-a'), {spacingMs: 1500})], [eventRecord(at + 1000, kind, textB)]);
		});
		const miner = writerA.minerOf(0) ?? 0;
		const events = new HistoryReader(b).events(miner, {since: 0});
		expect(events.map((event) => [event.kind, event.text])).toEqual(pair.map(([kind, textA]) => [kind, textA]));
	});

	it('a rig that goes down twice within the minute keeps both outages, whichever rigtop saw each', () => {
		const {clock, b, writerA, writerB} = twoRigtops();
		const t = clock.now();
		writerA.write([observation(goodSample(t, 1000), sixFacts('id-a'))], []);
		const miner = writerA.minerOf(0) ?? 0;
		// Both watch: each outage seen by both, a second apart, and stored once.
		const flap = (at: number) => {
			writerA.write([], [eventRecord(at, 'down', 'down: connection refused', {severity: 'error'})]);
			writerB.write([], [eventRecord(at + 1000, 'down', 'down: timed out', {severity: 'error'})]);
			writerA.write([], [eventRecord(at + 8000, 'up', 'back up after 8s')]);
			writerB.write([], [eventRecord(at + 9000, 'up', 'back up after 8s')]);
			writerA.write([], [eventRecord(at + 8000, 'restarted', 'miner restarted (up 3s)', {severity: 'warn'})]);
			writerB.write([], [eventRecord(at + 9000, 'restarted', 'miner restarted (up 4s)', {severity: 'warn'})]);
		};
		flap(t + 10_000);
		flap(t + 40_000);
		// Then only B (A was closed and this is a rigtop started again): its outage 30 s later is a new one.
		writerB.write([], [eventRecord(t + 70_000, 'down', 'down: connection refused', {severity: 'error'})]);
		writerB.write([], [eventRecord(t + 75_000, 'up', 'back up after 5s')]);
		const kinds = new HistoryReader(b).events(miner, {since: 0}).map((event) => `${event.kind}@${(event.t - t) / 1000}`);
		expect(kinds).toEqual(['down@10', 'up@18', 'restarted@18', 'down@40', 'up@48', 'restarted@48', 'down@70', 'up@75']);
	});

	it('keeps a batch while the other rigtop holds the store, and writes it at the next flush', () => {
		const temp = tempDir();
		const clock = manualClock();
		const holder = openStore(temp.dir).store;
		const {store} = openStore(temp.dir);
		cleanups.push(
			() => holder.close(),
			() => store.close(),
			temp.cleanup,
		);
		const recorder = new HistoryRecorder(store, {intervalMs: 1000, now: clock.now, flushMs: 60_000});
		cleanups.unshift(() => recorder.close());
		const state = liveState(clock.now());
		recorder.watch([{subscribe: () => () => undefined, getState: () => state}]);
		holder.db?.exec('BEGIN IMMEDIATE');
		const started = Date.now();
		expect(recorder.flush()).toBe(false); // busy past the short wait: kept
		expect(Date.now() - started).toBeLessThan(2000);
		expect(store.enabled).toBe(true);
		holder.db?.exec('COMMIT');
		expect(recorder.flush()).toBe(true);
		const miner = recorder.writtenMinerOf(0) ?? 0;
		expect(store.get<{n: number}>('SELECT count(*) AS n FROM sample WHERE miner = ?', miner)?.n).toBe(1);
		expect(new HistoryReader(store).events(miner, {since: 0}).map((event) => event.text)).toEqual(['watching rig-a']);
	});
});

function liveState(at: number): MonitorState {
	return {
		name: 'rig-a',
		url: 'http://127.0.0.1:18080',
		status: 'live',
		snapshot: makeSnapshot(),
		lastSuccessAt: at,
		lastAttemptAt: at,
		failingSince: null,
		consecutiveFailures: 0,
		error: null,
		recentRates: [],
		sessionAverage: null,
		lastShare: null,
		events: [{seq: 1, at, kind: 'started', severity: 'info', message: 'watching rig-a'}],
		nextPollAt: null,
		polls: 1,
	};
}

describe('history reader in a live session', () => {
	it('includes the polls still waiting to be written without writing them, and writes waiting events before reading events', () => {
		const temp = tempDir();
		const {store} = openStore(temp.dir);
		cleanups.push(() => store.close(), temp.cleanup);
		const recorder = new HistoryRecorder(store, {intervalMs: 1000, flushMs: 60_000});
		cleanups.unshift(() => recorder.close());
		const t = Date.now() - 10_000;
		let state = liveState(t);
		let listener = () => undefined as void;
		recorder.watch([
			{
				subscribe(next) {
					listener = next;
					return () => undefined;
				},
				getState: () => state,
			},
		]);
		recorder.flush(); // its first poll written, for an id
		const miner = recorder.writtenMinerOf(0) ?? 0;
		const stored = () => store.get<{n: number}>('SELECT count(*) AS n FROM sample WHERE miner = ?', miner)?.n;
		expect(stored()).toBe(1);
		for (let i = 1; i <= 4; i++) {
			state = {...liveState(t + i * 2000), polls: 1 + i, events: state.events};
			listener();
		}

		const series = recorder.reader.series(miner, {from: t - 1000, to: t + 9000, points: 5});
		expect(series.points.map((point) => point.samples)).toEqual([1, 1, 1, 1, 1]);
		expect(recorder.reader.span(miner)).toEqual({first: t, last: t + 8000});
		expect(stored()).toBe(1); // read without a commit
		state = {...state, events: [...state.events, {seq: 2, at: t + 8500, kind: 'pool-lost', severity: 'warn', message: 'pool lost'}]};
		listener();
		expect(recorder.reader.events(miner, {since: 0}).map((event) => event.kind)).toEqual(['started', 'pool-lost']);
	});
});
