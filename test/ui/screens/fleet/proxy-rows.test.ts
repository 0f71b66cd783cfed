import {describe, expect, test} from 'vitest';
import type {ProxyInfo} from '../../../../source/miner/model.js';
import {fleetRow, fleetRows, fleetTotals, upstreamState} from '../../../../source/ui/screens/fleet/rows.js';
import {fleetColumns, fleetWants, kindCell, totalsLabel, totalsState} from '../../../../source/ui/screens/fleet/columns.js';
import {headlineTotal, proxiesTotal} from '../../../../source/ui/screens/fleet/header.js';
import {fleetOrder} from '../../../../source/ui/screens/fleet/order.js';
import {makeSnapshot, makeState, NOW, refused} from '../../helpers/state.js';
import {makeProxySnapshot} from '../../../helpers/proxy-snapshot.js';

/** A proxy's state as the monitor keeps it. */
const proxy = (name: string, info: Partial<ProxyInfo> = {}) => makeState({name, snapshot: makeProxySnapshot(name, info)});

const miner = (name: string, rates: [number | null, number | null, number | null], good = 100, total = 101) =>
	makeState({name, snapshot: makeSnapshot({workerId: name, hashrate: {total: rates}, results: {good, total, rejected: total - good}})});

describe('a proxy in the fleet', () => {
	test('is one row: kind proxy with its workers, its 1 min rate in the 60 s column alone, its upstreams as its pool', () => {
		const row = fleetRow(proxy('px'), 0, NOW);
		expect(row).toMatchObject({kind: 'proxy', workers: 12, upstream: '1/1 up', rates: [null, 9000, null], pool: null, proxyLong: 8800});
		expect(kindCell(row)).toBe('proxy, 12 workers');
		expect(kindCell(row, 11)).toBe('proxy 12 wk');
		expect(kindCell(fleetRow(miner('m', [1, 1, 1]), 1, NOW))).toBe('miner');
		const columns = fleetColumns(fleetWants([row]));
		const cell = (id: string) =>
			columns
				.find((column) => column.id === id)
				?.cell({kind: 'rig', row}, 20)
				.trim();
		expect(cell('r10')).toBe('—');
		expect(cell('r60')).toBe('9.00 kH/s');
		expect(cell('r15')).toBe('—');
		expect(cell('pool')).toBe('1/1 up');
		expect(cell('shares')).toBe('400/408');
		expect(cell('rej')).toBe('2.0%');
		expect(columns.find((column) => column.id === 'r60')?.header).toBe('60s/1m');
		expect(columns.find((column) => column.id === 'kind')?.header).toBe('kind/wk');
		expect(columns.find((column) => column.id === 'pool')?.header).toBe('pool/upstream');
		// A fleet of miners alone has neither the kind column nor the proxy's headings.
		const plain = fleetColumns(fleetWants([fleetRow(miner('m', [1, 1, 1]), 0, NOW)]));
		expect(plain.map((column) => column.id)).not.toContain('kind');
		expect(plain.find((column) => column.id === 'r60')?.header).toBe('60s');
	});

	test('upstreams: any in error says so first; none known is none', () => {
		expect(upstreamState({active: 1, sleep: 0, error: 1, total: 2, ratio: null})).toBe('error 1/2');
		expect(upstreamState({active: 0, sleep: 1, error: 0, total: 1, ratio: null})).toBe('0/1 up');
		expect(upstreamState(null)).toBeNull();
		expect(fleetRow(proxy('px', {upstreams: {active: 0, sleep: 0, error: 2, total: 2, ratio: null}}), 0, NOW).upstream).toBe('error 2/2');
	});

	test('the totals sum the miners alone; the proxies’ rate is apart and the header says so', () => {
		const states = [miner('a', [1000, 1100, 1200], 100, 101), miner('b', [2000, 2100, 2200], 50, 60), proxy('px')];
		const totals = fleetTotals(states, NOW);
		expect(totals).toMatchObject({count: 3, answered: 3, miners: 2, minersAnswered: 2, rate: 3000, rated: 2, good: 150, total: 161});
		expect(totals.windows.map((window) => window.sum)).toEqual([3000, 3200, 3400]);
		expect(totals.proxies).toEqual({count: 1, rate: 9000, rated: 1});
		expect(headlineTotal(totals)).toBe('3.00 kH/s from 2 miners');
		// One miner up without a rate yet: said once, plainly (not "total of 3 miners (2 of 3 up rigs)").
		const fresh = fleetTotals([...states, miner('c', [null, null, null], 0, 0)], NOW);
		expect(headlineTotal(fresh)).toBe('3.00 kH/s from 2 of 3 up miners');
		expect(proxiesTotal(totals)).toBe('proxy 9.00 kH/s (1m, not in total)');
		expect(totalsLabel(totals, false)).toBe('miners');
		expect(totalsState(totals)).toBe('2/2 up');
		expect(totalsState(fleetTotals([proxy('px')], NOW))).toBe('—');
		expect(totalsLabel(totals, true)).toBe('miners');
		// Without proxies the words are those of before.
		const plain = fleetTotals(states.slice(0, 2), NOW);
		expect(headlineTotal(plain)).toBe('3.00 kH/s total');
		expect(proxiesTotal(plain)).toBeNull();
		expect(totalsLabel(plain, false)).toBe('total');
		// Two proxies: "2 proxies".
		expect(proxiesTotal(fleetTotals([proxy('p1'), proxy('p2', {hashrate: [1000, 1000, 1000, 1000, 1000]})], NOW))).toBe(
			'2 proxies 10.0 kH/s (1m, not in total)',
		);
	});

	test('a proxy that is down stays a proxy, and is no miner in the totals', () => {
		const state = {...proxy('px'), status: 'down' as const, failingSince: NOW - 60_000, error: refused()};
		const row = fleetRow(state, 0, NOW);
		expect(row).toMatchObject({kind: 'proxy', workers: null, upstream: null, rates: null});
		expect(kindCell(row)).toBe('proxy');
		const totals = fleetTotals([miner('a', [1000, 1000, 1000]), state], NOW);
		expect(totals).toMatchObject({miners: 1, answered: 1, proxies: {count: 1, rate: null, rated: 0}});
		// Never read: what the session was told (a --rigs file's kind) says it.
		const unread = makeState({name: 'fresh', status: 'connecting', snapshot: null});
		expect(fleetRow(unread, 0, NOW, undefined, null, null, 'proxy').kind).toBe('proxy');
		expect(fleetRow(unread, 0, NOW).kind).toBe('miner');
		expect(fleetTotals([unread], NOW, ['proxy']).proxies.count).toBe(1);
	});

	test('sorting by rate puts a proxy by its 1 min (10s) and 10 min (15m) rate; "/proxy" keeps the proxies', () => {
		const rows = fleetRows([miner('a', [5000, 5000, 5000]), proxy('px'), miner('b', [10_000, 10_000, 3000])], NOW);
		expect(fleetOrder(rows, {key: 'r10', reversed: false}, '')).toEqual([0, 1, 2]);
		expect(fleetOrder(rows, {key: 'r10', reversed: true}, '')).toEqual([2, 1, 0]);
		expect(fleetOrder(rows, {key: 'r15', reversed: false}, '')).toEqual([2, 0, 1]);
		expect(fleetOrder(rows, {key: 'rig', reversed: false}, '')).toEqual([0, 2, 1]);
		expect(fleetOrder(rows, {key: 'listed', reversed: false}, 'proxy')).toEqual([1]);
		expect(fleetOrder(rows, {key: 'listed', reversed: false}, 'px')).toEqual([1]);
	});
});
