import {describe, expect, test} from 'vitest';
import {computeFleetLayout} from '../../../../source/ui/screens/fleet/layout.js';
import {fleetEvents} from '../../../../source/ui/panes/fleet-event-lines.js';
import {fleetRow, fleetTotals, RECENT_ALERT_MS, rigTags, rowAlert} from '../../../../source/ui/screens/fleet/rows.js';
import {countedNote, fitRigLabel, fleetWants, formatShares, rigLabel, totalsState} from '../../../../source/ui/screens/fleet/columns.js';
import {headlineTotal} from '../../../../source/ui/screens/fleet/header.js';
import type {Alert} from '../../../../source/alerts/types.js';
import {makeEvent, makeSnapshot, makeState, NOW, refused} from '../../helpers/state.js';

const live = (name: string, rates: [number | null, number | null, number | null], good = 100, total = 101) =>
	makeState({name, snapshot: makeSnapshot({workerId: name, hashrate: {total: rates}, results: {good, total, rejected: total - good}})});
const down = (name: string) =>
	makeState({
		name,
		status: 'down',
		failingSince: NOW - 4 * 60_000,
		error: refused(),
		snapshot: makeSnapshot({hashrate: {total: [9999, 9999, 9999]}}),
	});

describe('fleet rows and totals', () => {
	test('totals sum the miners that answered their latest poll; a down one is left out', () => {
		const states = [live('a', [1000, 1100, 1200]), live('b', [2000, 2100, 2200], 50, 60), down('c')];
		const totals = fleetTotals(states, NOW);
		expect(totals).toMatchObject({answered: 2, rated: 2, count: 3, rate: 3000, good: 150, total: 161, sharesCounted: 2});
		expect(totals.windows).toEqual([
			{sum: 3000, counted: 2},
			{sum: 3200, counted: 2},
			{sum: 3400, counted: 2},
		]);
		expect(totalsState(totals)).toBe('2/3 up');
		expect(headlineTotal(totals)).toBe('3.00 kH/s total');
		expect(Object.fromEntries(totals.byState)).toEqual({live: 2, down: 1});
		const none = fleetTotals([down('x')], NOW);
		expect(none.windows.map((window) => window.sum)).toEqual([null, null, null]);
		expect(headlineTotal(none)).toBe('— total');
	});

	test('the headline sums every live rig’s freshest rate; each column sums the rigs that have a value in it and says how many', () => {
		// Issue 22: "5 rigs · 5.83 kH/s total (2 of 5)" while four live rigs made about 11.7 kH/s — the headline summed the
		// 15 m column, which a freshly started rig does not have yet.
		const states = [
			live('a', [1000, 1100, 1200]),
			// Restarted a minute ago: no 15 m yet.
			live('b', [2000, 2100, null], 50, 60),
			// No 10 s this poll: its 60 s counts.
			live('c', [null, 3000, null], 10, 10),
			// Started a second ago: no rate at all yet.
			live('d', [null, null, null], 0, 0),
			// Stale: its row shows its last values, so its columns count them; the headline (what the fleet makes now) does not.
			makeState({name: 'e', status: 'stale', lastSuccessAt: NOW - 12_000, snapshot: makeSnapshot({hashrate: {total: [500, 500, 500]}})}),
			down('f'),
		];
		const totals = fleetTotals(states, NOW);
		expect(totals).toMatchObject({count: 6, answered: 4, rated: 3, rate: 6000});
		expect(headlineTotal(totals)).toBe('6.00 kH/s total (3 of 4 up rigs)');
		expect(totals.windows).toEqual([
			{sum: 3500, counted: 3},
			{sum: 6700, counted: 4},
			{sum: 1700, counted: 2},
		]);
		expect(countedNote(totals.windows[2], totals.count, 9)).toBe('· 2 of 6');
		expect(totalsState(totals)).toBe('4/6 up');
		// Every live rig with a rate: no count after the total. A paused rig makes nothing, and counts as that.
		const paused = makeState({name: 'p', snapshot: makeSnapshot({paused: true, hashrate: {total: [null, null, null]}})});
		const all = fleetTotals([live('a', [1000, 1100, null]), live('b', [null, 2100, null]), paused], NOW);
		expect(headlineTotal(all)).toBe('3.10 kH/s total');
	});

	test('a down row says so with how long, and shows no numbers; a stale one keeps them, marked outdated', () => {
		const row = fleetRow(down('c'), 2, NOW);
		expect(row).toMatchObject({index: 2, name: 'c', state: 'down 4m', tone: 'error', rates: null, good: null, pool: null, uptime: null});
		const stale = fleetRow(makeState({status: 'stale', lastSuccessAt: NOW - 12_000}), 0, NOW);
		expect(stale).toMatchObject({state: 'stale 12s', tone: 'warn', outdated: true});
		expect(stale.rates?.[0]).toBe(4823.4);
		expect(fleetRow(makeState(), 0, NOW)).toMatchObject({state: 'live', pool: 'pool.example.org:443', good: 1204, total: 1207});
	});

	test('an open trouble stays on the row; other alerts for ten minutes', () => {
		const alert = (kind: Alert['kind'], at: number): Alert => ({
			seq: 1,
			at,
			kind,
			severity: 'warn',
			minerIndex: 0,
			rig: 'a',
			url: 'u',
			message: kind,
		});
		expect(rowAlert({open: alert('down', NOW - 3_600_000), last: alert('down', NOW - 3_600_000)}, NOW)?.kind).toBe('down');
		expect(rowAlert({open: null, last: alert('restarted', NOW - 60_000)}, NOW)?.kind).toBe('restarted');
		expect(rowAlert({open: null, last: alert('restarted', NOW - RECENT_ALERT_MS)}, NOW)).toBeNull();
		expect(rowAlert(undefined, NOW)).toBeNull();
	});

	test('events of all rigs, newest first, each named', () => {
		const a = makeState({name: 'a', events: [makeEvent(1, 10, 'started'), makeEvent(2, 1, 'share rejected', 'warn')]});
		const b = makeState({name: 'b', events: [makeEvent(1, 5, 'pool lost', 'warn')]});
		expect(fleetEvents([a, b], 8).map((event) => `${event.rig} ${event.message}`)).toEqual([
			'a share rejected',
			'b pool lost',
			'a started',
		]);
		expect(fleetEvents([a, b], 1)).toHaveLength(1);
		// Only the rigs a filter shows, named by their labels.
		expect(fleetEvents([a, b], 8, {only: new Set([1]), labels: ['a :1', 'b :2']}).map((event) => `${event.rig} ${event.message}`)).toEqual([
			'b :2 pool lost',
		]);
	});

	test('rigs of one name are told apart: by port on one host, else by host and port; a rig named by its address needs nothing', () => {
		const at = (name: string, url: string) => ({name, url});
		expect(
			rigTags([
				at('attic', 'http://127.0.0.1:18082'),
				at('attic', 'http://127.0.0.1:18085'),
				at('garage', 'http://10.0.0.5:18081'),
				at('garage', 'http://10.0.0.6:18081'),
				at('solo', 'http://10.0.0.7:18081'),
				at('[::1]:8080', 'http://[::1]:8080'),
				at('[::1]:8080', 'http://[::1]:8080'),
			]),
		).toEqual([':18082', ':18085', '10.0.0.5:18081', '10.0.0.6:18081', null, null, null]);
	});

	test('the rig column cuts an address at its start and keeps a tag whole; its want is the longest label', () => {
		const row = (name: string, where: string, tag: string | null, worker: string | null = null) => ({name, where, tag, worker});
		expect(fitRigLabel(row('192.168.100.201:18081', '192.168.100.201:18081', null), 12)).toBe('…0.201:18081');
		expect(fitRigLabel(row('garage-ryzen-9', '10.0.0.5:18081', ':18081'), 21)).toBe('garage-ryzen-9 :18081');
		expect(fitRigLabel(row('garage-ryzen-9', '10.0.0.5:18081', ':18081'), 15)).toBe('garage-… :18081');
		expect(fitRigLabel(row('garage', '10.0.0.5:18081', '10.0.0.5:18081'), 12)).toBe('ga… …5:18081');
		// An ordinary name is left for the table to cut at its end.
		expect(fitRigLabel(row('garage-ryzen-9', '10.0.0.5:18081', null), 10)).toBe('garage-ryzen-9');
		expect(rigLabel(row('attic', '127.0.0.1:18082', ':18082'))).toBe('attic :18082');
		const rows = [fleetRow(makeState({name: 'a-rather-long-rig-name'}), 0, NOW), fleetRow(makeState({name: 'b'}), 1, NOW)];
		// The worker id beside the name counts: "a-rather-long-rig-name (rig-01)".
		expect(rows[0]?.worker).toBe('rig-01');
		expect(fleetWants(rows)).toEqual({rig: 'a-rather-long-rig-name (rig-01)'.length, pool: 'pool.example.org:443'.length, shares: 11});
	});

	test('the worker id goes beside the name, never instead, and gives way to it where narrow', () => {
		const row = (name: string, where: string, tag: string | null, worker: string | null) => ({name, where, tag, worker});
		const address = row('127.0.0.1:18081', '127.0.0.1:18081', null, 'rig-01');
		expect(fitRigLabel(address, 40)).toBe('127.0.0.1:18081 (rig-01)');
		expect(fitRigLabel(address, 22)).toBe('127.0.0.1:18081 (rig…)');
		// Under 3 cells of it: the name alone, whole.
		expect(fitRigLabel(address, 20)).toBe('127.0.0.1:18081');
		expect(fitRigLabel(address, 12)).toBe('…0.0.1:18081');
		// Wide characters are measured in cells: 矿机-🚀 is 7 of them.
		expect(fitRigLabel(row('127.0.0.1:18081', '127.0.0.1:18081', null, '矿机-🚀'), 25)).toBe('127.0.0.1:18081 (矿机-🚀)');
		expect(fitRigLabel(row('127.0.0.1:18081', '127.0.0.1:18081', null, '矿机-🚀'), 23)).toBe('127.0.0.1:18081 (矿机…)');
		expect(fitRigLabel(row('attic', '127.0.0.1:18082', ':18082', 'w-1'), 40)).toBe('attic :18082 (w-1)');
		// The row: named by its address without a rigs file, its worker id beside it; none beside a name that is it.
		const state = makeState({name: '127.0.0.1:18081', url: 'http://127.0.0.1:18081'});
		expect(fitRigLabel(fleetRow(state, 0, NOW), 40)).toBe('127.0.0.1:18081 (rig-01)');
		expect(fleetRow(makeState({name: 'rig-01'}), 0, NOW).worker).toBeNull();
		// "/" finds a rig by its worker id.
		expect(fleetRow(state, 0, NOW).search).toContain('rig-01');
	});

	test('cell formats', () => {
		expect(formatShares(1204, 1207)).toBe('1 204/1 207');
		expect(formatShares(9999, 9999)).toBe('9 999/9 999');
		// Never shortened (issue 22: "25 102/25 140", never "25.1K/25.1K"): the column widens to them.
		expect(formatShares(25_102, 25_140)).toBe('25 102/25 140');
		expect(formatShares(1_204_000, 1_207_000)).toBe('1 204 000/1 207 000');
		expect(formatShares(null, null)).toBe('—');
		const rows = [fleetRow(live('a', [1, 1, 1], 25_102, 25_140), 0, NOW)];
		expect(fleetWants(rows).shares).toBe(13);
		expect(fleetWants(rows, {good: 125_102, total: 125_140, sharesCounted: 2}).shares).toBe(15);
		expect(countedNote({counted: 2}, 5, 9)).toBe('· 2 of 5');
		expect(countedNote({counted: 99}, 100, 9)).toBe('99 of 100');
		expect(countedNote({counted: 999}, 1000, 9)).toBe('999/1000');
		expect(countedNote({counted: 5}, 5, 9)).toBe('');
		expect(countedNote({counted: 0}, 5, 9)).toBe('');
	});
});

