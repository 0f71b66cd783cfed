import {useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode} from 'react';
import {nameWithWorker} from '../monitor/name.js';
import {Dashboard, type IntervalControl} from './screens/dashboard/view.js';
import type {AlertCenterState} from '../alerts/center.js';
import type {MinerHistory} from '../history/stores.js';
import {ChartView} from './screens/chart/view.js';
import {EventView, type EventSource} from './screens/events/view.js';
import type {MinerEvent, MonitorState} from '../monitor/types.js';
import type {Store} from '../store.js';
import type {BatchState} from '../batch/types.js';
import {FleetStore} from './screens/fleet/store.js';
import {FleetHoursStore} from '../history/fleet-hours.js';
import type {LastHourSource} from '../history/last-hour.js';
import {FleetView} from './screens/fleet/view.js';
import {rigLabel} from './screens/fleet/columns.js';
import {rigTags} from './screens/fleet/rows.js';
import type {FleetKept, FleetSaved} from './screens/fleet/reduce.js';
import type {Prefs} from '../prefs/prefs.js';
import {CHART_SPANS, DEFAULT_SPAN} from './screens/chart/reduce.js';
import {FixedNowContext} from './hooks/use-now.js';
import {ProxyView} from './screens/proxy/view.js';
import type {ProxySaved} from './screens/proxy/reduce.js';
import {createTheme, ThemeContext} from './theme.js';
import {WithNotices} from './with-notices.js';

/** One watched miner as the app sees it: its state, and the actions its dashboard offers. */
export type AppMiner = {
	readonly store: Store<MonitorState>;
	readonly onPause?: () => void;
	readonly onResume?: () => void;
	/** Poll now. */
	readonly onRefresh?: () => void;
	/** Whether rigtop sends this miner an access token (without one it allows no pause or config); default true. */
	readonly tokenGiven?: boolean;
	/** Whose token rigtop sends when the user gave none (a running process's: discovery), said before a write. */
	readonly tokenFrom?: string;
	/** Its history's stores (history/stores.ts): the chart `g`, the event view `e`, the sparkline and events from the store. */
	readonly history?: MinerHistory;
	/** 'proxy': an xmrig-proxy, as the session was told before it answers (--rigs `kind`, discovery); its answer wins. */
	readonly kind?: 'miner' | 'proxy';
	/** What the fleet's rows and events read: `store` with the events other processes stored merged in (history/stored-events.ts). */
	readonly feed?: Store<MonitorState>;
};

/** What the config view slot is given: which miner, and its store. */
export type ConfigTarget = {readonly index: number; readonly store: Store<MonitorState>};

export type AppProps = {
	/** Several miners: the fleet view first, Enter opens one, Esc comes back. One miner: its dashboard. */
	readonly miners: readonly AppMiner[];
	readonly onQuit: () => void;
	/** Draw in colour (default true). Off for --no-color or NO_COLOR (cli/options.ts). */
	readonly color?: boolean;
	/** --read-only: pause and resume are not offered (their keys say why). */
	readonly readOnly?: boolean;
	/** The session's poll interval, changed live with + and - on a dashboard (and shown in its header). */
	readonly interval?: IntervalControl;
	/** A fixed clock (epoch ms) for every "… ago" label, for tests and screenshots. */
	readonly now?: number;
	/**
	 * The config view slot (`c` on a miner's dashboard): renders the config screen of one miner; `onBack`
	 * returns to that miner's dashboard (Esc or q there), `onQuit` quits rigtop (F10). The config view owns
	 * its keys while it is shown. Without it, `c` is not offered.
	 */
	readonly renderConfig?: (miner: ConfigTarget, onBack: () => void, onQuit: () => void) => ReactNode;
	/** Alerts for the fleet rows (the AlertCenter). */
	readonly alerts?: Store<AlertCenterState>;
	/**
	 * The session's own notices (about no miner in particular): among the fleet's events as rigtop's, or, with one
	 * miner, among its dashboard's events.
	 */
	readonly notices?: Store<readonly MinerEvent[]>;
	/** Told which miner's dashboard (or config view) is open, null for the fleet view; on start and on each change. */
	readonly onOpenChange?: (minerIndex: number | null) => void;
	/** The history store's last hour of each miner, for the fleet's history column; without it (no history), no column. */
	readonly lastHour?: LastHourSource;
	/** How often at most the fleet view redraws for miner changes; default 250 ms, 1 s above 10 miners. */
	readonly fleetThrottleMs?: number;
	/**
	 * What is remembered between runs (prefs/prefs.ts): the fleet's sort and filter and the chart's span start as
	 * `initial` says, and each change is handed to `update`. Without it, they start as they always did.
	 */
	readonly prefs?: {readonly initial: Prefs; readonly current: Prefs; update(change: Prefs): void};
	/** The fleet's `p` and `r`: pause or resume these miners (indexes) as one batch; without it the keys are not offered. */
	readonly fleetBatch?: (action: 'pause' | 'resume', rigs: readonly number[], signal: AbortSignal) => Store<BatchState>;
	/**
	 * The fleet's `c` with rigs marked: renders the fleet config view of those rigs (indexes); `onBack` returns to the
	 * fleet with the same rigs marked, `onQuit` quits. Without it (or under --read-only: refused) `c` is not offered.
	 */
	readonly renderFleetConfig?: (rigs: readonly number[], onBack: () => void, onQuit: () => void) => ReactNode;
};

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

