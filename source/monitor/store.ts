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

/** A store's listeners: `add` returns the unsubscribe; `notify` tells each listener there when it starts. */
export class Listeners {
	readonly #set = new Set<() => void>();

	get size(): number {
		return this.#set.size;
	}

	add(listener: () => void): () => void {
		this.#set.add(listener);
		return () => {
			this.#set.delete(listener);
		};
	}

	notify(): void {
		for (const listener of [...this.#set]) listener();
	}

	clear(): void {
		this.#set.clear();
	}
}
