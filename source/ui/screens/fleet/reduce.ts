/**
 * Fleet key handling as a reducer (as the dashboard's): `useInput` dispatches the raw key with every
 * rig's row, this maps it through the one keymap. The rows are shown sorted and filtered
 * (order.ts); the selection is a rig, not a line: when the sort moves rows (a hashrate
 * changed), the selection stays on the same rig, and a filter that hides it moves it to the first
 * rig shown. The visible window of rows follows the selection. Until a key picks a rig (a fresh
 * start), the selection is the first line and the table shows the top, however the rigs that come
 * up reorder a sort. Commands for the app (quit, open a rig, poll every rig) are the step's effects.
 */
import {stateOnly, type Step} from '../../hooks/use-step-reducer.js';
import {helpCommand} from '../../help-toggle.js';
import {type Capability, type KeyLike} from '../../keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {pastedLine, typeKey, type TypedText} from '../../config/line-editor.js';
import {scrollToShow} from '../../scroll.js';
import {fleetOrder, LISTED, nextSort, type FleetSort} from './order.js';
import type {FleetRow} from './rows.js';

export type FleetCommand =
	| {readonly command: 'quit'}
	| {readonly command: 'open'; readonly index: number}
	| {readonly command: 'refreshAll'}
	/** The selected rig's chart; every rig's events. */
	| {readonly command: 'chart'; readonly index: number}
	| {readonly command: 'events'};

export type FleetStep = Step<FleetUiState, FleetCommand>;

export type FleetUiState = {
	readonly help: boolean;
	/** The help's first entry shown, and the last it can scroll to (helpMaxOffset: 0 when it fits). */
	readonly helpOffset: number;
	readonly helpMax: number;
	/** The selected rig (its index in the session), whatever line it is on. */
	readonly selected: number;
	/**
	 * Nothing chosen yet (a fresh start): the selection is the first line, whichever rig is on it, and the table shows
	 * the top, while rigs that come up move about in a sort. The first key that moves or opens a rig ends it.
	 */
	readonly pinned: boolean;
	/** The first line shown (a position in the sorted, filtered order). */
	readonly offset: number;
	/** Rig rows that fit now. */
	readonly pageSize: number;
	readonly sort: FleetSort;
	/** The filter in force ("" for none). */
	readonly filter: string;
	/** The filter being typed after `/` (it applies as it is typed), else null. */
	readonly prompt: TypedText | null;
	/** What the session offers (poll every rig now). */
	readonly offered: ReadonlySet<Capability>;
};

export type FleetUiAction =
	| {readonly type: 'key'; readonly input: string; readonly key: KeyLike; readonly rows: readonly FleetRow[]}
	/** A paste: text for the filter being typed, else nothing (pasted text is no command). */
	| {readonly type: 'paste'; readonly text: string; readonly rows: readonly FleetRow[]}
	| {readonly type: 'viewport'; readonly pageSize: number; readonly helpMax?: number};

/** What the fleet keeps while a rig's dashboard is open, so that Esc comes back to the same table. */
export type FleetSaved = {readonly sort: FleetSort; readonly filter: string};

export function initialFleetUiState(options: {
	readonly pageSize?: number;
	/** The rig to select (coming back from its dashboard); without it the selection is the first line. */
	readonly selected?: number;
	readonly offered?: ReadonlySet<Capability>;
	readonly saved?: FleetSaved;
}): FleetUiState {
	return {
		help: false,
		helpOffset: 0,
		helpMax: 0,
		selected: Math.max(0, options.selected ?? 0),
		pinned: options.selected === undefined,
		offset: 0,
		pageSize: Math.max(0, options.pageSize ?? 0),
		sort: options.saved?.sort ?? LISTED,
		filter: options.saved?.filter ?? '',
		prompt: null,
		offered: options.offered ?? new Set(),
	};
}

/** The filter the table shows now: the one being typed, else the one in force. */
export function activeFilter(state: FleetUiState): string {
	return state.prompt ? state.prompt.text : state.filter;
}

/** The lines in order, the selected rig's line and the first line shown, for these rows. */
export type FleetView = {
	readonly order: readonly number[];
	/** The selected line (-1 when no rig is shown); its rig is order[position]. */
	readonly position: number;
	readonly offset: number;
};

/**
 * Where things are for these rows: the order (sorted, filtered), the selected rig's line (the first line when the
 * filter hides it), and the first line shown so that the selection is in view. The view draws this; keys move from it.
 */
export function fleetView(state: FleetUiState, rows: readonly FleetRow[]): FleetView {
	return place(state, fleetOrder(rows, state.sort, activeFilter(state)));
}

/** fleetView for an order already made (the view sorts once per render). */
export function place(state: FleetUiState, order: readonly number[]): FleetView {
	if (state.pinned) return {order, position: order.length === 0 ? -1 : 0, offset: 0};
	const found = order.indexOf(state.selected);
	const position = order.length === 0 ? -1 : Math.max(0, found);
	const offset = position < 0 ? 0 : scrollToShow(state.offset, position, order.length, state.pageSize);
	return {order, position, offset};
}

/** The selected rig now: the one the state names while it is shown, else the first shown; null when none is. */
export function selectedRig(state: FleetUiState, rows: readonly FleetRow[]): number | null {
	const {order, position} = fleetView(state, rows);
	return position < 0 ? null : (order[position] ?? null);
}

