/**
 * A history store written before rigtop cleaned what miners send (issue 36): its rows hold a hostile miner's raw bytes
 * (names, ids, event texts, a proxy worker's name). `rigtop history --list`, `history URL` (text and CSV) and
 * `--worker` print them cleaned, and still find the same miner and worker: the stored keys are not rewritten.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {runHistoryCommand, type HistoryCommandOptions} from '../../../source/commands/history/history.js';
import {loadSqlite} from '../../../source/history/sqlite.js';
import {HistoryWriter} from '../../../source/history/writer.js';
import {eventRecord, goodSample, observation} from '../../history/helpers.js';
import {capture, clockedStore, historyOptions} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

// Nothing listens on the discard port of loopback: the proxy is found by the URL it was last seen at.
const PROXY_URL = 'http://127.0.0.1:9';
const TITLE = '\u001B]52;c;SEFDS0VE\u0007\u001B]0;PWNTITLE\u0007';
const CLEAR = '\u001B[2J\u001B[H\u009B31m';
/** The same bytes as cleaned: each control shown as its code, the rest of the sequence kept as plain text. */
const SHOWN_TITLE = '<001B>]52;c;SEFDS0VE<0007><001B>]0;PWNTITLE<0007>';
const SHOWN_CLEAR = '<001B>[2J<001B>[H<009B>31m';

/** What a terminal would act on, or that hides: C0 but the newline, DEL, C1, bidi and zero-width characters. */
// eslint-disable-next-line no-control-regex -- the bytes no output may hold.
const UNSAFE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;

/** A proxy polled for 20 minutes with two workers and events; then its rows rewritten with raw bytes, as an old rigtop stored them. */
function rawStore() {
	const {store, clock, dir, file} = clockedStore(cleanups);
	const writer = new HistoryWriter(store, {now: clock.now});
	const start = clock.now();
	const facts = {apiId: 'proxy-api-id', workerId: 'sim-proxy', kind: 'proxy', uptimeS: 36_000};
	const at = {url: PROXY_URL, name: 'sim-proxy'};
	for (let t = start; t < start + 20 * 60_000; t += 10_000) {
		clock.set(t);
		const i = (t - start) / 10_000;
		writer.write(
			[
				observation(goodSample(t, 9000), {...facts, uptimeS: 36_000 + i * 10}, {...at, spacingMs: 7500}),
				observation(goodSample(t, 4000, {good: 100 + i, total: 100 + i, rejected: 0}), null, {...at, spacingMs: 7500, worker: 'rig-a'}),
			],
			[],
		);
	}

	writer.write(
		[],
		[
			eventRecord(start + 5 * 60_000, 'restart', 'restarted: version 6.26.0', at),
			eventRecord(start + 6 * 60_000, 'worker-quiet', 'worker rig-a quiet', {...at, worker: 'rig-a'}),
		],
	);
	writer.summarize([writer.minerOf(0) ?? -1], true);
	store.close();

	const {DatabaseSync} = loadSqlite();
	const db = new DatabaseSync(file);
	db.prepare("UPDATE miner SET name = ?, worker = ?, api_id = ? WHERE worker = 'sim-proxy'").run(
		`sim${TITLE}-proxy`,
		`wk${TITLE}`,
		`id${CLEAR}\u202E`,
	);
	db.prepare("UPDATE event SET text = ? WHERE kind = 'restart'").run(`restarted: version 6.26.0${CLEAR}`);
	db.prepare("UPDATE event SET text = ?, worker = ? WHERE worker = 'rig-a'").run(`worker rig-a${TITLE} quiet`, `rig-a${CLEAR}\u200B`);
	db.prepare("UPDATE proxy_worker SET name = ? WHERE name = 'rig-a'").run(`rig-a${CLEAR}\u200B`);
	db.close();
	return {file, dir, end: clock.now() + 1000};
}

async function history(file: string, dir: string, overrides: Partial<HistoryCommandOptions>, end: number) {
	const out = capture();
	const err = capture();
	const code = await runHistoryCommand({
		...historyOptions(file, dir, {since: '1h', ...overrides}),
		now: end,
		stdout: out.stream,
		stderr: err.stream,
	});
	return {code, stdout: out.text(), stderr: err.text()};
}

