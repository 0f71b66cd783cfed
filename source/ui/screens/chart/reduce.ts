/**
 * The chart's keys as a pure reducer (screens/contract.ts): `reduce(state, action, env)`. The state is what the chart
 * owns: the span shown (10 min to 7 days), where it ends — now (following each poll) or a fixed time the user moved
 * back to —, the series drawn (`s`: hashrate, temperature, clock, power, H/W) and its help. What it reads but does not own is its `ChartEnv`, given at each dispatch: the present and
 * the first time anything is known of the miner (no use moving back past it). Quitting, going back and the span to
 * remember are the step's effects.
 */
import {toggleHelp} from '../help-toggle.js';
import {stateOnly, type Step} from '../../hooks/use-step-reducer.js';
import type {KeyLike} from '../../keys/matcher.js';
import {SCREEN_KEYMAP} from '../../keys/bindings.js';
import {commandOf} from '../contract.js';
import {availability} from './availability.js';
import type {ChartEnv, ChartUiState} from './state.js';
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

/**
 * The longest span a chart opens with when no span was chosen (the last hour): it opens with the shortest span that
 * holds everything known of the rig, up to this one (six minutes known open 10 min, not an hour of mostly blank plot).
 */
export const DEFAULT_SPAN = 1;

/** Quit rigtop; go back where the chart was opened from; the span shown changed (the app remembers it). */
export type ChartEffect = {readonly type: 'quit'} | {readonly type: 'close'} | {readonly type: 'span'; readonly span: number};

export type ChartAction = {readonly type: 'key'; readonly input: string; readonly key: KeyLike};

/** A chart's first state: the span remembered, or (undefined) the span the data fits. */
export function initialChartState(span?: number): ChartUiState {
	return {help: false, span: clampSpan(span ?? DEFAULT_SPAN), fit: span === undefined, end: null, series: 0};
}

/** The shortest span that holds everything known of the rig (from `earliest` to `now`), up to DEFAULT_SPAN. */
export function fittedSpan(earliest: number | null, now: number): number {
	if (earliest === null) return DEFAULT_SPAN;
	const at = CHART_SPANS.findIndex((span) => span.ms >= now - earliest);
	return at < 0 ? DEFAULT_SPAN : Math.min(DEFAULT_SPAN, at);
}

/** The span shown (index in CHART_SPANS): the one chosen, or while none was, the one the data fits. */
export function shownSpan(state: ChartUiState, env: Pick<ChartEnv, 'now' | 'earliest'>): number {
	return state.fit ? fittedSpan(env.earliest, env.now) : state.span;
}

function clampSpan(index: number): number {
	return Math.min(CHART_SPANS.length - 1, Math.max(0, Math.floor(index)));
}

export function spanMs(state: ChartUiState, env: Pick<ChartEnv, 'now' | 'earliest'>): number {
	return CHART_SPANS[shownSpan(state, env)]?.ms ?? HOUR;
}

/** Moves the end by `delta` ms: not past now (then it follows now again), not before what is known. The span shown stays. */
function moveEnd(shown: ChartUiState, delta: number, now: number, earliest: number | null): ChartUiState {
	const state = {...shown, span: shownSpan(shown, {now, earliest}), fit: false};
	const span = spanMs(state, {now, earliest});
	let end = (state.end ?? now) + delta;
	// The oldest end worth showing: half a span after the first thing known (at least something is on screen).
	const floor = earliest === null ? now : earliest + span / 2;
	if (end < floor) end = Math.min(floor, state.end ?? now);
	if (end >= now) return state.end === null ? state : {...state, end: null};
	return end === state.end ? state : {...state, end};
}

/** A span chosen: the new state (the span fixed from now on), and the span for the app to remember when it changed. */
function withSpan(state: ChartUiState, span: number, shown: number): Step<ChartUiState, ChartEffect> {
	const chosen = {...state, span, fit: false};
	return span === shown ? stateOnly(state.fit ? chosen : state) : {state: chosen, effects: [{type: 'span', span}]};
}

/** The series after `current` that has anything recorded for this rig (back to the hashrate, which always has). */
function nextSeries(current: number, recorded: readonly boolean[] | undefined): number {
	for (let step = 1; step <= CHART_SERIES.length; step++) {
		const next = (current + step) % CHART_SERIES.length;
		if (next === 0 || recorded?.[next] !== false) return next;
	}

	return 0;
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
			return withSpan(state, clampSpan(Number(action.input) - 1), shownSpan(state, env));
		case 'zoomIn':
		case 'zoomOut': {
			const shown = shownSpan(state, env);
			return withSpan(state, clampSpan(shown + (command === 'zoomIn' ? -1 : 1)), shown);
		}
		case 'older':
			return stateOnly(moveEnd(state, -spanMs(state, env) / 2, env.now, env.earliest));
		case 'newer':
			return stateOnly(state.end === null ? state : moveEnd(state, spanMs(state, env) / 2, env.now, env.earliest));
		case 'latest':
			return stateOnly(state.end === null ? state : {...state, end: null});
		case 'series':
			return stateOnly({...state, series: nextSeries(state.series, env.recorded)});
		default:
			return stateOnly(state);
	}
}
