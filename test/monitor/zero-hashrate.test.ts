/**
 * Zero hashrate (issue 38): a miner with a pool, not paused, that hashes nothing is a trouble of its own, told once and
 * ended when it hashes again. From a real simulated miner whose CPU backend is turned off by a config PUT (its 10 s
 * rate absent, as XMRig's is with no backend running: no drop was ever told of it), from the detector on polls at 0
 * (a drop to zero is told once, as a zero), and from a monitor across the rig going down and coming back.
 */
import {afterEach, describe, expect, it, test, vi} from 'vitest';
import {AlertCenter} from '../../source/alerts/center.js';
import {alertForEvent, type OpenTroubles} from '../../source/alerts/select.js';
import type {Alert} from '../../source/alerts/types.js';
import type {MinerSnapshot} from '../../source/miner/model.js';
import {
	deriveEvents,
	initialDropState,
	initialZeroState,
	ZERO_AFTER_MS,
	type DropState,
	type EventDraft,
	type ZeroState,
} from '../../source/monitor/events.js';
import {Monitor} from '../../source/monitor/monitor.js';
import {makeSnapshot} from '../helpers/snapshot.js';
import {fastWatch, putCpu, type FastWatch} from './fast-watch.js';
import {refused, scriptedRead} from './scripted-read.js';

let watched: FastWatch | null = null;
let center: AlertCenter | null = null;

afterEach(async () => {
	center?.stop();
	center = null;
	await watched?.close();
	watched = null;
	vi.useRealTimers();
});

const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 20_000, interval: 20});

test('a miner connected and not paused whose CPU backend is turned off is one zero-hashrate alert, and hashing again its all-clear', async () => {
	watched = await fastWatch();
	const {sim, monitor} = watched;
	const alerts: Alert[] = [];
	monitor.start();
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(0));
	center = new AlertCenter([monitor], {sinks: [(alert) => alerts.push(alert)]});
	center.start();
	const polls = monitor.getState().polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(polls + 20));

	expect(
		await putCpu(sim, (cpu) => {
			cpu['enabled'] = false;
		}),
	).toBe(204);
	await waitFor(() => expect(alerts.map((alert) => alert.kind)).toContain('zero-hashrate'));
	expect(monitor.getState().snapshot?.connection.connected).toBe(true);
	expect(monitor.getState().snapshot?.paused).toBe(false);
	expect(alerts.find((alert) => alert.kind === 'zero-hashrate')?.message).toMatch(/^no hashrate for 1m\b.*: connected to \S+, not paused$/);
	expect(center.getState().rigs[0]?.open?.kind).toBe('zero-hashrate');
	// It lasts: still one alert, and no drop beside it.
	const zero = monitor.getState().polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(zero + 15));

	expect(
		await putCpu(sim, (cpu) => {
			cpu['enabled'] = true;
		}),
	).toBe(204);
	await waitFor(() => expect(alerts.map((alert) => alert.kind)).toContain('hashrate-back'));
	expect(alerts.map((alert) => alert.kind)).toEqual(['zero-hashrate', 'hashrate-back']);
	expect(center.getState().rigs[0]?.open).toBeNull();
});

test('a pause as long is no zero hashrate', async () => {
	watched = await fastWatch();
	const {monitor, client} = watched;
	const alerts: Alert[] = [];
	monitor.start();
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(0));
	center = new AlertCenter([monitor], {sinks: [(alert) => alerts.push(alert)]});
	center.start();
	await client.rpc('pause');
	await waitFor(() => expect(monitor.getState().snapshot?.paused).toBe(true));
	const paused = monitor.getState().polls;
	// Past ZERO_AFTER_MS of (fast) time paused, under --paused-alert's 10 minutes.
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(paused + 90));
	await client.rpc('resume');
	await waitFor(() => expect(monitor.getState().snapshot?.paused).toBe(false));
	const resumed = monitor.getState().polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(resumed + 25));
	expect(alerts).toEqual([]);
});

