import {Box, useInput, type Key} from 'ink';
import {useCallback, useEffect, useMemo, useReducer, useRef} from 'react';
import {availableCommands, dashboardReducer, initialUiState, type ActionCommand} from './dashboard-reducer.js';
import {FixedNowContext} from './hooks/use-now.js';
import {useMonitorState} from './hooks/use-monitor-state.js';
import {useShareTrack} from './hooks/use-share-track.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import {footerHints, helpEntries, type CommandName} from './keymap.js';
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
import type {MonitorStore} from './store.js';
import type {LinkStatus} from '../monitor/types.js';

export type DashboardProps = {
	readonly store: MonitorStore;
	readonly onQuit: () => void;
	/** Open the config view; without it the key does nothing and the footer does not offer it. */
	readonly onConfig?: () => void;
	readonly onPause?: () => void;
	readonly onResume?: () => void;
	/** Poll now. */
	readonly onRefresh?: () => void;
	/** Back to the fleet view (Esc); without it Esc does nothing and the footer does not offer it. */
	readonly onBack?: () => void;
	/** A fixed clock (epoch ms) for every "… ago" label, for tests and screenshots. */
	readonly now?: number;
};

type Callbacks = Pick<DashboardProps, 'onQuit' | 'onConfig' | 'onPause' | 'onResume' | 'onRefresh' | 'onBack'>;

function run(command: ActionCommand, callbacks: Callbacks): void {
	switch (command) {
		case 'quit':
			callbacks.onQuit();
			return;
		case 'config':
			callbacks.onConfig?.();
			return;
		case 'pause':
			callbacks.onPause?.();
			return;
		case 'resume':
			callbacks.onResume?.();
			return;
		case 'refresh':
			callbacks.onRefresh?.();
			return;
		case 'toFleet':
			callbacks.onBack?.();
	}
}

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

export function Dashboard({store, onQuit, onConfig, onPause, onResume, onRefresh, onBack, now}: DashboardProps) {
	const state = useMonitorState(store);
	const {columns, rows} = useTerminalSize();
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
	const actions = useMemo(() => {
		const set = new Set<ActionCommand>(['quit']);
		if (hasConfig) set.add('config');
		if (hasPause) set.add('pause');
		if (hasResume) set.add('resume');
		if (hasRefresh) set.add('refresh');
		if (hasBack) set.add('toFleet');
		return set as ReadonlySet<ActionCommand>;
	}, [hasConfig, hasPause, hasResume, hasRefresh, hasBack]);

	const [ui, dispatch] = useReducer(dashboardReducer, {actions, pageSize: layout.threadRows, threadCount}, initialUiState);
	useEffect(() => {
		dispatch({type: 'viewport', pageSize: layout.threadRows, threadCount});
	}, [layout.threadRows, threadCount]);
	useEffect(() => {
		dispatch({type: 'actions', actions});
	}, [actions]);

	// A stable handler: useInput re-subscribes whenever its handler changes (ink 6.8).
	const onInput = useCallback((input: string, key: Key) => {
		dispatch({type: 'key', input, key});
	}, []);
	useInput(onInput);

	// Hand queued commands to the latest callbacks, each exactly once, in order.
	const callbacks = useRef<Callbacks>({onQuit});
	useEffect(() => {
		const current: {-readonly [K in keyof Callbacks]: Callbacks[K]} = {onQuit};
		if (onConfig) current.onConfig = onConfig;
		if (onPause) current.onPause = onPause;
		if (onResume) current.onResume = onResume;
		if (onRefresh) current.onRefresh = onRefresh;
		if (onBack) current.onBack = onBack;
		callbacks.current = current;
	}, [onQuit, onConfig, onPause, onResume, onRefresh, onBack]);
	const handled = useRef(0);
	useEffect(() => {
		for (const item of ui.outbox) {
			if (item.seq <= handled.current) continue;
			handled.current = item.seq;
			run(item.command, callbacks.current);
		}
	}, [ui.outbox]);

	const scrollable = snapshot !== null && layout.threadsHeight > 0 && threadCount > layout.threadRows;
	const paused = snapshot?.paused ?? null;
	const connected = snapshot !== null && state.status === 'live';
	const footer = useMemo(() => {
		if (ui.help) return footerHints('help', new Set<CommandName>(['quit', 'help', 'back']));
		const shown = new Set<CommandName>(['quit', 'help']);
		if (hasConfig) shown.add('config');
		// Offer pause or resume by what the miner says it is doing (both when it does not say).
		if (hasPause && connected && paused !== true) shown.add('pause');
		if (hasResume && connected && paused !== false) shown.add('resume');
		if (hasRefresh) shown.add('refresh');
		if (scrollable) shown.add('threadsUp');
		if (hasBack) shown.add('toFleet');
		return footerHints('dashboard', shown);
	}, [ui.help, hasConfig, hasPause, hasResume, hasRefresh, hasBack, connected, paused, scrollable]);
	const help = useMemo(() => helpEntries(availableCommands(actions), 'dashboard'), [actions]);

	const offset = Math.min(ui.threadsOffset, Math.max(0, threadCount - layout.threadRows));
	const {leftWidth, rightWidth} = layout;

	let body;
	if (ui.help) {
		body = <HelpOverlay entries={help} width={columns} height={layout.bodyHeight} />;
	} else if (snapshot === null) {
		body = <WaitingScreen state={state} width={columns} height={layout.bodyHeight} />;
	} else {
		body = (
			<>
				{layout.statRows >= 1 ? (
					<Box flexDirection="row" height={STAT_PANE_HEIGHT}>
						<HashratePane
							hashrate={snapshot.hashrate}
							sessionAverage={state.sessionAverage}
							history={state.history}
							paused={snapshot.paused === true}
							width={leftWidth}
							height={STAT_PANE_HEIGHT}
							outdated={outdated}
						/>
						<PoolPane connection={snapshot.connection} width={rightWidth} height={STAT_PANE_HEIGHT} outdated={outdated} />
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
				<EventsPane events={state.events} lines={layout.eventLines} width={columns} notice={notice} />
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
