/**
 * The App's navigation as the screens' own logic is (screens/contract.ts): a pure `reduce(nav, action)` giving the next
 * state and what must happen because of it (its effects: prefs to save, the open rig to tell, quit). The App's shell
 * (use-nav.ts) runs the effects; nothing here reads a store, a clock or a callback.
 */
import type {Prefs} from '../../prefs/prefs.js';
import {CHART_SPANS, DEFAULT_SPAN} from '../screens/chart/reduce.js';
import type {FleetKept, FleetSaved} from '../screens/fleet/reduce.js';
import type {ProxySaved} from '../screens/proxy/reduce.js';

/** Where the chart or the event view was opened from: the fleet, a miner's dashboard, or a proxy's screen in its place. */
export type Origin = 'fleet' | 'dashboard' | 'proxy';

export type Screen =
	| {readonly name: 'fleet'}
	/** The fleet config view of the marked rigs (`c`); Esc goes back to the fleet, the marks kept. */
	| {readonly name: 'fleetConfig'; readonly rigs: readonly number[]}
	| {readonly name: 'dashboard'; readonly index: number}
	| {readonly name: 'config'; readonly index: number}
	/**
	 * The chart (`g`) and the event view (`e`) of a rig (index), or every rig's events (null); Esc goes back to `from`.
	 * From a proxy's screen (which shows in the dashboard's place), `worker` names the worker whose detail was open, or
	 * is null for the proxy's own.
	 */
	| {readonly name: 'chart'; readonly index: number; readonly from: Origin; readonly worker?: string | null}
	| {readonly name: 'events'; readonly index: number | null; readonly from: Origin; readonly worker?: string | null};

export type NavState = {
	readonly screen: Screen;
	/** The fleet's first showing this run, with a filter the last run left: the fleet says what it hides (once). */
	readonly fleetRestored: boolean;
	/** The rig chosen in the fleet (none until one is: the fleet then selects its first line). */
	readonly selected: number | undefined;
	/** The fleet's sort and filter, kept while a rig's dashboard is open (and, with prefs, between runs). */
	readonly fleetSaved: FleetSaved | undefined;
	/** The fleet's marks and first line shown: kept while any screen opened from it shows. */
	readonly fleetKept: FleetKept | undefined;
	/** The chart's span (index in CHART_SPANS), with prefs: the next chart opens with the one the last showed. */
	readonly chartSpan: number | undefined;
	/** The proxy screen's selection, sort, filter and open detail, kept while its chart, events or config view shows. */
	readonly proxySaved: {readonly index: number; readonly saved: ProxySaved} | null;
	/**
	 * Null without prefs; else whether the prefs hold a fleet and a chart span yet (the App is their one writer): until
	 * one does, the defaults are not written.
	 */
	readonly remembered: {readonly fleet: boolean; readonly chartSpan: boolean} | null;
};

export type NavAction =
	/** Enter on a rig of the fleet: its dashboard (or proxy screen). */
	| {readonly type: 'openRig'; readonly index: number}
	/** Esc on a rig's screen, or back from the fleet config view. */
	| {readonly type: 'toFleet'}
	/** `c` on a rig's screen: its config view. */
	| {readonly type: 'openConfig'}
	/** Back from the config view to the rig's screen. */
	| {readonly type: 'closeConfig'}
	/** `g`, `e` on a rig's screen; from a proxy's, of the worker whose detail is open (null: the proxy's own). */
	| {readonly type: 'openChart'; readonly from: 'dashboard' | 'proxy'; readonly worker?: string | null}
	| {readonly type: 'openEvents'; readonly from: 'dashboard' | 'proxy'; readonly worker?: string | null}
	/** `g` on the fleet: the selected rig's chart; `e`: every rig's events. */
	| {readonly type: 'fleetChart'; readonly index: number}
	| {readonly type: 'fleetEvents'}
	/** `c` on the fleet with rigs marked. */
	| {readonly type: 'openFleetConfig'; readonly rigs: readonly number[]}
	/** Esc on the chart or the event view: back where it was opened from. */
	| {readonly type: 'close'}
	/** What the fleet, the chart and the proxy screen tell as their keys change it, to be restored. */
	| {readonly type: 'select'; readonly index: number}
	| {readonly type: 'saveFleet'; readonly saved: FleetSaved}
	| {readonly type: 'keepFleet'; readonly kept: FleetKept}
	| {readonly type: 'span'; readonly span: number}
	| {readonly type: 'saveProxy'; readonly saved: ProxySaved}
	| {readonly type: 'quit'};

export type NavEffect =
	/** Hand this change to the prefs (prefs/prefs.ts `update`). */
	| {readonly type: 'prefs'; readonly change: Prefs}
	/** The open rig changed (null: none, the fleet or a screen opened from it): tell the session. */
	| {readonly type: 'openRig'; readonly rig: number | null}
	| {readonly type: 'quit'};

export type NavStep = {readonly nav: NavState; readonly effects: readonly NavEffect[]};

/** The fleet's sort and filter as remembered, for the fleet view to start with. */
function savedFleet(prefs: Prefs | undefined): FleetSaved | undefined {
	const fleet = prefs?.fleet;
	return fleet ? {sort: {key: fleet.sort, reversed: fleet.reversed}, filter: fleet.filter} : undefined;
}

/** The chart span remembered, as an index in CHART_SPANS (undefined: the chart's default). */
function spanIndex(ms: number | undefined): number | undefined {
	const at = CHART_SPANS.findIndex((span) => span.ms === ms);
	return at < 0 ? undefined : at;
}

/** Whether a screen was opened from a rig's own screen (its dashboard, or a proxy's screen in its place). */
const fromRig = (from: Origin) => from !== 'fleet';

