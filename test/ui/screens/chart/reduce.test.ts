/**
 * The chart's pure half (screens/contract.ts): its keys reduced against the env given at dispatch, and its
 * availability, the one source of its footer, help and key handler.
 */
import {describe, expect, test} from 'vitest';
import {SCREEN_KEYMAP} from '../../../../source/ui/keys/bindings.js';
import {footerOf} from '../../../../source/ui/screens/contract.js';
import {availability, chartHelp} from '../../../../source/ui/screens/chart/availability.js';
import {initialChartState, reduce, type ChartEnv, type ChartUiState} from '../../../../source/ui/screens/chart/reduce.js';
import {CHART_SERIES} from '../../../../source/ui/screens/chart/series.js';

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
