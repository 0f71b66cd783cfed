import {describe, expect, test} from 'vitest';
import {formatOnceText, proxyJson} from '../../../source/commands/once/report.js';
import {normalizeSnapshot} from '../../../source/miner/normalize.js';
import {captureJson} from '../../helpers/captures.js';

const url = 'http://127.0.0.1:13341';
const summary = () => captureJson('../xmrig-proxy/v6.26/get_1_summary.txt') as Record<string, unknown>;
const workers = () => captureJson('../xmrig-proxy/v6.26/get_1_workers.txt');
/** 12 s after the last share of rig-5.11. */
const now = 1_795_671_216_258 + 12_000;

describe('--once text of an xmrig-proxy', () => {
	test('says what the proxy is, its numbers in their own windows, and one line per worker', () => {
		const snapshot = normalizeSnapshot('proxy', summary(), workers());
		const text = formatOnceText([{url, name: 'capture-proxy', snapshot, error: null}], now);
		const lines = text.trimEnd().split('\n');
		for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
		expect(lines.slice(0, 2)).toEqual(['capture-proxy  xmrig-proxy 6.26.0  nicehash  up 49s  connected', `  ${url}`]);
		expect(text).toContain('upstreams 1 active  0 sleep  0 error  of 1');
		expect(text).toContain('miners    2 now  2 max  workers 2');
		expect(text).toContain('20 accepted  3 rejected (13.0%)  0 invalid  0 expired  avg 2s');
		expect(lines).toContain('            latency 1 ms  best 22.8K');
		// 49 s of uptime: every window is longer, so every one is still filling.
		expect(lines).toContain('  hashrate  1m 950 H/s~  10m 90.0 H/s~  1h 10.0 H/s~  12h 0.00 H/s~');
		expect(lines).toContain('            24h 0.00 H/s~  since start 1.18 kH/s');
		expect(text).toContain("~ window longer than the proxy's uptime: still filling");
		expect(text).not.toMatch(/10s|60s|15m/u);
		expect(text).toContain('workers   2  by rig_id');
		expect(text).toMatch(/rig-6\.26 {2}127\.0\.0\.1 +550 H\/s~ +50\.0 H\/s~ {2}11\/1\/0 +16s ago/u);
		expect(text).toMatch(/rig-5\.11 {2}127\.0\.0\.1 +400 H\/s~ +40\.0 H\/s~ {2}9\/2\/0 +12s ago/u);
	});

	test('marks no window the proxy has run longer than', () => {
		const warm = {...summary(), uptime: 90_000};
		const text = formatOnceText([{url, name: 'warm', snapshot: normalizeSnapshot('proxy', warm, workers()), error: null}], now);
		expect(text).toContain(
			'  hashrate  1m 950 H/s  10m 90.0 H/s  1h 10.0 H/s  12h 0.00 H/s  24h 0.00 H/s\n            since start 1.18 kH/s',
		);
		expect(text).not.toContain('~');
		const hour = {...summary(), uptime: 700};
		const partly = formatOnceText([{url, name: 'hour', snapshot: normalizeSnapshot('proxy', hour, workers()), error: null}], now);
		expect(partly).toContain('1m 950 H/s  10m 90.0 H/s  1h 10.0 H/s~');
	});

	test('says when the proxy lists no workers, and when no upstream is active', () => {
		const down = {...summary(), upstreams: {active: 0, sleep: 0, error: 1, total: 1, ratio: 0}};
		const text = formatOnceText([{url, name: 'off', snapshot: normalizeSnapshot('proxy', down, null), error: null}], now);
		expect(text.split('\n')[0]).toContain('no upstream');
		expect(text).toContain('0 active  0 sleep  1 error  of 1');
		expect(text).toContain('workers   not listed by the proxy (workers off)');
	});
});

describe('--once text of an xmrig-proxy: its workers table', () => {
	test('keeps the last-share column in line when share counts grow past the header', () => {
		const many = workers() as {workers: unknown[][]};
		const first = many.workers[0];
		if (first === undefined) throw new Error('the capture lists a worker');
		first[3] = 50_332;
		first[4] = 1026;
		first[5] = 35;
		const text = formatOnceText([{url, name: 'busy', snapshot: normalizeSnapshot('proxy', summary(), many), error: null}], now);
		const lines = text.split('\n');
		const header = lines.find((line) => line.includes('acc/rej/inv')) ?? '';
		const rows = lines.filter((line) => line.endsWith('s ago'));
		expect(rows).toHaveLength(2);
		expect(rows[0]).toContain('50 332/1 026/35');
		const column = header.indexOf('last share');
		for (const row of rows) expect(row.slice(column), row).toMatch(/^\d+s ago$/u);
	});

	test('a proxy with no worker connected says so, with no empty table', () => {
		const none = {...(workers() as Record<string, unknown>), workers: []};
		const text = formatOnceText([{url, name: 'idle', snapshot: normalizeSnapshot('proxy', summary(), none), error: null}], now);
		expect(text).toContain('workers   0  by rig_id  none connected');
		expect(text).not.toContain('acc/rej/inv');
	});
});

describe('--once --json of an xmrig-proxy', () => {
	test('names the windows and gives H/s', () => {
		const json = proxyJson(normalizeSnapshot('proxy', summary(), workers())) as Record<string, unknown>;
		expect(json['hashrate']).toEqual({'1m': 950, '10m': 90, '1h': 10, '12h': 0, '24h': 0});
		expect(json['sinceStart']).toBe(1180);
		expect(json['highest']).toBeUndefined();
		expect((json['workers'] as Array<Record<string, unknown>>)[0]).toMatchObject({
			name: 'rig-6.26',
			lastShareAt: 1_795_671_211_412,
			hashrate: {'1m': 550, '10m': 50, '1h': 0, '12h': 0, '24h': 0},
		});
	});
});
