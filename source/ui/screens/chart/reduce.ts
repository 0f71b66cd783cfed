/**
 * The chart's keys as a pure reducer (screens/contract.ts): `reduce(state, action, env)`. The state is what the chart
 * owns: the span shown (10 min to 7 days), where it ends — now (following each poll) or a fixed time the user moved
 * back to —, the series drawn (`s`: hashrate, temperature, clock, power, H/W) and its help. What it reads but does not own is its `ChartEnv`, given at each dispatch: the present and
 * the first time anything is known of the miner (no use moving back past it). Quitting, going back and the span to
 * remember are the step's effects.
 */
import {toggleHelp} from '../../help-toggle.js';
import {stateOnly, type Step} from '../../hooks/use-step-reducer.js';
import type {KeyLike} from '../../keys/matcher.js';
import {SCREEN_KEYMAP} from '../../keys/bindings.js';
import {commandOf} from '../contract.js';
import {availability} from './availability.js';
import {CHART_SERIES} from './series.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The spans `1`–`5` choose, shortest first. */
export const CHART_SPANS = [
	{ms: 10 * MINUTE, label: '10 min'},
	{ms: HOUR, label: '1 h'},
	{ms: 6 * HOUR, label: '6 h'},
	{ms: 24 * HOUR, label: '24 h'},
	{ms: 7 * 24 * HOUR, label: '7 days'},
] as const;

/** The span a chart opens with: the last hour. */
export const DEFAULT_SPAN = 1;

export type ChartUiState = {
	readonly help: boolean;
	/** Index in CHART_SPANS. */
	readonly span: number;
	/** Where the span ends, epoch ms; null: now (it follows the polls). */
	readonly end: number | null;
	/** Index in CHART_SERIES: what is drawn (0, the hashrate, by default). */
	readonly series: number;
};

/** Quit rigtop; go back where the chart was opened from; the span shown changed (the app remembers it). */
export type ChartEffect = {readonly type: 'quit'} | {readonly type: 'close'} | {readonly type: 'span'; readonly span: number};

export type ChartAction = {readonly type: 'key'; readonly input: string; readonly key: KeyLike};

/** What the chart reads but does not own, at each dispatch. */
export type ChartEnv = {
	/** The present, for moving back from it. */
	readonly now: number;
	/** The first time anything is known of the miner (no use moving back past it), or null. */
	readonly earliest: number | null;
	/**
	 * Whether the sensor series are offered (`s`): not for an xmrig-proxy or its worker, whose polls never carry a
	 * reading. Absent: offered.
	 */
	readonly sensors?: boolean;
};

export function initialChartState(span = DEFAULT_SPAN): ChartUiState {
	return {help: false, span: clampSpan(span), end: null, series: 0};
}

function clampSpan(index: number): number {
	return Math.min(CHART_SPANS.length - 1, Math.max(0, Math.floor(index)));
}

export function spanMs(state: ChartUiState): number {
	return CHART_SPANS[state.span]?.ms ?? HOUR;
}

/** Moves the end by `delta` ms: not past now (then it follows now again), not before what is known. */
function moveEnd(state: ChartUiState, delta: number, now: number, earliest: number | null): ChartUiState {
	const span = spanMs(state);
	let end = (state.end ?? now) + delta;
	// The oldest end worth showing: half a span after the first thing known (at least something is on screen).
	const floor = earliest === null ? now : earliest + span / 2;
	if (end < floor) end = Math.min(floor, state.end ?? now);
	if (end >= now) return state.end === null ? state : {...state, end: null};
	return end === state.end ? state : {...state, end};
}

/** A span chosen: the new state, and the span for the app to remember. */
function withSpan(state: ChartUiState, span: number): Step<ChartUiState, ChartEffect> {
	return span === state.span ? stateOnly(state) : {state: {...state, span}, effects: [{type: 'span', span}]};
}

export function reduce(state: ChartUiState, action: ChartAction, env: ChartEnv): Step<ChartUiState, ChartEffect> {
	const outcome = commandOf(SCREEN_KEYMAP, availability(state, env), action.input, action.key);
	if (outcome === null || !('command' in outcome)) return stateOnly(state);
	const {command} = outcome;
	switch (command) {
		case 'help':
		case 'back':
			return stateOnly(toggleHelp(state, command));
		case 'quit':
			return {state, effects: [{type: 'quit'}]};
		case 'closeView':
			return {state, effects: [{type: 'close'}]};
		case 'span':
			return withSpan(state, clampSpan(Number(action.input) - 1));
		case 'zoomIn':
		case 'zoomOut':
			return withSpan(state, clampSpan(state.span + (command === 'zoomIn' ? -1 : 1)));
		case 'older':
			return stateOnly(moveEnd(state, -spanMs(state) / 2, env.now, env.earliest));
		case 'newer':
			return stateOnly(state.end === null ? state : moveEnd(state, spanMs(state) / 2, env.now, env.earliest));
		case 'latest':
			return stateOnly(state.end === null ? state : {...state, end: null});
		case 'series':
			return stateOnly({...state, series: (state.series + 1) % CHART_SERIES.length});
		default:
			return stateOnly(state);
	}
}
