/**
 * The last accepted share is the monitor's (source/monitor/last-share.ts), per rig: dated to the poll that saw the
 * count rise, "at least" since the count was first seen when it has not moved, and earlier still when the store says
 * so (PastShares).
 */
import {afterEach, describe, expect, test, vi} from 'vitest';
import {EMPTY_SHARE_TRACK, trackShares, withPast, type PastShares} from '../../source/monitor/last-share.js';
import {Monitor} from '../../source/monitor/monitor.js';
import {makeSnapshot} from '../helpers/snapshot.js';
import {scriptedRead} from './scripted-read.js';

const NOW = new Date(2026, 2, 14, 12, 0, 0).getTime();
const at = (good: number, id?: string) => makeSnapshot({results: {good}, ...(id ? {id} : {})});

describe('trackShares', () => {
	test('a count first seen: no share since this poll ("at least"); 0 shares: none to date', () => {
		expect(trackShares(EMPTY_SHARE_TRACK, at(100), NOW)).toMatchObject({good: 100, lastShare: {at: NOW, atLeast: true}});
		expect(trackShares(EMPTY_SHARE_TRACK, at(0), NOW).lastShare).toBeNull();
	});

	test('an increase is dated to the poll that saw it; no change keeps the same object', () => {
		const first = trackShares(EMPTY_SHARE_TRACK, at(100), NOW - 10_000);
		const second = trackShares(first, at(101), NOW - 5000);
		expect(second).toMatchObject({good: 101, lastShare: {at: NOW - 5000, atLeast: false}});
		expect(trackShares(second, at(101), NOW)).toBe(second);
	});

	test('a lower count means the miner restarted and found a share since the last poll; another miner (a new id) starts again', () => {
		const seen = trackShares(trackShares(EMPTY_SHARE_TRACK, at(100), NOW - 10_000), at(101), NOW - 5000);
		// Counted again from 0 and at 2: its shares came since the poll before, dated to this one as a rise is.
		expect(trackShares(seen, at(2), NOW)).toMatchObject({good: 2, lastShare: {at: NOW, atLeast: false}});
		expect(trackShares(seen, at(0), NOW)).toMatchObject({good: 0, lastShare: null});
		expect(trackShares(seen, at(9470, 'ffffffffffffffff'), NOW)).toEqual({
			good: 9470,
			id: 'ffffffffffffffff',
			lastShare: {at: NOW, atLeast: true},
		});
	});

	test('no snapshot keeps what is known', () => {
		const seen = trackShares(EMPTY_SHARE_TRACK, at(5), NOW);
		expect(trackShares(seen, null, NOW)).toBe(seen);
	});

	test('the store wins when it says more: an earlier bound, or the share itself', () => {
		const seen = trackShares(EMPTY_SHARE_TRACK, at(5), NOW);
		expect(withPast(seen, {at: NOW - 60_000, atLeast: true}).lastShare).toEqual({at: NOW - 60_000, atLeast: true});
		expect(withPast(seen, {at: NOW - 60_000, atLeast: false}).lastShare).toEqual({at: NOW - 60_000, atLeast: false});
		expect(withPast(seen, undefined)).toBe(seen);
		const moved = trackShares(seen, at(6), NOW + 2000);
		expect(withPast(moved, {at: NOW - 60_000, atLeast: true})).toBe(moved);
	});
});

describe("the monitor's last share", () => {
	const monitors: Monitor[] = [];
	afterEach(() => {
		for (const monitor of monitors.splice(0)) monitor.stop();
		vi.useRealTimers();
	});

	test('in its state from the polls, whoever reads it: at least since the first poll, then the poll that saw a rise', async () => {
		vi.useFakeTimers({now: NOW});
		const {read} = scriptedRead([{result: at(100)}, {result: at(100)}, {result: at(101)}, {result: at(101)}]);
		const monitor = new Monitor({read, url: 'http://127.0.0.1:18500', intervalMs: 1000, random: () => 0});
		monitors.push(monitor);
		monitor.start();
		await vi.advanceTimersByTimeAsync(10);
		expect(monitor.getState().lastShare).toEqual({at: NOW, atLeast: true});
		await vi.advanceTimersByTimeAsync(1000);
		expect(monitor.getState().lastShare).toEqual({at: NOW, atLeast: true});
		await vi.advanceTimersByTimeAsync(1000);
		expect(monitor.getState().lastShare).toEqual({at: NOW + 2000, atLeast: false});
		await vi.advanceTimersByTimeAsync(1000);
		expect(monitor.getState().lastShare).toEqual({at: NOW + 2000, atLeast: false});
	});

	test('the store is asked about a count first seen, again while it cannot tell, and its answer is used', async () => {
		vi.useFakeTimers({now: NOW});
		const asked: [number, number][] = [];
		const pastShares: PastShares = (before, good) => {
			asked.push([before, good]);
			return asked.length < 3 ? null : {at: NOW - 3_600_000, atLeast: true};
		};
		const {read} = scriptedRead([{result: at(100)}]);
		const monitor = new Monitor({read, url: 'http://127.0.0.1:18501', intervalMs: 1000, random: () => 0, pastShares});
		monitors.push(monitor);
		monitor.start();
		await vi.advanceTimersByTimeAsync(10);
		expect(monitor.getState().lastShare).toEqual({at: NOW, atLeast: true});
		await vi.advanceTimersByTimeAsync(2000);
		expect(monitor.getState().lastShare).toEqual({at: NOW - 3_600_000, atLeast: true});
		await vi.advanceTimersByTimeAsync(3000);
		expect(asked).toEqual([
			[NOW, 100],
			[NOW, 100],
			[NOW, 100],
		]);
	});

	test('another miner at the address is not looked up in the store, which still holds the one before', async () => {
		vi.useFakeTimers({now: NOW});
		const asked: [number, number][] = [];
		// The store answers for the slot's stored miner (the one before) until it is next written: a rise a poll before.
		const pastShares: PastShares = (before, good) => {
			asked.push([before, good]);
			return asked.length === 1 ? undefined : {at: before, atLeast: false};
		};
		const {read} = scriptedRead([
			{result: at(100, 'aaaaaaaaaaaaaaaa')},
			{result: at(100, 'aaaaaaaaaaaaaaaa')},
			{result: at(9470, 'bbbbbbbbbbbbbbbb')},
		]);
		const monitor = new Monitor({read, url: 'http://127.0.0.1:18502', intervalMs: 1000, random: () => 0, pastShares});
		monitors.push(monitor);
		monitor.start();
		await vi.advanceTimersByTimeAsync(2010);
		expect(monitor.getState().lastShare).toEqual({at: NOW + 2000, atLeast: true});
		await vi.advanceTimersByTimeAsync(2000);
		expect(monitor.getState().lastShare).toEqual({at: NOW + 2000, atLeast: true});
		expect(asked).toEqual([[NOW, 100]]);
	});

	test('a restart within the session dates its first shares to the poll that saw them', async () => {
		vi.useFakeTimers({now: NOW});
		const {read} = scriptedRead([{result: at(100)}, {result: at(3)}, {result: at(3)}]);
		const monitor = new Monitor({read, url: 'http://127.0.0.1:18503', intervalMs: 1000, random: () => 0});
		monitors.push(monitor);
		monitor.start();
		await vi.advanceTimersByTimeAsync(1010);
		expect(monitor.getState().lastShare).toEqual({at: NOW + 1000, atLeast: false});
		await vi.advanceTimersByTimeAsync(1000);
		expect(monitor.getState().lastShare).toEqual({at: NOW + 1000, atLeast: false});
	});
});
