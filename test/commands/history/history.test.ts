import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {parseTime, runHistoryCommand} from '../../../source/commands/history/history.js';
import {UsageError} from '../../../source/session/errors.js';
import {HistoryWriter} from '../../../source/history/writer.js';
import {textWidth} from '../../../source/text/cells.js';
import {startSimulator} from '../../../source/sim/simulator.js';
import {downSample, eventRecord, goodSample, observation, openStore, sixFacts, tempDir, writeRun} from '../../history/helpers.js';
import {capture, clockedStore, historyOptions} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A time as `rigtop history` prints it (local). */
function localTimeOf(t: number): string {
	const d = new Date(t);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A store holding two miners: rig-a (three hours, an outage, events) and rig-b (seen earlier). */
function storeWithHistory() {
	const {store, clock, dir, file} = clockedStore(cleanups);
	const writer = new HistoryWriter(store, {now: clock.now});
	const start = clock.now();
	const b = new HistoryWriter(store, {now: clock.now});
	b.write([observation(goodSample(start - HOUR, 500), sixFacts('id-b', 'rig-b'), {url: 'http://10.0.0.9:8080', name: 'rig-b'})], []);
	writeRun(writer, clock, start, start + 3 * HOUR, 10_000, (t) => (t >= start + HOUR && t < start + HOUR + 10 * MINUTE ? null : 1000));
	writer.write(
		[observation(downSample(clock.now() + 1000), null)],
		[
			eventRecord(start + HOUR, 'down', 'down: connection refused', {severity: 'error'}),
			eventRecord(start + HOUR + 10 * MINUTE, 'up', 'back up after 10m'),
			eventRecord(start + 2 * HOUR, 'action', 'config apply: set "pools, the first", done', {severity: 'info'}),
		],
	);
	store.close();
	return {file, end: clock.now() + 2000, start, dir};
}

describe('rigtop history against a real store', () => {
	it('prints the series from the finest tier for each time, and the events, as JSON', async () => {
		const {file, dir, end, start} = storeWithHistory();
		const out = capture();
		const code = await runHistoryCommand(
			historyOptions(file, dir, {urls: ['127.0.0.1:18080'], since: '4h', json: true, now: end, stdout: out.stream}),
		);
		expect(code).toBe(0);
		const doc = JSON.parse(out.text()) as {
			miner: {name: string; id: string};
			series: {time: string; resolution: string; polls: number; answered: number; hashrate: {avg: number | null}}[];
			events: {kind: string; time: string; text: string}[];
		};
		expect(doc.miner).toMatchObject({name: 'rig-a', id: 'id-a'});
		const resolutions = doc.series.map((row) => row.resolution);
		// Older times as minute summaries, the last hour poll by poll; in time order.
		expect(resolutions[0]).toBe('1m');
		expect(resolutions.at(-1)).toBe('poll');
		expect(doc.series.map((row) => Date.parse(row.time))).toEqual([...doc.series.map((row) => Date.parse(row.time))].sort((a, b) => a - b));
		expect(doc.series.reduce((sum, row) => sum + row.polls, 0)).toBeGreaterThan(3 * 360 - 10);
		const outage = doc.series.filter((row) => Date.parse(row.time) >= start + HOUR && Date.parse(row.time) < start + HOUR + 10 * MINUTE);
		expect(outage.length).toBe(10);
		expect(outage.every((row) => row.answered === 0 && row.hashrate.avg === null)).toBe(true);
		expect(doc.events.map((event) => event.kind)).toEqual(['down', 'up', 'action']);
	});

	it('prints CSV that a spreadsheet reads: one header, samples and events in time order, quoted text', async () => {
		const {file, dir, end} = storeWithHistory();
		const out = capture();
		expect(
			await runHistoryCommand(historyOptions(file, dir, {urls: ['127.0.0.1:18080'], csv: true, since: '3h', now: end, stdout: out.stream})),
		).toBe(0);
		const lines = out.text().trim().split('\n');
		expect(lines[0]).toBe(
			'time,record,resolution,polls,answered,hashrate_min,hashrate_avg,hashrate_max,hashrate_60s,hashrate_15m,shares_good,shares_total,shares_rejected,pool,paused,link,event_kind,event_severity,event_text,temp_min,temp_avg,temp_max,temp_limit,clock_mhz_min,clock_mhz_avg,clock_mhz_max,power_w_min,power_w_avg,power_w_max,hpw_min,hpw_avg,hpw_max',
		);
		expect(lines.filter((line) => line.includes(',event,'))).toHaveLength(3);
		expect(lines).toContainEqual(expect.stringMatching(/,event,(,){14}action,info,"config apply: set ""pools, the first"", done"(,){13}$/));
		const times = lines.slice(1).map((line) => Date.parse(line.split(',')[0] ?? ''));
		expect(times).toEqual([...times].sort((a, b) => a - b));
	});

	it('prints a summary for people: hashrate, time not answering, dated events', async () => {
		const {file, dir, end} = storeWithHistory();
		const out = capture();
		expect(await runHistoryCommand(historyOptions(file, dir, {urls: ['127.0.0.1:18080'], now: end, stdout: out.stream}))).toBe(0);
		expect(out.text()).toMatch(/^rig-a \(http:\/\/127\.0\.0\.1:18080\), \d{4}-\d\d-\d\d/);
		expect(out.text()).toMatch(/hashrate {2}avg 1\.00 kH\/s · min 1\.00 kH\/s · max 1\.00 kH\/s/);
		// The 10-minute outage is past, and the miner answers at the end: it is not said to be down.
		expect(out.text()).toMatch(/ · not answering for a total of about 10m in past outages\n/);
		expect(out.text()).not.toMatch(/\ndown /);
		expect(out.text()).toMatch(/events \(3\)\n {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}error {2}down: connection refused/);
	});

	it('a miner answering now: its past outages added up, and no line saying it is down', async () => {
		const {store, clock, dir, file} = clockedStore(cleanups);
		const writer = new HistoryWriter(store, {now: clock.now});
		const start = clock.now();
		// Polls every 5 s for 20 minutes, with two outages (60 s and 35 s) and answering since.
		const down = (t: number) =>
			(t >= start + 5 * MINUTE && t < start + 6 * MINUTE) || (t >= start + 12 * MINUTE && t < start + 12 * MINUTE + 35_000);
		writeRun(writer, clock, start, start + 20 * MINUTE, 5000, (t) => (down(t) ? null : 1000));
		store.close();
		const out = capture();
		expect(
			await runHistoryCommand(historyOptions(file, dir, {urls: ['127.0.0.1:18080'], now: clock.now() + 1000, stdout: out.stream})),
		).toBe(0);
		expect(out.text()).toMatch(/ · not answering for a total of about 1m 35s in past outages\n/);
		expect(out.text()).not.toMatch(/\ndown /);

		// Down now: the open outage is its own line, not in the total.
		const again = openStore(dir, {now: clock.now});
		const more = new HistoryWriter(again.store, {now: clock.now});
		writeRun(more, clock, start + 20 * MINUTE, start + 21 * MINUTE, 5000, () => null);
		again.store.close();
		const later = capture();
		expect(
			await runHistoryCommand(historyOptions(file, dir, {urls: ['127.0.0.1:18080'], now: clock.now() + 1000, stdout: later.stream})),
		).toBe(0);
		expect(later.text()).toMatch(/ · not answering for a total of about 1m 35s in past outages\n/);
		expect(later.text()).toMatch(
			/\ndown {6}since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: its last 12 polls stored \(to \d\d:\d\d:\d\d\) went unanswered\n/,
		);
	});

	it('without a miner given or running, shows the one seen last; --list shows them all', async () => {
		const {file, dir, end} = storeWithHistory();
		const out = capture();
		const err = capture();
		expect(await runHistoryCommand(historyOptions(file, dir, {now: end, stdout: out.stream, stderr: err.stream}))).toBe(0);
		expect(err.text()).toMatch(/no running miner found; showing rig-a \(http:\/\/127\.0\.0\.1:18080\), the miner seen last/);
		const list = capture();
		expect(await runHistoryCommand(historyOptions(file, dir, {list: true, json: true, stdout: list.stream}))).toBe(0);
		expect((JSON.parse(list.text()) as {name: string}[]).map((miner) => miner.name)).toEqual(['rig-a', 'rig-b']);
	});

	it('finds a miner that answers by its identity, even restarted on another port; not one of another host', async () => {
		const {file, dir, end} = storeWithHistory();
		// rig-a again, just started on a new port (so XMRig's id changed with the port).
		const again = await startSimulator({dialect: '6', workerId: 'rig-a'});
		cleanups.push(async () => again.stop());
		const out = capture();
		expect(await runHistoryCommand(historyOptions(file, dir, {urls: [again.url], json: true, now: end, stdout: out.stream}))).toBe(0);
		expect((JSON.parse(out.text()) as {miner: {name: string}}).miner.name).toBe('rig-a');
		// rig-b was stored at 10.0.0.9: a rig-b answering on 127.0.0.1 is another miner, with nothing stored.
		const other = await startSimulator({dialect: '6', workerId: 'rig-b'});
		cleanups.push(async () => other.stop());
		const err = capture();
		expect(
			await runHistoryCommand(historyOptions(file, dir, {urls: [other.url], now: end, stdout: capture().stream, stderr: err.stream})),
		).toBe(1);
		expect(err.text()).toMatch(/no history is stored for http:\/\/127\.0\.0\.1:\d+/);
	});

	it('shows the miner that answers at an address now, and names the other one stored there; --list shows both', async () => {
		const {store, clock, dir, file} = clockedStore(cleanups);
		const now = await startSimulator({dialect: '6', workerId: 'sim-rig', mac: '02:00:00:00:00:0b', warm: true});
		cleanups.push(async () => now.stop());
		const nowId = ((await (await fetch(`${now.url}/2/summary`)).json()) as {id: string}).id;
		const t = clock.now();
		const writer = new HistoryWriter(store, {now: clock.now});
		// The miner that answered there before (another machine: another id), then the one there now, in one session.
		writer.write(
			[observation(goodSample(t - HOUR, 900), sixFacts('0123456789abcdef', 'sim-rig', 600), {url: now.url, name: 'sim-rig'})],
			[],
		);
		writer.write(
			[observation(goodSample(t - HOUR + 2000, 5000), sixFacts(nowId, 'sim-rig', 5 * 86_400), {url: now.url, name: 'sim-rig'})],
			[eventRecord(t - HOUR + 2000, 'replaced', 'a different miner now answers', {url: now.url, name: 'sim-rig'})],
		);
		store.close();
		const out = capture();
		const err = capture();
		expect(
			await runHistoryCommand(historyOptions(file, dir, {urls: [now.url], json: true, now: t, stdout: out.stream, stderr: err.stream})),
		).toBe(0);
		const doc = JSON.parse(out.text()) as {miner: {id: string}; series: {hashrate: {avg: number}}[]; events: {kind: string}[]};
		expect(doc.miner.id).toBe(nowId);
		expect(doc.series.map((row) => row.hashrate.avg)).toEqual([5000]);
		expect(doc.events.map((event) => event.kind)).toEqual(['replaced']);
		const address = now.url.replace('http://', '');
		expect(err.text()).toBe(
			`rigtop: showing sim-rig (id ${nowId}); another miner was seen at ${address} before: sim-rig (id 0123456789abcdef), last seen ${localTimeOf(t - HOUR)} (rigtop history --list shows them all)\n`,
		);
		const list = capture();
		expect(await runHistoryCommand(historyOptions(file, dir, {list: true, json: true, stdout: list.stream}))).toBe(0);
		expect((JSON.parse(list.text()) as {id: string; url: string}[]).map((miner) => [miner.id, miner.url])).toEqual([
			[nowId, now.url],
			['0123456789abcdef', now.url],
		]);
	});

	it("--list's last seen is the newest poll stored, which the miner's row (written once a minute) is behind", async () => {
		const {store, clock, dir, file} = clockedStore(cleanups);
		const writer = new HistoryWriter(store, {now: clock.now});
		const start = clock.now();
		// A poll every 5 s for 55 s, each its own write (as the recorder's): the row is touched at the first only.
		for (let t = start; t <= start + 55_000; t += 5000) {
			clock.set(t);
			expect(writer.write([observation(goodSample(t, 1000), sixFacts('id-a'))], [])).toBe(true);
		}

		store.close();
		const out = capture();
		expect(await runHistoryCommand(historyOptions(file, dir, {list: true, json: true, stdout: out.stream}))).toBe(0);
		const [miner] = JSON.parse(out.text()) as {lastSeen: string}[];
		expect(miner?.lastSeen).toBe(new Date(start + 55_000).toISOString());
		const text = capture();
		expect(await runHistoryCommand(historyOptions(file, dir, {list: true, stdout: text.stream}))).toBe(0);
		expect(text.text()).toContain(`last seen ${localTimeOf(start + 55_000)}`);
	});

	it('--list is a table in terminal cells: a name in CJK keeps the addresses in one column', async () => {
		const {store, clock, dir, file} = clockedStore(cleanups);
		const writer = new HistoryWriter(store, {now: clock.now});
		const t = clock.now();
		const wide = {url: 'http://10.0.0.1:8080', name: 'ünïcødé-矿机', named: true};
		writer.write([observation(goodSample(t, 1000), sixFacts('id-w', 'w-1'), {slot: 0, ...wide})], []);
		writer.write(
			[
				observation(goodSample(t, 1000), sixFacts('id-p', 'w-2'), {
					slot: 1,
					url: 'http://10.0.0.2:8080',
					name: 'plain',
					named: true,
				}),
			],
			[],
		);
		store.close();
		const out = capture();
		expect(await runHistoryCommand(historyOptions(file, dir, {list: true, stdout: out.stream}))).toBe(0);
		const lines = out.text().trimEnd().split('\n');
		expect(lines).toHaveLength(2);
		const urlCell = (line: string) => textWidth(line.slice(0, line.indexOf('http://')));
		expect(lines.map(urlCell)).toEqual([urlCell(lines[0]!), urlCell(lines[0]!)]);
		expect(lines.some((line) => line.startsWith('ünïcødé-矿机 (worker w-1)  '))).toBe(true);
	});

	it('a word that is a stored rig name is that rig, though it parses as an address (3, x:1)', async () => {
		const {store, clock, dir, file} = clockedStore(cleanups);
		const writer = new HistoryWriter(store, {now: clock.now});
		const t = clock.now();
		const rigs = [
			{slot: 0, url: 'http://10.0.0.3:8080', name: '3', named: true},
			{slot: 1, url: 'http://10.0.0.4:8080', name: 'x:1', named: true},
		];
		for (const [index, rig] of rigs.entries())
			writer.write([observation(goodSample(t, 1000), sixFacts(`id-${index}`, `w-${index}`), rig)], []);
		store.close();
		for (const [index, rig] of rigs.entries()) {
			const out = capture();
			const err = capture();
			const code = await runHistoryCommand(
				historyOptions(file, dir, {urls: [rig.name], since: '1h', now: t + 1000, stdout: out.stream, stderr: err.stream}),
			);
			expect(err.text()).toBe('');
			expect(code).toBe(0);
			expect(out.text().split('\n')[0]).toMatch(new RegExp(`^${rig.name} \\(worker w-${index}, ${rig.url.replaceAll('.', '\\.')}\\)`));
		}
	});

	it('reports a missing store and bad usage in one line', async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const err = capture();
		expect(await runHistoryCommand(historyOptions(path.join(temp.dir, 'none.sqlite'), temp.dir, {stderr: err.stream}))).toBe(1);
		expect(err.text()).toMatch(/^rigtop: no history is stored yet \(.*none\.sqlite does not exist\)\n$/);
		await expect(runHistoryCommand(historyOptions('x', temp.dir, {json: true, csv: true}))).rejects.toThrow(UsageError);
		await expect(runHistoryCommand(historyOptions('x', temp.dir, {since: '1h', until: '2h'}))).rejects.toThrow(
			/--since must be before --until/,
		);
		// Without --until, a --since after now is in the future, not after an --until nobody gave.
		const now = Date.UTC(2026, 10, 21, 8, 0, 0);
		await expect(runHistoryCommand(historyOptions('x', temp.dir, {since: '2026-12-01', now}))).rejects.toThrow(
			/^--since is in the future \(2026-12-01 00:00:00\); it takes a time back from now \(90m, 24h, 7d\) or a past date$/,
		);
	});
});

describe('--since / --until', () => {
	const now = Date.UTC(2026, 10, 21, 8, 0, 0);
	it('takes durations back from now, bare hours, and dates', () => {
		expect(parseTime('24h', now, '--since')).toBe(now - 24 * HOUR);
		expect(parseTime('90m', now, '--since')).toBe(now - 90 * MINUTE);
		expect(parseTime('7d', now, '--since')).toBe(now - 7 * 24 * HOUR);
		expect(parseTime('1h30m', now, '--since')).toBe(now - 90 * MINUTE);
		expect(parseTime('6', now, '--since')).toBe(now - 6 * HOUR);
		expect(parseTime('2026-11-20T22:00:00Z', now, '--since')).toBe(Date.UTC(2026, 10, 20, 22));
		expect(parseTime('2026-11-20', now, '--since')).toBe(new Date(2026, 10, 20).getTime());
	});

	it('refuses anything else', () => {
		for (const bad of ['yesterday', '', '-3h', '2026-13-45', 'h']) expect(() => parseTime(bad, now, '--since')).toThrow(UsageError);
	});
});
