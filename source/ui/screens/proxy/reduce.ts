/**
 * The proxy screen's keys as a pure reducer (screens/contract.ts). The state is what the screen owns: the selected
 * worker (by name: workers come and go, and a sort moves them), the first line shown, the sort, the filter and its
 * typing, the help and the worker whose detail is open; everything else is its `ProxyEnv` (frame.ts), given at each
 * dispatch. The table moves, sorts and filters as the fleet's does (list.ts). Enter opens the selected worker's
 * detail, Esc there comes back to the table with the same worker selected. What reaches the app (quit, back to the
 * fleet, poll now, the config view, the chart and the events of the proxy or of the worker whose detail is open, and
 * what to open the screen on next time) are the step's effects.
 */
import {stateOnly, type Step} from '../../hooks/use-step-reducer.js';
import {helpKey} from '../help-toggle.js';
import {type KeyLike} from '../../keys/matcher.js';
import {SCREEN_KEYMAP} from '../../keys/bindings.js';
import {pastedLine, type TypedText} from '../../widgets/line-editor.js';
import {commandOf} from '../contract.js';
import {
	activeFilterOf,
	isListMove,
	moveKey,
	placeIn,
	selectedIn,
	settleIn,
	startFilter,
	typeFilter,
	type ListPlace,
	type ListSelection,
} from '../list.js';
import {availability} from './availability.js';
import {proxyFrame, proxyHelpMax, type ProxyEnv} from './frame.js';
import {nextWorkerSort, WORKERS_LISTED, type WorkerSort} from './order.js';
import {nameOfKey} from './rows.js';
import {isTooSmall} from '../layout.js';

/** What the app keeps while the proxy's chart, events or config view is open, so coming back finds the same screen. */
export type ProxySaved = {
	readonly selected: string | null;
	readonly sort: WorkerSort;
	readonly filter: string;
	readonly detail: string | null;
	/** The first line shown (0 when none was picked). */
	readonly offset?: number;
};

export type ProxyCommand =
	| {readonly command: 'quit'}
	| {readonly command: 'back'}
	| {readonly command: 'refresh'}
	| {readonly command: 'config'}
	/** The chart or the events of the proxy (worker null) or of one worker. */
	| {readonly command: 'chart'; readonly worker: string | null}
	| {readonly command: 'events'; readonly worker: string | null}
	/** The selection, sort, filter or detail changed: the app opens the screen on them next time. */
	| {readonly command: 'save'; readonly saved: ProxySaved};

export type ProxyUiState = ListSelection<string> & {
	readonly help: boolean;
	readonly helpOffset: number;
	readonly sort: WorkerSort;
	readonly filter: string;
	readonly prompt: TypedText | null;
	/** The worker whose detail is open, else null. */
	readonly detail: string | null;
};

export type ProxyUiAction =
	{readonly type: 'key'; readonly input: string; readonly key: KeyLike} | {readonly type: 'paste'; readonly text: string};

export type ProxyStep = Step<ProxyUiState, ProxyCommand>;

export function initialProxyUiState(saved?: ProxySaved): ProxyUiState {
	return {
		help: false,
		helpOffset: 0,
		selected: saved?.selected ?? '',
		pinned: saved?.selected === null || saved?.selected === undefined,
		offset: saved?.selected === null || saved?.selected === undefined ? 0 : (saved.offset ?? 0),
		sort: saved?.sort ?? WORKERS_LISTED,
		filter: saved?.filter ?? '',
		prompt: null,
		detail: saved?.detail ?? null,
	};
}

/** The order, the selected line and the first line shown, in the frame of this env. */
export function proxyPlace(state: ProxyUiState, env: ProxyEnv): ListPlace<string> {
	const frame = proxyFrame(state.sort, activeFilterOf(state), env);
	return placeIn(state, frame.order, frame.layout.workerRows);
}

/** The selected worker's name now (the first shown until one is picked); null when none is shown. */
export function selectedWorker(state: ProxyUiState, order: readonly string[]): string | null {
	return selectedIn(state, order);
}

