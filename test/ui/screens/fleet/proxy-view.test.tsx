import {afterEach, describe, expect, test, vi} from 'vitest';
import {App} from '../../../../source/ui/app.js';
import type {ProxySimulator} from '../../../../source/sim/proxy-simulator.js';
import type {Simulator} from '../../../../source/sim/simulator.js';
import {createStore, makeState} from '../../helpers/state.js';
import {expectFits, linesOf, renderTerminal} from '../../helpers/terminal.js';
import {startSimFleet, type SimFleet} from './helpers/sim-fleet.js';

let fleet: SimFleet<Simulator | ProxySimulator> | null = null;
afterEach(async () => {
	await fleet?.close();
	fleet = null;
});

/**
 * Two simulated miners and one simulated xmrig-proxy with five workers, watched as the CLI watches them on the fleet:
 * summaries only (no per-thread document, a proxy's /1/workers, is asked for). A rigs file names each by its worker id.
 */
async function mixedFleet(): Promise<SimFleet<Simulator | ProxySimulator>> {
	fleet = await startSimFleet(
		[
			{dialect: '6', workerId: 'rig-a', seed: 1},
			{dialect: '5', workerId: 'rig-b', seed: 2},
			{kind: 'proxy', workerId: 'the-proxy', workers: 5, seed: 3, lifeEvents: false},
		],
		250,
		() => false,
		['rig-a', 'rig-b', 'the-proxy'],
	);
	fleet.start();
	return fleet;
}

const line = (frame: string, pattern: RegExp) => linesOf(frame).find((text) => pattern.test(text)) ?? '';