/** Runs polls through deriveEvents, a second apart, as the monitor does; the alerts' open troubles beside. */
function run(
	rates: readonly (number | null)[],
	options: {paused?: (index: number) => boolean; connected?: (index: number) => boolean} = {},
) {
	let prev: MinerSnapshot | null = makeSnapshot({hashrate: {total: [4800, 4800, 4800]}});
	let drop: DropState = initialDropState;
	let zero: ZeroState = initialZeroState;
	let open: OpenTroubles = new Set();
	const events: EventDraft[] = [];
	const alerted: string[] = [];
	rates.forEach((rate, index) => {
		const next = makeSnapshot({
			hashrate: {total: [rate, 4800, 4800]},
			paused: options.paused?.(index) ?? false,
			connection: {connected: options.connected?.(index) ?? true},
		});
		const derived = deriveEvents(prev, next, {name: 'rig-01', drop, zero, elapsedMs: 20_000});
		drop = derived.drop;
		zero = derived.zero;
		prev = next;
		for (const event of derived.events) {
			events.push(event);
			const step = alertForEvent(event, open);
			open = step.open;
			if (step.alert) alerted.push(step.alert.kind);
		}
	});
	return {events, alerted, open: [...open]};
}

describe('a drop to zero', () => {
	const kinds = (events: readonly EventDraft[]) =>
		events.map((event) => event.kind).filter((kind) => kind !== 'paused' && kind !== 'resumed');

	it('from full to 0 is told once, as a zero (not also as a drop), and its all-clear once', () => {
		const {events, alerted, open} = run([0, 0, 0, 0, 0, 0, 4800, 4800, 4800, 4800]);
		expect(kinds(events)).toEqual(['zero-hashrate', 'hashrate-back']);
		expect(alerted).toEqual(['zero-hashrate', 'hashrate-back']);
		expect(open).toEqual([]);
		expect(events[0]?.message).toBe('no hashrate for 1m: connected to pool.example.org:443, not paused');
	});

	it('after a drop told before, the zero closes the drop: one trouble open, one all-clear', () => {
		const {events, alerted, open} = run([1000, 1000, 1000, 0, 0, 0]);
		expect(kinds(events)).toEqual(['hashrate-drop', 'zero-hashrate']);
		expect(alerted).toEqual(['hashrate-drop', 'zero-hashrate']);
		expect(open).toEqual(['zero-hashrate']);
		const back = run([1000, 1000, 1000, 0, 0, 0, 4800, 4800, 4800, 4800, 4800, 4800]);
		expect(kinds(back.events)).toEqual(['hashrate-drop', 'zero-hashrate', 'hashrate-back']);
		expect(back.open).toEqual([]);
	});

	it('a low rate with polls at zero in it is still a drop, and one back but low is a drop again after its all-clear', () => {
		// 0 polls are none of the drop's: neither counted nor resetting its count.
		expect(kinds(run([1000, 0, 1000, 0, 1000]).events)).toEqual(['hashrate-drop']);
		expect(kinds(run([0, 0, 0, 1000, 1000, 1000, 1000, 1000, 1000]).events)).toEqual(['zero-hashrate', 'hashrate-back', 'hashrate-drop']);
	});

	it('needs a minute of it: a zero of two polls (an algorithm switch) is nothing, nor one while paused or without a pool', () => {
		expect(Math.ceil(ZERO_AFTER_MS / 20_000)).toBe(3);
		expect(kinds(run([0, 0, 4800, 0, 0, 4800]).events)).toEqual([]);
		expect(kinds(run([0, 0, 0, 0, 0], {paused: () => true}).events)).toEqual([]);
		expect(kinds(run([0, 0, 0, 0, 0], {connected: () => false}).events)).toEqual(['pool-lost']);
	});
});

test('a miner down and back at zero is told again: its up closed the zero in the alerts', async () => {
	vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.UTC(2026, 11, 8, 3, 0, 0)});
	const zero = makeSnapshot({hashrate: {total: [0, 0, 4800]}, uptime: 400_000});
	// 20 polls at zero, 5 down, then at zero again.
	const {read} = scriptedRead((call) => (call >= 20 && call < 25 ? {result: refused()} : {result: zero}));
	const monitor = new Monitor({read, url: 'http://127.0.0.1:19501', intervalMs: 5000, random: () => 0});
	const alerts: string[] = [];
	center = new AlertCenter([monitor], {sinks: [(alert) => alerts.push(alert.kind)], now: () => Date.now()});
	monitor.start();
	center.start();
	await vi.advanceTimersByTimeAsync(100_000);
	expect(alerts).toEqual(['zero-hashrate']);
	await vi.advanceTimersByTimeAsync(400_000);
	expect(monitor.getState().status).toBe('live');
	expect(alerts).toEqual(['zero-hashrate', 'down', 'up', 'zero-hashrate']);
	expect(center.getState().rigs[0]?.open?.kind).toBe('zero-hashrate');
	monitor.stop();
});
