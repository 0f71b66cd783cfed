import {describe, expect, test} from 'vitest';
import {formatClock} from '../../source/format.js';
import {EMPTY_SHARE_TRACK, trackShares} from '../../source/ui/screens/dashboard/last-share.js';
import {isOutdated, statusBadge} from '../../source/ui/status.js';
import {makeSnapshot, makeState, NOW, refused, wrongToken} from './helpers/state.js';

describe('statusBadge', () => {
	test('live, with the age of the last good poll', () => {
		expect(statusBadge(makeState(), NOW)).toEqual({word: 'live', detail: ' · 2s ago', tone: 'ok', ticks: true});
	});

	test('paused and no pool come from the snapshot', () => {
		expect(statusBadge(makeState({snapshot: makeSnapshot({paused: true})}), NOW).word).toBe('PAUSED');
		const noPool = makeState({snapshot: makeSnapshot({connection: {connected: false, ip: null}})});
		expect(statusBadge(noPool, NOW)).toMatchObject({word: 'no pool', tone: 'warn'});
	});

	test('stale says for how long', () => {
		const state = makeState({status: 'stale', lastSuccessAt: NOW - 12_000, error: refused()});
		expect(statusBadge(state, NOW)).toEqual({word: 'stale', detail: ' · 12s', tone: 'warn', ticks: true});
	});

	test('down says since when and why', () => {
		const since = NOW - 180_000;
		const state = makeState({status: 'down', failingSince: since, error: refused()});
		expect(statusBadge(state, NOW)).toEqual({word: 'down', detail: ` since ${formatClock(since)} — connection refused`, tone: 'error'});
		// Down since another day: the date says which.
		const longAgo = new Date(2026, 2, 12, 23, 54).getTime();
		expect(statusBadge({...state, failingSince: longAgo}, NOW).detail).toBe(' since Mar 12 23:54 — connection refused');
	});

	test('error says why', () => {
		expect(statusBadge(makeState({status: 'error', error: wrongToken()}), NOW)).toEqual({
			word: 'error',
			detail: ' — wrong token (403)',
			tone: 'error',
		});
	});

	test('a stale or failed link over old data counts as outdated', () => {
		expect(isOutdated(makeState())).toBe(false);
		expect(isOutdated(makeState({status: 'stale'}))).toBe(true);
		expect(isOutdated(makeState({status: 'down', snapshot: null}))).toBe(false);
	});
});

describe('trackShares', () => {
	const at = (good: number, lastSuccessAt: number) => ({snapshot: makeSnapshot({results: {good}}), lastSuccessAt});

	test('shares seen before watching carry no time', () => {
		const first = trackShares(EMPTY_SHARE_TRACK, at(100, NOW));
		expect(first).toMatchObject({good: 100, lastAcceptedAt: null});
	});

	test('an increase is dated to the poll that saw it; no change keeps the same object', () => {
		const first = trackShares(EMPTY_SHARE_TRACK, at(100, NOW - 10_000));
		const second = trackShares(first, at(101, NOW - 5000));
		expect(second).toMatchObject({good: 101, lastAcceptedAt: NOW - 5000});
		expect(trackShares(second, at(101, NOW))).toBe(second);
	});

	test('a lower count means the miner restarted', () => {
		const seen = trackShares(trackShares(EMPTY_SHARE_TRACK, at(100, NOW - 10_000)), at(101, NOW - 5000));
		expect(trackShares(seen, at(2, NOW))).toMatchObject({good: 2, lastAcceptedAt: null});
	});

	test('another miner answering (a new id) starts again: its higher count is not a share just accepted', () => {
		const seen = trackShares(trackShares(EMPTY_SHARE_TRACK, at(100, NOW - 10_000)), at(101, NOW - 5000));
		const other = {snapshot: makeSnapshot({id: 'ffffffffffffffff', results: {good: 9470}}), lastSuccessAt: NOW};
		expect(trackShares(seen, other)).toEqual({good: 9470, lastAcceptedAt: null, id: 'ffffffffffffffff'});
	});

	test('no snapshot keeps what is known', () => {
		const seen = trackShares(EMPTY_SHARE_TRACK, at(5, NOW));
		expect(trackShares(seen, {snapshot: null, lastSuccessAt: null})).toBe(seen);
	});
});
