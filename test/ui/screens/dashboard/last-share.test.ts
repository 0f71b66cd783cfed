import {describe, expect, test} from 'vitest';
import {EMPTY_SHARE_TRACK, trackShares} from '../../../../source/ui/screens/dashboard/last-share.js';
import {makeSnapshot, NOW} from '../../helpers/state.js';

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
