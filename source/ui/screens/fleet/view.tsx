import {Box} from 'ink';
import {useCallback, useMemo, useRef, useState} from 'react';
import type {BatchState} from '../../../batch/types.js';
import type {MonitorState} from '../../../monitor/types.js';
import type {Store} from '../../../monitor/store.js';
import {useFixedNow} from '../../hooks/use-now.js';
import {useStore} from '../../hooks/use-store.js';
import {useTerminalSize} from '../../hooks/use-terminal-size.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {Footer, MessageLine} from '../../panes/footer.js';
import {Wrapped} from '../../widgets/wrap.js';
import {statusBadge, type StatusBadge} from '../../text/status.js';
import {useTheme} from '../../text/theme.js';
import {BatchPane} from '../../widgets/batch-pane.js';
import type {FleetAction} from './batch-plan.js';
import {helpScrollKeys} from '../help-toggle.js';
import {HelpOverlay} from '../../panes/help-overlay.js';
import {FilterLead, filterLeadText} from '../../panes/filter-lead.js';
import {keyAction, pasteAction, useScreen, type ScreenDefinition} from '../contract.js';
import {clearFirst, type ListScreen} from '../list.js';
import {availability, fleetHelp, type FleetGiven} from './availability.js';
import {fleetWants, rigLabel} from './columns.js';
import {FleetEvents} from '../../panes/fleet-events.js';
import {fleetFrame, helpMax, type FleetEnv, type FleetFrame} from './frame.js';
import {FleetHeader} from './header.js';
import type {FleetHours} from './hours.js';
import {describeSort, describeSortShort, shownSort} from './order.js';
import {
	activeFilter,
	initialFleetUiState,
	place,
	reduce,
	type FleetCommand,
	type FleetKept,
	type FleetSaved,
	type FleetUiAction,
	type FleetUiState,
} from './reduce.js';
import {fleetEventLines} from '../../panes/fleet-event-lines.js';
import {fleetRows, fleetTotals, type FleetRow, type RigKind} from './rows.js';
import type {FleetState} from './store.js';
import {FleetTable} from './table.js';

/** What the fleet can do beyond itself, as the App offers it: each one absent is a key not offered. */
export type FleetCaps = {
	readonly quit: () => void;
	/** Enter on a rig: open its dashboard. */
	readonly open: (index: number) => void;
	/** `R`: poll every rig now. */
	readonly refreshAll?: (() => void) | undefined;
	/** `g`: the selected rig's chart; `e`: every rig's events. */
	readonly chart?: ((index: number) => void) | undefined;
	readonly events?: (() => void) | undefined;
	/** Told when a key moves the selection to another rig (once one is picked), so the app can restore it. */
	readonly select?: ((index: number) => void) | undefined;
	/** Told when a key changes the sort or the filter in force, so the app can restore them. */
	readonly save?: ((saved: FleetSaved) => void) | undefined;
	/**
	 * `p`, `r`: pause or resume these rigs (session indexes) as a batch (source/batch/), cancelled through the signal;
	 * its store is drawn as it goes.
	 */
	readonly batch?: ((action: FleetAction, rigs: readonly number[], signal: AbortSignal) => Store<BatchState>) | undefined;
	/** `c` with rigs marked: the fleet config view on them (session indexes). */
	readonly fleetConfig?: ((rigs: readonly number[]) => void) | undefined;
	/** Told when a key changes the marks or the first line shown, so the app can restore them. */
	readonly keep?: ((kept: FleetKept) => void) | undefined;
};

export type FleetViewProps = {
	readonly fleet: Store<FleetState>;
	readonly caps: FleetCaps;
	/** The rig selected when the view opens (e.g. the one whose dashboard was just closed); without it, the first line. */
	readonly initialSelected?: number | undefined;
	/** The sort and filter when the view opens (those it had before a rig's dashboard was opened). */
	readonly saved?: FleetSaved | undefined;
	/** Each rig's last hour from the history store (the last-hour column); without it, no such column. */
	readonly hours?: Store<FleetHours> | undefined;
	/** The marks and the first line shown when the view opens (those it had before a screen was opened from it). */
	readonly kept?: FleetKept | undefined;
	/** `saved` is the sort and filter the last run left (prefs), the fleet shown for the first time in this one. */
	readonly restored?: boolean | undefined;
	/** --read-only: `p` and `r` say why they do nothing. */
	readonly readOnly?: boolean | undefined;
	/** Each rig: whether rigtop sends it a token (the question says which rigs cannot be paused). */
	readonly tokens?: readonly boolean[] | undefined;
	/** Each rig: whose token rigtop sends when none was given (null: given or none); `p`/`r`'s question says it. */
	readonly tokenFrom?: readonly (string | null)[] | undefined;
	/** What each rig is, as the session was told before it answers ('proxy' from --rigs or discovery); null: not told. */
	readonly kinds?: readonly (RigKind | null)[] | undefined;
};

