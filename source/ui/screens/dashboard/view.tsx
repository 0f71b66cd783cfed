import {Box} from 'ink';
import {useCallback, useEffect, useMemo, type ReactNode} from 'react';
import type {MinerHistory, SparkData} from '../../../history/stores.js';
import {describeEvents, type EventLine} from '../../text/event-lines.js';
import {sparkSpan, usePaneEvents, useSparkline} from '../../hooks/use-history-panes.js';
import {FixedNowContext, syncClocks, useFixedNow, useNowShown} from '../../hooks/use-now.js';
import {useSelected, useStore} from '../../hooks/use-store.js';
import {useTerminalSize} from '../../hooks/use-terminal-size.js';
import {SCREEN_KEYMAP} from '../../keys/bindings.js';
import {computeLayout, SIDE_BY_SIDE_COLUMNS, STAT_PANE_HEIGHT, type DashboardLayout} from '../layout.js';
import {EventsPane, noticeHeight, type Notice} from '../../panes/events-pane.js';
import {Footer, MessageLine} from '../../panes/footer.js';
import {HashratePane} from '../../panes/hashrate-pane.js';
import {Header} from '../../panes/header.js';
import {helpScrollKeys} from '../help-toggle.js';
import {HelpOverlay, helpMaxOffset} from '../../panes/help-overlay.js';
import {PoolPane} from '../../panes/pool-pane.js';
import {SharesPane} from '../../panes/shares-pane.js';
import {SystemPane} from '../../panes/system-pane.js';
import {sensorLinesWanted, sensorPieces, type SensorPiece} from '../../text/sensors.js';
import {ThreadsPane} from '../../panes/threads-pane.js';
import {TooSmall} from '../../panes/too-small.js';
import {WaitingScreen} from '../../panes/waiting-screen.js';
import {isOutdated} from '../../text/status.js';
import type {ThemeToken} from '../../text/theme.js';
import type {LinkStatus, MonitorState} from '../../../monitor/types.js';
import type {MinerSnapshot} from '../../../miner/model.js';
import type {HelpEntry, Hint} from '../../keys/matcher.js';
import type {Store} from '../../../monitor/store.js';
import {useScreenEnv, useScreenHelp, useScreenState} from '../contract.js';
import {minerFacts} from './availability.js';
import type {DashboardEnv, DashboardState, FrozenMoment, Given, KeyFacts, ThreadsShown} from './state.js';
import {dashboardLogic, helpOffsetOf, initialState, threadsOffsetOf, type ActionCommand, type DashboardAction} from './reduce.js';
import {shareShown, shownState} from './shown.js';
import {textWidth} from '../../../text/cells.js';

/**
 * What the dashboard can do beyond itself, as the App offers it: each one absent is a key not offered (the footer
 * and the help leave it out).
 */
export type DashboardCaps = {
	readonly quit: () => void;
	/** Open the config view (`c`). */
	readonly config?: (() => void) | undefined;
	readonly pause?: (() => void) | undefined;
	readonly resume?: (() => void) | undefined;
	/** Poll now. */
	readonly refresh?: (() => void) | undefined;
	/** Back to the fleet view (Esc). */
	readonly back?: (() => void) | undefined;
	/** Open the full-screen chart (`g`), the event view (`e`). */
	readonly chart?: (() => void) | undefined;
	readonly events?: (() => void) | undefined;
};

export type DashboardProps = {
	readonly store: Store<MonitorState>;
	readonly caps: DashboardCaps;
	/** The session's poll interval, shown in the header; + and - change it. Without it they are not offered. */
	readonly interval?: IntervalControl | undefined;
	/** --read-only: pause and resume are not offered (their keys say why). */
	readonly readOnly?: boolean | undefined;
	/** Whether rigtop sends this miner an access token (without one, the miner allows no pause or config; default true). */
	readonly tokenGiven?: boolean | undefined;
	/** Whose token rigtop sends when the user gave none (a running process's): the pause and resume questions say it. */
	readonly tokenFrom?: string | undefined;
	/** The miner's history: the sparkline filled from the store at start, the events from before this session. */
	readonly history?: MinerHistory | undefined;
};

