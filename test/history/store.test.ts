import {chmodSync, mkdirSync, statSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {HistoryReader} from '../../source/history/read.js';
import {APPLICATION_ID, SCHEMA_VERSION} from '../../source/history/store.js';
import {HistoryWriter} from '../../source/history/writer.js';
import {eventRecord, goodSample, manualClock, observation, openStore, sixFacts, tempDir, writeRun} from './helpers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup(options: Parameters<typeof openStore>[1] = {}) {
	const temp = tempDir();
	cleanups.push(temp.cleanup);
	const {store, notices} = openStore(temp.dir, options);
	cleanups.unshift(() => store.close());
	const clock = manualClock();
	const writer = new HistoryWriter(store, {now: clock.now, writerId: 1});
	const reader = new HistoryReader(store);
	return {dir: temp.dir, store, notices, clock, writer, reader};
}

describe('history store: the file', () => {
	it('is created as rigtop’s store, mode 0600 in a 0700 folder, in WAL mode', () => {
		const {store, dir, writer, clock} = setup();
		expect(store.enabled).toBe(true);
		writer.write([observation(goodSample(clock.now(), 1000), sixFacts('id-a'))], []);
		const folder = path.join(dir, 'rigtop');
		expect(statSync(folder).mode & 0o777).toBe(0o700);
		for (const name of ['history.sqlite', 'history.sqlite-wal', 'history.sqlite-shm']) {
			expect(statSync(path.join(folder, name)).mode & 0o777, name).toBe(0o600);
		}

		expect(store.get<{application_id: number}>('PRAGMA application_id')?.application_id).toBe(APPLICATION_ID);
		expect(store.get<{user_version: number}>('PRAGMA user_version')?.user_version).toBe(SCHEMA_VERSION);
		expect(store.get<{journal_mode: string}>('PRAGMA journal_mode')?.journal_mode).toBe('wal');
	});
});

describe('history store: permissions', () => {
	it('takes group and other rights off an existing folder and file, and never gives the owner any', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const folder = path.join(temp.dir, 'rigtop');
		mkdirSync(folder, {mode: 0o755});
		chmodSync(folder, 0o755);
		const file = path.join(folder, 'history.sqlite');
		{
			const {store} = openStore(temp.dir);
			store.close();
		}

		chmodSync(file, 0o644);
		{
			const {store} = openStore(temp.dir);
			store.close();
		}

		expect(statSync(folder).mode & 0o777).toBe(0o700);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		// Made read-only by its owner: it stays read-only (the owner's bits are not touched).
		chmodSync(file, 0o444);
		chmodSync(folder, 0o555);
		const {store} = openStore(temp.dir);
		store.close();
		expect(statSync(folder).mode & 0o777).toBe(0o500);
		expect(statSync(file).mode & 0o777).toBe(0o400);
		chmodSync(folder, 0o700);
	});
});