function saved(state: ProxyUiState, env: ProxyEnv): ProxySaved {
	const place = proxyPlace(state, env);
	return {
		selected: state.pinned ? null : selectedWorker(state, place.order),
		sort: state.sort,
		filter: state.filter,
		detail: state.detail,
		offset: state.pinned ? 0 : place.offset,
	};
}

export function reduce(state: ProxyUiState, action: ProxyUiAction, env: ProxyEnv): ProxyStep {
	const step = stepOf(state, action, env);
	const after = step.state;
	const changed =
		after.sort !== state.sort ||
		after.filter !== state.filter ||
		after.detail !== state.detail ||
		after.selected !== state.selected ||
		after.offset !== state.offset ||
		after.pinned !== state.pinned;
	return changed ? {state: after, effects: [{command: 'save', saved: saved(after, env)}, ...step.effects]} : step;
}

function stepOf(state: ProxyUiState, action: ProxyUiAction, env: ProxyEnv): ProxyStep {
	// Too small to draw: only a way out acts (availability.ts); a filter being typed takes nothing unseen.
	if (isTooSmall(env.size.columns, env.size.rows))
		return action.type === 'paste' ? stateOnly(state) : keyStep(state, action.input, action.key, env);
	if (action.type === 'paste') {
		const line = state.prompt ? pastedLine(action.text) : null;
		return line === null ? stateOnly(state) : promptStep(state, line, {}, env);
	}

	return state.prompt ? promptStep(state, action.input, action.key, env) : keyStep(state, action.input, action.key, env);
}

function promptStep(state: ProxyUiState, input: string, key: KeyLike, env: ProxyEnv): ProxyStep {
	const outcome = commandOf(SCREEN_KEYMAP, availability(state, env), input, key);
	const command = outcome && 'command' in outcome ? outcome.command : null;
	const typed = typeFilter(state, command === 'filterKeep' || command === 'filterClear' ? command : null, input, key);
	return stateOnly(typed === state ? state : settleIn(typed, proxyPlace(typed, env)));
}

function keyStep(state: ProxyUiState, input: string, key: KeyLike, env: ProxyEnv): ProxyStep {
	const outcome = commandOf(SCREEN_KEYMAP, availability(state, env), input, key);
	if (outcome === null || !('command' in outcome)) return stateOnly(state);
	const frame = proxyFrame(state.sort, activeFilterOf(state), env);
	const pageSize = frame.layout.workerRows;
	const place = placeIn(state, frame.order, pageSize);
	const settle = (next: ProxyUiState) => settleIn(next, proxyPlace(next, env));
	if (isListMove(outcome.command)) return stateOnly(moveKey(state, place, outcome.command, pageSize));
	const help = helpKey(state, outcome.command, () => proxyHelpMax(env, frame.layout, state.detail !== null));
	if (help !== null) return stateOnly(help);
	switch (outcome.command) {
		case 'sort':
			return stateOnly(settle({...state, sort: nextWorkerSort(state.sort)}));
		case 'sortReverse':
			return stateOnly(settle({...state, sort: {...state.sort, reversed: !state.sort.reversed}}));
		case 'filter':
			return stateOnly(startFilter(state));
		case 'clearFilter':
			return stateOnly(settle({...state, filter: ''}));
		case 'toFleet':
			return {state, effects: [{command: 'back'}]};
		case 'open': {
			const worker = place.position < 0 ? undefined : place.order[place.position];
			return worker === undefined ? stateOnly(state) : stateOnly({...state, selected: worker, pinned: false, detail: worker});
		}

		case 'closeView':
			return stateOnly({...state, detail: null});
		case 'refresh':
			return {state, effects: [{command: 'refresh'}]};
		case 'config':
			return {state, effects: [{command: 'config'}]};
		case 'chart':
		case 'events':
			// The worker's name (its series and events are stored by name), not the row's key.
			return {state, effects: [{command: outcome.command, worker: state.detail === null ? null : nameOfKey(state.detail)}]};
		case 'quit':
			return {state, effects: [{command: 'quit'}]};
		default:
			return stateOnly(state);
	}
}
