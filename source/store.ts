/**
 * What the UI (and the alert center) read state from: the Monitor, the AlertCenter, the FleetStore
 * and the ConfigSession are each one. `getState` returns the same object until the state changes, and
 * every listener is told after each change; `subscribe` returns the unsubscribe. A class instance may
 * rely on `this`: callers call both on the store (useStore does).
 */
export type Store<T> = {
	subscribe(listener: () => void): () => void;
	getState(): T;
};