/** The batch on screen: its store, how to cancel it, what it does. */
type Running = {readonly store: Store<BatchState>; readonly controller: AbortController; readonly action: FleetAction};

/** No batch: a store of nothing. */
const NO_BATCH: Store<BatchState | null> = {subscribe: () => () => {}, getState: () => null};

const SCREEN: ScreenDefinition<FleetUiState, FleetUiAction, FleetEnv, FleetCommand, CommandName, Screen, FleetGiven> = {
	reduce,
	availability,
	keymap: SCREEN_KEYMAP,
	help: fleetHelp,
	key: keyAction,
	paste: pasteAction,
};

/** The hours of a session without history: no column. */
const NO_HOURS: Store<FleetHours> = {subscribe: () => () => {}, getState: () => NO_HOURS_STATE};
const NO_HOURS_STATE: FleetHours = {enabled: false, rigs: [], at: 0};

/** The batch a key started (`p`, `r`) and how the step's effects reach the App's capabilities. */
function useFleetRun(caps: FleetCaps) {
	const [running, setRunning] = useState<Running | null>(null);
	const runningRef = useRef<Running | null>(null);
	const batchState = useStore<BatchState | null>(running?.store ?? NO_BATCH);
	const run = useCallback(
		(effect: FleetCommand) => {
			if (effect.command === 'quit') caps.quit();
			else if (effect.command === 'refreshAll') caps.refreshAll?.();
			else if (effect.command === 'open') caps.open(effect.index);
			else if (effect.command === 'chart') caps.chart?.(effect.index);
			else if (effect.command === 'events') caps.events?.();
			else if (effect.command === 'select') caps.select?.(effect.index);
			else if (effect.command === 'batch') {
				if (!caps.batch) return;
				const controller = new AbortController();
				const started = {store: caps.batch(effect.action, effect.rigs, controller.signal), controller, action: effect.action};
				runningRef.current = started;
				setRunning(started);
			} else if (effect.command === 'cancelBatch') runningRef.current?.controller.abort();
			else if (effect.command === 'closeBatch') {
				runningRef.current = null;
				setRunning(null);
			} else if (effect.command === 'fleetConfig') caps.fleetConfig?.(effect.rigs);
			else if (effect.command === 'keep') caps.keep?.(effect.kept);
			else caps.save?.(effect.saved);
		},
		[caps],
	);
	return {running, batchState, run};
}

/** What the fleet reads (its stores, the size, the capabilities given) as its env, the frame on screen. */
function useFleetEnv(props: FleetViewProps, batchState: BatchState | null): FleetEnv {
	const {fleet, caps, hours = NO_HOURS, readOnly = false, tokens, tokenFrom, kinds} = props;
	const {states, alerts, at} = useStore(fleet);
	const hour = useStore(hours);
	// The fleet store's time: the labels redraw with the data, with no clock of their own (unless the App fixed one).
	const now = useFixedNow() ?? at;
	const rows = useMemo(() => fleetRows(states, now, alerts?.rigs, hour.rigs, kinds), [states, alerts, now, hour.rigs, kinds]);
	const refreshAll = caps.refreshAll !== undefined;
	const chart = caps.chart !== undefined;
	const events = caps.events !== undefined;
	const pause = caps.batch !== undefined;
	const fleetConfig = caps.fleetConfig !== undefined;
	const given = useMemo<FleetGiven>(
		() => ({refreshAll, chart, events, pause, fleetConfig}),
		[refreshAll, chart, events, pause, fleetConfig],
	);
	const totals = useMemo(
		() =>
			fleetTotals(
				states,
				now,
				rows.map((row) => row.kind),
			),
		[states, now, rows],
	);
	// The widths: the rig, pool and shares columns' over every rig, so scrolling and filtering keep them.
	const wants = useMemo(() => fleetWants(rows, totals), [rows, totals]);
	const size = useTerminalSize();
	return useMemo<FleetEnv>(
		() => ({
			rows,
			states,
			now,
			totals,
			wants,
			hours: hour.enabled,
			size,
			given,
			readOnly,
			batch: batchState,
			...(tokens ? {tokens} : {}),
			...(tokenFrom ? {tokenFrom} : {}),
		}),
		[rows, states, now, totals, wants, hour.enabled, size, given, readOnly, batchState, tokens, tokenFrom],
	);
}

