/**
 * What the store tells the monitor's last share (history/last-share.ts, pastShares): read from a real SQLite file,
 * walking back from the session's first poll of the accepted count.
 */
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {pastShares} from '../../source/history/last-share.js';
import {HistoryRecorder} from '../../source/history/recorder.js';
import {HistoryStore} from '../../source/history/store.js';
import {makeSnapshot} from '../helpers/snapshot.js';
import {tempDir} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function openRecorder(): HistoryRecorder {
	const temp = tempDir();
	cleanups.push(temp.cleanup);
	const recorder = new HistoryRecorder(HistoryStore.open({file: path.join(temp.dir, 'history.sqlite')}), {intervalMs: 2000});
	cleanups.push(() => recorder.close());
	return recorder;
}

const URL = 'http://127.0.0.1:18502';
const MINUTE = 60_000;

describe('pastShares', () => {
	it('null before the store knows the miner; the earliest stored poll of the same count; a rise a poll before it', () => {
		const recorder = openRecorder();
		const before = Math.floor(Date.now() / MINUTE) * MINUTE;
		const shares = pastShares(recorder, 0);
		expect(shares(before, 40)).toBeNull();

		const read = (at: number, good: number) =>
			recorder.recordRead(0, {url: URL, configured: 'rig-01', at, snapshot: makeSnapshot({results: {good, total: good}}), link: 'live'});
		// 30 to 20 minutes ago at 39 shares, then 40 from 20 minutes ago until now: the 40th came 20 minutes ago.
		for (let t = before - 30 * MINUTE; t < before - 20 * MINUTE; t += 20_000) read(t, 39);
		for (let t = before - 20 * MINUTE; t < before; t += 20_000) read(t, 40);
		recorder.flush();
		expect(shares(before, 40)).toEqual({at: before - 20 * MINUTE, atLeast: false});
		// A higher count stored than the session's: the miner restarted since; the store says nothing of this count.
		expect(shares(before, 39)).toBeUndefined();
	});

	it('only the same count stored, or a gap before the rise: at least since the earliest; a restart ends the walk', () => {
		const recorder = openRecorder();
		const before = Math.floor(Date.now() / MINUTE) * MINUTE;
		const read = (at: number, good: number) =>
			recorder.recordRead(0, {url: URL, configured: 'rig-01', at, snapshot: makeSnapshot({results: {good, total: good}}), link: 'live'});
		read(before - 50 * MINUTE, 900); // another run of the miner, before a restart
		read(before - 40 * MINUTE, 5); // rigtop not running for 5 minutes after this
		for (let t = before - 35 * MINUTE; t < before; t += 20_000) read(t, 7);
		recorder.flush();
		expect(shares(recorder, before, 7)).toEqual({at: before - 35 * MINUTE, atLeast: true});
		// One more at the session's first poll than at the last stored one, 20 s before: the share came between them.
		expect(shares(recorder, before, 8)).toEqual({at: before, atLeast: false});
	});

	it('nothing once history is off', () => {
		const recorder = openRecorder();
		recorder.store.close();
		expect(pastShares(recorder, 0)(Date.now(), 5)).toBeUndefined();
	});
});

function shares(recorder: HistoryRecorder, before: number, good: number) {
	return pastShares(recorder, 0)(before, good);
}