/** The live poll interval (monitor/poll-interval.ts's PollInterval). */
export type IntervalControl = Store<number> & {step(direction: 1 | -1): boolean};

const NO_INTERVAL: Store<number | null> = {subscribe: () => () => {}, getState: () => null};

/** The stats panes the layout has room for: two a row side by side, or one a row stacked. */
function StatsPanes({layout, panes}: {readonly layout: DashboardLayout; readonly panes: readonly ReactNode[]}) {
	const shown = panes.slice(0, layout.statPanes);
	if (layout.stacked) return <>{shown}</>;
	const rows: ReactNode[] = [];
	for (let index = 0; index < shown.length; index += 2) {
		// The first row (Hashrate and Pool) is taller by the sparkline's extra rows, the second (Shares and System) by the
		// rig's readings.
		rows.push(
			<Box key={index} flexDirection="row" height={STAT_PANE_HEIGHT + (index === 0 ? layout.sparkExtra : layout.systemExtra)}>
				{shown.slice(index, index + 2)}
			</Box>,
		);
	}

	return <>{rows}</>;
}

/** The selection while the dashboard is held still (f): nothing, so polls draw no frame. */
const selectNothing = (): MonitorState | null => null;

function shareSelection(previous: MonitorState | null, next: MonitorState | null): MonitorState | null {
	return previous === null || next === null ? next : shareShown(previous, next);
}

/** The calendar day of an instant: the events are dated against it ("23:54" today, "Mar 13 23:54" before). */
function dayOf(at: number): string {
	return new Date(at).toDateString();
}

/** How long a message in the footer's place stays when no key is pressed. */
const MESSAGE_MS = 6000;
/** How long a question waits for its answer (unanswered, it is a no). */
const QUESTION_MS = 15_000;

/**
 * The pause (or resume) question, its answers from the keymap; with a token the user did not give, whose it sends
 * (issue 35, item 5: said before the write).
 */
function controlQuestion(method: 'pause' | 'resume', name: string, tokenFrom: string | null): string {
	const yes = SCREEN_KEYMAP.keyOf('yes', 'question');
	const no = SCREEN_KEYMAP.keyOf('no', 'question');
	const whose = tokenFrom === null ? '' : ` No token was given: this uses the one from ${tokenFrom}.`;
	return `${method === 'pause' ? 'Pause' : 'Resume'} mining on ${name}?${whose} ${yes} ${method} · ${no} or any other key: no`;
}

/** Why the threads of a snapshot read without them (a fleet rig opened) are not shown yet. */
function threadsNotRead(status: LinkStatus): string {
	if (status === 'down') return 'the threads have not been read: the rig is down';
	if (status === 'error') return 'the threads have not been read: the rig cannot be read (see above)';
	return 'reading the threads…';
}

/** The actions of the dashboard's commands, from its capabilities (and the interval's steps). */
function useRun(caps: DashboardCaps, interval: IntervalControl | undefined): (command: ActionCommand) => void {
	return useCallback(
		(command: ActionCommand) => {
			const callbacks = {
				quit: caps.quit,
				config: caps.config,
				pause: caps.pause,
				resume: caps.resume,
				refresh: caps.refresh,
				toFleet: caps.back,
				slower: () => interval?.step(1),
				faster: () => interval?.step(-1),
				chart: caps.chart,
				events: caps.events,
			};
			callbacks[command]?.();
		},
		[caps, interval],
	);
}