describe('history store: tiers', () => {
	it('keeps every poll for the last hour, minute summaries for 2 days and 10-minute summaries beyond, with min/avg/max', () => {
		const {writer, clock, reader, store} = setup();
		const start = clock.now();
		// Three days at one poll per 10 s; the hashrate alternates 900 / 1100 within each minute.
		writeRun(writer, clock, start, start + 3 * DAY, 10_000, (t) => (Math.floor(t / 10_000) % 2 === 0 ? 900 : 1100));
		const end = clock.now();
		const miner = writer.minerOf(0);
		expect(miner).not.toBeNull();
		const id = miner ?? 0;
		const samples = store.get<{n: number; lo: number}>('SELECT count(*) AS n, min(t) AS lo FROM sample WHERE miner = ?', id);
		expect(samples?.n).toBeGreaterThanOrEqual(360);
		expect(samples?.n).toBeLessThanOrEqual(450); // 65 minutes kept, pruned every 10: 75 at most
		expect(end - (samples?.lo ?? 0)).toBeLessThanOrEqual(75 * MINUTE);
		const minutes = store.get<{n: number; lo: number}>('SELECT count(*) AS n, min(t) AS lo FROM summary_1m WHERE miner = ?', id);
		expect(end - (minutes?.lo ?? 0)).toBeLessThanOrEqual(2 * DAY + 11 * MINUTE);
		expect(end - (minutes?.lo ?? 0)).toBeGreaterThanOrEqual(2 * DAY - MINUTE);
		const tens = store.get<{n: number; lo: number}>('SELECT count(*) AS n, min(t) AS lo FROM summary_10m WHERE miner = ?', id);
		expect(tens?.lo).toBe(Math.floor(start / 600_000) * 600_000);
		const row = store.get<{n: number; hr_min: number; hr_avg: number; hr_max: number}>(
			'SELECT n, hr_min, hr_avg, hr_max FROM summary_1m WHERE miner = ? ORDER BY t DESC LIMIT 1 OFFSET 5',
			id,
		);
		expect(row).toEqual({n: 6, hr_min: 900, hr_avg: 1000, hr_max: 1100});
		const ten = store.get<{n: number; hr_min: number; hr_avg: number; hr_max: number}>(
			'SELECT n, hr_min, hr_avg, hr_max FROM summary_10m WHERE miner = ? ORDER BY t LIMIT 1',
			id,
		);
		expect(ten).toEqual({n: 60, hr_min: 900, hr_avg: 1000, hr_max: 1100});

		// A week-long chart of three days of data: the first four days are gaps, then 10-minute data.
		const week = reader.series(id, {from: end - 7 * DAY, to: end, points: 168});
		expect(week.points).toHaveLength(168);
		expect(week.points.slice(0, 95).every((point) => point.samples === 0)).toBe(true);
		expect(week.points.slice(97).every((point) => point.samples > 0 && point.min === 900 && point.max === 1100)).toBe(true);
		// The last 10 minutes at 5 s per point come from the polls: every other point has one.
		const recent = reader.series(id, {from: end - 10 * MINUTE, to: end, points: 120});
		expect(recent.points.filter((point) => point.samples > 0)).toHaveLength(60);
	});

	it.each([
		['inside a ten-minute span', 5 * MINUTE + 50_000],
		['across two ten-minute spans', 9 * MINUTE + 50_000],
	])('reads a young miner from its polls, not from the summaries of the minute and ten minutes its first poll is in (%s)', (_, offset) => {
		const {writer, clock, reader} = setup();
		// First poll at 12:05:50 or 12:09:50 (inside a minute and a ten-minute span), one every 2 s for 3 minutes, then
		// closing summarizes: every summary the store has for it covers polls the store still holds one by one.
		const start = Math.floor(clock.now() / (10 * MINUTE)) * 10 * MINUTE + offset;
		writeRun(writer, clock, start, start + 3 * MINUTE, 2000, () => 1000);
		const id = writer.minerOf(0) ?? 0;
		writer.summarize([id], true);
		const end = clock.now() + 1;
		const rows = reader.rows(id, {from: 0, to: end});
		expect(rows).toHaveLength(90);
		expect(rows.every((row) => row.resolution === 0)).toBe(true);
		expect(rows[0]?.t).toBe(start);
		// Its span starts at its first poll (the summaries' times are their minutes' and ten minutes' starts).
		expect(reader.span(id)?.first).toBe(start);
		// A 30-minute series at 1 minute a point: nothing before the first poll's minute.
		const series = reader.series(id, {from: start - 15 * MINUTE, to: start + 15 * MINUTE, points: 30});
		const firstFilled = series.points.findIndex((point) => point.samples > 0);
		expect(firstFilled).toBe(14); // [start − 60 s, start): the summary of the first poll's minute, not of its ten minutes
		expect(series.points.reduce((sum, point) => sum + point.samples, 0)).toBe(90);
	});

	it('shows an outage as buckets of failed polls and a time rigtop was not watching as empty buckets', () => {
		const {writer, clock, reader} = setup();
		const start = clock.now();
		writeRun(writer, clock, start, start + 20 * MINUTE, 2000, () => 1000);
		writeRun(writer, clock, start + 20 * MINUTE, start + 30 * MINUTE, 2000, () => null); // miner down
		// 30–40: rigtop not running
		writeRun(writer, clock, start + 40 * MINUTE, start + 60 * MINUTE, 2000, () => 1000);
		const id = writer.minerOf(0) ?? 0;
		const series = reader.series(id, {from: start, to: start + 60 * MINUTE, points: 60});
		const kinds = series.points.map((point) => (point.samples === 0 ? 'gap' : point.live === 0 ? 'down' : 'ok'));
		expect(kinds.slice(0, 20).every((kind) => kind === 'ok')).toBe(true);
		expect(kinds.slice(20, 30).every((kind) => kind === 'down')).toBe(true);
		expect(kinds.slice(30, 40).every((kind) => kind === 'gap')).toBe(true);
		expect(kinds.slice(40).every((kind) => kind === 'ok')).toBe(true);
		expect(series.points[25]?.link).toBe('down');
		expect(series.points[25]?.avg).toBeNull();
	});

	it('counts a stored bucket that the span starts inside (a span need not start on a minute)', () => {
		const {writer, clock, reader} = setup();
		const start = clock.now();
		writeRun(writer, clock, start, start + 2 * HOUR, 10_000, () => 1000);
		const id = writer.minerOf(0) ?? 0;
		// Minutes 5 to 20, from half a minute into minute 5, in 87 s buckets: read from the minute summaries.
		const series = reader.series(id, {from: start + 5.5 * MINUTE, to: start + 20 * MINUTE, points: 10});
		expect(series.points[0]?.samples).toBe(12); // minutes 5 and 6, six polls each
		expect(series.points.reduce((sum, point) => sum + point.samples, 0)).toBe(15 * 6); // minutes 5 to 19
	});

	it('stores events and reads them back from a time on, oldest first', () => {
		const {writer, clock, reader} = setup();
		const t = clock.now();
		writer.write([observation(goodSample(t, 1000), sixFacts('id-a'))], [eventRecord(t, 'started', 'watching rig-a', {severity: 'info'})]);
		writer.write(
			[],
			[eventRecord(t + 5000, 'pool-lost', 'pool lost: pool.example:3333'), eventRecord(t + 9000, 'some-later-kind', 'a kind added later')],
		);
		const id = writer.minerOf(0) ?? 0;
		expect(reader.events(id, {since: t + 1}).map((event) => event.kind)).toEqual(['pool-lost', 'some-later-kind']);
		expect(reader.events(id, {since: 0, limit: 2}).map((event) => event.text)).toEqual([
			'pool lost: pool.example:3333',
			'a kind added later',
		]);
		expect(reader.events(id, {since: 0})[0]).toEqual({t, kind: 'started', severity: 'info', text: 'watching rig-a'});
	});
});
