/**
 * The chart's pure half (screens/contract.ts): its keys reduced against the env given at dispatch, and its
 * availability, the one source of its footer, help and key handler.
 */
import {describe, expect, test} from 'vitest';
import {SCREEN_KEYMAP} from '../../../../source/ui/keys/bindings.js';
import {footerOf} from '../../../../source/ui/screens/contract.js';
import {availability, chartHelp} from '../../../../source/ui/screens/chart/availability.js';
import {CHART_SPANS, initialChartState, reduce, shownSpan, spanMs} from '../../../../source/ui/screens/chart/reduce.js';
import type {ChartEnv, ChartUiState} from '../../../../source/ui/screens/chart/state.js';
import {CHART_SERIES, seriesRecorded} from '../../../../source/ui/screens/chart/series.js';
import type {SensorReading} from '../../../../source/sensors/types.js';

const HOUR = 3_600_000;
const NOW = 1_773_489_600_000;
const key = (input: string, special: Record<string, boolean> = {}) => ({type: 'key' as const, input, key: special});
const LEFT = key('', {leftArrow: true});

function press(state: ChartUiState, env: ChartEnv, ...actions: ReturnType<typeof key>[]) {
	let current = state;
	const effects = [];
	for (const action of actions) {
		const step = reduce(current, action, env);
		current = step.state;
		effects.push(...step.effects);
	}

	return {state: current, effects};
}

describe('the chart reducer', () => {
	test('moves back from the present the env gives, not before half a span after the first time known', () => {
		const env = {now: NOW, earliest: NOW - 2 * HOUR};
		const {state} = press(initialChartState(), env, LEFT);
		expect(state.end).toBe(NOW - HOUR / 2);
		// Far back: stopped half a span (an hour here) after the earliest.
		expect(press(initialChartState(), env, LEFT, LEFT, LEFT, LEFT, LEFT).state.end).toBe(NOW - 2 * HOUR + HOUR / 2);
		// Nothing known before now: no moving back.
		expect(press(initialChartState(), {now: NOW, earliest: null}, LEFT).state.end).toBeNull();
	});

	test('a span chosen is an effect for the app to remember; the same span again is none', () => {
		const env = {now: NOW, earliest: null};
		expect(press(initialChartState(), env, key('4')).effects).toEqual([{type: 'span', span: 3}]);
		expect(press(initialChartState(), env, key('+')).effects).toEqual([{type: 'span', span: 0}]);
		expect(press(initialChartState(), env, key('2')).effects).toEqual([]);
		expect(press(initialChartState(), env, key('q')).effects).toEqual([{type: 'quit'}]);
		expect(press(initialChartState(), env, key('', {escape: true})).effects).toEqual([{type: 'close'}]);
	});
});

describe('the chart availability', () => {
	test('End (back to now) is offered only once the chart was moved back; the help lists every key', () => {
		const env = {now: NOW, earliest: NOW - 2 * HOUR};
		const following = footerOf(SCREEN_KEYMAP, availability(initialChartState(), env)).map((hint) => hint.label);
		expect(following).toEqual(['quit', 'help', 'back', 'zoom', 'time', 'series']);
		const moved = press(initialChartState(), env, LEFT).state;
		expect(footerOf(SCREEN_KEYMAP, availability(moved, env)).map((hint) => hint.label)).toContain('now');
		// End while following does nothing (it is not offered).
		expect(press(initialChartState(), env, key('', {end: true})).state).toEqual(initialChartState());
		expect(chartHelp().every((entry) => entry.available)).toBe(true);
		expect(chartHelp().map((entry) => entry.description)).toContain('back to now');
	});

	test('where s is not offered (nothing but the hashrate recorded), the help does not list it either', () => {
		const env = {now: NOW, earliest: NOW - 2 * HOUR, recorded: [true, false, false, false, false]};
		const works = availability(initialChartState(), env).works.has('series');
		expect(works).toBe(false);
		const series = chartHelp(works).find((entry) => entry.keys === 's');
		expect(series?.available).toBe(false);
		expect(chartHelp(true).find((entry) => entry.keys === 's')?.available).toBe(true);
	});

	test('s steps through the series, back to the hashrate after H/W; not offered on a proxy’s chart', () => {
		const env = {now: NOW, earliest: null};
		const names = [1, 2, 3, 4, 5].map(
			(count) => CHART_SERIES[press(initialChartState(), env, ...Array.from({length: count}, () => key('s'))).state.series]?.name,
		);
		expect(names).toEqual(['temperature', 'clock', 'power', 'efficiency', 'hashrate']);
		const proxy = {...env, sensors: false};
		expect(press(initialChartState(), proxy, key('s')).state.series).toBe(0);
		expect(footerOf(SCREEN_KEYMAP, availability(initialChartState(), proxy)).map((hint) => hint.label)).not.toContain('series');
	});
});