describe('the fleet with an xmrig-proxy beside two miners', () => {
	test('80×24: the proxy is one row, kind and workers, its 1 min rate in H/s under "60s/1m", no 10 s or 15 m', async () => {
		const sims = await mixedFleet();
		const miners = sims.miners.map((miner) => ({store: miner.monitor}));
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} color={false} fleetThrottleMs={50} />, {
			columns: 80,
			rows: 24,
		});
		await terminal.waitFor(/● 3 live/);
		await terminal.waitFor(/the-proxy +live +proxy 5 /);
		const frame = terminal.frame();
		// The miners' total, said to leave the proxy out: at 80 columns by "total" beside the proxy's own rate "not in
		// total" (200×50 below has room for "from 2 miners" too).
		expect(linesOf(frame)[0]).toMatch(/^ rigtop {2}3 rigs · [\d.]+ kH\/s total · proxy [\d.]+ k?H\/s \(1m, not in total\) +● 3 live$/);
		expect(linesOf(frame)[1]).toMatch(/kind\/wk +10s +60s\/1m .*shares/);
		expect(line(frame, /the-proxy/)).toMatch(/the-proxy +live +proxy 5(?: wk)? +— +[\d.]+ k?H\/s +— +[\d ]+\/[\d ]+$/);
		expect(line(frame, /^ {2}miners /)).toMatch(/miners +2\/2 up/);
		expectFits(terminal, 80, 24);
	});

	test('200×50: upstreams in the pool column, the proxies’ rate apart in the title; an upstream error shows', async () => {
		const sims = await mixedFleet();
		const miners = sims.miners.map((miner) => ({store: miner.monitor}));
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} color={false} fleetThrottleMs={50} />, {
			columns: 200,
			rows: 50,
		});
		// Every rig answered (a local miner's first poll reads its sensors too: the proxy may answer first).
		await terminal.waitFor(/● 3 live/);
		await terminal.waitFor(/the-proxy +live +proxy, 5 workers/);
		// Each row comes with its own first poll: the miners' may come after the proxy's (they read this machine's
		// sensors beside it).
		await terminal.waitFor(/rig-a .*pool\.example\.org[\s\S]*rig-b|rig-b[\s\S]*rig-a .*pool\.example\.org/);
		let frame = terminal.frame();
		expect(linesOf(frame)[0]).toMatch(/^ rigtop {2}3 rigs · [\d.]+ kH\/s from 2 miners · proxy [\d.]+ k?H\/s \(1m, not in total\)/);
		expect(linesOf(frame)[1]).toMatch(/pool\/upstream/);
		expect(line(frame, /the-proxy/)).toMatch(/— +[\d.]+ k?H\/s +— +[\d ]+\/[\d ]+ +[\d.]+% +1\/1 up/);
		expect(line(frame, /rig-a/)).toMatch(/miner .* pool\.example\.org/);

		// Watched here with no per-thread reads (as the exporter's --no-worker-metrics does; the session reads a proxy's
		// /1/workers at every poll, test/session/proxy-workers.test.ts): the row's numbers come from the summary alone.
		// /1/miners, which carries every miner's pool password, is never read.
		const proxySim = sims.sims[2] as ProxySimulator;
		await vi.waitFor(() => expect(proxySim.requests.filter((request) => request.path === '/1/summary').length).toBeGreaterThanOrEqual(4), {
			timeout: 10_000,
			interval: 20,
		});
		expect(proxySim.requests.filter((request) => request.path.startsWith('/1/workers')).length).toBeLessThanOrEqual(1);
		expect(proxySim.requests.some((request) => request.path.startsWith('/1/miners'))).toBe(false);
		proxySim.failUpstream();
		await vi.waitFor(() => expect(line(terminal.frame(), /the-proxy/)).toMatch(/error 1\/1/), {timeout: 10_000, interval: 20});
		// No upstream active: its state says so in its own word, not "no pool".
		expect(line(terminal.frame(), /the-proxy/)).toMatch(/the-proxy +no upstream +proxy/);
		frame = terminal.frame();
		expect(frame).not.toMatch(/password|"pass"/i);
		expectFits(terminal, 200, 50);
	});

	test('sort by 10s and a filter typed in one chunk keep the proxy row; Enter on it opens its screen', async () => {
		const sims = await mixedFleet();
		const miners = sims.miners.map((miner) => ({store: miner.monitor}));
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} color={false} fleetThrottleMs={50} />, {
			columns: 120,
			rows: 30,
		});
		await terminal.waitFor(/the-proxy +live +proxy, 5 workers/);
		// Both miners answered too: a rig not yet polled has no rate, and goes last under a value sort.
		await vi.waitFor(() => {
			for (const rig of [/rig-a/, /rig-b/]) expect(line(terminal.frame(), rig)).toMatch(/ live +miner +[\d.]+ k?H\/s/);
		});
		// s: by state, s: by 10s (a proxy by its 1 min rate: the highest here, last).
		await terminal.press('ss', /10s▲/);
		const order = linesOf(terminal.frame())
			.filter((text) => /^[▸ ][ !](rig-a|rig-b|the-proxy) /.test(text))
			.map((text) => /rig-a|rig-b|the-proxy/.exec(text)?.[0]);
		expect(order).toHaveLength(3);
		expect(order.at(-1)).toBe('the-proxy');
		await terminal.press('/proxy\r', /\/proxy 1 of 3/);
		const frame = terminal.frame();
		expect(frame).toMatch(/▸ the-proxy/);
		expect(frame).not.toMatch(/rig-a|rig-b/);
		expect(line(frame, /^ {2}miners/)).toMatch(/miners +— +— +— +— +— +—$/);
		await terminal.press('\r');
		await vi.waitFor(() => expect(terminal.frame()).not.toMatch(/\/proxy 1 of 3/), {timeout: 10_000, interval: 20});
		expect(terminal.frame()).toMatch(/the-proxy/);
	});
});

describe('a proxy the session was told of', () => {
	test('is a proxy row before it answers (--rigs "kind": "proxy"), a miner row when not told', async () => {
		const miners = [
			{store: createStore(makeState({name: 'front', status: 'connecting', snapshot: null})), kind: 'proxy' as const},
			{store: createStore(makeState({name: 'attic', status: 'connecting', snapshot: null}))},
		];
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} color={false} />, {columns: 120, rows: 24});
		await terminal.waitFor(/front +connecti\S* +proxy /);
		expect(line(terminal.frame(), /attic/)).toMatch(/attic +connecti\S* +miner /);
		expect(linesOf(terminal.frame())[0]).toMatch(/from 1 miner · proxy — \(1m, not in total\)/);
	});
});
