import {useCallback} from 'react';
import {FixedNowContext} from './hooks/use-now.js';
import {useParts} from './nav/parts.js';
import type {AppProps} from './nav/props.js';
import {routeOf} from './nav/route.js';
import {ChartRoute, EventsRoute, FleetRoute, RigRoute} from './nav/routes.js';
import {useNav} from './nav/use-nav.js';
import {createTheme, ThemeContext} from './text/theme.js';

export type {AppMiner, ConfigTarget} from './nav/props.js';

/**
 * The root: the theme, the one clock of every screen below (screens/contract.ts: fixed when the App was given `now`,
 * else live), and which screen shows.
 */
export function App(props: AppProps) {
	const {color = true, now} = props;
	return (
		<ThemeContext.Provider value={createTheme({color})}>
			<FixedNowContext.Provider value={now ?? null}>
				<Navigator {...props} />
			</FixedNowContext.Provider>
		</ThemeContext.Provider>
	);
}

/**
 * Which screen shows, as the navigation's reducer (nav/reduce.ts) says: one miner, its dashboard (and its config view,
 * its chart `g` and its event view `e`, Esc coming back). Several: the fleet table; Enter opens a rig's dashboard, Esc
 * there comes back to the fleet with the same rig selected, `c` opens that rig's config view; `g` in the fleet opens
 * the selected rig's chart, `e` every rig's events. Only the screen shown reads keys.
 */
function Navigator(props: AppProps) {
	const {miners, onQuit, readOnly = false, interval, renderConfig, renderFleetConfig, notices, prefs, fleetBatch, onOpenChange} = props;
	const fleetMode = miners.length > 1;
	const {nav, dispatch} = useNav({fleetMode, prefs, onOpenChange, onQuit});
	const parts = useParts(props, fleetMode);
	const back = useCallback(() => dispatch({type: 'closeConfig'}), [dispatch]);
	const toFleet = useCallback(() => dispatch({type: 'toFleet'}), [dispatch]);
	const quit = useCallback(() => dispatch({type: 'quit'}), [dispatch]);
	const route = routeOf(nav.screen, {
		rigs: miners.length,
		hasHistory: (index) => miners[index]?.history !== undefined,
		config: renderConfig !== undefined,
		fleetConfig: renderFleetConfig !== undefined,
	});
	const miner = route.name === 'fleet' || route.name === 'fleetConfig' || route.index === null ? undefined : miners[route.index];

	if (route.name === 'fleetConfig') return renderFleetConfig?.(route.rigs, toFleet, quit);
	if (route.name === 'chart' && miner)
		return <ChartRoute nav={nav} dispatch={dispatch} miner={miner} worker={route.worker} remember={prefs !== undefined} />;
	if (route.name === 'events')
		return <EventsRoute dispatch={dispatch} miners={miners} index={route.index} worker={route.worker} notices={notices} />;
	if (route.name === 'config' && miner) return renderConfig?.({index: route.index, store: miner.store}, back, quit);
	if (route.name === 'rig' && miner) {
		return (
			<RigRoute
				key={route.index}
				nav={nav}
				dispatch={dispatch}
				index={route.index}
				miner={miner}
				store={fleetMode || !parts.single ? miner.store : parts.single}
				fleetMode={fleetMode}
				config={renderConfig !== undefined}
				readOnly={readOnly}
				interval={interval}
			/>
		);
	}
	return (
		<FleetRoute
			nav={nav}
			dispatch={dispatch}
			parts={parts}
			fleetBatch={fleetBatch}
			fleetConfig={renderFleetConfig !== undefined}
			readOnly={readOnly}
		/>
	);
}
