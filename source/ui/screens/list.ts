/**
 * What the fleet and the proxy's workers share as tables a user moves through: the selection is a row's id, not a
 * line (a sort that moves rows keeps it; a filter that hides it moves it to the first line shown), the first line shown
 * follows it by the page on screen, `s` cycles the sort keys and `I` reverses one, and `/` types a filter that applies
 * as it is typed (Enter keeps it, Esc clears it); the sorts are the table's (../table/sort.ts). Pure: each screen's reducer calls these with its own order.
 */
import {scrollToShow} from './scroll.js';
import {SCREEN_KEYMAP, type Screen} from '../keys/bindings.js';
import type {HelpEntry, Hint, KeyLike} from '../keys/matcher.js';
import type {EventLine} from '../text/event-lines.js';
import {typeKey, type TypedText} from '../widgets/line-editor.js';

/** The selection a list screen keeps: the row picked, whether none was yet (a fresh start), and the first line shown. */
export type ListSelection<Id> = {
	readonly selected: Id;
	/** Nothing chosen yet: the selection is the first line, whichever row is on it, and the table shows the top. */
	readonly pinned: boolean;
	readonly offset: number;
};

/** The lines in order, the selected row's line (-1 when no row is shown) and the first line shown. */
export type ListPlace<Id> = {
	readonly order: readonly Id[];
	readonly position: number;
	readonly offset: number;
};

/** Where the selection is in this order, with the first line shown so that it is in view for the page size. */
export function placeIn<Id>(state: ListSelection<Id>, order: readonly Id[], pageSize: number): ListPlace<Id> {
	if (state.pinned) return {order, position: order.length === 0 ? -1 : 0, offset: 0};
	const found = order.indexOf(state.selected);
	const position = order.length === 0 ? -1 : Math.max(0, found);
	const offset = position < 0 ? 0 : scrollToShow(state.offset, position, order.length, Math.max(0, pageSize));
	return {order, position, offset};
}

/** Moves the selection to line `target` of the order (clamped), scrolling to show it; the same state when nothing moves. */
export function moveIn<Id, State extends ListSelection<Id>>(state: State, place: ListPlace<Id>, target: number, pageSize: number): State {
	if (place.order.length === 0) return state;
	const position = Math.min(Math.max(0, target), place.order.length - 1);
	const selected = place.order[position] ?? state.selected;
	const offset = scrollToShow(place.offset, position, place.order.length, Math.max(0, pageSize));
	return selected === state.selected && offset === state.offset && !state.pinned ? state : {...state, selected, offset, pinned: false};
}

/** After the sort or the filter changed: the same row selected when it is still shown (else the first), in view. */
export function settleIn<Id, State extends ListSelection<Id>>(state: State, place: ListPlace<Id>): State {
	const selected = place.position < 0 ? state.selected : (place.order[place.position] ?? state.selected);
	return {...state, selected, offset: place.offset};
}

/** The selected row's id now: the one the state names while it is shown, else the first shown; null when none is. */
export function selectedIn<Id>(state: ListSelection<Id>, order: readonly Id[]): Id | null {
	if (order.length === 0) return null;
	if (state.pinned) return order[0] ?? null;
	return order.includes(state.selected) ? state.selected : (order[0] ?? null);
}

/** The movement keys of a list, as the keymap names them (the fleet's commands, in the fleet and the proxy). */
export type ListMove = 'fleetUp' | 'fleetDown' | 'fleetPageUp' | 'fleetPageDown' | 'fleetTop' | 'fleetBottom';

/** The line a movement key goes to from `position` in an order of `count` lines, a page being `page` lines. */
export function moveTarget(command: ListMove, position: number, count: number, page: number): number {
	switch (command) {
		case 'fleetUp':
			return position - 1;
		case 'fleetDown':
			return position + 1;
		case 'fleetPageUp':
			return position - Math.max(1, page);
		case 'fleetPageDown':
			return position + Math.max(1, page);
		case 'fleetTop':
			return 0;
		case 'fleetBottom':
			return count - 1;
	}
}

const LIST_MOVES: ReadonlySet<string> = new Set<ListMove>([
	'fleetUp',
	'fleetDown',
	'fleetPageUp',
	'fleetPageDown',
	'fleetTop',
	'fleetBottom',
]);

export function isListMove(command: string): command is ListMove {
	return LIST_MOVES.has(command);
}

/** A movement key's step: the selection moved by it from where it is in `place`, in view for the page size. */
export function moveKey<Id, State extends ListSelection<Id>>(
	state: State,
	place: ListPlace<Id>,
	command: ListMove,
	pageSize: number,
): State {
	return moveIn(state, place, moveTarget(command, place.position, place.order.length, pageSize), pageSize);
}

/** What a list keeps of a filter: the one in force, and the one being typed after `/` (else null). */
export type ListFilter = {readonly filter: string; readonly prompt: TypedText | null};

/** The filter the table shows now: the one being typed, else the one in force. */
export function activeFilterOf(state: ListFilter): string {
	return state.prompt ? state.prompt.text : state.filter;
}

/**
 * A key while the filter is typed (`command` the one it means in the typing context, if any): Enter keeps the text,
 * Esc clears it, anything else edits it. The same state when the key changed nothing; the caller settles the selection.
 */
export function typeFilter<State extends ListFilter>(
	state: State,
	command: 'filterKeep' | 'filterClear' | null,
	input: string,
	key: KeyLike,
): State {
	const prompt = state.prompt;
	if (prompt === null) return state;
	if (command === 'filterKeep') return {...state, filter: prompt.text.trim(), prompt: null};
	if (command === 'filterClear') return {...state, filter: '', prompt: null};
	const typed = typeKey(prompt, input, key);
	return typed === prompt ? state : {...state, prompt: typed};
}

/** `/`: start typing the filter, from the one in force. */
export function startFilter<State extends ListFilter>(state: State): State {
	return {...state, prompt: {text: state.filter, caret: state.filter.length}};
}

/** The footer with the key that clears the filter first, next to the filter's lead, in `context` (null: as it is). */
export function clearFirst(hints: readonly Hint[], context: Screen | null): readonly Hint[] {
	if (context === null) return hints;
	const clear = hints.find((hint) => hint.keys === SCREEN_KEYMAP.keyOf('clearFilter', context));
	return clear ? [clear, ...hints.filter((hint) => hint !== clear)] : hints;
}

/** What a list screen's env hook gives its layout besides its own: the rows in view and the words around them. */
export type ListScreen<Row, Id> = {
	/** The rows in view, the selected one, and the window's words ("rigs 1–13 of 29"; null when all show). */
	readonly visible: readonly Row[];
	readonly selected: Id | null;
	readonly window: string | null;
	/** The newest events in the lines the table leaves. */
	readonly eventLines: readonly EventLine[];
	readonly footer: readonly Hint[];
	readonly help: readonly HelpEntry[];
	/** The filter shown now (the one typed, else the one in force). */
	readonly filter: string;
};
