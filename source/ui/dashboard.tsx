import {Box, useInput, type Key} from 'ink';
import {useCallback, useEffect, useMemo} from 'react';
import type {MinerHistory} from '../history/source.js';
import {formatDurationShort} from '../format.js';
import {dashboardReducer, initialUiState, type ActionCommand} from './dashboard-reducer.js';
import {describeEvents} from './event-lines.js';
import {usePaneEvents, useSparkline} from './hooks/use-history-panes.js';
import {FixedNowContext, syncClocks} from './hooks/use-now.js';
import {useShareTrack} from './hooks/use-share-track.js';
import {useStepReducer} from './hooks/use-step-reducer.js';
import {useStore} from './hooks/use-store.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {SCREEN_KEYMAP, type Capability, type CommandName} from './keymap.js';
import {computeLayout, STAT_PANE_HEIGHT} from './layout.js';
import {EventsPane, type Notice} from './panes/events-pane.js';
import {Footer} from './panes/footer.js';
import {HashratePane} from './panes/hashrate-pane.js';
import {Header} from './panes/header.js';
import {HelpOverlay} from './panes/help-overlay.js';
import {PoolPane} from './panes/pool-pane.js';
import {SharesPane} from './panes/shares-pane.js';
import {SystemPane} from './panes/system-pane.js';
import {ThreadsPane} from './panes/threads-pane.js';
import {WaitingScreen} from './panes/waiting-screen.js';
import {isOutdated} from './status.js';
import type {LinkStatus, MonitorState} from '../monitor/types.js';
import type {Store} from '../store.js';

export type DashboardProps = {
	readonly store: Store<MonitorState>;
	readonly onQuit: () => void;
	/** Open the config view; without it the key does nothing and the footer does not offer it. */
	readonly onConfig?: () => void;
	readonly onPause?: () => void;
	readonly onResume?: () => void;
	/** Poll now. */
	readonly onRefresh?: () => void;
	/** Back to the fleet view (Esc); without it Esc does nothing and the footer does not offer it. */
	readonly onBack?: () => void;
	/** Open the full-screen chart (`g`), the event view (`e`); without them the keys do nothing and are not offered. */
	readonly onChart?: () => void;
	readonly onEvents?: () => void;
	/** The miner's history: the sparkline filled from the store at start, the events from before this session. */
	readonly history?: MinerHistory;
	/** A fixed clock (epoch ms) for every "… ago" label, for tests and screenshots. */
	readonly now?: number;
};

/**
 * One miner's live dashboard. Reads the store, never does I/O; keys go through the reducer and
 * actions reach the app through the callbacks. The frame fills the terminal's width and stays
 * under its height (rows - 1), whatever the terminal and the number of threads.
 */
/** Why the threads of a snapshot read without them (a fleet rig opened) are not shown yet. */
function threadsNotRead(status: LinkStatus): string {
	if (status === 'down') return 'the threads have not been read: the rig is down';
	if (status === 'error') return 'the threads have not been read: the rig cannot be read (see above)';
	return 'reading the threads…';
}