/** Everything the fleet's layout draws: the state, the env, the frame of the state in it and the words around it. */
type FleetScreen = ListScreen<FleetRow, number> & {
	readonly ui: FleetUiState;
	readonly env: FleetEnv;
	readonly frame: FleetFrame;
	/** The rigs down or in error the filter hides, by state (the header counts them). */
	readonly hidden: ReadonlyMap<StatusBadge['word'], number>;
	/** A filter from the last run that hides rigs, said once in the footer's place until the first key. */
	readonly notice: string | null;
	readonly running: Running | null;
	readonly batchState: BatchState | null;
};

/** The fleet's env hook: its stores read, its keys installed, the frame of its state; what FleetLayout draws. */
function useFleetScreen(props: FleetViewProps): FleetScreen {
	const {running, batchState, run} = useFleetRun(props.caps);
	const env = useFleetEnv(props, batchState);
	const {initialSelected, saved, kept, restored = false} = props;
	const {notices} = useStore(props.fleet);
	const {rows, states, now} = env;
	// Each key is reduced against this env (the frame on screen) and this state; its effects reach the app through run.
	const {
		state: ui,
		footer: hints,
		help,
		availability: keys,
	} = useScreen(
		SCREEN,
		() =>
			initialFleetUiState({
				...(initialSelected === undefined ? {} : {selected: initialSelected}),
				...(saved ? {saved} : {}),
				...(kept ? {kept} : {}),
				restored,
			}),
		env,
		run,
		env.given,
	);

	const filter = activeFilter(ui);
	const marking = ui.marked.size > 0;
	const frame = useMemo(() => fleetFrame(ui.sort, filter, env, marking), [ui.sort, filter, env, marking]);
	const {order, layout} = frame;
	const {position, offset} = place(ui, order, layout.rigRows);
	const visible = useMemo(
		() => order.slice(offset, offset + layout.rigRows).flatMap((index) => (rows[index] ? [rows[index]] : [])),
		[order, rows, offset, layout.rigRows],
	);
	// The events of the rigs shown (all of them without a filter), each named as its row is.
	const labels = useMemo(() => rows.map((row) => rigLabel(row)), [rows]);
	const only = useMemo(() => (filter.trim() === '' ? undefined : new Set(order)), [filter, order]);
	const eventLines = useMemo(
		() => fleetEventLines(states, layout.eventLines === 1 ? 8 : layout.eventLines, now, {labels, notices, ...(only ? {only} : {})}),
		[states, layout.eventLines, now, labels, only, notices],
	);
	// With a filter in force, the key that clears it goes first, next to the filter.
	const footer = useMemo(() => clearFirst(hints, keys.context === 'fleet' ? 'fleet' : null), [hints, keys.context]);
	const hidden = useMemo(() => hiddenTrouble(states, order, now), [states, order, now]);
	return {
		ui,
		env,
		frame,
		visible,
		selected: position < 0 ? null : (order[position] ?? null),
		window:
			order.length > layout.rigRows ? `rigs ${offset + 1}–${Math.min(order.length, offset + layout.rigRows)} of ${order.length}` : null,
		eventLines,
		footer,
		help,
		filter,
		hidden,
		notice:
			ui.restored && order.length < states.length
				? `filter /${ui.filter} from last time hides ${order.length === 0 ? 'all' : `${states.length - order.length} of`} ${states.length} rig${states.length === 1 ? '' : 's'} · ${SCREEN_KEYMAP.keyOf('clearFilter', 'fleet')} clears`
				: null,
		running,
		batchState,
	};
}

