import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {HistoryStore, type HistoryStoreOptions} from '../../source/history/store.js';
import {LINK, type SampleRow} from '../../source/history/tiers.js';
import type {HistoryWriter} from '../../source/history/writer.js';
import {type EventRecord, type IdentityFacts, type Observation} from '../../source/history/writer.js';

/** A temp directory per test, removed by the returned cleanup. */
export function tempDir(): {dir: string; cleanup: () => void} {
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-history-'));
	return {dir, cleanup: () => rmSync(dir, {recursive: true, force: true})};
}

export function openStore(dir: string, options: Partial<HistoryStoreOptions> = {}): {store: HistoryStore; notices: string[]} {
	const notices: string[] = [];
	const store = HistoryStore.open({file: path.join(dir, 'rigtop', 'history.sqlite'), notify: (line) => notices.push(line), ...options});
	return {store, notices};
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.UTC(2026, 10, 20, 12, 0, 0)): {
	now: () => number;
	set: (t: number) => void;
	advance: (ms: number) => void;
} {
	let t = start;
	return {
		now: () => t,
		set(value) {
			t = value;
		},
		advance(ms) {
			t += ms;
		},
	};
}

export function goodSample(t: number, hr: number, extra: Partial<SampleRow> = {}): SampleRow {
	return {t, link: LINK.live, hr10: hr, hr60: hr, hr15: hr, good: 10, total: 10, rejected: 0, pool: 1, paused: 0, ...extra};
}

export function downSample(t: number): SampleRow {
	return {t, link: LINK.down, hr10: null, hr60: null, hr15: null, good: null, total: null, rejected: null, pool: null, paused: null};
}

export const sixFacts = (apiId: string | null, workerId: string | null = 'rig-a', uptimeS: number | null = 3600): IdentityFacts => ({
	apiId,
	workerId,
	kind: 'miner',
	uptimeS,
});

export function observation(sample: SampleRow, facts: IdentityFacts | null, options: Partial<Observation> = {}): Observation {
	return {slot: 0, url: 'http://127.0.0.1:18080', name: 'rig-a', facts, sample, spacingMs: 1500, ...options};
}

export function eventRecord(t: number, kind: string, text: string, options: Partial<EventRecord> = {}): EventRecord {
	return {slot: 0, url: 'http://127.0.0.1:18080', name: 'rig-a', t, kind, severity: 'warn', text, ...options};
}

/** Writes one good poll every `everyMs` from `from` to `to` through `writer`, moving `clock` along. */
export function writeRun(
	writer: HistoryWriter,
	clock: {set: (t: number) => void},
	from: number,
	to: number,
	everyMs: number,
	hr: (t: number) => number | null,
	facts: IdentityFacts = sixFacts('id-a'),
	options: Partial<Observation> = {},
): void {
	for (let t = from; t < to; t += everyMs) {
		clock.set(t);
		const value = hr(t);
		writer.write(
			[
				observation(value === null ? downSample(t) : goodSample(t, value), value === null ? null : facts, {
					spacingMs: everyMs * 0.75,
					...options,
				}),
			],
			[],
		);
	}
}

/** Waits, polling every 20 ms, until `test` holds; throws naming `what` after `timeoutMs`. */
export async function until(test: () => boolean, timeoutMs: number, what: string): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!test()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}