export function Dashboard({
	store,
	onQuit,
	onConfig,
	onPause,
	onResume,
	onRefresh,
	onBack,
	onChart,
	onEvents,
	history,
	now,
}: DashboardProps) {
	const state = useStore(store, syncClocks);
	const {columns, rows} = useTerminalSize();
	// "Now" for the events' dates and the sparkline's span: the last poll's time (each poll redraws them, and no clock
	// of their own ticks: the header's one clock is the only timer, use-now.ts).
	const current = now ?? state.lastAttemptAt ?? 0;
	const outdated = isOutdated(state);
	// Down or in error with values on screen: the reason and its fix in full, above the events.
	const notice = useMemo<Notice | null>(() => {
		if (!outdated || state.error === null || state.status === 'stale') return null;
		return {text: `${state.error.message} — fix: ${state.error.hint}`, tone: 'error'};
	}, [outdated, state.error, state.status]);
	const threadsKnown = state.snapshot === null ? null : state.snapshot.threads.length;
	const layout = useMemo(() => computeLayout(columns, rows, notice ? 2 : 0, threadsKnown), [columns, rows, notice, threadsKnown]);
	const snapshot = state.snapshot;
	const threadCount = snapshot?.threads.length ?? 0;
	const shares = useShareTrack(state);

	const hasConfig = onConfig !== undefined;
	const hasPause = onPause !== undefined;
	const hasResume = onResume !== undefined;
	const hasRefresh = onRefresh !== undefined;
	const hasBack = onBack !== undefined;
	const hasChart = onChart !== undefined;
	const hasEvents = onEvents !== undefined;
	const offered = useMemo(() => {
		const set = new Set<Capability>();
		if (hasConfig) set.add('config');
		if (hasPause) set.add('pause');
		if (hasResume) set.add('resume');
		if (hasRefresh) set.add('refresh');
		if (hasBack) set.add('fleet');
		return set as ReadonlySet<Capability>;
	}, [hasConfig, hasPause, hasResume, hasRefresh, hasBack]);

	const run = useCallback(
		(command: ActionCommand) => {
			const callback = {
				quit: onQuit,
				config: onConfig,
				pause: onPause,
				resume: onResume,
				refresh: onRefresh,
				toFleet: onBack,
				chart: onChart,
				events: onEvents,
			}[command];
			callback?.();
		},
		[onQuit, onConfig, onPause, onResume, onRefresh, onBack, onChart, onEvents],
	);
	const [ui, dispatch] = useStepReducer(dashboardReducer, () => initialUiState({offered, pageSize: layout.threadRows, threadCount}), run);
	useEffect(() => {
		dispatch({type: 'viewport', pageSize: layout.threadRows, threadCount});
	}, [dispatch, layout.threadRows, threadCount]);
	useEffect(() => {
		dispatch({type: 'offered', offered});
	}, [dispatch, offered]);

	useInput((input: string, key: Key) => {
		dispatch({type: 'key', input, key});
	});

	const scrollable = snapshot !== null && layout.threadsHeight > 0 && threadCount > layout.threadRows;
	const paused = snapshot?.paused ?? null;
	const connected = snapshot !== null && state.status === 'live';
	const footer = useMemo(() => {
		if (ui.help) return SCREEN_KEYMAP.footer('help', SCREEN_KEYMAP.available('help'));
		const shown = new Set<CommandName>(['quit', 'help']);
		if (hasConfig) shown.add('config');
		// Offer pause or resume by what the miner says it is doing (both when it does not say).
		if (hasPause && connected && paused !== true) shown.add('pause');
		if (hasResume && connected && paused !== false) shown.add('resume');
		if (hasRefresh) shown.add('refresh');
		if (scrollable) shown.add('threadsUp');
		if (hasBack) shown.add('toFleet');
		if (hasChart) shown.add('chart');
		if (hasEvents) shown.add('events');
		return SCREEN_KEYMAP.footer('dashboard', shown);
	}, [ui.help, hasConfig, hasPause, hasResume, hasRefresh, hasBack, hasChart, hasEvents, connected, paused, scrollable]);
	const help = useMemo(() => SCREEN_KEYMAP.help(['dashboard', 'help'], offered), [offered]);

	const offset = Math.min(ui.threadsOffset, Math.max(0, threadCount - layout.threadRows));
	const {leftWidth, rightWidth} = layout;
	const sparkRows = 1 + layout.sparkExtra;
	const hashrateHeight = STAT_PANE_HEIGHT + layout.sparkExtra;
	const spark = useSparkline(history, state, sparkRows > 1 ? layout.sparklineWidth * 2 : layout.sparklineWidth, current);
	const paneEvents = usePaneEvents(history, state.events, layout.eventLines);
	const eventLines = useMemo(() => describeEvents(paneEvents, current).reverse(), [paneEvents, current]);

	let body;
	if (ui.help) {
		body = <HelpOverlay entries={help} width={columns} height={layout.bodyHeight} />;
	} else if (snapshot === null) {
		body = <WaitingScreen state={state} width={columns} height={layout.bodyHeight} />;
	} else {
		body = (
			<>
				{layout.statRows >= 1 ? (
					<Box flexDirection="row" height={hashrateHeight}>
						<HashratePane
							hashrate={snapshot.hashrate}
							sessionAverage={state.sessionAverage}
							sparkline={spark.values}
							sparkRows={sparkRows}
							since={spark.since === null ? null : formatDurationShort(Math.max(0, current - spark.since) / 1000)}
							paused={snapshot.paused === true}
							width={leftWidth}
							height={hashrateHeight}
							outdated={outdated}
						/>
						<PoolPane connection={snapshot.connection} width={rightWidth} height={hashrateHeight} outdated={outdated} />
					</Box>
				) : null}
				{layout.statRows >= 2 ? (
					<Box flexDirection="row" height={STAT_PANE_HEIGHT}>
						<SharesPane
							results={snapshot.results}
							lastAcceptedAt={shares.lastAcceptedAt}
							width={leftWidth}
							height={STAT_PANE_HEIGHT}
							outdated={outdated}
						/>
						<SystemPane
							cpu={snapshot.cpu}
							hugepages={snapshot.hugepages}
							resources={snapshot.resources}
							width={rightWidth}
							height={STAT_PANE_HEIGHT}
							outdated={outdated}
						/>
					</Box>
				) : null}
				{layout.threadsHeight > 0 ? (
					<ThreadsPane
						threads={snapshot.threads}
						{...(snapshot.perThreadRead ? {} : {empty: threadsNotRead(state.status)})}
						offset={offset}
						visibleRows={layout.threadRows}
						width={columns}
						height={layout.threadsHeight}
						outdated={outdated}
					/>
				) : null}
				<EventsPane events={eventLines} lines={layout.eventLines} width={columns} notice={notice} />
			</>
		);
	}

	return (
		<FixedNowContext.Provider value={now ?? null}>
			<Box
				flexDirection="column"
				width={columns}
				height={ui.help || snapshot === null ? layout.headerLines + layout.bodyHeight + layout.footerLines : layout.height}
				overflow="hidden"
			>
				<Header state={state} width={columns} />
				{body}
				{layout.footerLines > 0 ? <Footer hints={footer} width={columns} /> : null}
			</Box>
		</FixedNowContext.Provider>
	);
}
