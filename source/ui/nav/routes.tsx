/**
 * The screens as the App draws them (route.ts says which): each builds its screen's capabilities (`caps`) from the
 * navigation's `dispatch` and what the App was given, and hands the screen what it reads.
 */
import {useCallback, useMemo, useSyncExternalStore} from 'react';
import type {MinerHistory} from '../../history/stores.js';
import {nameWithWorker} from '../../monitor/name.js';
import type {MinerEvent, MonitorState} from '../../monitor/types.js';
import type {Store} from '../../monitor/store.js';
import {ChartView, type ChartCaps} from '../screens/chart/view.js';
import {Dashboard, type DashboardCaps, type IntervalControl} from '../screens/dashboard/view.js';
import {EventView, type EventSource, type EventViewCaps} from '../screens/events/view.js';
import {rigLabel} from '../screens/fleet/columns.js';
import {rigTags} from '../screens/fleet/rows.js';
import {FleetView, type FleetCaps} from '../screens/fleet/view.js';
import {ProxyView, type ProxyViewCaps} from '../screens/proxy/view.js';
import type {AppParts} from './parts.js';
import type {AppMiner, AppProps} from './props.js';
import type {NavState} from './reduce.js';
import type {Dispatch} from './use-nav.js';

/** A proxy's worker (the chart or the event view opened on it): its own history (history/stores.ts); else the rig's. */
function historyOf(miner: AppMiner | undefined, worker: string | null): MinerHistory | undefined {
	return worker !== null && miner?.history ? (miner.history.worker?.(worker) ?? miner.history) : miner?.history;
}

export function FleetRoute({
	nav,
	dispatch,
	parts,
	fleetBatch,
	fleetConfig,
	readOnly,
}: {
	readonly nav: NavState;
	readonly dispatch: Dispatch;
	readonly parts: AppParts;
	readonly fleetBatch: AppProps['fleetBatch'];
	/** Whether the App was given the fleet config view. */
	readonly fleetConfig: boolean;
	readonly readOnly: boolean;
}) {
	const {allHistories, refreshAll, tokens, tokenFrom} = parts;
	const caps = useMemo<FleetCaps>(
		() => ({
			quit: () => dispatch({type: 'quit'}),
			open: (index) => dispatch({type: 'openRig', index}),
			chart: allHistories ? (index) => dispatch({type: 'fleetChart', index}) : undefined,
			events: allHistories ? () => dispatch({type: 'fleetEvents'}) : undefined,
			select: (index) => dispatch({type: 'select', index}),
			save: (saved) => dispatch({type: 'saveFleet', saved}),
			refreshAll,
			batch: fleetBatch,
			fleetConfig: fleetConfig ? (rigs) => dispatch({type: 'openFleetConfig', rigs}) : undefined,
			keep: (kept) => dispatch({type: 'keepFleet', kept}),
		}),
		[dispatch, allHistories, refreshAll, fleetBatch, fleetConfig],
	);
	return (
		<FleetView
			fleet={parts.fleet}
			caps={caps}
			initialSelected={nav.selected}
			saved={nav.fleetSaved}
			hours={parts.hours}
			readOnly={readOnly}
			tokens={fleetBatch ? tokens : undefined}
			tokenFrom={fleetBatch && tokenFrom.some((whose) => whose !== null) ? tokenFrom : undefined}
			kept={nav.fleetKept}
			restored={nav.fleetRestored}
			kinds={parts.kinds}
		/>
	);
}

/** Whether a monitor's latest snapshot is an xmrig-proxy's (it re-renders only when that changes). */
function useIsProxy(store: Store<MonitorState>): boolean {
	const proxy = useCallback(() => store.getState().snapshot?.proxy != null, [store]);
	const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
	return useSyncExternalStore(subscribe, proxy, proxy);
}