describe('rigtop history on rows stored with raw bytes', () => {
	it('--list, text and CSV print them clean, and find the same miner and worker', async () => {
		const {file, dir, end} = rawStore();

		const list = await history(file, dir, {list: true}, end);
		expect(list.code).toBe(0);
		expect(list.stdout).toContain(`sim${SHOWN_TITLE}-proxy`);
		expect(list.stdout).toContain(`id${SHOWN_CLEAR}<202E>`);
		expect(`${list.stdout}${list.stderr}`).not.toMatch(UNSAFE);

		const text = await history(file, dir, {urls: [PROXY_URL]}, end);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain(`sim${SHOWN_TITLE}-proxy (worker wk${SHOWN_TITLE}, ${PROXY_URL})`);
		expect(text.stdout).toContain('hashrate  (1m) avg 9.00 kH/s');
		expect(text.stdout).toContain(`restarted: version 6.26.0${SHOWN_CLEAR}\n`);
		expect(text.stdout).toContain(`rig-a${SHOWN_CLEAR}<200B>`);
		expect(`${text.stdout}${text.stderr}`).not.toMatch(UNSAFE);

		const csv = await history(file, dir, {urls: [PROXY_URL], csv: true}, end);
		expect(csv.code).toBe(0);
		expect(csv.stdout).toContain(`restarted: version 6.26.0${SHOWN_CLEAR}`);
		expect(csv.stdout.split('\n').filter((line) => line.split(',')[1] === 'sample').length).toBeGreaterThan(100);
		expect(`${csv.stdout}${csv.stderr}`).not.toMatch(UNSAFE);

		// The worker by the name shown: its polls and its events, found by the name as stored.
		const worker = await history(file, dir, {urls: [PROXY_URL], worker: `rig-a${SHOWN_CLEAR}<200B>`}, end);
		expect(worker.code).toBe(0);
		expect(worker.stdout).toContain(`worker rig-a${SHOWN_CLEAR}<200B> of sim${SHOWN_TITLE}-proxy`);
		expect(worker.stdout).toContain('hashrate  (1m) avg 4.00 kH/s');
		expect(worker.stdout).toContain('events (1)');
		expect(worker.stdout).toContain(`worker rig-a${SHOWN_TITLE} quiet`);
		expect(`${worker.stdout}${worker.stderr}`).not.toMatch(UNSAFE);
	});

	it('--worker finds the worker by the raw name pasted, as by the name shown', async () => {
		const {file, dir, end} = rawStore();
		// Shown with its codes; pasted raw, escape bytes and zero-width space as stored, it is the same worker.
		const pasted = await history(file, dir, {urls: [PROXY_URL], worker: `rig-a${CLEAR}\u200B`}, end);
		expect(pasted.stderr).toBe('');
		expect(pasted.code).toBe(0);
		expect(pasted.stdout).toContain(`worker rig-a${SHOWN_CLEAR}<200B> of sim${SHOWN_TITLE}-proxy`);
		expect(pasted.stdout).toContain('hashrate  (1m) avg 4.00 kH/s');
	});

	it('a name it does not know is echoed with its controls, bidi and invisibles escaped', async () => {
		const {file, dir, end} = rawStore();
		const hostile = `x\u001B]0;T\u0007\u202E\u009B\u200B`;
		const worker = await history(file, dir, {urls: [PROXY_URL], worker: hostile}, end);
		expect(worker.code).toBe(1);
		expect(worker.stderr).toContain('no history is stored for a worker "x\\u001b]0;T\\u0007\\u202e\\u009b\\u200b"');
		expect(worker.stderr).not.toMatch(UNSAFE);

		const rig = await history(file, dir, {urls: [hostile]}, end);
		expect(rig.code).toBe(1);
		expect(rig.stderr).toContain('no history is stored for a rig called "x\\u001b]0;T\\u0007\\u202e\\u009b\\u200b"');
		expect(rig.stderr).not.toMatch(UNSAFE);
	});
});