/** Which of its capabilities the App gave (availability.ts's Given): one object while they stay the same. */
function useGiven(caps: DashboardCaps, interval: IntervalControl | undefined): Given {
	const hasConfig = caps.config !== undefined;
	const hasPause = caps.pause !== undefined;
	const hasResume = caps.resume !== undefined;
	const hasRefresh = caps.refresh !== undefined;
	const hasBack = caps.back !== undefined;
	const hasInterval = interval !== undefined;
	const hasChart = caps.chart !== undefined;
	const hasEvents = caps.events !== undefined;
	return useMemo<Given>(
		() => ({
			config: hasConfig,
			pause: hasPause,
			resume: hasResume,
			refresh: hasRefresh,
			back: hasBack,
			interval: hasInterval,
			chart: hasChart,
			events: hasEvents,
		}),
		[hasConfig, hasPause, hasResume, hasRefresh, hasBack, hasInterval, hasChart, hasEvents],
	);
}

/**
 * What decides the keys (availability.ts), one object while it stays the same: a poll that changes nothing here keeps
 * the footer, the help and its measure. The threads' keys work while their pane is on screen (a short terminal leaves
 * it out), the scroll keys while it has more rows than it shows.
 */
function useKeyFacts(state: MonitorState, plainLayout: DashboardLayout, given: Given, readOnly: boolean, tokenGiven: boolean): KeyFacts {
	const {status, snapshot} = state;
	const kind = snapshot?.kind ?? null;
	const version = snapshot?.version ?? null;
	const dialect = snapshot?.dialect;
	const restricted = snapshot?.restricted ?? null;
	const paused = snapshot?.paused ?? null;
	const miner = useMemo(
		() => minerFacts({status, snapshot: dialect === undefined ? null : {kind, version, dialect, restricted, paused}}),
		[status, kind, version, dialect, restricted, paused],
	);
	const threadsKnown = snapshot === null ? null : snapshot.threads.length;
	const threadCount = snapshot?.threads.length ?? 0;
	const threads: ThreadsShown =
		threadsKnown !== null && plainLayout.threadsHeight === 0
			? 'hidden'
			: snapshot !== null && threadCount > plainLayout.threadRows
				? 'scrolls'
				: 'fits';
	return useMemo<KeyFacts>(() => ({miner, given, readOnly, tokenGiven, threads}), [miner, given, readOnly, tokenGiven, threads]);
}

/** A message's or a question's time: cleared after it (an unanswered question is a no). */
function useMessageTime(ui: DashboardState, dispatch: (action: DashboardAction) => void): void {
	useEffect(() => {
		if (ui.message === null && ui.asking === null) return;
		const timer = setTimeout(
			() => {
				dispatch({type: 'clearMessage'});
			},
			ui.asking === null ? MESSAGE_MS : QUESTION_MS,
		);
		return () => {
			clearTimeout(timer);
		};
	}, [dispatch, ui.message, ui.asking]);
}

/** The rig's own readings (a miner on this machine) and the lines the System pane wants for them (none for a remote rig). */
function useSensors(state: MonitorState, columns: number): {readonly pieces: readonly SensorPiece[]; readonly wanted: number} {
	const sensors = state.snapshot?.sensors;
	const pieces = useMemo(() => (sensors === undefined ? [] : sensorPieces(sensors)), [sensors]);
	const systemInner = (columns < SIDE_BY_SIDE_COLUMNS ? columns : columns - Math.floor(columns / 2)) - 4;
	return {pieces, wanted: sensorLinesWanted(pieces, systemInner)};
}

/** Down or in error with values on screen: the reason and its fix in full, above the events. */
function useNotice(state: MonitorState): Notice | null {
	const outdated = isOutdated(state);
	return useMemo<Notice | null>(() => {
		if (!outdated || state.error === null || state.status === 'stale') return null;
		return {text: `${state.error.message} — fix: ${state.error.hint}`, tone: 'error'};
	}, [outdated, state.error, state.status]);
}

