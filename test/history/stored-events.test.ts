/**
 * The fleet's feed merges what other processes stored for a rig into its log (history/stored-events.ts): the stored
 * events the log does not hold, in time order, each once; this session's own (stored by its recorder) are not doubled.
 */
import {describe, expect, it} from 'vitest';
import type {StoredEvent} from '../../source/history/read.js';
import {mergeStored} from '../../source/history/stored-events.js';
import type {MinerEvent} from '../../source/monitor/types.js';

const own = (seq: number, at: number, message: string): MinerEvent => ({seq, at, kind: 'action', severity: 'info', message});
const stored = (t: number, text: string, extra: Partial<StoredEvent> = {}): StoredEvent => ({
	t,
	kind: 'action',
	severity: 'info',
	text,
	...extra,
});

describe('mergeStored', () => {
	it('adds the events another process stored, in time order, not those of the log itself', () => {
		const log = [own(1, 1000, 'watching rig'), own(2, 3000, 'batch pause (rigtop pid 1 on h, 1 rig): paused')];
		const merged = mergeStored(log, [
			stored(1000, 'watching rig'),
			stored(2000, 'config apply: applied 1 change: colors: true → false'),
			stored(3000, 'batch pause (rigtop pid 1 on h, 1 rig): paused'),
			stored(2500, 'token refused', {watcher: true}),
		]);
		expect(merged.map((event) => [event.at, event.message])).toEqual([
			[1000, 'watching rig'],
			[2000, 'config apply: applied 1 change: colors: true → false'],
			[3000, 'batch pause (rigtop pid 1 on h, 1 rig): paused'],
		]);
		expect(new Set(merged.map((event) => event.seq)).size).toBe(3);
		// Read again, the same keys.
		expect(mergeStored(log, [stored(2000, 'config apply: applied 1 change: colors: true → false')])[1]?.seq).toBe(merged[1]?.seq);
	});

	it('keeps the log itself when nothing else was stored', () => {
		const log = [own(1, 1000, 'watching rig')];
		expect(mergeStored(log, [stored(1000, 'watching rig')])).toBe(log);
	});
});
