import {describe, expect, test} from 'vitest';
import {formatInterval, nextInterval, PollInterval} from '../../source/monitor/poll-interval.js';

describe('the live poll interval', () => {
	test('moves along round steps, from any starting value, and stops at the ends', () => {
		expect(nextInterval(2000, 1)).toBe(3000);
		expect(nextInterval(2000, -1)).toBe(1000);
		expect(nextInterval(1500, 1)).toBe(2000);
		expect(nextInterval(1500, -1)).toBe(1000);
		expect(nextInterval(250, -1)).toBe(250);
		expect(nextInterval(60_000, 1)).toBe(60_000);
		expect(nextInterval(90_000, -1)).toBe(60_000);
	});

	test('tells every monitor, and its listeners, and is written as the header shows it', () => {
		const set: number[][] = [[], []];
		const interval = new PollInterval(
			set.map((log) => ({setIntervalMs: (ms: number) => log.push(ms)})),
			2000,
		);
		let told = 0;
		interval.subscribe(() => told++);
		expect(interval.step(1)).toBe(true);
		expect(interval.getState()).toBe(3000);
		expect(set).toEqual([[3000], [3000]]);
		expect(told).toBe(1);
		for (let index = 0; index < 10; index++) interval.step(-1);
		expect(interval.getState()).toBe(250);
		expect(interval.step(-1)).toBe(false);
		expect(set[0]?.at(-1)).toBe(250);
		expect(formatInterval(250)).toBe('250 ms');
		expect(formatInterval(2000)).toBe('2s');
		expect(formatInterval(1500)).toBe('1.5s');
	});
});
