import {readFileSync} from 'node:fs';
import {describe, expect, test} from 'vitest';
import {ConfigDocument} from '../../../../source/config/document.js';
import {isSecret, specFor, validate} from '../../../../source/config/schema.js';
import type {ProxyWorker} from '../../../../source/miner/proxy-model.js';
import {SCREEN_KEYMAP} from '../../../../source/ui/keys/bindings.js';
import {footerOf} from '../../../../source/ui/screens/contract.js';
import {availability, proxyHelp, type ProxyGiven} from '../../../../source/ui/screens/proxy/availability.js';
import {workerOrder, WORKERS_LISTED} from '../../../../source/ui/screens/proxy/order.js';
import {quietThresholdMs, QUIET_AFTER_MS, workerRows, workerState, workerTotals} from '../../../../source/ui/screens/proxy/rows.js';

const NOW = Date.UTC(2026, 2, 14, 12, 0, 0);

function worker(name: string, overrides: Partial<ProxyWorker> = {}): ProxyWorker {
	return {
		name,
		ip: '10.0.0.1',
		connections: 1,
		accepted: 1000,
		rejected: 10,
		invalid: 1,
		hashes: 1000 * 60_000,
		lastShareAt: NOW - 5000,
		hashrate: [10_000, 10_000, 10_000, 10_000, 10_000],
		...overrides,
	};
}

const GIVEN: ProxyGiven = {refresh: true, config: true, chart: true, events: true, back: false};
const modes = {help: false, prompt: null, filter: '', detail: null};