/** What the dashboard draws, from its env hook (useDashboard) to its layout (DashboardFrame). */
type DashboardModel = {
	readonly ui: DashboardState;
	/** The monitor's state shown: the live one, or the one held still (f). */
	readonly state: MonitorState;
	readonly held: MonitorState | null;
	readonly now: number | null;
	readonly columns: number;
	readonly rows: number;
	readonly layout: DashboardLayout;
	readonly notice: Notice | null;
	readonly noticeLines: number;
	readonly intervalMs: number | null;
	readonly message: {readonly text: string; readonly tone: ThemeToken} | null;
	readonly footer: readonly Hint[];
	readonly help: readonly HelpEntry[];
	readonly helpOffset: number;
	readonly back: boolean;
	readonly pieces: readonly SensorPiece[];
	readonly spark: SparkData;
	readonly eventLines: readonly EventLine[];
	readonly threadsOffset: number;
};

/**
 * What the panes draw of the miner's history: the sparkline (filled from the store at start) and the events (from
 * before this session too), dated against the clock.
 */
function useDashboardHistory(
	history: MinerHistory | undefined,
	store: Store<MonitorState>,
	state: MonitorState,
	held: MonitorState | null,
	layout: DashboardLayout,
	now: number | null,
): {readonly spark: SparkData; readonly eventLines: readonly EventLine[]} {
	const sparkRows = 1 + layout.sparkExtra;
	const spark = useSparkline(
		history,
		store,
		held,
		state.recentRates,
		sparkRows > 1 ? layout.sparklineWidth * 2 : layout.sparklineWidth,
		now,
	);
	// "Now" for the events' dates: the clock, redrawing the screen only when the day changes; held still, the held
	// poll's time. The sparkline's span runs to the poll it was read for (sparkSpan).
	const clock = useNowShown(1000, (at) => (held === null ? dayOf(at) : ''));
	const current = now ?? (held === null ? clock : (held.lastAttemptAt ?? 0));
	const paneEvents = usePaneEvents(history, state.events, layout.eventLines);
	const eventLines = useMemo(() => describeEvents(paneEvents, current).reverse(), [paneEvents, current]);
	return {spark, eventLines};
}

/**
 * The dashboard's env hook: its state (reduce.ts), the monitor's state it shows, the env its keys are reduced against,
 * its keys read, and the layout of the frame.
 */
