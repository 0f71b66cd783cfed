/**
 * The event view's keys as a pure reducer (screens/contract.ts): `reduce(state, action, env)`, scrolling through the
 * events, newest first. The state is where the list is read from: the newest (it follows new events) or a place
 * counted from the oldest event, so that while the user reads older events, new ones arriving at the top do not move
 * what is on screen. The list's length and the page size are its `EventsEnv`, given at each dispatch.
 */
import {toggleHelp} from '../help-toggle.js';
import {stateOnly, type Step} from '../../hooks/use-step-reducer.js';
import type {KeyLike} from '../../keys/matcher.js';
import {SCREEN_KEYMAP} from '../../keys/bindings.js';
import {commandOf} from '../contract.js';
import {availability} from './availability.js';

export type EventViewState = {
	readonly help: boolean;
	/**
	 * The first event shown, counted from the oldest (events in the list less its index newest first); null: the
	 * newest, following new events.
	 */
	readonly fromOldest: number | null;
};

/** Quit rigtop; go back where the view was opened from. */
export type EventViewEffect = 'quit' | 'close';

export type EventViewAction = {readonly type: 'key'; readonly input: string; readonly key: KeyLike};

/** What the view reads but does not own, at each dispatch. */
export type EventsEnv = {
	/** Events in the list. */
	readonly count: number;
	/** Events that fit on a page (about: long ones wrap). */
	readonly pageSize: number;
};

export function initialEventViewState(): EventViewState {
	return {help: false, fromOldest: null};
}

/** The index (newest first) of the first event shown in a list of `count`. */
export function offsetOf(state: EventViewState, count: number): number {
	if (state.fromOldest === null) return 0;
	return Math.max(0, Math.min(count - state.fromOldest, count - 1));
}

function scrollTo(state: EventViewState, offset: number, env: EventsEnv): EventViewState {
	const clamped = Math.max(0, Math.min(offset, env.count - 1));
	const fromOldest = clamped === 0 ? null : env.count - clamped;
	return fromOldest === state.fromOldest ? state : {...state, fromOldest};
}

export function reduce(state: EventViewState, action: EventViewAction, env: EventsEnv): Step<EventViewState, EventViewEffect> {
	const outcome = commandOf(SCREEN_KEYMAP, availability(state, env), action.input, action.key);
	if (outcome === null || !('command' in outcome)) return stateOnly(state);
	const {command} = outcome;
	const offset = offsetOf(state, env.count);
	const pageSize = Math.max(1, env.pageSize);
	switch (command) {
		case 'help':
		case 'back':
			return stateOnly(toggleHelp(state, command));
		case 'quit':
			return {state, effects: ['quit']};
		case 'closeView':
			return {state, effects: ['close']};
		case 'eventsUp':
			return stateOnly(scrollTo(state, offset - 1, env));
		case 'eventsDown':
			return stateOnly(scrollTo(state, offset + 1, env));
		case 'eventsPageUp':
			return stateOnly(scrollTo(state, offset - pageSize, env));
		case 'eventsPageDown':
			return stateOnly(scrollTo(state, offset + pageSize, env));
		case 'eventsNewest':
			return stateOnly(scrollTo(state, 0, env));
		case 'eventsOldest':
			return stateOnly(scrollTo(state, env.count - pageSize, env));
		default:
			return stateOnly(state);
	}
}