describe('the span a chart opens with', () => {
	const MINUTE = 60_000;
	const label = (state: ChartUiState, env: ChartEnv) => CHART_SPANS[shownSpan(state, env)]?.label;

	test('with no span chosen, the shortest that holds what is known, up to the last hour: 6 minutes known open 10 min', () => {
		const opened = initialChartState();
		expect(label(opened, {now: NOW, earliest: NOW - 6 * MINUTE})).toBe('10 min');
		expect(spanMs(opened, {now: NOW, earliest: NOW - 6 * MINUTE})).toBe(10 * MINUTE);
		expect(label(opened, {now: NOW, earliest: NOW - 40 * MINUTE})).toBe('1 h');
		// Days of history: the last hour, as before (a week squeezed in is no better than minutes stretched).
		expect(label(opened, {now: NOW, earliest: NOW - 3 * 24 * HOUR})).toBe('1 h');
		// Nothing known yet (the first answer not in): the last hour.
		expect(label(opened, {now: NOW, earliest: null})).toBe('1 h');
	});

	test('a span remembered (prefs) or chosen is kept whatever is known; zooming from a fitted span starts from it', () => {
		const env = {now: NOW, earliest: NOW - 6 * MINUTE};
		expect(label(initialChartState(3), env)).toBe('24 h');
		expect(label(initialChartState(1), env)).toBe('1 h');
		// - from the fitted 10 min: 1 h, remembered; then fixed even as more is known.
		const zoomed = press(initialChartState(), env, key('-'));
		expect(zoomed.effects).toEqual([{type: 'span', span: 1}]);
		expect(label(zoomed.state, {now: NOW, earliest: NOW - 3 * MINUTE})).toBe('1 h');
		// 1 on the fitted 10 min: nothing new to remember, but the span is fixed now.
		const chosen = press(initialChartState(), env, key('1'));
		expect(chosen.effects).toEqual([]);
		expect(label(chosen.state, {now: NOW, earliest: NOW - 5 * HOUR})).toBe('10 min');
		// Moving back in time keeps the span shown.
		const back = press(initialChartState(), {now: NOW, earliest: NOW - 8 * MINUTE}, LEFT).state;
		expect(back.end).not.toBeNull();
		expect(label(back, {now: NOW, earliest: NOW - 5 * HOUR})).toBe('10 min');
	});
});

describe('s skips what is not recorded for this rig', () => {
	const names = (env: ChartEnv, count: number) =>
		Array.from(
			{length: count},
			(_, index) => CHART_SERIES[press(initialChartState(), env, ...Array.from({length: index + 1}, () => key('s'))).state.series]?.name,
		);

	test('a local miner whose power cannot be read: hashrate, temperature, clock, hashrate', () => {
		const recorded = [true, true, true, false, false];
		const env = {now: NOW, earliest: null, recorded};
		expect(names(env, 3)).toEqual(['temperature', 'clock', 'hashrate']);
		expect(footerOf(SCREEN_KEYMAP, availability(initialChartState(), env)).map((hint) => hint.label)).toContain('series');
	});

	test('a miner on another machine (nothing but its hashrate recorded): s is not offered and does nothing', () => {
		const env = {now: NOW, earliest: null, recorded: seriesRecorded([], undefined)};
		expect(env.recorded).toEqual([true, false, false, false, false]);
		expect(press(initialChartState(), env, key('s')).state.series).toBe(0);
		expect(footerOf(SCREEN_KEYMAP, availability(initialChartState(), env)).map((hint) => hint.label)).not.toContain('series');
	});

	test('what is recorded: the live reading, or a reading stored in a bucket of the span', () => {
		const reading = {
			at: NOW,
			temps: [],
			clock: {averageMHz: 3000, maxMHz: 4000, cpus: [0], cpusFrom: 'online', file: 'f'},
			throttle: null,
			power: {state: 'denied', message: 'root only'},
			hashesPerWatt: null,
		} satisfies SensorReading;
		expect(seriesRecorded([], reading)).toEqual([true, false, true, false, false]);
		const stat = {n: 1, min: 60, avg: 61, max: 62};
		const bucket = {
			t: NOW,
			samples: 1,
			live: 1,
			min: 1,
			avg: 1,
			max: 1,
			avg60: 1,
			avg15: 1,
			pool: 1,
			paused: 0,
			link: 'live' as const,
			good: null,
			total: null,
			rejected: null,
			sensors: {temp: stat, tempLimit: null, clock: null, watts: null, hpw: null},
		};
		expect(seriesRecorded([bucket], undefined)).toEqual([true, true, false, false, false]);
	});
});
