/**
 * A real history store (SQLite, written through the store's own writer) holding a night of one miner, and the
 * MinerHistory the screens read it through — the session's recorder in front of it, as in a live session.
 *
 * The night, before NOW (2026-03-14 12:00 local), a poll every 30 s:
 * - Mar 13 10:00–23:54 mining at about 4.8 kH/s;
 * - 23:54–00:12 down (polls made, no answer): 'down' at 23:54, 'up' at 00:12;
 * - 00:12–02:00 mining: 'restarted' at 01:00, 'pool-lost' at 01:30 and 'pool-connected' at 01:31;
 * - 02:00–06:00 nothing (rigtop was not running): a gap;
 * - 06:00–NOW mining ('started' at 06:00): 'paused' at 09:00 (hashrate 0) and 'resumed' at 09:10, a config applied
 *   at 10:30, and 11:20–11:25 a dip to 2.4 kH/s.
 */
import {copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {HistoryRecorder} from '../../../source/history/recorder.js';
import {SessionHistory} from '../../../source/history/source.js';
import {HistoryStores} from '../../../source/history/stores.js';
import {HistoryStore} from '../../../source/history/store.js';
import {LINK, type SampleRow} from '../../../source/history/tiers.js';
import {HistoryWriter, type EventRecord, type IdentityFacts} from '../../../source/history/writer.js';
import type {MonitorState} from '../../../source/monitor/types.js';
import type {Store} from '../../../source/monitor/store.js';
import {makeSnapshot, NOW} from './state.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const POLL_MS = 30_000;

/** Local time on the night's days: day 13 or 14 of March 2026. */
export function at(day: 13 | 14, hours: number, minutes = 0): number {
	return new Date(2026, 2, day, hours, minutes, 0).getTime();
}

export const NIGHT = {
	start: at(13, 10),
	downFrom: at(13, 23, 54),
	downTo: at(14, 0, 12),
	restarted: at(14, 1),
	poolLost: at(14, 1, 30),
	gapFrom: at(14, 2),
	gapTo: at(14, 6),
	paused: at(14, 9),
	resumed: at(14, 9, 10),
	config: at(14, 10, 30),
	dipFrom: at(14, 11, 20),
	dipTo: at(14, 11, 25),
} as const;

const URL = 'http://127.0.0.1:18088';
const snapshot = makeSnapshot();
const facts: IdentityFacts = {apiId: snapshot.id, workerId: snapshot.workerId, kind: 'miner', uptimeS: 3600};

function hashrateAt(t: number): number {
	if (t >= NIGHT.dipFrom && t < NIGHT.dipTo) return 2400;
	return 4800 + 60 * Math.sin(t / (7 * MINUTE));
}

function sample(t: number): SampleRow {
	if (t >= NIGHT.downFrom && t < NIGHT.downTo) {
		return {t, link: LINK.down, hr10: null, hr60: null, hr15: null, good: null, total: null, rejected: null, pool: null, paused: null};
	}

	const paused = t >= NIGHT.paused && t < NIGHT.resumed;
	const hr = paused ? 0 : hashrateAt(t);
	return {t, link: LINK.live, hr10: hr, hr60: hr, hr15: 4800, good: 100, total: 101, rejected: 1, pool: 1, paused: paused ? 1 : 0};
}

const EVENTS: readonly [number, string, string, string][] = [
	[NIGHT.start, 'started', 'info', 'watching rig-01, XMRig 6.26.0'],
	[NIGHT.downFrom, 'down', 'error', 'down: connection refused'],
	[NIGHT.downTo, 'up', 'info', 'back up after 18m 00s'],
	[NIGHT.restarted, 'restarted', 'warn', 'restarted (uptime 3h 10m → 12s)'],
	[NIGHT.poolLost, 'pool-lost', 'warn', 'pool lost: pool.example.org:443'],
	[NIGHT.poolLost + MINUTE, 'pool-connected', 'info', 'pool reconnected: pool.example.org:443'],
	[NIGHT.gapTo, 'started', 'info', 'watching rig-01, XMRig 6.26.0'],
	[NIGHT.paused, 'paused', 'info', 'paused'],
	[NIGHT.resumed, 'resumed', 'info', 'resumed'],
	[NIGHT.config, 'action', 'info', 'config apply: applied 1 change'],
];

/** Writes the night into a fresh store file; returns the file (closed). */
export function writeNight(dir: string): string {
	const file = path.join(dir, 'rigtop', 'history.sqlite');
	const store = HistoryStore.open({file, notify: () => undefined});
	let now = NIGHT.start;
	const writer = new HistoryWriter(store, {now: () => now, writerId: 1});
	const events = [...EVENTS];
	const observation = (t: number) => {
		const row = sample(t);
		return {slot: 0, url: URL, name: 'rig-01', facts: row.link === LINK.live ? facts : null, sample: row, spacingMs: POLL_MS * 0.75};
	};

	// Ten minutes of polls a transaction (the recorder writes every 5 s; the result is the same rows).
	for (let from = NIGHT.start; from < NOW - 2 * POLL_MS; from += 10 * MINUTE) {
		const to = Math.min(from + 10 * MINUTE, NOW - 2 * POLL_MS);
		const observations = [];
		for (let t = from; t < to; t += POLL_MS) if (t < NIGHT.gapFrom || t >= NIGHT.gapTo) observations.push(observation(t));
		const due: EventRecord[] = [];
		while (events[0] && events[0][0] < to) {
			const [t, kind, severity, text] = events.shift() ?? [0, '', '', ''];
			due.push({slot: 0, url: URL, name: 'rig-01', t, kind, severity, text});
		}

		now = to;
		writer.write(observations, due);
	}

	writer.summarize([writer.minerOf(0) ?? 0], true);
	store.close();
	return file;
}

let template: string | null = null;

/** A copy of the night's store in `dir` (written once per test file: about 0.4 s). */
export function copyOfNight(dir: string): string {
	if (template === null || !existsSync(template)) {
		const templateDir = mkdtempSync(path.join(tmpdir(), 'rigtop-ui-night-'));
		process.once('exit', () => rmSync(templateDir, {recursive: true, force: true}));
		template = writeNight(templateDir);
	}

	const file = path.join(dir, 'rigtop', 'history.sqlite');
	mkdirSync(path.dirname(file), {recursive: true, mode: 0o700});
	for (const suffix of ['', '-wal']) if (existsSync(template + suffix)) copyFileSync(template + suffix, file + suffix);
	return file;
}

export type NightHistory = {
	/** What the screens get: the miner's history stores. */
	readonly history: HistoryStores;
	/** What the stores read (the screens never do). */
	readonly source: SessionHistory;
	readonly recorder: HistoryRecorder;
	readonly file: string;
	close(): void;
};

/**
 * The night's store opened by a session's recorder watching `monitor` (a poll at NOW identifies it as the stored
 * miner), the SessionHistory read, and the stores the screens get over it. A template store is written once per test file and copied.
 */
export function nightHistory(monitor: Store<MonitorState>, options: {readonly recorder?: boolean} = {}): NightHistory {
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-ui-history-'));
	const file = copyOfNight(dir);
	const store = HistoryStore.open({file, notify: () => undefined});
	const recorder = new HistoryRecorder(store, {intervalMs: POLL_MS, now: () => NOW, writerId: 2});
	const useRecorder = options.recorder ?? true;
	if (useRecorder) recorder.watch([monitor]);
	const source = new SessionHistory({monitor, slot: 0, recorder: useRecorder ? recorder : null, intervalMs: POLL_MS, capacity: 900});
	const history = new HistoryStores(source, monitor);
	return {
		history,
		source,
		recorder,
		file,
		close() {
			history.close();
			recorder.close();
			rmSync(dir, {recursive: true, force: true});
		},
	};
}

export {HOUR, MINUTE};