/**
 * The rig whose dashboard, config view, or chart or event view opened from its dashboard is open; -1 for the fleet
 * and the screens opened from it (they leave the fleet's polling as it was: the history's stores read what they need).
 */
export function openRig(screen: Screen): number {
	if (screen.name === 'fleet' || screen.name === 'fleetConfig') return -1;
	if (screen.name === 'chart' || screen.name === 'events') return fromRig(screen.from) && screen.index !== null ? screen.index : -1;
	return screen.index;
}

const tell = (rig: number): NavEffect => ({type: 'openRig', rig: rig < 0 ? null : rig});

/**
 * Where the App starts: several rigs, the fleet (with the sort, filter and chart span the prefs remember); one, its
 * dashboard. Its effect tells the session the rig it opens on.
 */
export function initialNav(options: {
	readonly fleetMode: boolean;
	readonly prefs?: {readonly initial: Prefs; readonly current: Prefs} | undefined;
}): NavStep {
	const {fleetMode, prefs} = options;
	const fleetSaved = savedFleet(prefs?.initial);
	const screen: Screen = fleetMode ? {name: 'fleet'} : {name: 'dashboard', index: 0};
	const nav: NavState = {
		screen,
		fleetRestored: fleetMode && (fleetSaved?.filter ?? '') !== '',
		selected: undefined,
		fleetSaved,
		fleetKept: undefined,
		chartSpan: spanIndex(prefs?.initial.chartSpanMs),
		proxySaved: null,
		remembered: prefs ? {fleet: prefs.current.fleet !== undefined, chartSpan: prefs.current.chartSpanMs !== undefined} : null,
	};
	return {nav, effects: [tell(openRig(screen))]};
}

/** Every move to another screen goes through here: the open rig told when it changes, once, as it happens. */
function show(nav: NavState, screen: Screen, change: Partial<NavState> = {}): NavStep {
	const next: NavState = {...nav, ...change, screen, fleetRestored: nav.fleetRestored && screen.name === 'fleet'};
	const rig = openRig(screen);
	return {nav: next, effects: rig === openRig(nav.screen) ? [] : [tell(rig)]};
}

const stay = (nav: NavState, change: Partial<NavState> = {}, effects: readonly NavEffect[] = []): NavStep => ({
	nav: {...nav, ...change},
	effects,
});

function saveFleet(nav: NavState, saved: FleetSaved): NavStep {
	const {remembered} = nav;
	// Back at the defaults on a first run (s all the way round): nothing to remember.
	const defaults = saved.sort.key === 'listed' && !saved.sort.reversed && saved.filter === '';
	if (remembered === null || (!remembered.fleet && defaults)) return stay(nav, {fleetSaved: saved});
	const change: Prefs = {fleet: {sort: saved.sort.key, reversed: saved.sort.reversed, filter: saved.filter}};
	return stay(nav, {fleetSaved: saved, remembered: {...remembered, fleet: true}}, [{type: 'prefs', change}]);
}

function saveSpan(nav: NavState, span: number): NavStep {
	const {remembered} = nav;
	const ms = CHART_SPANS[span]?.ms;
	if (remembered === null || (!remembered.chartSpan && span === DEFAULT_SPAN) || ms === undefined) return stay(nav, {chartSpan: span});
	return stay(nav, {chartSpan: span, remembered: {...remembered, chartSpan: true}}, [{type: 'prefs', change: {chartSpanMs: ms}}]);
}

/** The next navigation state, and what it asks for. An action that makes no sense where the App is changes nothing. */
export function reduce(nav: NavState, action: NavAction): NavStep {
	const index = openRig(nav.screen);
	switch (action.type) {
		case 'openRig':
			return show(nav, {name: 'dashboard', index: action.index}, {selected: action.index});
		case 'toFleet':
			return show(nav, {name: 'fleet'});
		case 'openConfig':
			return index < 0 ? stay(nav) : show(nav, {name: 'config', index});
		case 'closeConfig':
			return index < 0 ? stay(nav) : show(nav, {name: 'dashboard', index});
		case 'openChart':
			if (index < 0) return stay(nav);
			return show(
				nav,
				action.from === 'proxy'
					? {name: 'chart', index, from: 'proxy', worker: action.worker ?? null}
					: {name: 'chart', index, from: 'dashboard'},
			);
		case 'openEvents':
			if (index < 0) return stay(nav);
			return show(
				nav,
				action.from === 'proxy'
					? {name: 'events', index, from: 'proxy', worker: action.worker ?? null}
					: {name: 'events', index, from: 'dashboard'},
			);
		case 'fleetChart':
			return show(nav, {name: 'chart', index: action.index, from: 'fleet'}, {selected: action.index});
		case 'fleetEvents':
			return show(nav, {name: 'events', index: null, from: 'fleet'});
		case 'openFleetConfig':
			return show(nav, {name: 'fleetConfig', rigs: action.rigs});
		case 'close': {
			const {screen} = nav;
			const back = (screen.name === 'chart' || screen.name === 'events') && fromRig(screen.from) && screen.index !== null;
			return show(nav, back ? {name: 'dashboard', index: screen.index} : {name: 'fleet'});
		}
		case 'select':
			return stay(nav, {selected: action.index});
		case 'saveFleet':
			return saveFleet(nav, action.saved);
		case 'keepFleet':
			return stay(nav, {fleetKept: action.kept});
		case 'span':
			return saveSpan(nav, action.span);
		case 'saveProxy':
			return index < 0 ? stay(nav) : stay(nav, {proxySaved: {index, saved: action.saved}});
		case 'quit':
			return stay(nav, {}, [{type: 'quit'}]);
	}
}