function useDashboard({store, caps, interval, readOnly = false, tokenGiven = true, tokenFrom, history}: DashboardProps): DashboardModel {
	// The App's fixed clock (tests, screenshots), or null for the live one.
	const now = useFixedNow();
	// What f holds (reduce.ts): the state (the last share with it) and the clock of the moment the key is read.
	const moment = useCallback((): FrozenMoment => ({state: store.getState(), at: now ?? Date.now()}), [store, now]);
	// The dashboard's own state (reduce.ts); its env, built below from the state it shows, follows (useScreenEnv).
	const screen = useScreenState(dashboardLogic, initialState, useRun(caps, interval));
	const ui = screen.state;
	// What the dashboard draws of the monitor's state (shown.ts): a poll that changes none of it draws no frame. While
	// held still (f) it selects nothing, and no poll draws one. The one subscription brings the "… ago" clocks to the
	// present (use-now.ts). The last share is the monitor's (monitor/last-share.ts): known from the first frame,
	// whichever screen watched the rig before.
	const live = useSelected(store, ui.frozen === null ? shownState : selectNothing, shareSelection, syncClocks);
	const held = ui.frozen?.state ?? null;
	const state = held ?? live ?? shownState(store.getState());
	const {columns, rows} = useTerminalSize();
	const notice = useNotice(state);
	const noticeLines = noticeHeight(notice, columns);
	const threadsKnown = state.snapshot === null ? null : state.snapshot.threads.length;
	const threadCount = state.snapshot?.threads.length ?? 0;
	const intervalMs = useStore<number | null>(interval ?? NO_INTERVAL);
	const sensors = useSensors(state, columns);
	// A message line taking the footer's place is not counted in what the keys read (a key that then moves nothing
	// visible is harmless): the layout without one, once per size, not per frame.
	const plainLayout = useMemo(
		() => computeLayout(columns, rows, noticeLines, threadsKnown, 1, sensors.wanted),
		[columns, rows, noticeLines, threadsKnown, sensors.wanted],
	);
	const facts = useKeyFacts(state, plainLayout, useGiven(caps, interval), readOnly, tokenGiven);
	// The dashboard's keys, for its help (availability.ts).
	const help = useScreenHelp(dashboardLogic, facts);
	// Measured once per size, not at each frame (wrapping every entry was 2–3 % of the steady CPU). The env's sizes are
	// those of the frame a key's result is drawn in: every key clears a message, and none shows over the help.
	const helpMax = useMemo(() => helpMaxOffset(help, columns, plainLayout.bodyHeight), [help, columns, plainLayout.bodyHeight]);
	const env = useMemo<DashboardEnv>(
		() => ({
			...facts,
			tooSmall: plainLayout.tooSmall,
			pageSize: plainLayout.threadRows,
			threadCount,
			helpMax,
			intervalMs,
			moment,
			tokenFrom: tokenFrom ?? null,
		}),
		[facts, plainLayout.tooSmall, plainLayout.threadRows, threadCount, helpMax, intervalMs, moment, tokenFrom],
	);
	const {availability, footer} = useScreenEnv(dashboardLogic, screen, env);
	// A message takes the footer's place, on two lines when one is too short for it.
	const message: {readonly text: string; readonly tone: ThemeToken} | null =
		ui.asking === null ? ui.message : {text: controlQuestion(ui.asking, state.name, tokenFrom ?? null), tone: 'accent'};
	const messageLines = message && textWidth(message.text) > columns - 2 ? 2 : 1;
	const layout = useMemo(
		() => computeLayout(columns, rows, noticeLines, threadsKnown, messageLines, sensors.wanted),
		[columns, rows, noticeLines, threadsKnown, messageLines, sensors.wanted],
	);
	useMessageTime(ui, screen.dispatch);
	const {spark, eventLines} = useDashboardHistory(history, store, state, held, layout, now);
	return {
		ui,
		state,
		held,
		now,
		columns,
		rows,
		layout,
		notice,
		noticeLines,
		intervalMs,
		message,
		footer,
		help,
		helpOffset: helpOffsetOf(ui, env),
		// Its ways out, as they work now (availability.ts), for a terminal too small to draw it.
		back: availability.works.has('toFleet'),
		pieces: sensors.pieces,
		spark,
		eventLines,
		threadsOffset: threadsOffsetOf(ui, {threadCount, pageSize: layout.threadRows}),
	};
}

/**
 * One miner's live dashboard. Reads the store, never does I/O; keys go through the reducer and
 * actions reach the app through its capabilities (`caps`). The frame fills the terminal's width and stays
 * under its height (rows - 1), whatever the terminal and the number of threads.
 */
export function Dashboard(props: DashboardProps) {
	const model = useDashboard(props);
	const {layout, columns, rows} = model;
	if (layout.tooSmall) {
		const back = model.back ? ` · ${SCREEN_KEYMAP.keyOf('toFleet', 'dashboard')} back to the fleet` : '';
		return <TooSmall columns={columns} rows={rows} hint={`${SCREEN_KEYMAP.keyOf('quit', 'dashboard')} quits${back}`} />;
	}

	return <DashboardFrame model={model} store={props.store} />;
}

