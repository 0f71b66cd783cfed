import {describe, expect, it} from 'vitest';
import {alertForEvent, type OpenTroubles} from '../../source/alerts/select.js';

describe("a proxy's worker alerts", () => {
	it('open and clear per worker: one worker back does not clear another; a join clears what was left open', () => {
		let open: OpenTroubles = new Set();
		const step = (kind: string, worker?: string) => {
			const result = alertForEvent(
				{kind: kind as never, message: `${kind} ${worker ?? ''}`, ...(worker === undefined ? {} : {worker})},
				open,
			);
			open = result.open;
			return result.alert?.kind ?? null;
		};

		expect(step('worker-gone', 'a')).toBe('worker-gone');
		expect(step('worker-gone', 'b')).toBe('worker-gone');
		expect(step('worker-back', 'a')).toBe('worker-back');
		// b is still gone; a back again is no news.
		expect(step('worker-back', 'a')).toBeNull();
		expect(step('worker-quiet', 'c')).toBe('worker-quiet');
		expect(step('worker-sharing', 'c')).toBe('worker-sharing');
		expect(step('worker-sharing', 'c')).toBeNull();
		expect(step('hashrate-drop', 'c')).toBe('hashrate-drop');
		// The proxy's own recovery does not clear a worker's drop.
		expect(step('hashrate-recovered')).toBeNull();
		expect(step('hashrate-recovered', 'c')).toBe('hashrate-recovered');
		expect(step('upstream-recovered')).toBeNull();
		expect(step('upstream-error')).toBe('upstream-error');
		expect(step('upstream-recovered')).toBe('upstream-recovered');
		expect(step('worker-joined', 'b')).toBeNull();
		expect(step('worker-back', 'b')).toBeNull();
		expect([...open]).toEqual([]);
	});
});