type Screen =
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
	| {readonly name: 'chart'; readonly index: number; readonly from: 'fleet' | 'dashboard' | 'proxy'; readonly worker?: string | null}
	| {
			readonly name: 'events';
			readonly index: number | null;
			readonly from: 'fleet' | 'dashboard' | 'proxy';
			readonly worker?: string | null;
	  };

/** Whether a screen was opened from a rig's own screen (its dashboard, or a proxy's screen in its place). */
const fromRig = (from: 'fleet' | 'dashboard' | 'proxy') => from !== 'fleet';

/**
 * The rig whose dashboard, config view, or chart or event view opened from its dashboard is open; -1 for the fleet
 * and the screens opened from it (they leave the fleet's polling as it was: the history's stores read what they need).
 */
function openRig(screen: Screen): number {
	if (screen.name === 'fleet' || screen.name === 'fleetConfig') return -1;
	if (screen.name === 'chart' || screen.name === 'events') return fromRig(screen.from) && screen.index !== null ? screen.index : -1;
	return screen.index;
}

/** Whether a monitor's latest snapshot is an xmrig-proxy's (it re-renders only when that changes). */
function useIsProxy(store: Store<MonitorState>): boolean {
	const proxy = useCallback(() => store.getState().snapshot?.proxy != null, [store]);
	const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
	return useSyncExternalStore(subscribe, proxy, proxy);
}

/** A rig's own screen: the proxy screen while its snapshot is a proxy's, else the miner's dashboard. */
function RigScreen({
	store,
	dashboard,
	proxy,
}: {
	readonly store: Store<MonitorState>;
	readonly dashboard: ReactNode;
	readonly proxy: ReactNode;
}) {
	return useIsProxy(store) ? proxy : dashboard;
}

/**
 * The root: the theme, and which screen shows. One miner: its dashboard (and its config view, its chart `g` and its
 * event view `e`, Esc coming back).
 * Several: the fleet table; Enter opens a rig's dashboard, Esc there comes back to the fleet with
 * the same rig selected, `c` opens that rig's config view; `g` in the fleet opens the selected rig's chart, `e`
 * every rig's events. Only the screen shown reads keys.
 */
