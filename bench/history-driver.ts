// In-process figures of the history store (bundled and run by bench/history.bench.mjs), printed as one JSON line:
// - week: the size of a store holding 7 days of one miner polled every 2 s (the default), written through the real
//   writer with a clock moved by hand (an hour per transaction, so it takes seconds, not a week);
//   and the time of the reads the screens will make on it (a 7-day, a 24-hour and a 10-minute chart of 400 points,
//   a 20-point last hour, a week of events);
// - write: the CPU time of storing one poll as the recorder does in a live session (a transaction of one poll,
//   its summaries when a minute turns), over polls a second apart on the hand-moved clock.
import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {HistoryReader} from '../source/history/read.js';
import {HistoryStore} from '../source/history/store.js';
import {LINK, type SampleRow} from '../source/history/tiers.js';
import {HistoryWriter, type Observation} from '../source/history/writer.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const facts = {apiId: 'a1b2c3d4e5f60718', workerId: 'bench-rig', kind: 'miner', uptimeS: 86_400};

function sample(t: number): SampleRow {
	const hr = 4800 + 200 * Math.sin(t / 600_000) + Math.random() * 40;
	return {
		t,
		link: LINK.live,
		hr10: hr,
		hr60: hr - 5,
		hr15: 4810,
		good: Math.floor(t / 61_000),
		total: Math.floor(t / 61_000) + 1,
		rejected: 1,
		pool: 1,
		paused: 0,
	};
}

function observation(t: number): Observation {
	return {slot: 0, url: 'http://127.0.0.1:18080', name: 'bench-rig', facts, sample: sample(t), spacingMs: 1500};
}

function week(dir: string) {
	let now = Date.UTC(2026, 10, 1);
	const file = path.join(dir, 'week', 'history.sqlite');
	const store = HistoryStore.open({file, now: () => now});
	const writer = new HistoryWriter(store, {now: () => now});
	const start = now;
	for (let hour = 0; hour < 7 * 24; hour++) {
		const batch: Observation[] = [];
		for (let t = start + hour * HOUR; t < start + (hour + 1) * HOUR; t += 2000) batch.push(observation(t));
		now = start + (hour + 1) * HOUR;
		writer.write(
			batch,
			hour % 6 === 0
				? [
						{
							slot: 0,
							url: 'http://127.0.0.1:18080',
							name: 'bench-rig',
							t: now - 1000,
							kind: 'pool-lost',
							severity: 'warn',
							text: 'pool lost: pool.example.org:443',
						},
					]
				: [],
		);
	}

	writer.summarize([writer.minerOf(0) ?? 0], true);
	const rows = store.all<{name: string; n: number}>(
		"SELECT 'polls' AS name, count(*) AS n FROM sample UNION ALL SELECT '1m', count(*) FROM summary_1m UNION ALL SELECT '10m', count(*) FROM summary_10m UNION ALL SELECT 'events', count(*) FROM event",
	);
	const used = store.usedBytes();
	// What the screens will ask, on this week of data: the median of 50 reads each.
	const reader = new HistoryReader(store);
	const miner = writer.minerOf(0) ?? 0;
	const time = (read: () => unknown) => {
		const times: number[] = [];
		for (let i = 0; i < 50; i++) {
			const started = performance.now();
			read();
			times.push(performance.now() - started);
		}

		return times.sort((x, y) => x - y)[25] ?? 0;
	};
	const reads = {
		series7d: time(() => reader.series(miner, {from: now - 7 * DAY, to: now, points: 400})),
		series24h: time(() => reader.series(miner, {from: now - DAY, to: now, points: 400})),
		series10m: time(() => reader.series(miner, {from: now - 10 * MINUTE, to: now, points: 400})),
		lastHour: time(() => reader.series(miner, {from: now - HOUR, to: now, points: 20})),
		events7d: time(() => reader.events(miner, {since: now - 7 * DAY})),
	};
	store.close(); // checkpoints the WAL into the file and removes it
	return {
		fileBytes: statSync(file).size,
		usedBytes: used,
		rows: Object.fromEntries(rows.map((row) => [row.name, row.n])),
		spanDays: (now - start) / DAY,
		reads,
	};
}

function writeCost(dir: string, polls: number) {
	let now = Date.UTC(2026, 10, 1);
	const store = HistoryStore.open({file: path.join(dir, 'cost', 'history.sqlite'), now: () => now});
	const writer = new HistoryWriter(store, {now: () => now});
	// Warm up: the statements prepared, an hour of polls in place.
	for (let i = 0; i < 3600; i++) {
		now += 1000;
		writer.write([observation(now)], []);
	}

	const before = process.cpuUsage();
	const started = performance.now();
	for (let i = 0; i < polls; i++) {
		now += 1000;
		writer.write([observation(now)], []);
	}

	const cpu = process.cpuUsage(before);
	const wall = performance.now() - started;
	store.close();
	return {polls, cpuMsPerPoll: (cpu.user + cpu.system) / 1000 / polls, wallMsPerPoll: wall / polls};
}

/** Bytes this process wrote through write() (SQLite's WAL frames and checkpoints): /proc/self/io wchar. */
function wchar(): number {
	return Number(/^wchar: (\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);
}

/**
 * Bytes written per day for one miner polled every `intervalMs`, written in batches every `flushMs` as the
 * recorder does (summaries each minute, bounds every ten): six hours on the hand-moved clock after a warm-up hour,
 * scaled to a day.
 */
function bytesPerDay(dir: string, intervalMs: number, flushMs: number) {
	let now = Date.UTC(2026, 10, 1);
	const store = HistoryStore.open({file: path.join(dir, `bytes-${intervalMs}`, 'history.sqlite'), now: () => now});
	const writer = new HistoryWriter(store, {now: () => now});
	const run = (ms: number) => {
		const end = now + ms;
		let batch: Observation[] = [];
		let flushAt = now + flushMs;
		for (let t = now; t < end; t += intervalMs) {
			batch.push(observation(t));
			if (t >= flushAt) {
				now = t;
				writer.write(batch, []);
				batch = [];
				flushAt = t + flushMs;
			}
		}

		now = end;
		writer.write(batch, []);
	};

	run(HOUR);
	const before = wchar();
	run(6 * HOUR);
	const written = wchar() - before;
	store.close();
	return (written / 6) * 24;
}

const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-bench-history-'));
try {
	const polls = Number(process.argv[2] ?? 5000);
	console.log(
		JSON.stringify({
			week: week(dir),
			write: writeCost(dir, polls),
			bytesPerDay: {at2s: bytesPerDay(dir, 2000, 5000), at1s: bytesPerDay(dir, 1000, 5000)},
		}),
	);
} finally {
	rmSync(dir, {recursive: true, force: true});
}
