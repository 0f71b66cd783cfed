/**
 * The history stores the screens read (history/stores.ts), over a real SQLite store holding a night: reads made
 * outside render, the first one after the first frame, again at each poll while a screen follows, never for a screen
 * held still.
 */
import {afterEach, describe, expect, it} from 'vitest';
import type {HistorySource} from '../../source/history/source.js';
import {HistoryStores, paneEventsRequest} from '../../source/history/stores.js';
import type {MinerEvent} from '../../source/monitor/types.js';
import {createStore, makeState, NOW} from '../ui/helpers/state.js';
import {NIGHT, nightHistory} from '../ui/helpers/history.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

const turn = async () =>
	new Promise((resolve) => {
		setImmediate(resolve);
	});

/** The night's stores over its source, with every read of the source counted. */
function counted() {
	const monitor = createStore(makeState({events: [], lastAttemptAt: NOW, lastSuccessAt: NOW, polls: 1}));
	const night = nightHistory(monitor);
	cleanups.push(() => night.close());
	const reads: string[] = [];
	const source: HistorySource = {
		get intervalMs() {
			return night.source.intervalMs;
		},
		where: () => night.source.where(),
		series(request) {
			reads.push('series');
			return night.source.series(request);
		},
		events(options) {
			reads.push('events');
			return night.source.events(options);
		},
		span() {
			reads.push('span');
			return night.source.span();
		},
		version: () => night.source.version(),
		subscribe: (listener) => night.source.subscribe(listener),
		close: () => undefined,
	};
	const stores = new HistoryStores(source, monitor);
	cleanups.push(() => stores.close());
	return {monitor, stores, reads, night};
}

describe('the sparkline store', () => {
	it('reads nothing when asked first, on the next turn after, and at once when asked again', async () => {
		const {stores, reads} = counted();
		const {sparkline} = stores;
		cleanups.push(sparkline.subscribe(() => undefined));
		sparkline.request({points: 36, now: NOW, latest: NOW});
		expect(reads).toEqual([]);
		expect(sparkline.getState()).toEqual([]);
		await turn();
		expect(reads).toEqual(['span', 'series']);
		const answer = sparkline.answerFor(sparkline.getState(), {points: 36, now: NOW, latest: NOW});
		// Filled from the night at once ("since 1d"), not from this session's first poll.
		expect(answer?.since).toBeGreaterThanOrEqual(NIGHT.start);
		expect(answer?.since).toBeLessThan(NOW - 24 * 3_600_000);
		expect(answer?.values).toHaveLength(36);
		// Another width: read at once (the frame after the first is drawn by now).
		sparkline.request({points: 72, now: NOW, latest: NOW});
		expect(reads).toHaveLength(4);
		expect(sparkline.answered(sparkline.getState(), {points: 72, now: NOW, latest: NOW})).toBe(true);
		// Asked again for what it answered: kept.
		sparkline.request({points: 72, now: NOW, latest: NOW});
		expect(reads).toHaveLength(4);
	});

	it('reads a new poll once, before the screen asks for it, and keeps a screen held still on its answer', async () => {
		const {monitor, stores, reads} = counted();
		const {sparkline} = stores;
		let told = 0;
		cleanups.push(sparkline.subscribe(() => told++));
		sparkline.request({points: 36, now: NOW, latest: NOW});
		await turn();
		reads.length = 0;
		monitor.set({lastAttemptAt: NOW + 30_000, lastSuccessAt: NOW + 30_000, polls: 2});
		expect(told).toBe(2);
		expect(sparkline.answered(sparkline.getState(), {points: 36, now: NOW + 30_000, latest: NOW + 30_000})).toBe(true);
		const afterPoll = reads.length;
		expect(afterPoll).toBeGreaterThan(0);
		// The screen asks for the poll it now shows: already answered, nothing read.
		sparkline.request({points: 36, now: NOW + 30_000, latest: NOW + 30_000});
		expect(reads).toHaveLength(afterPoll);
		// Held still (f) on that poll: the next poll is read once more, then no more while it is held.
		monitor.set({lastAttemptAt: NOW + 60_000, lastSuccessAt: NOW + 60_000, polls: 3});
		sparkline.request({points: 36, now: NOW + 30_000, latest: NOW + 30_000});
		const held = reads.length;
		for (let i = 3; i < 8; i++) monitor.set({lastAttemptAt: NOW + i * 30_000, lastSuccessAt: NOW + i * 30_000, polls: i + 1});
		expect(reads).toHaveLength(held);
		expect(sparkline.answered(sparkline.getState(), {points: 36, now: NOW + 30_000, latest: NOW + 30_000})).toBe(true);
	});

	it('reads nothing while no screen listens', async () => {
		const {monitor, stores, reads} = counted();
		const unsubscribe = stores.sparkline.subscribe(() => undefined);
		stores.sparkline.request({points: 36, now: NOW, latest: NOW});
		await turn();
		unsubscribe();
		reads.length = 0;
		monitor.set({lastAttemptAt: NOW + 30_000, lastSuccessAt: NOW + 30_000, polls: 2});
		expect(reads).toEqual([]);
	});
});

describe('the events stores', () => {
	it('the pane: the stored events with the session’s notices merged by time, read again on a new event only', async () => {
		const {monitor, stores, reads} = counted();
		const {paneEvents} = stores;
		cleanups.push(paneEvents.subscribe(() => undefined));
		const notice: MinerEvent = {seq: -1, at: NIGHT.config + 60_000, kind: 'action', severity: 'warn', message: 'prefs: set aside'};
		const request = paneEventsRequest([notice], 5);
		paneEvents.request(request);
		await turn();
		const texts = paneEvents.answerFor(paneEvents.getState(), request)?.map((event) => event.text);
		expect(texts?.slice(-2)).toEqual(['config apply: applied 1 change', 'prefs: set aside']);
		reads.length = 0;
		monitor.set({lastAttemptAt: NOW + 30_000, lastSuccessAt: NOW + 30_000, polls: 2});
		expect(reads).toEqual([]);
		const event: MinerEvent = {seq: 7, at: NOW + 30_000, kind: 'rejected', severity: 'warn', message: 'share rejected'};
		monitor.set({events: [event]});
		expect(reads).toEqual(['events']);
		const next = paneEventsRequest([event, notice], 5);
		expect(paneEvents.answerFor(paneEvents.getState(), next)?.at(-1)?.text).toBe('share rejected');
	});

	it('the event view’s: every event, the one logged this moment included (not written yet), without writing', async () => {
		const {monitor, stores, night} = counted();
		const {events} = stores;
		cleanups.push(events.subscribe(() => undefined));
		events.request({limit: 1000});
		await turn();
		expect(events.answerFor(events.getState(), {limit: 1000})?.events).toHaveLength(10);
		const changes = () => night.recorder.store.get<{n: number}>('SELECT total_changes() AS n')?.n;
		const before = changes();
		monitor.set({events: [{seq: 1, at: NOW + 1000, kind: 'paused', severity: 'info', message: 'paused'}]});
		expect(events.answerFor(events.getState(), {limit: 1000})?.events.at(-1)?.text).toBe('paused');
		expect(changes()).toBe(before);
	});
});
