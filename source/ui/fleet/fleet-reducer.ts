/**
 * Fleet key handling as a reducer (as the dashboard's): `useInput` dispatches the raw key, this maps
 * it through the one keymap. The selection moves by rig; the visible window of rows follows it.
 * Commands for the app (quit, open a rig) are the step's effects.
 */
import {stateOnly, type Step} from '../hooks/use-step-reducer.js';
import {toggleHelp} from '../help-toggle.js';
import {SCREEN_KEYMAP, type KeyLike, type Screen} from '../keymap.js';
import {scrollToShow} from '../scroll.js';

export type FleetCommand =
	| {readonly command: 'quit'}
	| {readonly command: 'open'; readonly index: number}
	/** The selected rig's chart; every rig's events. */
	| {readonly command: 'chart'; readonly index: number}
	| {readonly command: 'events'};

export type FleetStep = Step<FleetUiState, FleetCommand>;

export type FleetUiState = {
	readonly help: boolean;
	/** Index of the selected rig. */
	readonly selected: number;
	/** Index of the first rig row shown. */
	readonly offset: number;
	/** Rig rows that fit now. */
	readonly pageSize: number;
	readonly count: number;
};

export type FleetUiAction =
	| {readonly type: 'key'; readonly input: string; readonly key: KeyLike}
	| {readonly type: 'viewport'; readonly pageSize: number; readonly count: number};

function clampIndex(value: number, count: number): number {
	return Math.min(Math.max(0, value), Math.max(0, count - 1));
}

export function initialFleetUiState(options: {
	readonly count: number;
	readonly pageSize?: number;
	readonly selected?: number;
}): FleetUiState {
	const count = Math.max(0, options.count);
	const pageSize = Math.max(0, options.pageSize ?? 0);
	const selected = clampIndex(options.selected ?? 0, count);
	return {help: false, selected, offset: scrollToShow(0, selected, count, pageSize), pageSize, count};
}

function select(state: FleetUiState, index: number): FleetUiState {
	const selected = clampIndex(index, state.count);
	const offset = scrollToShow(state.offset, selected, state.count, state.pageSize);
	return selected === state.selected && offset === state.offset ? state : {...state, selected, offset};
}

function screenOf(state: FleetUiState): Screen {
	return state.help ? 'help' : 'fleet';
}

export function fleetReducer(state: FleetUiState, action: FleetUiAction): FleetStep {
	switch (action.type) {
		case 'viewport': {
			const pageSize = Math.max(0, action.pageSize);
			const count = Math.max(0, action.count);
			if (pageSize === state.pageSize && count === state.count) return stateOnly(state);
			const selected = clampIndex(state.selected, count);
			return stateOnly({...state, pageSize, count, selected, offset: scrollToShow(state.offset, selected, count, pageSize)});
		}

		case 'key':
			return keyStep(state, action.input, action.key);
	}
}

function keyStep(state: FleetUiState, input: string, key: KeyLike): FleetStep {
	const screen = screenOf(state);
	const command = SCREEN_KEYMAP.commandFor(input, key, screen, SCREEN_KEYMAP.available(screen));
	const page = Math.max(1, state.pageSize);
	switch (command) {
		case 'help':
		case 'back':
			return stateOnly(toggleHelp(state, command));
		case 'fleetUp':
			return stateOnly(select(state, state.selected - 1));
		case 'fleetDown':
			return stateOnly(select(state, state.selected + 1));
		case 'fleetPageUp':
			return stateOnly(select(state, state.selected - page));
		case 'fleetPageDown':
			return stateOnly(select(state, state.selected + page));
		case 'fleetTop':
			return stateOnly(select(state, 0));
		case 'fleetBottom':
			return stateOnly(select(state, state.count - 1));
		case 'open':
			return state.count === 0 ? stateOnly(state) : {state, effects: [{command: 'open', index: state.selected}]};
		case 'quit':
			return {state, effects: [{command: 'quit'}]};
		case 'chart':
			return state.count === 0 ? stateOnly(state) : {state, effects: [{command: 'chart', index: state.selected}]};
		case 'events':
			return {state, effects: [{command: 'events'}]};
		default:
			return stateOnly(state);
	}
}
