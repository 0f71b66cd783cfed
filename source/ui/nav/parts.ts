/**
 * What the App builds once from what it is given, for the screens to read: the fleet's store and its last-hour column,
 * the one miner's store with the session's notices, what the fleet says of each rig (its kind, its token), and `R`
 * for every rig at once.
 */
import {useMemo, useState} from 'react';
import {FleetHoursStore} from '../../history/fleet-hours.js';
import type {MonitorState} from '../../monitor/types.js';
import type {Store} from '../../monitor/store.js';
import {FleetStore} from '../screens/fleet/store.js';
import type {RigKind} from '../screens/fleet/rows.js';
import {WithNotices} from './with-notices.js';
import type {AppProps} from './props.js';

export type AppParts = {
	/** One fleet store for the app's life (the miners do not change); it listens to the monitors only while the fleet shows. */
	readonly fleet: FleetStore;
	/** The fleet's last-hour column, read once a minute while the fleet shows. */
	readonly hours: FleetHoursStore | undefined;
	/** One miner: its dashboard shows the session's notices among its events. */
	readonly single: Store<MonitorState> | undefined;
	readonly kinds: readonly (RigKind | null)[];
	readonly tokens: readonly boolean[];
	readonly tokenFrom: readonly (string | null)[];
	/** `R` on the fleet: every rig that can be polled now is (none can: undefined). */
	readonly refreshAll: (() => void) | undefined;
	/** Whether every rig has a history (the fleet's `g` and `e`). */
	readonly allHistories: boolean;
};

export function useParts({miners, alerts, notices, fleetThrottleMs, lastHour}: AppProps, fleetMode: boolean): AppParts {
	const [fleet] = useState(
		() =>
			new FleetStore(
				miners.map((miner) => miner.feed ?? miner.store),
				{alerts, notices, throttleMs: fleetThrottleMs},
			),
	);
	const [hours] = useState(() => (lastHour && fleetMode ? new FleetHoursStore(lastHour, miners.length) : undefined));
	const [single] = useState(() => {
		const only = miners[0]?.store;
		return only && notices && !fleetMode ? new WithNotices(only, notices) : only;
	});
	const kinds = useMemo(() => miners.map((rig) => rig.kind ?? null), [miners]);
	const refreshAll = useMemo(() => {
		const refreshes = miners.flatMap((miner) => (miner.onRefresh ? [miner.onRefresh] : []));
		if (refreshes.length === 0) return undefined;
		return () => {
			for (const refresh of refreshes) refresh();
		};
	}, [miners]);
	const tokens = useMemo(() => miners.map((entry) => entry.tokenGiven ?? true), [miners]);
	const tokenFrom = useMemo(() => miners.map((entry) => entry.tokenFrom ?? null), [miners]);
	const allHistories = miners.every((entry) => entry.history !== undefined);
	return {fleet, hours, single, kinds, tokens, tokenFrom, refreshAll, allHistories};
}