/** The dashboard's frame: the header, the body (the help, the waiting screen or the panes), the footer or a message. */
function DashboardFrame({model, store}: {readonly model: DashboardModel; readonly store: Store<MonitorState>}) {
	const {ui, state, now, columns, layout, intervalMs, message} = model;
	const {frozen} = ui;
	const {snapshot} = state;
	// Before a first answer, with a poll failed: the waiting screen counts down to the next try ("retrying in 2s"), so
	// the header does not say the interval as well ("every 3s"): one timing, the one that says when.
	const retrying = snapshot === null && (state.error !== null || state.consecutiveFailures > 0);
	let body;
	if (ui.help) {
		body = (
			<HelpOverlay
				entries={model.help}
				offset={model.helpOffset}
				scrollKeys={helpScrollKeys(SCREEN_KEYMAP)}
				width={columns}
				height={layout.bodyHeight}
			/>
		);
	} else if (snapshot === null) {
		body = <WaitingScreen state={state} width={columns} height={layout.bodyHeight} />;
	} else {
		body = <DashboardPanes model={model} snapshot={snapshot} />;
	}

	return (
		<FixedNowContext.Provider value={frozen?.at ?? now ?? null}>
			<Box
				flexDirection="column"
				width={columns}
				height={ui.help || snapshot === null ? layout.headerLines + layout.bodyHeight + layout.footerLines : layout.height}
				overflowY="hidden"
			>
				<Header
					state={state}
					width={columns}
					{...(intervalMs === null || retrying ? {} : {intervalMs})}
					{...(frozen === null ? {live: store} : {frozenAt: frozen.at})}
				/>
				{body}
				{layout.footerLines > 0 ? (
					message ? (
						<MessageLine message={message} width={columns} lines={layout.footerLines} />
					) : (
						<Footer hints={model.footer} width={columns} />
					)
				) : null}
			</Box>
		</FixedNowContext.Provider>
	);
}

/** The panes of a miner that answered: the stats, the threads (where they fit), the events. */
function DashboardPanes({model, snapshot}: {readonly model: DashboardModel; readonly snapshot: MinerSnapshot}) {
	const {ui, state, columns, layout, notice, noticeLines, spark, eventLines} = model;
	const outdated = isOutdated(state);
	const {leftWidth, rightWidth} = layout;
	const sparkRows = 1 + layout.sparkExtra;
	const hashrateHeight = STAT_PANE_HEIGHT + layout.sparkExtra;
	return (
		<>
			<StatsPanes
				layout={layout}
				panes={[
					<HashratePane
						key="hashrate"
						hashrate={snapshot.hashrate}
						sessionAverage={state.sessionAverage}
						sparkline={spark.values}
						sparkRows={sparkRows}
						since={sparkSpan(spark)}
						paused={snapshot.paused === true}
						width={leftWidth}
						height={hashrateHeight}
						outdated={outdated}
					/>,
					<PoolPane
						key="pool"
						connection={snapshot.connection}
						width={rightWidth}
						height={layout.stacked ? STAT_PANE_HEIGHT : hashrateHeight}
						outdated={outdated}
					/>,
					<SharesPane
						key="shares"
						results={snapshot.results}
						lastShare={state.lastShare}
						width={leftWidth}
						height={STAT_PANE_HEIGHT + (layout.stacked ? 0 : layout.systemExtra)}
						outdated={outdated}
					/>,
					<SystemPane
						key="system"
						cpu={snapshot.cpu}
						hugepages={snapshot.hugepages}
						resources={snapshot.resources}
						sensors={model.pieces}
						sensorLines={layout.systemExtra}
						width={rightWidth}
						height={STAT_PANE_HEIGHT + layout.systemExtra}
						outdated={outdated}
					/>,
				]}
			/>
			{layout.threadsHeight > 0 ? (
				<ThreadsPane
					threads={snapshot.threads}
					{...(snapshot.perThreadRead ? {} : {empty: threadsNotRead(state.status)})}
					offset={model.threadsOffset}
					sort={ui.threadSort}
					visibleRows={layout.threadRows}
					width={columns}
					height={layout.threadsHeight}
					outdated={outdated}
				/>
			) : null}
			<EventsPane events={eventLines} lines={layout.eventLines} width={columns} notice={notice} noticeLines={noticeLines} />
		</>
	);
}
