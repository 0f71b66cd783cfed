import {useCallback, useRef, useSyncExternalStore} from 'react';
import type {Store} from '../../monitor/store.js';

/**
 * A store's current state; re-renders only when the store hands out a new state object. `onChange`
 * (a stable function) runs first on each change: the dashboard brings its "… ago" clocks to the
 * present there (use-now.ts), so the data and the labels are drawn in one frame.
 */
export function useStore<T>(store: Store<T>, onChange?: () => void): T {
	const subscribe = useCallback(
		(listener: () => void) =>
			store.subscribe(() => {
				onChange?.();
				listener();
			}),
		[store, onChange],
	);
	const getState = useCallback(() => store.getState(), [store]);
	return useSyncExternalStore(subscribe, getState, getState);
}

/**
 * Keeps what did not change of a new selection: returns `previous` itself when nothing shown differs (then the
 * component does not render at all), else `next`, sharing what it can of `previous`.
 */
export type Share<S> = (previous: S, next: S) => S;

/**
 * The part of a store's state a component draws: `select` (stable: memoize it) picks it, `share` keeps the previous
 * selection where nothing drawn changed. A change of the store that changes nothing selected schedules no render, so
 * no commit and no frame: a poll of a paused miner, a failed poll of a miner that is down, costs no React and no Ink.
 * `onChange` as `useStore`'s.
 */
export function useSelected<T, S>(store: Store<T>, select: (state: T) => S, share: Share<S> = same, onChange?: () => void): S {
	const subscribe = useCallback(
		(listener: () => void) =>
			store.subscribe(() => {
				onChange?.();
				listener();
			}),
		[store, onChange],
	);
	// The last state read and what was selected of it, kept across selectors (a new selector must not draw a frame
	// by itself when it selects the same).
	const last = useRef<{state: T; select: (state: T) => S; value: S} | null>(null);
	const getSelection = useCallback(() => {
		const state = store.getState();
		const kept = last.current;
		if (kept !== null && kept.state === state && kept.select === select) return kept.value;
		const next = select(state);
		const value = kept === null ? next : share(kept.value, next);
		last.current = {state, select, value};
		return value;
	}, [store, select, share]);
	return useSyncExternalStore(subscribe, getSelection, getSelection);
}

function same<S>(previous: S, next: S): S {
	return Object.is(previous, next) ? previous : next;
}
