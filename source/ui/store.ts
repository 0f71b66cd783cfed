import type {MonitorState} from '../monitor/types.js';

/**
 * What the UI reads a miner from: the Monitor satisfies it (any object with these two methods
 * does). `getState` must return the same object until the state changes.
 */
export type MonitorStore = {
	subscribe(listener: () => void): () => void;
	getState(): MonitorState;
};
