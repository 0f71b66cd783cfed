import {describe, expect, it} from 'vitest';
import type {MinerSnapshot} from '../../source/miner/model.js';
import {deriveEvents, initialDropState, initialPauseState, type DropState, type EventDraft} from '../../source/monitor/events.js';
import {countsForReference} from '../../source/monitor/reference.js';
import {watchedRate, watchedWindow} from '../../source/monitor/watched-rate.js';
import {makeProxySnapshot} from '../helpers/proxy-snapshot.js';
import {makeSnapshot} from '../helpers/snapshot.js';

/** Polls through deriveEvents as the monitor does (the drop state carried from poll to poll). */
function run(snapshots: readonly MinerSnapshot[], reference: number | null = null): EventDraft[] {
	let prev: MinerSnapshot | null = null;
	let drop: DropState = initialDropState;
	let pause = initialPauseState;
	const events: EventDraft[] = [];
	for (const next of snapshots) {
		const result = deriveEvents(prev, next, {name: 'px', drop, pause, elapsedMs: 10_000, hugepagesSeen: true, reference});
		events.push(...result.events);
		drop = result.drop;
		pause = result.pause;
		prev = next;
	}

	return events;
}

const rates = (minute: number, tenMinutes: number) => makeProxySnapshot('px', {hashrate: [minute, tenMinutes, 9000, 9000, 9000]});

describe('a proxy watched on its 1 min rate', () => {
	it('a drop of its 1 min rate against its 10 min one is reported, in its own windows, and its recovery', () => {
		const steady = rates(9000, 9000);
		const low = rates(3000, 8800);
		const back = rates(8900, 8000);
		const events = run([steady, steady, low, low, low, low, back, back, back]);
		const drops = events.filter((event) => event.kind === 'hashrate-drop' || event.kind === 'hashrate-recovered');
		expect(drops.map((event) => event.message)).toEqual([
			'1m hashrate down to 3.00 kH/s, 34.1% of the 10m average (8.80 kH/s)',
			'1m hashrate recovered: 8.90 kH/s',
		]);
		for (const event of events) expect(event.message).not.toMatch(/10s|60s|15m|huge pages/);
	});

	it('against the hour rigtop knows, where that is higher', () => {
		const events = run([rates(3000, 3500), rates(3000, 3500), rates(3000, 3500)], 9000);
		expect(events.find((event) => event.kind === 'hashrate-drop')?.message).toBe(
			'1m hashrate down to 3.00 kH/s, 33.3% of the 1h average (9.00 kH/s)',
		);
	});

	it('its samples and reference are its 1 min rate; a miner’s are its 10 s', () => {
		const proxy = rates(7000, 8000);
		expect(watchedRate(proxy)).toBe(7000);
		expect(watchedWindow(proxy)).toBe('1m');
		expect(countsForReference(proxy, initialDropState)).toBe(true);
		const miner = makeSnapshot({hashrate: {total: [4000, 4100, 4200]}});
		expect(watchedRate(miner)).toBe(4000);
		expect(watchedWindow(miner)).toBe('10s');
	});
});
