import {describe, expect, test} from 'vitest';
import {
	alertForEvent,
	burstMessage,
	initialBurstState,
	PROXY_BURST_SHARE,
	stepRejects,
	type OpenTroubles,
} from '../../source/alerts/select.js';
import type {EventKind} from '../../source/monitor/types.js';

const none: OpenTroubles = new Set();
const event = (kind: EventKind, message: string = kind) => ({kind, message});

describe('which events are alerts', () => {
	test('trouble kinds alert; ordinary news does not', () => {
		expect(alertForEvent(event('down', 'down: connection refused'), none).alert).toEqual({
			kind: 'down',
			severity: 'error',
			message: 'down: connection refused',
		});
		expect(alertForEvent(event('error'), none).alert?.severity).toBe('error');
		expect(alertForEvent(event('pool-lost'), none).alert?.kind).toBe('pool-lost');
		expect(alertForEvent(event('hashrate-drop'), none).alert?.kind).toBe('hashrate-drop');
		expect(alertForEvent(event('restarted'), none).alert?.kind).toBe('restarted');
		const replaced = alertForEvent(
			event('replaced', 'a different miner now answers at 10.0.0.5:8080'),
			alertForEvent(event('pool-lost'), none).open,
		);
		expect(replaced.alert).toEqual({kind: 'replaced', severity: 'warn', message: 'a different miner now answers at 10.0.0.5:8080'});
		// The old miner's troubles are not the new one's.
		expect(replaced.open.size).toBe(0);
		expect(alertForEvent(event('hugepages-lost'), none).alert?.kind).toBe('hugepages-lost');
		for (const kind of ['started', 'paused', 'resumed', 'rejected', 'action'] as const)
			expect(alertForEvent(event(kind), none).alert).toBeNull();
	});

	test('an all-clear is an alert only after its trouble was alerted', () => {
		expect(alertForEvent(event('pool-connected'), none).alert).toBeNull();
		expect(alertForEvent(event('hashrate-recovered'), none).alert).toBeNull();
		const lost = alertForEvent(event('pool-lost'), none);
		const back = alertForEvent(event('pool-connected', 'pool reconnected: p:1'), lost.open);
		expect(back.alert).toEqual({kind: 'pool-back', severity: 'info', message: 'pool reconnected: p:1'});
		expect(back.open.size).toBe(0);
		const drop = alertForEvent(event('hashrate-drop'), none);
		expect(alertForEvent(event('hashrate-recovered'), drop.open).alert?.kind).toBe('hashrate-recovered');
	});

	test('up clears everything the miner had open; down and error replace each other', () => {
		let open = alertForEvent(event('pool-lost'), none).open;
		open = alertForEvent(event('down'), open).open;
		expect([...open].sort()).toEqual(['down', 'pool-lost']);
		open = alertForEvent(event('error'), open).open;
		expect([...open].sort()).toEqual(['error', 'pool-lost']);
		const up = alertForEvent(event('up', 'back up after 4m'), open);
		expect(up.alert).toEqual({kind: 'up', severity: 'info', message: 'back up after 4m'});
		expect(up.open.size).toBe(0);
	});

	test('a restart or a return closes the pool, hashrate and pause troubles, not missing huge pages (the monitor follows them)', () => {
		for (const ending of ['restarted', 'up'] as const) {
			let open = alertForEvent(event('hugepages-lost', 'huge pages: 0 of 1 168 allocated'), none).open;
			open = alertForEvent(event('hashrate-drop'), open).open;
			open = alertForEvent(event('pool-lost'), open).open;
			open = alertForEvent(event(ending), open).open;
			expect([...open]).toEqual(['hugepages-lost']);
			expect(alertForEvent(event('hugepages-restored'), open).alert?.kind).toBe('hugepages-restored');
		}
	});
});

describe('reject bursts', () => {
	const options = {count: 3, windowMs: 60_000};

	test("an xmrig-proxy's: three rejects among a thousand shares are no burst; rejects at 10 % of its shares are", () => {
		const proxy = {...options, share: PROXY_BURST_SHARE};
		let step = stepRejects(initialBurstState, 1, 0, proxy, 300);
		step = stepRejects(step.state, 1, 10_000, proxy, 300);
		step = stepRejects(step.state, 1, 20_000, proxy, 400);
		expect(step.burst).toBeNull();
		// The same three rejects by count alone (a miner's rule) are a burst.
		expect(stepRejects(stepRejects(stepRejects(initialBurstState, 1, 0, options).state, 1, 1, options).state, 1, 2, options).burst).toBe(3);
		// A new window: 12 rejects among 100 shares.
		step = stepRejects(step.state, 0, 90_000, proxy, 50);
		step = stepRejects(step.state, 12, 100_000, proxy, 50);
		expect(step.burst).toBe(12);
	});

	test('three rejects within the window make one burst, then the window starts again', () => {
		let state = initialBurstState;
		let step = stepRejects(state, 1, 0, options);
		expect(step.burst).toBeNull();
		step = stepRejects(step.state, 1, 10_000, options);
		expect(step.burst).toBeNull();
		step = stepRejects(step.state, 1, 20_000, options);
		expect(step.burst).toBe(3);
		state = step.state;
		// Still bursting within the same window: quiet.
		step = stepRejects(state, 5, 30_000, options);
		expect(step.burst).toBeNull();
		// A new window: alerted again.
		step = stepRejects(step.state, 1, 81_000, options);
		expect(step.burst).toBe(6);
	});

	test('rejects spread thinner than the window never make a burst', () => {
		let state = initialBurstState;
		for (let minute = 0; minute < 30; minute++) {
			const step = stepRejects(state, 1, minute * 31_000, options);
			expect(step.burst).toBeNull();
			state = step.state;
		}

		expect(state.marks.length).toBeLessThanOrEqual(2);
	});

	test('a poll with no rejects changes nothing while marks are fresh', () => {
		const first = stepRejects(initialBurstState, 1, 0, options).state;
		expect(stepRejects(first, 0, 1000, options).state).toBe(first);
		expect(stepRejects(first, 0, 70_000, options).state.marks).toEqual([]);
		expect(burstMessage(4, 300_000)).toBe('reject burst: 4 shares rejected within 5m');
	});
});
