/**
 * What the App is given (ui/app.tsx): the watched rigs and what the session offers for them. Here, below the App, so
 * the routes (routes.tsx) read the same types the App is given.
 */
import type {ReactNode} from 'react';
import type {AlertCenterState} from '../../alerts/center.js';
import type {BatchState} from '../../batch/types.js';
import type {LastHourSource} from '../../history/last-hour.js';
import type {MinerHistory} from '../../history/stores.js';
import type {MinerEvent, MonitorState} from '../../monitor/types.js';
import type {Prefs} from '../../prefs/prefs.js';
import type {Store} from '../../monitor/store.js';
import type {IntervalControl} from '../screens/dashboard/view.js';

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
	readonly lastHour?: LastHourSource | undefined;
	/** How often at most the fleet view redraws for miner changes; default 250 ms, 1 s above 10 miners. */
	readonly fleetThrottleMs?: number;
	/**
	 * What is remembered between runs (prefs/prefs.ts): the fleet's sort and filter and the chart's span start as
	 * `initial` says, and each change is handed to `update`. Without it, they start as they always did.
	 */
	readonly prefs?: {readonly initial: Prefs; readonly current: Prefs; update(change: Prefs): void} | undefined;
	/** The fleet's `p` and `r`: pause or resume these miners (indexes) as one batch; without it the keys are not offered. */
	readonly fleetBatch?: (action: 'pause' | 'resume', rigs: readonly number[], signal: AbortSignal) => Store<BatchState>;
	/**
	 * The fleet's `c` with rigs marked: renders the fleet config view of those rigs (indexes); `onBack` returns to the
	 * fleet with the same rigs marked, `onQuit` quits. Without it (or under --read-only: refused) `c` is not offered.
	 */
	readonly renderFleetConfig?: (rigs: readonly number[], onBack: () => void, onQuit: () => void) => ReactNode;
};
