import {afterEach, expect, it, vi} from 'vitest';
import {MinerClient} from '../../source/miner/client.js';
import {MinerReader} from '../../source/miner/reader.js';
import {Monitor} from '../../source/monitor/monitor.js';
import type {LinkStatus, MonitorState} from '../../source/monitor/types.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 8000, interval: 10});

it('watches the simulated miner through the real client: stale then down with the last values kept, live again when it is back', async () => {
	const sim: Simulator = await startSimulator({warm: true, seed: 7, workerId: 'sim-rig'});
	cleanups.push(async () => sim.stop());
	const client = new MinerClient({url: sim.url, token: null}, {connectTimeoutMs: 1000, deadlineMs: 2000});
	cleanups.push(async () => client.close());
	const reader = new MinerReader(client);
	const monitor = new Monitor({read: async (signal) => reader.read(signal), url: sim.url, intervalMs: 250, maxBackoffMs: 500});
	cleanups.push(() => monitor.stop());

	const statuses: LinkStatus[] = [];
	let lastLive: MonitorState | null = null;
	monitor.subscribe(() => {
		const state = monitor.getState();
		if (statuses.at(-1) !== state.status) statuses.push(state.status);
		if (state.status === 'live') lastLive = state;
	});
	monitor.start();

	await waitFor(() => expect(monitor.getState().recentRates.length).toBeGreaterThanOrEqual(2));
	const live = monitor.getState();
	expect(live).toMatchObject({status: 'live', name: `127.0.0.1:${sim.port}`, error: null, url: sim.url});
	expect(live.snapshot?.version).toBe('6.26.0');
	expect(live.snapshot?.hashrate.total[0]).toBeGreaterThan(0);
	expect(live.sessionAverage).toBeGreaterThan(0);
	expect(live.events[0]?.message).toBe(`watching 127.0.0.1:${sim.port} (sim-rig), XMRig 6.26.0`);

	await sim.stop();
	await waitFor(() => expect(monitor.getState().status).toBe('down'));
	const down = monitor.getState();
	expect(statuses).toEqual(['live', 'stale', 'down']);
	// The panes keep the last good values.
	expect(lastLive).not.toBeNull();
	expect(down.snapshot).toBe(lastLive!.snapshot);
	expect(down.recentRates).toBe(lastLive!.recentRates);
	expect(down.lastSuccessAt).toBe(lastLive!.lastSuccessAt);
	expect(down.error?.kind).toBe('unreachable');
	expect(down.failingSince).not.toBeNull();
	expect(down.events.at(-1)?.kind).toBe('down');
	expect(down.nextPollAt).not.toBeNull();

	await sim.start();
	await waitFor(() => expect(monitor.getState().status).toBe('live'));
	const back = monitor.getState();
	expect(statuses).toEqual(['live', 'stale', 'down', 'live']);
	expect(back.consecutiveFailures).toBe(0);
	expect(back.recentRates.length).toBeGreaterThan(down.recentRates.length);
	expect(back.events.map((event) => event.kind)).toEqual(['started', 'down', 'up']);
	expect(back.events.at(-1)?.message).toMatch(/^back up after \d+s$/);

	monitor.stop();
	const polls = monitor.getState().polls;
	const requests = sim.requests.length;
	await new Promise((resolve) => setTimeout(resolve, 600));
	expect(monitor.getState().polls).toBe(polls);
	expect(sim.requests.length).toBe(requests);
});