/** A rig's own screen: the proxy screen while its snapshot is a proxy's, else the miner's dashboard. */
export function RigRoute({
	nav,
	dispatch,
	index,
	miner,
	store,
	fleetMode,
	config,
	readOnly,
	interval,
}: {
	readonly nav: NavState;
	readonly dispatch: Dispatch;
	readonly index: number;
	readonly miner: AppMiner;
	/** What the dashboard reads: the miner's store, or with one miner, that store with the session's notices. */
	readonly store: Store<MonitorState>;
	readonly fleetMode: boolean;
	/** Whether the App was given the config view. */
	readonly config: boolean;
	readonly readOnly: boolean;
	readonly interval: IntervalControl | undefined;
}) {
	const {onPause, onResume, onRefresh, history} = miner;
	const open = useMemo(
		() => ({
			quit: () => dispatch({type: 'quit'}),
			config: config ? () => dispatch({type: 'openConfig'}) : undefined,
			back: fleetMode ? () => dispatch({type: 'toFleet'}) : undefined,
		}),
		[dispatch, config, fleetMode],
	);
	const dashboardCaps = useMemo<DashboardCaps>(
		() => ({
			...open,
			pause: onPause,
			resume: onResume,
			refresh: onRefresh,
			chart: history ? () => dispatch({type: 'openChart', from: 'dashboard'}) : undefined,
			events: history ? () => dispatch({type: 'openEvents', from: 'dashboard'}) : undefined,
		}),
		[open, onPause, onResume, onRefresh, history, dispatch],
	);
	const proxyCaps = useMemo<ProxyViewCaps>(
		() => ({
			...open,
			refresh: onRefresh,
			chart: history ? (worker) => dispatch({type: 'openChart', from: 'proxy', worker}) : undefined,
			events: history ? (worker) => dispatch({type: 'openEvents', from: 'proxy', worker}) : undefined,
			save: (saved) => dispatch({type: 'saveProxy', saved}),
		}),
		[open, onRefresh, history, dispatch],
	);
	return useIsProxy(miner.store) ? (
		<ProxyView store={miner.store} caps={proxyCaps} saved={nav.proxySaved?.index === index ? nav.proxySaved.saved : undefined} />
	) : (
		<Dashboard
			store={store}
			caps={dashboardCaps}
			readOnly={readOnly}
			tokenGiven={miner.tokenGiven}
			tokenFrom={miner.tokenFrom}
			interval={interval}
			history={history}
		/>
	);
}

export function ChartRoute({
	nav,
	dispatch,
	miner,
	worker,
	remember,
}: {
	readonly nav: NavState;
	readonly dispatch: Dispatch;
	readonly miner: AppMiner;
	readonly worker: string | null;
	/** Whether the span chosen is remembered (the App has prefs): the chart opens with the last one. */
	readonly remember: boolean;
}) {
	const caps = useMemo<ChartCaps>(
		() => ({
			close: () => dispatch({type: 'close'}),
			quit: () => dispatch({type: 'quit'}),
			span: remember ? (span) => dispatch({type: 'span', span}) : undefined,
		}),
		[dispatch, remember],
	);
	const history = historyOf(miner, worker);
	if (!history) return null;
	return <ChartView store={miner.store} history={history} worker={worker} caps={caps} initialSpan={remember ? nav.chartSpan : undefined} />;
}

export function EventsRoute({
	dispatch,
	miners,
	index,
	worker,
	notices,
}: {
	readonly dispatch: Dispatch;
	readonly miners: readonly AppMiner[];
	/** The rig whose `e` it is; null: every rig's (the fleet's `e`). */
	readonly index: number | null;
	readonly worker: string | null;
	readonly notices: Store<readonly MinerEvent[]> | undefined;
}) {
	const caps = useMemo<EventViewCaps>(() => ({close: () => dispatch({type: 'close'}), quit: () => dispatch({type: 'quit'})}), [dispatch]);
	const miner = index === null ? undefined : miners[index];
	const history = historyOf(miner, worker);
	// Named as the fleet names them ("attic :18082" for one of two attics), when the view opens: not at start, before
	// the miners have said their worker ids.
	const sources = useMemo<EventSource[]>(() => {
		if (miner && history) return [{name: miner.store.getState().name, store: miner.store, history}];
		const states = miners.map((entry) => entry.store.getState());
		const tags = rigTags(states);
		return miners.flatMap((entry, at) => {
			const name = rigLabel({name: states[at]?.name ?? '', tag: tags[at] ?? null});
			return entry.history ? [{name, store: entry.store, history: entry.history}] : [];
		});
	}, [miners, miner, history]);
	let title = 'all rigs';
	if (miner) {
		const {name, snapshot} = miner.store.getState();
		title = worker === null ? nameWithWorker(name, snapshot?.workerId) : `${name} · worker ${worker}`;
	}
	return <EventView sources={sources} title={title} notices={notices} caps={caps} />;
}
