import {describe, expect, test} from 'vitest';
import {computeFleetLayout} from '../../../source/ui/fleet/fleet-layout.js';
import {fleetEvents, fleetRow, fleetTotals, RECENT_ALERT_MS, rigTags, rowAlert} from '../../../source/ui/fleet/fleet-rows.js';
import {fitRigLabel, fleetWants, formatShares, rigLabel, totalsState} from '../../../source/ui/fleet/fleet-columns.js';
import type {Alert} from '../../../source/alerts/types.js';
import {makeEvent, makeSnapshot, makeState, NOW, refused} from '../helpers/state.js';

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
		expect(totals).toMatchObject({answered: 2, summed: 2, count: 3, rates: [3000, 3200, 3400], good: 150, total: 161});
		expect(totalsState(totals)).toBe('2/3 up');
		expect(Object.fromEntries(totals.byState)).toEqual({live: 2, down: 1});
		expect(fleetTotals([down('x')], NOW).rates).toEqual([null, null, null]);
	});

	test('every column sums the same rigs: one whose window has not filled is left out of the whole row, which says so', () => {
		// b restarted a minute ago: its 15 m window is still filling. Before, the 10 s column summed a and b, the 15 m one a alone.
		const states = [live('a', [1000, 1100, 1200]), live('b', [2000, 2100, null], 50, 60), down('c')];
		const totals = fleetTotals(states, NOW);
		expect(totals).toMatchObject({answered: 2, summed: 1, count: 3, rates: [1000, 1100, 1200], good: 100, total: 101});
		expect(totalsState(totals)).toBe('1 of 3');
		// A window no answering rig knows yet is not a reason to leave anyone out.
		const early = fleetTotals([live('a', [1000, null, null]), live('b', [2000, null, null])], NOW);
		expect(early).toMatchObject({answered: 2, summed: 2, rates: [3000, null, null]});
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
		const row = (name: string, where: string, tag: string | null) => ({name, where, tag});
		expect(fitRigLabel(row('192.168.100.201:18081', '192.168.100.201:18081', null), 12)).toBe('…0.201:18081');
		expect(fitRigLabel(row('garage-ryzen-9', '10.0.0.5:18081', ':18081'), 21)).toBe('garage-ryzen-9 :18081');
		expect(fitRigLabel(row('garage-ryzen-9', '10.0.0.5:18081', ':18081'), 15)).toBe('garage-… :18081');
		expect(fitRigLabel(row('garage', '10.0.0.5:18081', '10.0.0.5:18081'), 12)).toBe('ga… …5:18081');
		// An ordinary name is left for the table to cut at its end.
		expect(fitRigLabel(row('garage-ryzen-9', '10.0.0.5:18081', null), 10)).toBe('garage-ryzen-9');
		expect(rigLabel(row('attic', '127.0.0.1:18082', ':18082'))).toBe('attic :18082');
		const rows = [fleetRow(makeState({name: 'a-rather-long-rig-name'}), 0, NOW), fleetRow(makeState({name: 'b'}), 1, NOW)];
		expect(fleetWants(rows)).toEqual({rig: 22, pool: 'pool.example.org:443'.length});
	});

	test('cell formats', () => {
		expect(formatShares(1204, 1207)).toBe('1 204/1 207');
		expect(formatShares(9999, 9999)).toBe('9 999/9 999');
		expect(formatShares(17_921, 18_022)).toBe('17.9K/18K');
		expect(formatShares(1_204_000, 1_207_000)).toBe('1.2M/1.21M');
		expect(formatShares(null, null)).toBe('—');
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

		expect(computeFleetLayout(80, 24, 100)).toMatchObject({rigRows: 18, eventLines: 1, footerLines: 1, height: 23});
		// Few rigs: the spare lines show more events; the frame fills the terminal, the key help on its last line.
		expect(computeFleetLayout(80, 24, 3)).toMatchObject({rigRows: 3, eventLines: 16, height: 23});
	});
});
