import {describe, expect, test} from 'vitest';
import {ShareTracker} from '../../../../source/ui/screens/dashboard/share-track.js';
import {createStore, makeSnapshot, makeState, NOW} from '../../helpers/state.js';

const good = (count: number) => makeSnapshot({results: {good: count, total: count + 3}});

describe('ShareTracker', () => {
	test('dates a share to the first poll that saw it, even when no frame read the state in between', () => {
		const monitor = createStore(makeState({snapshot: good(100)}));
		const tracks = new ShareTracker(monitor);
		const unsubscribe = monitor.subscribe(() => tracks.follow());
		// Two polls in a row before any frame reads them: the share is dated to the first.
		monitor.set({snapshot: good(101), lastSuccessAt: NOW - 5000});
		monitor.set({snapshot: good(101), lastSuccessAt: NOW - 2000});
		expect(tracks.getState()).toMatchObject({good: 101, lastAcceptedAt: NOW - 5000});
		unsubscribe();
	});

	test('keeps one object while nothing changes, and catches up when read without being told', () => {
		const monitor = createStore(makeState({snapshot: good(7)}));
		const tracks = new ShareTracker(monitor);
		const first = tracks.getState();
		expect(first).toMatchObject({good: 7, lastAcceptedAt: null});
		expect(tracks.getState()).toBe(first);
		monitor.set({lastSuccessAt: NOW});
		expect(tracks.getState()).toBe(first);
		monitor.set({snapshot: good(8), lastSuccessAt: NOW + 1000});
		expect(tracks.getState()).toMatchObject({good: 8, lastAcceptedAt: NOW + 1000});
	});
});
