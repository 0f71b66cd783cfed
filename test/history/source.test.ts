/**
 * What the screens read a miner's past through (history/source.ts): the store behind the session's recorder, or with
 * history off the session's memory — against a real SQLite store.
 */
import {afterEach, describe, expect, it, vi} from 'vitest';
import {memoryCapacity, SeriesCache, SessionHistory, type HistorySource, type SeriesRequest} from '../../source/history/source.js';
import {recordActionEvent} from '../../source/history/action-event.js';
import {lastHourSource, pastRates} from '../../source/history/last-hour.js';
import {createStore, makeEvent, makeSnapshot, makeState, NOW, refused} from '../ui/helpers/state.js';
import {NIGHT, nightHistory, POLL_MS} from '../ui/helpers/history.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('a miner’s history for the screens', () => {
	it('reads the stored night through the recorder once the session’s first poll is known as that miner', () => {
		const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW}));
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		expect(night.source.where()).toBe('stored');
		expect(night.source.span()?.first).toBe(NIGHT.start);
		const kinds = night.source.events({since: 0}).map((event) => event.kind);
		expect(kinds).toEqual(['started', 'down', 'up', 'restarted', 'pool-lost', 'pool-connected', 'started', 'paused', 'resumed', 'action']);
		// 24 hours in 10-minute buckets: the outage's have polls and no answer, the night's gap has no polls at all.
		const series = night.source.series({from: NOW - 24 * 3_600_000, to: NOW, points: 144});
		const bucket = (t: number) => series.points[Math.floor((t - series.from) / series.step)];
		expect(bucket(NIGHT.downFrom + 6 * 60_000)).toMatchObject({live: 0});
		expect(bucket(NIGHT.downFrom + 6 * 60_000)?.samples).toBeGreaterThan(0);
		expect(bucket(NIGHT.gapFrom + 3_600_000)).toMatchObject({samples: 0, live: 0, avg: null});
		expect(bucket(NIGHT.gapTo + 3_600_000)?.avg).toBeGreaterThan(4700);
		// The session's poll is in the series before it is written (it waits for the flush).
		store.set({lastAttemptAt: NOW + 1000, lastSuccessAt: NOW + 1000});
		expect(night.source.series({from: NOW, to: NOW + 2000, points: 1}).points[0]?.samples).toBe(2);
	});

	it('notices at its next poll an event another process stored (rigtop config set), so the screens read them again', () => {
		const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW, polls: 1}));
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		// Looked at from the poll after the session's first is written (the recorder writes every 5 s).
		night.recorder.flush();
		store.set({lastAttemptAt: NOW + 1000, lastSuccessAt: NOW + 1000, polls: 2});
		const before = night.source.eventsStamp();
		expect(before).not.toBe('');
		// Another process, on its own connection to the file, as `rigtop config set` writes it.
		const written = recordActionEvent({
			file: night.file,
			url: 'http://127.0.0.1:18088',
			snapshot: makeSnapshot(),
			at: NOW + 1500,
			severity: 'info',
			text: 'config apply: applied 1 change; your config as it was is saved in /tmp/b.json',
			secrets: [],
			notify: () => undefined,
			now: () => NOW + 1500,
		});
		expect(written).toBe(true);
		expect(night.source.eventsStamp()).toBe(before);
		store.set({lastAttemptAt: NOW + 2000, lastSuccessAt: NOW + 2000, polls: 3});
		expect(night.source.eventsStamp()).not.toBe(before);
		expect(night.source.events({since: NOW}).map((event) => [event.kind, event.text])).toEqual([
			['action', 'config apply: applied 1 change; your config as it was is saved in /tmp/b.json'],
		]);
	});

	it('reads the newest stored event once a poll, and only when a screen asks (a fleet’s rigs not shown read nothing)', () => {
		const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW, polls: 1}));
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		night.recorder.flush();
		const reads = vi.spyOn(night.recorder.reader, 'lastEvent');
		// Ten polls that no screen reads the events of (a rig of the fleet whose dashboard is not open).
		for (let poll = 2; poll <= 11; poll++) store.set({lastAttemptAt: NOW + poll * 1000, lastSuccessAt: NOW + poll * 1000, polls: poll});
		expect(reads).toHaveBeenCalledTimes(0);
		// A screen asks, several times between two polls: one read.
		const stamp = night.source.eventsStamp();
		expect(stamp).not.toBe('');
		expect(night.source.version()).toContain(stamp);
		expect(night.source.eventsStamp()).toBe(stamp);
		expect(reads).toHaveBeenCalledTimes(1);
		store.set({lastAttemptAt: NOW + 12_000, lastSuccessAt: NOW + 12_000, polls: 12});
		expect(night.source.eventsStamp()).toBe(stamp);
		expect(reads).toHaveBeenCalledTimes(2);
	});

	it('with history on, a miner that never answered is not "history off": its events are read from the session', () => {
		// Seen in a --rigs fleet with one rig down from the start: the event view said "28 events since 18:37 · history
		// off" while every other rig was stored, as this rig (no identity, so nothing of it stored yet) read as 'session'.
		const store = createStore(
			makeState({
				url: 'http://127.0.0.1:18999',
				status: 'down',
				snapshot: null,
				error: refused(),
				events: [makeEvent(1, 5, 'down: connection refused')],
			}),
		);
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		// Written: its polls and events wait in the writer for a first answer that says which miner it is.
		night.recorder.flush();
		expect(night.recorder.knows(0)).toBe(false);
		expect(night.source.where()).toBe('stored');
		expect(night.source.events({since: 0}).map((event) => event.text)).toEqual(['down: connection refused']);
	});

	it('with history off: this session’s polls and events, from memory, and it says so', () => {
		const store = createStore(makeState({events: [makeEvent(1, 5, 'watching rig-01')], lastAttemptAt: NOW - 60_000}));
		const history = new SessionHistory({monitor: store, slot: 0, recorder: null, intervalMs: POLL_MS, capacity: 3});
		cleanups.push(() => history.close());
		for (let i = 1; i <= 4; i++) store.set({lastAttemptAt: NOW - 60_000 + i * POLL_MS, lastSuccessAt: NOW - 60_000 + i * POLL_MS});
		store.set({status: 'down', lastAttemptAt: NOW + 90_000});
		expect(history.where()).toBe('session');
		// Three kept (the capacity): the newest good polls and the failed one.
		expect(history.span()).toEqual({first: NOW - 60_000 + 3 * POLL_MS, last: NOW + 90_000});
		const series = history.series({from: NOW, to: NOW + 120_000, points: 4});
		expect(series.points.map((point) => [point.samples, point.live])).toEqual([
			[0, 0],
			[1, 1],
			[1, 1],
			[1, 0],
		]);
		expect(history.events({since: 0}).map((event) => event.text)).toEqual(['watching rig-01']);
		expect(history.events({since: NOW})).toEqual([]);
	});

	it("follows the session's interval as + and - change it (the screens' buckets are no narrower)", () => {
		const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW}));
		let interval = 2000;
		const history = new SessionHistory({monitor: store, slot: 0, recorder: null, intervalMs: () => interval, capacity: 3});
		cleanups.push(() => history.close());
		expect(history.intervalMs).toBe(2000);
		interval = 30_000;
		expect(history.intervalMs).toBe(30_000);
	});

	it('keeps a fixed budget of polls in memory however many rigs', () => {
		expect(memoryCapacity(1)).toBe(7200);
		expect(memoryCapacity(10)).toBe(7200);
		expect(memoryCapacity(100)).toBe(900);
		expect(memoryCapacity(40) * 40).toBeLessThanOrEqual(72_000);
	});
});