describe("the proxy screen's logic", () => {
	test('quiet after 5 minutes, or ten of its own share intervals when that is longer; gone at no connection', () => {
		expect(quietThresholdMs(worker('fast'))).toBe(QUIET_AFTER_MS);
		// 1 share of 60 000 every 600 s at 100 H/s: quiet after 6 000 s.
		expect(quietThresholdMs(worker('slow', {hashrate: [100, 100, 100, 100, 100]}))).toBe(6_000_000);
		expect(workerState(worker('a', {lastShareAt: NOW - 4 * 60_000}), NOW, 9000).word).toBe('live');
		expect(workerState(worker('a', {lastShareAt: NOW - 6 * 60_000}), NOW, 9000)).toEqual({word: 'quiet', text: 'quiet 6m'});
		expect(workerState(worker('a', {connections: 0}), NOW, 9000)).toEqual({word: 'gone', text: 'gone'});
		expect(workerState(worker('a', {lastShareAt: null}), NOW, 60).word).toBe('new');
		expect(workerState(worker('a', {lastShareAt: null}), NOW, 9000).word).toBe('quiet');
	});

	test('the totals sum the rows given (the proxy keeps its own figures), windows without a value left out', () => {
		const rows = workerRows([worker('a'), worker('b', {hashrate: [5000, null, null, null, null], connections: 0})], NOW, 9000);
		expect(workerTotals(rows)).toEqual({
			count: 2,
			rates: [15_000, 10_000, 10_000, 10_000, 10_000],
			accepted: 2000,
			rejected: 20,
			invalid: 2,
			connected: 1,
		});
	});

	test('the filter matches name or ip; the state sort puts trouble first, ties in the proxy order', () => {
		const rows = workerRows(
			[
				worker('rig-01'),
				worker('rig-02', {connections: 0}),
				worker('rig-03', {ip: '192.168.9.9'}),
				worker('rig-04', {lastShareAt: NOW - 3_600_000}),
			],
			NOW,
			9000,
		);
		expect(workerOrder(rows, WORKERS_LISTED, '192.168')).toEqual(['rig-03']);
		expect(workerOrder(rows, {key: 'state', reversed: false}, '')).toEqual(['rig-02', 'rig-04', 'rig-01', 'rig-03']);
		expect(workerOrder(rows, {key: 'name', reversed: true}, '')).toEqual(['rig-04', 'rig-03', 'rig-02', 'rig-01']);
	});

	test('every sort key, both directions: a worker without the value ("—": no window yet, no share) last, as in htop', () => {
		const rows = workerRows(
			[
				worker('blank', {hashrate: [null, null, null, null, null], accepted: 0, rejected: 0, lastShareAt: null}),
				worker('low', {hashrate: [100, 100, 100, 100, 100], rejected: 1, lastShareAt: NOW - 60_000}),
				worker('high', {hashrate: [900, 900, 900, 900, 900], rejected: 9, lastShareAt: NOW - 1000}),
			],
			NOW,
			9000,
		);
		for (const key of ['m1', 'm10', 'rej', 'last'] as const)
			for (const reversed of [false, true])
				expect(workerOrder(rows, {key, reversed}, '').at(-1), `${key} ${String(reversed)}`).toBe('blank');
	});

	test("the footer offers the fleet's keys and the proxy's, never pause; Esc is offered with a filter or a fleet to go back to", () => {
		const footer = footerOf(SCREEN_KEYMAP, availability(modes, {given: GIVEN})).map((hint) => `${hint.keys} ${hint.label}`);
		expect(footer).toEqual([
			'q quit',
			'? help',
			'↑↓ select',
			'Enter open',
			's sort',
			'/ filter',
			'R refresh',
			'c config',
			'g chart',
			'e events',
		]);
		// A filter in force: Esc clears it, and the footer says so as the fleet's does; with none, Esc goes back.
		const filtered = availability({...modes, filter: 'rig'}, {given: {...GIVEN, back: true}});
		expect(filtered.works.has('clearFilter')).toBe(true);
		expect(footerOf(SCREEN_KEYMAP, filtered).map((hint) => `${hint.keys} ${hint.label}`)).toContain('Esc clear filter');
		expect(footerOf(SCREEN_KEYMAP, filtered).map((hint) => `${hint.keys} ${hint.label}`)).not.toContain('Esc back');
		const back = availability(modes, {given: {...GIVEN, back: true}});
		expect(back.works.has('toFleet')).toBe(true);
		expect(footerOf(SCREEN_KEYMAP, back).map((hint) => `${hint.keys} ${hint.label}`)).toContain('Esc back');
		expect(availability(modes, {given: GIVEN}).works.has('toFleet')).toBe(false);
		// The help lists both meanings of Esc, each in its own words.
		const help = proxyHelp({...GIVEN, back: true}, false).map((entry) => entry.description);
		expect(help).toContain('clear the filter');
		expect(help).toContain('with no filter: back to the fleet');
		const detail = availability({...modes, detail: 'rig-01'}, {given: GIVEN});
		expect(detail.context).toBe('worker');
		expect(footerOf(SCREEN_KEYMAP, detail).map((hint) => `${hint.keys} ${hint.label}`)).toEqual([
			'q quit',
			'? help',
			'R refresh',
			'Esc back',
			'g chart',
			'e events',
		]);
		expect(SCREEN_KEYMAP.commandFor('p', {}, 'proxy', new Set(SCREEN_KEYMAP.bindings.map((binding) => binding.command)))).toBeNull();
	});

	test("the config view masks the proxy's pool passwords, access password and token, and knows its keys", () => {
		const capture = readFileSync(new URL('../../../fixtures/xmrig-proxy/v6.26/get_1_config.txt', import.meta.url), 'utf8');
		const body = capture.slice(capture.indexOf('\n{') + 1, capture.lastIndexOf('}') + 1);
		const text = body.replace('"access-password": null', '"access-password": "miners-login-9f2"');
		const masked = new ConfigDocument(text).maskedText();
		for (const secret of ['proxy-pool-pass-5e1', 'miners-login-9f2', 'proxy-secret-3b7']) expect(masked).not.toContain(secret);
		expect(isSecret(['access-password'])).toBe(true);
		expect(isSecret(['pools', 0, 'pass'])).toBe(true);
		expect(specFor(['mode'])?.cycle).toEqual(['nicehash', 'simple', 'extra_nonce']);
		expect(validate(['mode'], 'tunnel')).not.toBeNull();
		expect(validate(['workers'], 'rig_id')).toBeNull();
	});
});
