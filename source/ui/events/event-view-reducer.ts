/**
 * The event view's keys as a reducer: scrolling through the events, newest first. While the user reads older
 * events, new ones arriving at the top do not move what is on screen.
 */
import {stateOnly, type Step} from '../hooks/use-step-reducer.js';
import type {KeyLike} from '../keys/matcher.js';
import {viewKey, type ViewEffect} from '../view-keys.js';

export type EventViewState = {
	readonly help: boolean;
	/** Index (newest first) of the first event shown. */
	readonly offset: number;
	/** Events in the list. */
	readonly count: number;
	/** Events that fit on a page (about: long ones wrap). */
	readonly pageSize: number;
};

export type EventViewEffect = ViewEffect;

export type EventViewAction =
	| {readonly type: 'key'; readonly input: string; readonly key: KeyLike}
	| {readonly type: 'list'; readonly count: number; readonly pageSize: number};

export function initialEventViewState(count: number, pageSize: number): EventViewState {
	return {help: false, offset: 0, count: Math.max(0, count), pageSize: Math.max(1, pageSize)};
}

function scrollTo(state: EventViewState, offset: number): EventViewState {
	const clamped = Math.max(0, Math.min(offset, state.count - 1));
	return clamped === state.offset ? state : {...state, offset: clamped};
}

export function eventViewReducer(state: EventViewState, action: EventViewAction): Step<EventViewState, EventViewEffect> {
	if (action.type === 'list') {
		const count = Math.max(0, action.count);
		const pageSize = Math.max(1, action.pageSize);
		if (count === state.count && pageSize === state.pageSize) return stateOnly(state);
		// Reading older events: the new ones come in above, and the events on screen stay where they are.
		const offset = state.offset > 0 && count > state.count ? state.offset + count - state.count : state.offset;
		return stateOnly({...state, count, pageSize, offset: Math.max(0, Math.min(offset, count - 1))});
	}

	const {command, step} = viewKey(state, 'events', action.input, action.key);
	if (step) return step;
	switch (command) {
		case 'eventsUp':
			return stateOnly(scrollTo(state, state.offset - 1));
		case 'eventsDown':
			return stateOnly(scrollTo(state, state.offset + 1));
		case 'eventsPageUp':
			return stateOnly(scrollTo(state, state.offset - state.pageSize));
		case 'eventsPageDown':
			return stateOnly(scrollTo(state, state.offset + state.pageSize));
		case 'eventsNewest':
			return stateOnly(scrollTo(state, 0));
		case 'eventsOldest':
			return stateOnly(scrollTo(state, state.count - state.pageSize));
		default:
			return stateOnly(state);
	}
}
