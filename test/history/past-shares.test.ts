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

	it('a restart directly before the run of the same count ends the walk: the same count before it is another run', () => {
		const recorder = openRecorder();
		const before = Math.floor(Date.now() / MINUTE) * MINUTE;
		const read = (at: number, good: number) =>
			recorder.recordRead(0, {url: URL, configured: 'rig-01', at, snapshot: makeSnapshot({results: {good, total: good}}), link: 'live'});
		for (let t = before - 20 * MINUTE; t < before - 10 * MINUTE; t += 20_000) read(t, 7); // the run before
		read(before - 10 * MINUTE, 900); // a higher count: the miner restarted after this poll
		for (let t = before - 10 * MINUTE + 20_000; t < before; t += 20_000) read(t, 7);
		recorder.flush();
		expect(shares(recorder, before, 7)).toEqual({at: before - 10 * MINUTE + 20_000, atLeast: true});
	});

	it('older than an hour, from the minute summaries: the count was the same by the end of the first minute that had it', () => {
		const recorder = openRecorder();
		const before = Math.floor(Date.now() / MINUTE) * MINUTE;
		for (let t = before - 60 * MINUTE; t < before; t += 20_000)
			recorder.recordRead(0, {
				url: URL,
				configured: 'rig-01',
				at: t,
				snapshot: makeSnapshot({results: {good: 13, total: 13}}),
				link: 'live',
			});
		recorder.flush();
		// The hour before those polls as the store keeps it once its polls are gone: a summary a minute (the count is
		// the minute's last poll's), 12 until two hours ago, 13 since.
		const miner = recorder.readMinerOf(0);
		expect(miner).not.toBeNull();
		for (let t = before - 3 * 60 * MINUTE; t < before - 60 * MINUTE; t += MINUTE) {
			const good = t < before - 2 * 60 * MINUTE ? 12 : 13;
			recorder.store.run(
				'INSERT INTO summary_1m (miner, t, n, live, hr_n, pool, paused, link, good, total, rejected) VALUES (?, ?, 3, 3, 3, 0, 0, 0, ?, ?, 0)',
				miner,
				t,
				good,
				good,
			);
		}

		expect(shares(recorder, before, 13)).toEqual({at: before - 2 * 60 * MINUTE + MINUTE, atLeast: true});
		// Read from the store: the three rows that say it, not the day's 3 hours of polls and summaries.
		expect(recorder.reader.countRun(miner ?? 0, {from: before - 24 * 60 * MINUTE, to: before, good: 13})).toEqual([
			{t: before - 2 * 60 * MINUTE - MINUTE, good: 12, resolution: MINUTE},
			{t: before - 2 * 60 * MINUTE, good: 13, resolution: MINUTE},
			{t: before - 60 * MINUTE, good: 13, resolution: 0},
		]);
		// A count the summaries hold only before a higher one: a restart since; nothing of it.
		expect(shares(recorder, before, 12)).toBeUndefined();
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
