/**
 * The fleet's feed merges what other processes stored for a rig into its log (history/stored-events.ts): the stored
 * events the log does not hold, in time order, each once; this session's own (stored by its recorder) are not doubled.
 */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {describe, expect, it, vi} from 'vitest';
import {HistoryReader, type StoredEvent} from '../../source/history/read.js';
import {HistoryStore} from '../../source/history/store.js';
import {mergeStored, StoredByOthers, WithStoredEvents} from '../../source/history/stored-events.js';
import {HistoryWriter} from '../../source/history/writer.js';
import type {MinerEvent} from '../../source/monitor/types.js';
import {createStore, makeState} from '../ui/helpers/state.js';

const T0 = Date.parse('2026-12-07T12:00:00Z');
const own = (seq: number, at: number, message: string): MinerEvent => ({seq, at, kind: 'action', severity: 'info', message});
const stored = (t: number, text: string, extra: Partial<StoredEvent> = {}): StoredEvent => ({
	t,
	kind: 'action',
	severity: 'info',
	text,
	...extra,
});

describe('mergeStored', () => {
	it('adds the actions another process stored, in time order', () => {
		const log = [own(1, 1000, 'watching rig'), own(2, 3000, 'batch pause (rigtop pid 1 on h, 1 rig): paused')];
		// What the store gives the feed: other writers' actions only (this session's own are left out in SQL).
		const merged = mergeStored(log, [
			stored(2000, 'config apply: applied 1 change: colors: true → false'),
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
		expect(mergeStored(log, [])).toBe(log);
		expect(mergeStored(log, [stored(1000, 'down', {kind: 'down'})])).toBe(log);
	});
});

describe('the fleet feed’s stored events (a real store, two writers)', () => {
	const SESSION_WRITER = 1;
	const OTHER_WRITER = 2;
	const URL = 'http://127.0.0.1:18601';
	const facts = {apiId: 'feed-api', workerId: 'feed-rig', kind: 'miner' as const, uptimeS: 600};

	function setUp() {
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-stored-events-'));
		const file = path.join(dir, 'history.sqlite');
		const store = HistoryStore.open({file, notify: () => undefined});
		const mine = new HistoryWriter(store, {writerId: SESSION_WRITER});
		const other = new HistoryWriter(store, {writerId: OTHER_WRITER});
		const event = (t: number, kind: string, text: string) => ({
			slot: 0,
			url: URL,
			name: 'feed-rig',
			t,
			kind,
			severity: 'info',
			text,
			facts,
		});
		expect(mine.write([], [event(T0, 'started', 'watching feed-rig')])).toBe(true);
		const miner = mine.minerOf(0);
		if (miner === null) throw new Error('the miner was not stored');
		const reader = new HistoryReader(store);
		const others = new StoredByOthers({enabled: true, reader, writerId: SESSION_WRITER}, () => 1000);
		const cleanup = () => {
			store.close();
			rmSync(dir, {recursive: true, force: true});
		};
		return {store, mine, other, event, miner, others, cleanup};
	}

	it('reads nothing at a poll: only a look (once per interval, for the whole fleet) and a rig whose actions moved', () => {
		const {store, mine, other, event, miner, others, cleanup} = setUp();
		try {
			others.look();
			const monitor = createStore(makeState({events: [own(1, T0, 'watching feed-rig')]}));
			const feed = new WithStoredEvents(monitor, others, () => miner, T0);
			const reads = {count: 0};
			for (const method of ['all', 'get'] as const) {
				const original = store[method].bind(store);
				vi.spyOn(store, method).mockImplementation(((sql: string, ...params: never[]) => {
					reads.count++;
					return original(sql, ...params);
				}) as never);
			}

			// Twenty polls, this session storing its own events meanwhile: not one read.
			for (let poll = 0; poll < 20; poll++) {
				monitor.set({});
				expect(mine.write([], [event(T0 + poll + 1, 'action', `pause sent ${poll}`)])).toBe(true);
				feed.getState();
				feed.getState();
			}
			reads.count = 0;
			for (let poll = 0; poll < 20; poll++) {
				monitor.set({});
				feed.getState();
			}
			expect(reads.count).toBe(0);
			// A look finds only this session's rows: no rig is read.
			others.look();
			feed.getState();
			expect(reads.count).toBeLessThanOrEqual(2);
			expect(feed.getState().events.map((e) => e.message)).toEqual(['watching feed-rig']);

			// Another process's action: the next look finds it, the rig reads it once.
			expect(other.write([], [event(T0 + 100, 'action', 'config apply: applied 1 change: colors: true → false')])).toBe(true);
			others.look();
			reads.count = 0;
			expect(feed.getState().events.map((e) => e.message)).toEqual([
				'watching feed-rig',
				'config apply: applied 1 change: colors: true → false',
			]);
			expect(reads.count).toBe(1);
			monitor.set({});
			feed.getState();
			expect(reads.count).toBe(1);
		} finally {
			cleanup();
		}
	});

	it('shows another rigtop’s copy of a happening its own monitor logged once (issue 35 review, finding 2)', () => {
		// The other rigtop stored 'paused' first; this session's writer dropped its own as the same happening.
		const log = [
			own(1, T0, 'watching feed-rig'),
			{seq: 2, at: T0 + 1200, kind: 'paused' as const, severity: 'info' as const, message: 'paused'},
		];
		const merged = mergeStored(log, [
			{t: T0 + 1000, kind: 'paused', severity: 'info', text: 'paused'},
			stored(T0 + 2000, 'pause sent to the miner'),
		]);
		expect(merged.map((event) => event.message)).toEqual(['watching feed-rig', 'paused', 'pause sent to the miner']);
	});
});
