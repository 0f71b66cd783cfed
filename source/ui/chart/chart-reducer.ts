/**
 * The chart's keys as a reducer (as every screen's): the span shown (10 min to 7 days) and where it ends — now
 * (following each poll) or a fixed time the user moved back to.
 */
import {stateOnly, type Step} from '../hooks/use-step-reducer.js';
import type {KeyLike} from '../keys/matcher.js';
import {viewKey, type ViewEffect} from '../view-keys.js';

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
};

export type ChartEffect = ViewEffect;

export type ChartAction = {
	readonly type: 'key';
	readonly input: string;
	readonly key: KeyLike;
	/** The present, for moving back from it. */
	readonly now: number;
	/** The first time anything is known of the miner (no use moving back past it), or null. */
	readonly earliest: number | null;
};

export function initialChartState(span = DEFAULT_SPAN): ChartUiState {
	return {help: false, span: clampSpan(span), end: null};
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

export function chartReducer(state: ChartUiState, action: ChartAction): Step<ChartUiState, ChartEffect> {
	const {command, step} = viewKey(state, 'chart', action.input, action.key);
	if (step) return step;
	switch (command) {
		case 'span': {
			const span = clampSpan(Number(action.input) - 1);
			return stateOnly(span === state.span ? state : {...state, span});
		}

		case 'zoomIn':
		case 'zoomOut': {
			const span = clampSpan(state.span + (command === 'zoomIn' ? -1 : 1));
			return stateOnly(span === state.span ? state : {...state, span});
		}

		case 'older':
			return stateOnly(moveEnd(state, -spanMs(state) / 2, action.now, action.earliest));
		case 'newer':
			return stateOnly(state.end === null ? state : moveEnd(state, spanMs(state) / 2, action.now, action.earliest));
		case 'latest':
			return stateOnly(state.end === null ? state : {...state, end: null});
		default:
			return stateOnly(state);
	}
}
