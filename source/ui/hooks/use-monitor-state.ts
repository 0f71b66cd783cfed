import {useCallback, useSyncExternalStore} from 'react';
import type {MonitorState} from '../../monitor/types.js';
import type {MonitorStore} from '../store.js';
import {syncClocks} from './use-now.js';

/**
 * The store's current state; re-renders only when the store hands out a new state object.
 * The store's methods are called on the store (a class instance may rely on `this`).
 * A change also brings the "… ago" label clocks to the present (see use-now.ts), so the data and
 * the labels are drawn in one frame.
 */
export function useMonitorState(store: MonitorStore): MonitorState {
	const subscribe = useCallback(
		(listener: () => void) =>
			store.subscribe(() => {
				syncClocks();
				listener();
			}),
		[store],
	);
	const getState = useCallback(() => store.getState(), [store]);
	return useSyncExternalStore(subscribe, getState, getState);
}