export function App({
	miners,
	onQuit,
	color = true,
	readOnly = false,
	interval,
	now,
	renderConfig,
	alerts,
	notices,
	lastHour,
	fleetThrottleMs,
	onOpenChange,
	prefs,
	fleetBatch,
	renderFleetConfig,
}: AppProps) {
	const fleetMode = miners.length > 1;
	const [screen, setShown] = useState<Screen>(() => (fleetMode ? {name: 'fleet'} : {name: 'dashboard', index: 0}));
	// The fleet's first showing this run, with a filter the last run left: the fleet says what it hides (once).
	const [fleetRestored, setFleetRestored] = useState(() => fleetMode && (savedFleet(prefs?.initial)?.filter ?? '') !== '');
	// Every transition goes through here, which tells onOpenChange when the open rig changes, once, as it happens.
	const setScreen = useCallback(
		(next: Screen) => {
			setShown(next);
			if (next.name !== 'fleet') setFleetRestored(false);
			const rig = openRig(next);
			if (rig !== openRig(screen)) onOpenChange?.(rig < 0 ? null : rig);
		},
		[screen, onOpenChange],
	);
	// At start, the rig the App opens on (the session reads every rig's threads until it is told): once, as given then.
	const [start] = useState(() => ({tell: onOpenChange, rig: openRig(screen)}));
	useEffect(() => {
		start.tell?.(start.rig < 0 ? null : start.rig);
	}, [start]);
	// The rig chosen in the fleet (none until one is: the fleet then selects its first line).
	const [selected, setSelected] = useState<number | undefined>(undefined);
	// The fleet's sort and filter, kept while a rig's dashboard is open (and, with prefs, between runs).
	const [fleetSaved, setFleetSaved] = useState<FleetSaved | undefined>(() => savedFleet(prefs?.initial));
	const saveFleet = useCallback(
		(saved: FleetSaved) => {
			setFleetSaved(saved);
			// Back at the defaults on a first run (s all the way round): nothing to remember.
			if (!prefs?.current.fleet && saved.sort.key === 'listed' && !saved.sort.reversed && saved.filter === '') return;
			prefs?.update({fleet: {sort: saved.sort.key, reversed: saved.sort.reversed, filter: saved.filter}});
		},
		[prefs],
	);
	// The chart's span, with prefs: the next chart opens with the one the last showed.
	const [chartSpan, setChartSpan] = useState(() => spanIndex(prefs?.initial.chartSpanMs));
	const saveSpan = useCallback(
		(span: number) => {
			setChartSpan(span);
			if (prefs?.current.chartSpanMs === undefined && span === DEFAULT_SPAN) return;
			const ms = CHART_SPANS[span]?.ms;
			if (ms !== undefined) prefs?.update({chartSpanMs: ms});
		},
		[prefs],
	);

	// One fleet store for the app's life (the miners do not change); it listens to the monitors
	// only while the fleet view shows.
	const [fleet] = useState(
		() =>
			new FleetStore(
				miners.map((miner) => miner.feed ?? miner.store),
				{alerts, notices, throttleMs: fleetThrottleMs},
			),
	);
	// The fleet's last-hour column, read once a minute while the fleet shows.
	const [hours] = useState(() => (lastHour && fleetMode ? new FleetHoursStore(lastHour, miners.length) : undefined));
	const kinds = useMemo(() => miners.map((rig) => rig.kind ?? null), [miners]);
	// One miner: its dashboard shows the session's notices among its events.
	const [single] = useState(() => {
		const only = miners[0]?.store;
		return only && notices && !fleetMode ? new WithNotices(only, notices) : only;
	});

	// `R` on the fleet: every rig that can be polled now is.
	const refreshAll = useMemo(() => {
		const refreshes = miners.flatMap((miner) => (miner.onRefresh ? [miner.onRefresh] : []));
		if (refreshes.length === 0) return undefined;
		return () => {
			for (const refresh of refreshes) refresh();
		};
	}, [miners]);

	// The fleet's marks and first line shown (the fleet's, not its screen's): kept while any screen opened from it shows.
	const [fleetKept, setFleetKept] = useState<FleetKept | undefined>(undefined);
	const openDashboard = useCallback(
		(index: number) => {
			setSelected(index);
			setScreen({name: 'dashboard', index});
		},
		[setScreen],
	);
	const backToFleet = useCallback(() => {
		setScreen({name: 'fleet'});
	}, [setScreen]);
	const index = openRig(screen);
	const openConfig = useCallback(() => {
		if (index >= 0) setScreen({name: 'config', index});
	}, [index, setScreen]);
	const backToDashboard = useCallback(() => {
		if (index >= 0) setScreen({name: 'dashboard', index});
	}, [index, setScreen]);
	const openChart = useCallback(() => {
		if (index >= 0) setScreen({name: 'chart', index, from: 'dashboard'});
	}, [index, setScreen]);
	const openEvents = useCallback(() => {
		if (index >= 0) setScreen({name: 'events', index, from: 'dashboard'});
	}, [index, setScreen]);
	// A proxy's screen: its chart and events, of the proxy (worker null) or of the worker whose detail is open.
	const proxyChart = useCallback(
		(worker: string | null) => {
			if (index >= 0) setScreen({name: 'chart', index, from: 'proxy', worker});
		},
		[index, setScreen],
	);
	const proxyEvents = useCallback(
		(worker: string | null) => {
			if (index >= 0) setScreen({name: 'events', index, from: 'proxy', worker});
		},
		[index, setScreen],
	);
	// The proxy screen's selection, sort, filter and open detail, kept while its chart, events or config view shows.
	const [proxySaved, setProxySaved] = useState<{readonly index: number; readonly saved: ProxySaved} | null>(null);
	const saveProxy = useCallback(
		(saved: ProxySaved) => {
			if (index >= 0) setProxySaved({index, saved});
		},
		[index],
	);
	const fleetChart = useCallback(
		(rig: number) => {
			setSelected(rig);
			setScreen({name: 'chart', index: rig, from: 'fleet'});
		},
		[setScreen],
	);
	const openFleetConfig = useCallback(
		(rigs: readonly number[]) => {
			setScreen({name: 'fleetConfig', rigs});
		},
		[setScreen],
	);
	const fleetEvents = useCallback(() => {
		setScreen({name: 'events', index: null, from: 'fleet'});
	}, [setScreen]);
	const closeView = useCallback(() => {
		setScreen(
			(screen.name === 'chart' || screen.name === 'events') && fromRig(screen.from) && screen.index !== null
				? {name: 'dashboard', index: screen.index}
				: {name: 'fleet'},
		);
	}, [screen, setScreen]);
	const tokens = useMemo(() => miners.map((entry) => entry.tokenGiven ?? true), [miners]);
	const tokenFrom = useMemo(() => miners.map((entry) => entry.tokenFrom ?? null), [miners]);
	const allHistories = miners.every((entry) => entry.history !== undefined);
	// Named as the fleet names them ("attic :18082" for one of two attics), when the view opens: not at start, before
	// the miners have said their worker ids.
	const eventsOpen = screen.name === 'events';
	const eventSources = useMemo<EventSource[]>(() => {
		if (!eventsOpen) return [];
		const states = miners.map((entry) => entry.store.getState());
		const tags = rigTags(states);
		return miners.flatMap((entry, index) => {
			const name = rigLabel({name: states[index]?.name ?? '', tag: tags[index] ?? null});
			return entry.history ? [{name, store: entry.store, history: entry.history}] : [];
		});
	}, [miners, eventsOpen]);

	const shownIndex = screen.name === 'fleet' || screen.name === 'fleetConfig' || screen.index === null ? -1 : screen.index;
	const miner = shownIndex >= 0 ? miners[shownIndex] : undefined;
	// A proxy's worker (the chart or the event view opened on it): its own history (history/stores.ts).
	const worker = (screen.name === 'chart' || screen.name === 'events') && screen.worker ? screen.worker : null;
	const shownHistory = worker !== null && miner?.history ? (miner.history.worker?.(worker) ?? miner.history) : miner?.history;
	// The event view's rigs: the one whose `e` it is, or every rig (the fleet's `e`).
	const viewSources = useMemo<EventSource[]>(
		() => (miner && shownHistory ? [{name: miner.store.getState().name, store: miner.store, history: shownHistory}] : eventSources),
		[miner, shownHistory, eventSources],
	);

	// What each screen may do beyond itself (its capabilities): one object per screen, an absent one a key not offered.
	const chartCaps = useMemo(
		() => ({close: closeView, quit: onQuit, span: prefs ? saveSpan : undefined}),
		[closeView, onQuit, prefs, saveSpan],
	);
	const eventCaps = useMemo(() => ({close: closeView, quit: onQuit}), [closeView, onQuit]);
	const fleetCaps = useMemo(
		() => ({
			quit: onQuit,
			open: openDashboard,
			chart: allHistories ? fleetChart : undefined,
			events: allHistories ? fleetEvents : undefined,
			select: setSelected,
			save: saveFleet,
			refreshAll,
			batch: fleetBatch,
			fleetConfig: renderFleetConfig ? openFleetConfig : undefined,
			keep: setFleetKept,
		}),
		[onQuit, openDashboard, allHistories, fleetChart, fleetEvents, saveFleet, refreshAll, fleetBatch, renderFleetConfig, openFleetConfig],
	);
	const dashboardCaps = useMemo(
		() => ({
			quit: onQuit,
			pause: miner?.onPause,
			resume: miner?.onResume,
			refresh: miner?.onRefresh,
			config: renderConfig ? openConfig : undefined,
			back: fleetMode ? backToFleet : undefined,
			chart: miner?.history ? openChart : undefined,
			events: miner?.history ? openEvents : undefined,
		}),
		[onQuit, miner, renderConfig, openConfig, fleetMode, backToFleet, openChart, openEvents],
	);
	const proxyCaps = useMemo(
		() => ({
			quit: onQuit,
			refresh: miner?.onRefresh,
			config: renderConfig ? openConfig : undefined,
			back: fleetMode ? backToFleet : undefined,
			chart: miner?.history ? proxyChart : undefined,
			events: miner?.history ? proxyEvents : undefined,
			save: saveProxy,
		}),
		[onQuit, miner, renderConfig, openConfig, fleetMode, backToFleet, proxyChart, proxyEvents, saveProxy],
	);

	let body: ReactNode;
	if (screen.name === 'fleetConfig' && renderFleetConfig) {
		body = renderFleetConfig(screen.rigs, backToFleet, onQuit);
	} else if (screen.name === 'chart' && miner && shownHistory) {
		body = (
			<ChartView store={miner.store} history={shownHistory} worker={worker} caps={chartCaps} initialSpan={prefs ? chartSpan : undefined} />
		);
	} else if (screen.name === 'events' && (miner?.history || (screen.index === null && eventSources.length > 0))) {
		body = (
			<EventView
				sources={viewSources}
				title={
					miner
						? worker === null
							? nameWithWorker(miner.store.getState().name, miner.store.getState().snapshot?.workerId)
							: `${miner.store.getState().name} · worker ${worker}`
						: 'all rigs'
				}
				notices={notices}
				caps={eventCaps}
			/>
		);
	} else if (screen.name === 'fleet' || screen.name === 'fleetConfig' || screen.name === 'chart' || screen.name === 'events' || !miner) {
		body = (
			<FleetView
				fleet={fleet}
				caps={fleetCaps}
				initialSelected={selected}
				saved={fleetSaved}
				hours={hours}
				readOnly={readOnly}
				tokens={fleetBatch ? tokens : undefined}
				tokenFrom={fleetBatch && tokenFrom.some((whose) => whose !== null) ? tokenFrom : undefined}
				kept={fleetKept}
				restored={fleetRestored}
				kinds={kinds}
			/>
		);
	} else if (screen.name === 'config' && renderConfig) {
		body = renderConfig({index, store: miner.store}, backToDashboard, onQuit);
	} else {
		body = (
			<RigScreen
				key={shownIndex}
				store={miner.store}
				dashboard={
					<Dashboard
						store={fleetMode || !single ? miner.store : single}
						caps={dashboardCaps}
						readOnly={readOnly}
						tokenGiven={miner.tokenGiven}
						tokenFrom={miner.tokenFrom}
						interval={interval}
						history={miner.history}
					/>
				}
				proxy={<ProxyView store={miner.store} caps={proxyCaps} saved={proxySaved?.index === shownIndex ? proxySaved.saved : undefined} />}
			/>
		);
	}

	// The one clock of every screen below (screens/contract.ts): fixed when the App was given `now`, else live.
	return (
		<ThemeContext.Provider value={createTheme({color})}>
			<FixedNowContext.Provider value={now ?? null}>{body}</FixedNowContext.Provider>
		</ThemeContext.Provider>
	);
}
