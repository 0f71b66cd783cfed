/**
 * The alerts of issue 22 from a real simulated miner, with the alert center started after the monitor's first poll
 * as the live screens start it (commands/live/alerting.ts): huge pages missing from the start, threads cut by a config PUT
 * and back, and a pause that raises nothing. The monitor's clock and the simulator's run ten times faster.
 */
import {afterEach, expect, test, vi} from 'vitest';
import {AlertCenter} from '../../source/alerts/center.js';
import type {Alert} from '../../source/alerts/types.js';
import {fastWatch, putCpu, type FastWatch} from '../monitor/fast-watch.js';

let watched: FastWatch | null = null;
let center: AlertCenter | null = null;

afterEach(async () => {
	center?.stop();
	center = null;
	await watched?.close();
	watched = null;
});

const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 15_000, interval: 20});

test('huge pages short from the start, a thread cut and its recovery are alerted once each; a pause and resume are not a drop', async () => {
	watched = await fastWatch();
	const {sim, monitor, client} = watched;
	expect(
		await putCpu(sim, (cpu) => {
			cpu['huge-pages'] = false;
		}),
	).toBe(204);
	await waitFor(() => expect((JSON.parse(sim.configText()) as {cpu: Record<string, unknown>}).cpu['huge-pages']).toBe(false));

	const alerts: Alert[] = [];
	const seen = () => alerts.map((alert) => `${alert.kind}: ${alert.message}`);
	monitor.start();
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(0));
	center = new AlertCenter([monitor], {sinks: [(alert) => alerts.push(alert)]});
	center.start();

	await waitFor(() => expect(seen()).toContain('hugepages-lost: huge pages: 0 of 1 172 allocated'));
	expect(center.getState().rigs[0]?.open?.kind).toBe('hugepages-lost');

	// 20 polls of reference, then cut to one thread.
	const polls = monitor.getState().polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(polls + 20));
	expect(
		await putCpu(sim, (cpu) => {
			cpu['rx'] = [0];
		}),
	).toBe(204);
	await waitFor(() => expect(alerts.map((alert) => alert.kind)).toContain('hashrate-drop'));
	expect(alerts.find((alert) => alert.kind === 'hashrate-drop')?.message).toMatch(/ of the 1h average \(/);
	expect(center.getState().rigs[0]?.open?.kind).toBe('hashrate-drop');

	// Paused and resumed while dropped: no new alert (paused for less than --paused-alert).
	const before = alerts.length;
	await client.rpc('pause');
	await waitFor(() => expect(monitor.getState().snapshot?.paused).toBe(true));
	await client.rpc('resume');
	await waitFor(() => expect(monitor.getState().events.map((event) => event.kind)).toContain('resumed'));
	const resumed = monitor.getState().polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(resumed + 25));
	expect(alerts.length).toBe(before);

	// Threads back and huge pages on (one PUT): the all-clears, once each.
	expect(
		await putCpu(sim, (cpu) => {
			cpu['rx'] = [0, 1, 2, 3];
			cpu['huge-pages'] = true;
		}),
	).toBe(204);
	await waitFor(() =>
		expect(alerts.map((alert) => alert.kind)).toEqual(expect.arrayContaining(['hashrate-recovered', 'hugepages-restored'])),
	);
	const done = monitor.getState().polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(done + 20));
	expect(alerts.map((alert) => alert.kind)).toEqual(['hugepages-lost', 'hashrate-drop', 'hugepages-restored', 'hashrate-recovered']);
	expect(center.getState().rigs[0]?.open).toBeNull();
});