describe('fleet layout', () => {
	test('never taller than rows - 1; rig rows scroll when there are more rigs than fit', () => {
		for (const [rows, rigs] of [
			[24, 3],
			[24, 100],
			[10, 100],
			[6, 5],
			[3, 5],
			[60, 100],
		] as const) {
			const layout = computeFleetLayout(80, rows, rigs);
			expect(layout.height, `${rows} rows, ${rigs} rigs`).toBeLessThanOrEqual(rows - 1);
			if (rows >= 6) expect(layout.rigRows).toBeGreaterThanOrEqual(1);
		}

		expect(computeFleetLayout(80, 24, 100)).toMatchObject({rigRows: 18, eventLines: 1, footerLines: 1, height: 23, countedLines: 0});
		// The line under the totals ("· 2 of 5") takes a rig row; none where only one rig row is left.
		expect(computeFleetLayout(80, 24, 100, true)).toMatchObject({rigRows: 17, eventLines: 1, countedLines: 1, height: 23});
		expect(computeFleetLayout(80, 6, 100, true)).toMatchObject({rigRows: 1, countedLines: 0});
		// Few rigs: the spare lines show more events; the frame fills the terminal, the key help on its last line.
		expect(computeFleetLayout(80, 24, 3)).toMatchObject({rigRows: 3, eventLines: 16, height: 23});
	});
});