describe('a series redrawn at every poll', () => {
	it('reads only the buckets that can have changed, and comes out as a whole read', () => {
		const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW}));
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		const asked: SeriesRequest[] = [];
		const history: HistorySource = {
			...night.source,
			intervalMs: night.source.intervalMs,
			where: () => night.source.where(),
			span: () => night.source.span(),
			events: (options) => night.source.events(options),
			close: () => undefined,
			series(request) {
				asked.push(request);
				return night.source.series(request);
			},
		};
		const cache = new SeriesCache();
		const step = 10_000;
		const request = (to: number): SeriesRequest => ({from: to - 120 * step, to, points: 120});
		const base = Math.floor((NOW - 30 * step) / step) * step;
		for (const to of [base, base + step, base + 3 * step, base + 3 * step]) {
			const cached = cache.read(history, request(to));
			expect(cached.points).toEqual(night.source.series(request(to)).points);
			expect(cached.from).toBe(to - 120 * step);
		}

		// A whole read first, then the last bucket and the new ones only.
		expect(asked.map((a) => a.points)).toEqual([120, 2, 3, 1]);
		// A jump of more than a quarter of the span, another size, another span, a minute since the last whole read:
		// read whole.
		cache.read(history, request(base + 40 * step));
		cache.read(history, {...request(base + 40 * step), points: 60});
		cache.read(history, {from: base, to: base + 40 * step, points: 60});
		cache.read(history, request(base + 41 * step));
		cache.read(history, request(base + 45 * step));
		cache.read(history, request(base + 48 * step));
		expect(asked.slice(4).map((a) => a.points)).toEqual([120, 60, 60, 120, 5, 120]);
	});
});

