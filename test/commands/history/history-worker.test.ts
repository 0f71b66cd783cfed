import {afterEach, describe, expect, it} from 'vitest';
import {historyHelp} from '../../../source/commands/history/help.js';
import {runHistoryCommand, type HistoryCommandOptions} from '../../../source/commands/history/history.js';
import {UsageError} from '../../../source/session/errors.js';
import {HistoryWriter} from '../../../source/history/writer.js';
import {eventRecord, goodSample, observation} from '../../history/helpers.js';
import {capture, clockedStore, historyOptions} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

// Nothing listens on the discard port of loopback: the proxy is found by the URL it was last seen at.
const PROXY_URL = 'http://127.0.0.1:9';

/** A store holding a proxy polled every 10 s for 20 minutes, with two workers and events of each. */
function proxyStore() {
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
				observation(goodSample(t, 4000 + (i % 3) * 100, {good: 100 + i, total: 104 + i, rejected: 3}), null, {
					...at,
					spacingMs: 7500,
					worker: 'rig-a',
				}),
				observation(goodSample(t, 5000, {good: 50, total: 50, rejected: 0}), null, {...at, spacingMs: 7500, worker: 'rig-b'}),
			],
			[],
		);
	}

	writer.write(
		[],
		[
			eventRecord(start + 5 * 60_000, 'worker-quiet', 'worker rig-a quiet: no share for 5m 10s', {...at, worker: 'rig-a'}),
			eventRecord(start + 6 * 60_000, 'worker-sharing', 'worker rig-a sharing again', {...at, severity: 'info', worker: 'rig-a'}),
			eventRecord(start + 7 * 60_000, 'worker-gone', 'worker rig-b gone: no connection left', {...at, worker: 'rig-b'}),
			eventRecord(start + 8 * 60_000, 'upstream-error', 'upstreams in error: 1 of 2', at),
		],
	);
	writer.summarize([writer.minerOf(0) ?? -1], true);
	store.close();
	return {file, dir, end: clock.now() + 1000};
}

function options(file: string, dir: string, overrides: Partial<HistoryCommandOptions>): HistoryCommandOptions {
	return historyOptions(file, dir, {urls: [PROXY_URL], since: '1h', ...overrides});
}

describe('rigtop history for an xmrig-proxy and --worker', () => {
	it("prints the proxy's polls as its 1 min rate, every event, and names the workers stored", async () => {
		const {file, dir, end} = proxyStore();
		const out = capture();
		const code = await runHistoryCommand({...options(file, dir, {}), now: end, stdout: out.stream, stderr: capture().stream});
		expect(code).toBe(0);
		expect(out.text()).toContain(`sim-proxy (${PROXY_URL})`);
		expect(out.text()).toContain('hashrate  (1m) avg 9.00 kH/s');
		expect(out.text()).toContain('workers   2 stored: rig-a, rig-b (rigtop history --worker NAME prints one)');
		expect(out.text()).toContain('events (4)');
	});

	it("--worker NAME prints that worker's polls, shares and events alone, in text, JSON and CSV", async () => {
		const {file, dir, end} = proxyStore();
		const text = capture();
		expect(
			await runHistoryCommand({...options(file, dir, {worker: 'rig-a'}), now: end, stdout: text.stream, stderr: capture().stream}),
		).toBe(0);
		expect(text.text()).toContain(`worker rig-a of sim-proxy (${PROXY_URL})`);
		expect(text.text()).toMatch(/hashrate {2}\(1m\) avg 4\.10 kH\/s · min 4\.00 kH\/s · max 4\.20 kH\/s/);
		expect(text.text()).toContain('shares    219 accepted · 3 rejected · 1 invalid');
		expect(text.text()).toContain('events (2)');
		expect(text.text()).toContain('worker rig-a quiet: no share for 5m 10s');
		expect(text.text()).not.toContain('rig-b');
		expect(text.text()).not.toContain('upstreams');

		const json = capture();
		expect(
			await runHistoryCommand({
				...options(file, dir, {worker: 'rig-a', json: true}),
				now: end,
				stdout: json.stream,
				stderr: capture().stream,
			}),
		).toBe(0);
		const doc = JSON.parse(json.text()) as {
			worker: string;
			series: {resolution: string; hashrate: Record<string, number | null>; shares: Record<string, number | null>}[];
			events: {kind: string; worker: string}[];
		};
		expect(doc.worker).toBe('rig-a');
		expect(doc.series.length).toBeGreaterThan(10);
		expect(Object.keys(doc.series[0]?.hashrate ?? {})).toEqual(['min', 'avg', 'max', '10m']);
		expect(doc.series.at(-1)?.shares).toEqual({accepted: 219, rejected: 3, invalid: 1});
		expect(doc.events.map((event) => [event.kind, event.worker])).toEqual([
			['worker-quiet', 'rig-a'],
			['worker-sharing', 'rig-a'],
		]);

		const csv = capture();
		expect(
			await runHistoryCommand({
				...options(file, dir, {worker: 'rig-b', csv: true}),
				now: end,
				stdout: csv.stream,
				stderr: capture().stream,
			}),
		).toBe(0);
		const [header, ...lines] = csv.text().trim().split('\n');
		expect(header).toBe(
			'time,record,resolution,polls,answered,hashrate_min,hashrate_avg,hashrate_max,hashrate_1m,hashrate_10m,shares_accepted,shares_invalid,shares_rejected,pool,paused,link,event_kind,event_severity,event_text,temp_min,temp_avg,temp_max,temp_limit,clock_mhz_min,clock_mhz_avg,clock_mhz_max,power_w_min,power_w_avg,power_w_max,hpw_min,hpw_avg,hpw_max',
		);
		expect(lines.filter((line) => line.includes(',event,'))).toHaveLength(1);
		expect(lines.some((line) => line.includes('worker rig-b gone: no connection left'))).toBe(true);
	});

	it('a worker not stored: exit 1 and the names stored; --worker with --list is bad usage; --help says it', async () => {
		const {file, dir, end} = proxyStore();
		const err = capture();
		expect(
			await runHistoryCommand({...options(file, dir, {worker: 'rig-z'}), now: end, stdout: capture().stream, stderr: err.stream}),
		).toBe(1);
		expect(err.text()).toBe(`rigtop: no history is stored for a worker "rig-z" of sim-proxy (${PROXY_URL}); stored: rig-a, rig-b\n`);
		await expect(
			runHistoryCommand({...options(file, dir, {worker: 'rig-a', list: true}), now: end, stdout: capture().stream}),
		).rejects.toThrow(UsageError);
		expect(historyHelp()).toContain('--worker NAME');
	});
});