function screenOf(state: FleetUiState): Screen {
	if (state.help) return 'help';
	return state.prompt ? 'fleetFilter' : 'fleet';
}

/** The commands that work now: what the session offers, and Esc clears the filter only when there is one. */
export function fleetAvailable(state: FleetUiState): ReadonlySet<CommandName> {
	const screen = screenOf(state);
	const available = new Set(SCREEN_KEYMAP.available(screen, state.offered));
	if (state.filter === '') available.delete('clearFilter');
	return available;
}

/** Moves the selection to line `target` of the order (clamped), scrolling to show it. */
function moveTo(state: FleetUiState, view: FleetView, target: number): FleetUiState {
	if (view.order.length === 0) return state;
	const position = Math.min(Math.max(0, target), view.order.length - 1);
	const selected = view.order[position] ?? state.selected;
	const offset = scrollToShow(view.offset, position, view.order.length, state.pageSize);
	return selected === state.selected && offset === state.offset && !state.pinned ? state : {...state, selected, offset, pinned: false};
}

/** After the sort or the filter changed: the same rig selected when it is still shown (else the first), in view. */
function settle(state: FleetUiState, rows: readonly FleetRow[]): FleetUiState {
	const view = fleetView(state, rows);
	const selected = view.position < 0 ? state.selected : (view.order[view.position] ?? state.selected);
	return {...state, selected, offset: view.offset};
}

export function fleetReducer(state: FleetUiState, action: FleetUiAction): FleetStep {
	switch (action.type) {
		case 'viewport': {
			const pageSize = Math.max(0, action.pageSize);
			const helpMax = Math.max(0, action.helpMax ?? state.helpMax);
			if (pageSize === state.pageSize && helpMax === state.helpMax) return stateOnly(state);
			return stateOnly({...state, pageSize, helpMax, helpOffset: Math.min(state.helpOffset, helpMax)});
		}

		case 'key':
			return state.prompt ? promptStep(state, state.prompt, action.input, action.key, action.rows) : keyStep(state, action);
		case 'paste': {
			const line = state.prompt ? pastedLine(action.text) : null;
			if (!state.prompt || line === null) return stateOnly(state);
			return promptStep(state, state.prompt, line, {}, action.rows);
		}
	}
}

/** Typing the filter: it applies as it is typed; Enter keeps it, Esc clears it. */
function promptStep(state: FleetUiState, prompt: TypedText, input: string, key: KeyLike, rows: readonly FleetRow[]): FleetStep {
	const command = SCREEN_KEYMAP.commandFor(input, key, 'fleetFilter', fleetAvailable(state));
	if (command === 'filterKeep') return stateOnly(settle({...state, filter: prompt.text.trim(), prompt: null}, rows));
	if (command === 'filterClear') return stateOnly(settle({...state, filter: '', prompt: null}, rows));
	const typed = typeKey(prompt, input, key);
	return stateOnly(typed === prompt ? state : settle({...state, prompt: typed}, rows));
}

function keyStep(state: FleetUiState, action: Extract<FleetUiAction, {type: 'key'}>): FleetStep {
	const {rows} = action;
	const command = SCREEN_KEYMAP.commandFor(action.input, action.key, screenOf(state), fleetAvailable(state));
	const view = fleetView(state, rows);
	const page = Math.max(1, state.pageSize);
	switch (command) {
		case 'help':
		case 'back':
		case 'helpUp':
		case 'helpDown':
			return stateOnly(helpCommand(state, command));
		case 'fleetUp':
			return stateOnly(moveTo(state, view, view.position - 1));
		case 'fleetDown':
			return stateOnly(moveTo(state, view, view.position + 1));
		case 'fleetPageUp':
			return stateOnly(moveTo(state, view, view.position - page));
		case 'fleetPageDown':
			return stateOnly(moveTo(state, view, view.position + page));
		case 'fleetTop':
			return stateOnly(moveTo(state, view, 0));
		case 'fleetBottom':
			return stateOnly(moveTo(state, view, view.order.length - 1));
		case 'sort':
			return stateOnly(settle({...state, sort: nextSort(state.sort)}, rows));
		case 'sortReverse':
			return stateOnly(settle({...state, sort: {...state.sort, reversed: !state.sort.reversed}}, rows));
		case 'filter':
			return stateOnly({...state, prompt: {text: state.filter, caret: state.filter.length}});
		case 'clearFilter':
			return stateOnly(settle({...state, filter: ''}, rows));
		case 'refreshAll':
			return {state, effects: [{command: 'refreshAll'}]};
		case 'open': {
			const rig = view.position < 0 ? undefined : view.order[view.position];
			return rig === undefined
				? stateOnly(state)
				: {state: {...state, selected: rig, pinned: false}, effects: [{command: 'open', index: rig}]};
		}

		case 'quit':
			return {state, effects: [{command: 'quit'}]};
		case 'chart': {
			const rig = view.position < 0 ? undefined : view.order[view.position];
			return rig === undefined
				? stateOnly(state)
				: {state: {...state, selected: rig, pinned: false}, effects: [{command: 'chart', index: rig}]};
		}
		case 'events':
			return {state, effects: [{command: 'events'}]};
		default:
			return stateOnly(state);
	}
}