describe('reading never writes', () => {
	it('a read leaves the file as it was and still returns the polls and events waiting to be written', () => {
		const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW, polls: 1}));
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		night.recorder.flush();
		// A poll and an event of the session: they wait for the recorder's next flush (5 s for polls, 50 ms for events).
		store.set({
			lastAttemptAt: NOW + 1000,
			lastSuccessAt: NOW + 1000,
			polls: 2,
			events: [{seq: 1, at: NOW + 1000, kind: 'rejected', severity: 'warn', message: 'share rejected: low difficulty'}],
		});
		const db = night.recorder.store;
		const changes = () => db.get<{n: number}>('SELECT total_changes() AS n')?.n;
		const rows = () => [
			db.get<{n: number}>('SELECT count(*) AS n FROM event')?.n,
			db.get<{n: number}>('SELECT count(*) AS n FROM sample')?.n,
		];
		const before = {changes: changes(), rows: rows()};
		expect(before.changes).toBeGreaterThan(0);

		const events = night.source.events({since: NOW});
		expect({changes: changes(), rows: rows()}).toEqual(before);
		expect(events.map((event) => event.text)).toEqual(['share rejected: low difficulty']);
		const series = night.source.series({from: NOW, to: NOW + 2000, points: 1});
		night.source.span();
		expect({changes: changes(), rows: rows()}).toEqual(before);
		expect(series.points[0]?.samples).toBe(2);

		// Written at the flush, read the same.
		night.recorder.flush();
		expect(changes()).toBeGreaterThan(before.changes ?? 0);
		expect(night.source.events({since: NOW})).toEqual(events);
	});

	it('a miner the store knows from before is read before its first poll of this session is written', () => {
		const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW, polls: 1}));
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		const db = night.recorder.store;
		const changes = db.get<{n: number}>('SELECT total_changes() AS n')?.n;
		expect(night.recorder.writtenMinerOf(0)).toBeNull();
		expect(night.source.where()).toBe('stored');
		expect(night.source.span()?.first).toBe(NIGHT.start);
		expect(night.source.events({since: 0})).toHaveLength(10);
		expect(db.get<{n: number}>('SELECT total_changes() AS n')?.n).toBe(changes);
		expect(night.recorder.writtenMinerOf(0)).toBeNull();
	});

	it("the fleet's last hour and the drop detector's past rates read such a miner without writing its first poll", () => {
		const store = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW, polls: 1}));
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		const db = night.recorder.store;
		const changes = db.get<{n: number}>('SELECT total_changes() AS n')?.n;
		const hour = lastHourSource(night.recorder).lastHour(0, NOW, 60);
		const rates = pastRates(night.recorder, 0)(NOW);
		expect(db.get<{n: number}>('SELECT total_changes() AS n')?.n).toBe(changes);
		expect(night.recorder.writtenMinerOf(0)).toBeNull();
		// And they read the night the store holds of it.
		expect(hour?.some((point) => point.samples > 0)).toBe(true);
		expect(rates).not.toBeNull();
	});
});
