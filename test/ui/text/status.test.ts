import {describe, expect, test} from 'vitest';
import {formatClock} from '../../../source/text/format.js';
import {isOutdated, statusBadge} from '../../../source/ui/text/status.js';
import {makeSnapshot, makeState, NOW, refused, wrongToken} from '../helpers/state.js';

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
