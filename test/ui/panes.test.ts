import {describe, expect, test} from 'vitest';
import {hugepagesText, shortBrand} from '../../source/ui/panes/system-pane.js';
import {sharedThreadUnit} from '../../source/ui/panes/threads-pane.js';
import {makeThreads} from './helpers/state.js';

describe('system pane helpers', () => {
	test('CPU brands lose the words that carry nothing', () => {
		expect(shortBrand('AMD Ryzen 9 5950X 16-Core Processor')).toBe('AMD Ryzen 9 5950X');
		expect(shortBrand('Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz')).toBe('Intel Core i7-8700 @ 3.20GHz');
		expect(shortBrand('Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz')).toBe('Intel Xeon E5-2680 v4 @ 2.40GHz');
		expect(shortBrand('Cortex-A72')).toBe('Cortex-A72');
	});

	test('hugepages: all, part, none, not wanted, and the 2.x flag', () => {
		expect(hugepagesText({kind: 'pages', allocated: 1168, total: 1168})).toEqual({text: '1 168/1 168 100%', tone: 'ok'});
		expect(hugepagesText({kind: 'pages', allocated: 600, total: 1168})).toEqual({text: '600/1 168 51.4%', tone: 'warn'});
		expect(hugepagesText({kind: 'pages', allocated: 0, total: 1168})).toEqual({text: '0/1 168 0%', tone: 'error'});
		expect(hugepagesText({kind: 'pages', allocated: 0, total: 0})).toEqual({text: 'off', tone: 'muted'});
		expect(hugepagesText({kind: 'flag', enabled: false})).toEqual({text: 'off', tone: 'warn'});
		expect(hugepagesText(null).text).toBe('—');
	});
});

describe('threads pane unit', () => {
	test('one unit when every backend suits it, none when they differ', () => {
		expect(sharedThreadUnit(makeThreads(4))).toBe('H/s');
		expect(sharedThreadUnit(makeThreads(4, 1500))).toBe('kH/s');
		expect(sharedThreadUnit([])).toBe('H/s');
		const gpu = {...makeThreads(1, 1_200_000)[0]!, backend: 'cuda'};
		expect(sharedThreadUnit([...makeThreads(2), gpu])).toBeNull();
	});
});
