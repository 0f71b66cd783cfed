import {afterEach, describe, expect, it} from 'vitest';
import {HistoryReader} from '../../source/history/read.js';
import {EVENT_MAX_ROWS, MINUTE_TIER, SAMPLE_TIER, TEN_MINUTE_TIER} from '../../source/history/tiers.js';
import {HistoryWriter, type Observation} from '../../source/history/writer.js';
import {eventRecord, goodSample, manualClock, observation, openStore, sixFacts, tempDir} from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MB = 1024 * 1024;

function setup(maxBytes?: number) {
	const temp = tempDir();
	const clock = manualClock();
	const {store, notices} = openStore(temp.dir, {now: clock.now, ...(maxBytes === undefined ? {} : {maxBytes})});
	cleanups.push(() => store.close(), temp.cleanup);
	return {store, notices, clock};
}

/**
 * Fills one miner as far as every bound lets it: 30 days of polls once a minute (written an hour at a time, so the
 * summaries are made as they would be), then the last hour at one poll per 0.2 s (denser than the shortest
 * interval allows), and more events than are kept, with long texts.
 */
function fillOneMiner(writer: HistoryWriter, clock: ReturnType<typeof manualClock>, apiId: string, slot = 0): void {
	const facts = sixFacts(apiId, `worker-${apiId}`);
	const url = `http://10.0.0.${slot + 1}:8080`;
	const start = clock.now();
	for (let hour = 0; hour < 30 * 24; hour++) {
		const batch: Observation[] = [];
		for (let m = 0; m < 60; m++) {
			const t = start + hour * HOUR + m * MINUTE;
			batch.push(
				observation(goodSample(t, 1000 + (m % 7) * 10, {good: hour * 60 + m, total: hour * 60 + m}), facts, {slot, url, spacingMs: 100}),
			);
		}

		clock.set(start + (hour + 1) * HOUR);
		writer.write(batch, []);
	}

	const end = clock.now();
	for (let t = end; t < end + HOUR; t += 6 * MINUTE) {
		const batch: Observation[] = [];
		for (let u = t; u < t + 6 * MINUTE; u += 200) batch.push(observation(goodSample(u, 1234.5678), facts, {slot, url, spacingMs: 150}));
		clock.set(t + 6 * MINUTE);
		writer.write(batch, []);
	}

	const events = Array.from({length: EVENT_MAX_ROWS + 500}, (_, i) =>
		eventRecord(
			clock.now() - i * 1000,
			'hashrate-drop',
			`hashrate down to 812 H/s, 44% of the 15 m average (1.85 kH/s) — ${i} ${'·'.repeat(120)}`,
			{
				slot,
				url,
			},
		),
	);
	writer.write([], events);
	writer.summarize([writer.minerOf(slot) ?? 0], true);
}

describe('history store: bounds', () => {
	it('keeps one miner within 5 MB however much it is fed, every tier at its own bound', () => {
		const {store, clock} = setup();
		const writer = new HistoryWriter(store, {now: clock.now});
		fillOneMiner(writer, clock, 'id-full');
		const miner = writer.minerOf(0) ?? 0;
		const count = (sql: string, ...params: number[]) => store.get<{n: number}>(sql, miner, ...params)?.n ?? 0;
		expect(count('SELECT count(*) AS n FROM sample WHERE miner = ?')).toBeLessThanOrEqual(SAMPLE_TIER.maxRows + 1);
		expect(count('SELECT count(*) AS n FROM sample WHERE miner = ?')).toBeGreaterThan(SAMPLE_TIER.maxRows - 200);
		expect(count('SELECT count(*) AS n FROM summary_1m WHERE miner = ?')).toBeLessThanOrEqual(MINUTE_TIER.maxRows + 1);
		expect(count('SELECT count(*) AS n FROM summary_10m WHERE miner = ?')).toBeLessThanOrEqual(TEN_MINUTE_TIER.maxRows + 1);
		expect(count('SELECT count(*) AS n FROM summary_10m WHERE miner = ?')).toBeGreaterThan(30 * 24 * 6 - 20);
		// These events are long (about 430 bytes): the 2 MiB bound keeps fewer than 10,000 of them, the newest.
		const events = count('SELECT count(*) AS n FROM event WHERE miner = ?');
		expect(events).toBeGreaterThan(4000);
		expect(events).toBeLessThan(EVENT_MAX_ROWS);
		expect(new HistoryReader(store).events(miner, {since: 0, limit: 1})[0]?.text).toMatch(/— 0 ·/);
		const used = store.usedBytes();
		// The figure by table, for the log, where SQLite has its dbstat table (Node 22.13's has not).
		let byTable = 'by table: no dbstat in this SQLite';
		try {
			const tables = store.all<{name: string; bytes: number}>(
				'SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC',
			);
			byTable = tables.map((table) => `${table.name} ${(table.bytes / MB).toFixed(2)}`).join(', ');
		} catch {
			// Left as said.
		}

		console.log(`one miner at every bound: ${(used / MB).toFixed(2)} MB (${byTable})`);
		expect(used).toBeGreaterThan(MB); // the figure is real: 18,000 polls, 7,200 summaries, 2 MiB of events
		expect(used).toBeLessThan(5 * MB);
		// A week back is still there, at 10-minute resolution, min/avg/max intact.
		const week = new HistoryReader(store).series(miner, {from: clock.now() - 7 * DAY, to: clock.now(), points: 7 * 24});
		expect(week.points.every((point) => point.samples > 0)).toBe(true);
		expect(week.points[0]?.min).toBe(1000);
		expect(week.points[0]?.max).toBe(1060);
	}, 60_000);

	it('keeps the whole store under its bound by dropping the miners seen longest ago, never one seen in the last hour', () => {
		const {store, clock} = setup(512 * 1024);
		const writer = new HistoryWriter(store, {now: clock.now});
		const start = clock.now();
		// Twelve miners, one after the other, each watched for two hours (a poll every 10 s) and logging 120 long events.
		for (let rig = 0; rig < 12; rig++) {
			const facts = sixFacts(`id-${rig}`, `worker-${rig}`);
			const url = `http://10.0.1.${rig + 1}:8080`;
			for (let hour = 0; hour < 2; hour++) {
				const batch: Observation[] = [];
				const base = start + (rig * 2 + hour) * HOUR;
				for (let t = base; t < base + HOUR; t += 10_000)
					batch.push(observation(goodSample(t, 1000 + rig), facts, {slot: rig, url, spacingMs: 7500}));
				const events = Array.from({length: 60}, (_, i) =>
					eventRecord(base + i * 1000, 'rejected', `share rejected (${i} of ${i + 1000}) ${'x'.repeat(250)}`, {slot: rig, url}),
				);
				clock.set(base + HOUR);
				writer.write(batch, events);
			}

			store.maintain(clock.now());
			expect(store.usedBytes()).toBeLessThan(512 * 1024 * 0.86);
		}

		const reader = new HistoryReader(store);
		const kept = reader.miners().map((miner) => miner.apiId);
		// The one being watched is kept, with the ones seen most recently; the first ones went.
		expect(kept[0]).toBe('id-11');
		expect(kept).not.toContain('id-0');
		expect(kept.length).toBeLessThan(12);
		expect(kept.length).toBeGreaterThan(1);
		expect(store.enabled).toBe(true);
	}, 60_000);
});
