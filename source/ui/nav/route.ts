/**
 * Which screen the App draws for a navigation screen (reduce.ts), given what it has: a screen it cannot draw (a
 * chart with no history, a slot it was not given) shows the fleet, or the rig's own screen, as it always did.
 * Pure, as `reduce` is.
 */
import type {Screen} from './reduce.js';

export type Route =
	| {readonly name: 'fleet'}
	| {readonly name: 'fleetConfig'; readonly rigs: readonly number[]}
	/** A rig's own screen: its dashboard, or the proxy screen while its snapshot is a proxy's. */
	| {readonly name: 'rig'; readonly index: number}
	| {readonly name: 'config'; readonly index: number}
	/** `worker`: a proxy's worker whose history is shown, or null for the rig's own. */
	| {readonly name: 'chart'; readonly index: number; readonly worker: string | null}
	/** `index` null: every rig's events (the fleet's `e`). */
	| {readonly name: 'events'; readonly index: number | null; readonly worker: string | null};

/** What the App has to draw with. */
export type RouteFacts = {
	/** How many rigs there are. */
	readonly rigs: number;
	/** Whether this rig has a history (its chart and its events). */
	hasHistory(index: number): boolean;
	/** Whether the App was given the config view slot, the fleet config view slot. */
	readonly config: boolean;
	readonly fleetConfig: boolean;
};

export function routeOf(screen: Screen, facts: RouteFacts): Route {
	if (screen.name === 'fleetConfig') return facts.fleetConfig ? {name: 'fleetConfig', rigs: screen.rigs} : {name: 'fleet'};
	if (screen.name === 'fleet') return {name: 'fleet'};
	const index = screen.index;
	const rig = index !== null && index >= 0 && index < facts.rigs ? index : null;
	const history = rig !== null && facts.hasHistory(rig);
	if (screen.name === 'chart' || screen.name === 'events') {
		const worker = screen.worker ? screen.worker : null;
		if (screen.name === 'chart' && history && rig !== null) return {name: 'chart', index: rig, worker};
		if (screen.name === 'events' && (history || (index === null && allIndexes(facts.rigs).some((at) => facts.hasHistory(at)))))
			return {name: 'events', index: rig, worker};
		return {name: 'fleet'};
	}
	if (rig === null) return {name: 'fleet'};
	return screen.name === 'config' && facts.config ? {name: 'config', index: rig} : {name: 'rig', index: rig};
}

const allIndexes = (count: number) => Array.from({length: count}, (_, at) => at);
