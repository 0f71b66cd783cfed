import {useCallback, useSyncExternalStore} from 'react';
import type {MonitorState} from '../../monitor/types.js';
import type {MonitorStore} from '../store.js';

/**
 * The store's current state; re-renders only when the store hands out a new state object.
 * The store's methods are called on the store (a class instance may rely on `this`).
 */
export function useMonitorState(store: MonitorStore): MonitorState {
	const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
	const getState = useCallback(() => store.getState(), [store]);
	return useSyncExternalStore(subscribe, getState, getState);
}
