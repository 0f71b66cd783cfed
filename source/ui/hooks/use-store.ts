import {useCallback, useSyncExternalStore} from 'react';
import type {Store} from '../../store.js';

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