/**
 * Every miner on one screen: a row each, a totals row, the newest events of all of them, and the
 * keys. Rows can be sorted (`s`, `I`) and filtered (`/`); the selection stays on its rig while the
 * rows move. The table scrolls to keep the selected rig in view; the frame stays under the
 * terminal's height whatever the number of rigs. Reads the fleet store, never does I/O.
 */
export function FleetView(props: FleetViewProps) {
	return <FleetLayout {...useFleetScreen(props)} />;
}

/** The fleet drawn: its title, the table (or the batch, or the help) over the events (or a question), its footer. */
function FleetLayout(screen: FleetScreen) {
	const {ui, env, frame, filter, running, batchState} = screen;
	const theme = useTheme();
	const {states, totals, size} = env;
	const {columns} = size;
	const {order, shownTotals, gap, fitted, layout} = frame;
	const filtering = ui.prompt !== null || ui.filter !== '';
	const sort = shownSort(ui.sort, env.wants.sensors === true);
	return (
		<Box
			flexDirection="column"
			width={columns}
			height={ui.help ? 1 + layout.bodyHeight + layout.footerLines : layout.height}
			overflowY="hidden"
		>
			<FleetHeader
				totals={totals}
				width={columns}
				window={screen.window}
				sort={describeSort(sort)}
				sortShort={describeSortShort(sort)}
				marked={ui.marked.size}
				hidden={screen.hidden}
			/>
			{ui.batch && batchState && running ? (
				<BatchPane batch={batchState} action={running.action} offset={ui.batch.offset} width={columns} height={layout.bodyHeight} />
			) : ui.help ? (
				<HelpOverlay
					entries={screen.help}
					offset={Math.min(ui.helpOffset, helpMax(env, layout))}
					scrollKeys={helpScrollKeys(SCREEN_KEYMAP)}
					width={columns}
					height={layout.bodyHeight}
				/>
			) : (
				<>
					<FleetTable
						rows={screen.visible}
						totals={shownTotals}
						selected={screen.selected ?? -1}
						marked={ui.marked}
						fitted={fitted}
						gap={gap}
						counted={layout.countedLines > 0}
						filtered={order.length < states.length}
						empty={filter.trim() === '' ? 'no rigs' : `no rig matches "${filter.trim()}"`}
					/>
					{ui.asking ? (
						<Box width={columns} height={layout.eventLines} paddingX={1} overflowY="hidden">
							<Wrapped
								bold
								{...theme.text('accent')}
								lines={layout.eventLines}
								width={columns - 2}
							>{`${ui.asking.text} — ${SCREEN_KEYMAP.keyOf('yes', 'question')}/${SCREEN_KEYMAP.keyOf('no', 'question')}?`}</Wrapped>
						</Box>
					) : (
						<FleetEvents events={screen.eventLines} lines={layout.eventLines} width={columns} />
					)}
				</>
			)}
			{layout.footerLines > 0 && (ui.message ?? screen.notice) !== null ? (
				<MessageLine message={{text: ui.message ?? screen.notice ?? '', tone: 'warn'}} width={columns} lines={1} />
			) : layout.footerLines > 0 ? (
				<Footer
					hints={screen.footer}
					width={columns}
					{...(filtering && !ui.help && !ui.batch && !ui.asking
						? {
								lead: <FilterLead ui={ui} shown={order.length} count={states.length} />,
								leadWidth: filterLeadText(ui, order.length, states.length).length,
							}
						: {})}
				/>
			) : null}
		</Box>
	);
}

const NONE_HIDDEN: ReadonlyMap<StatusBadge['word'], number> = new Map();

/** How many rigs down or in error are not in the order shown (a filter hides them), by state. */
function hiddenTrouble(states: readonly MonitorState[], order: readonly number[], now: number): ReadonlyMap<StatusBadge['word'], number> {
	if (order.length === states.length) return NONE_HIDDEN;
	const shown = new Set(order);
	const counts = new Map<StatusBadge['word'], number>();
	states.forEach((state, index) => {
		if (shown.has(index)) return;
		const {word} = statusBadge(state, now);
		if (word === 'down' || word === 'error') counts.set(word, (counts.get(word) ?? 0) + 1);
	});
	return counts;
}
