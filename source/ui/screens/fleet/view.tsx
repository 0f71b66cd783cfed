import {Box, Text} from 'ink';
import {useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState} from 'react';
import {FixedNowContext} from '../../hooks/use-now.js';
import {useStepReducer} from '../../hooks/use-step-reducer.js';
import {useKeys} from '../../hooks/use-keys.js';
import {useTerminalSize} from '../../hooks/use-terminal-size.js';
import {type Capability} from '../../keys/matcher.js';
import {SCREEN_KEYMAP} from '../../keys/bindings.js';
import {Footer} from '../../panes/footer.js';
import {helpScrollKeys} from '../../help-toggle.js';
import {HelpOverlay, helpMaxOffset} from '../../panes/help-overlay.js';
import {useTheme} from '../../theme.js';
import {computeFleetLayout} from './layout.js';
import {FleetEvents} from './events.js';
import {FleetHeader} from './header.js';
import {describeSort, fleetOrder} from './order.js';
import {
	activeFilter,
	fleetAvailable,
	fleetReducer,
	initialFleetUiState,
	place,
	type FleetCommand,
	type FleetSaved,
	type FleetUiState,
} from './reduce.js';
import {fleetEventLines, fleetRows, fleetTotals} from './rows.js';
import type {Store} from '../../../store.js';
import {useStore} from '../../hooks/use-store.js';
import type {FleetState} from './store.js';
import type {FleetHours} from './hours.js';
import {FleetTable, hasCountedLine, PREFIX_WIDTH} from './table.js';
import {fitFleetColumns, fleetGap, fleetWants, rigLabel} from './columns.js';

export type FleetViewProps = {
	readonly fleet: Store<FleetState>;
	readonly onQuit: () => void;
	/** Enter on a rig: open its dashboard. */
	readonly onOpen: (index: number) => void;
	/** `R`: poll every rig now; without it the key is not offered. */
	readonly onRefreshAll?: () => void;
	/** `g`: the selected rig's chart; `e`: every rig's events. Without them the keys do nothing. */
	readonly onChart?: (index: number) => void;
	readonly onEvents?: () => void;
	/** The rig selected when the view opens (e.g. the one whose dashboard was just closed); without it, the first line. */
	readonly initialSelected?: number;
	/** Told whenever the selection moves to another rig once one is picked, so the app can restore it. */
	readonly onSelect?: (index: number) => void;
	/** The sort and filter when the view opens (those it had before a rig's dashboard was opened). */
	readonly saved?: FleetSaved;
	/** Told whenever the sort or the filter in force changes, so the app can restore them. */
	readonly onSave?: (saved: FleetSaved) => void;
	/** Each rig's last hour from the history store (the last-hour column); without it, no such column. */
	readonly hours?: Store<FleetHours>;
	/** A fixed clock (epoch ms), for tests and screenshots. */
	readonly now?: number;
};

/** The hours of a session without history: no column. */
const NO_HOURS: Store<FleetHours> = {subscribe: () => () => {}, getState: () => NO_HOURS_STATE};
const NO_HOURS_STATE: FleetHours = {enabled: false, rigs: [], at: 0};

/** The lead's text, as FilterLead draws it (the footer fits its hints in what is left). */
function filterLeadText(ui: FleetUiState, shown: number, count: number): string {
	const matched = `${shown} of ${count}`;
	return ui.prompt ? `/${ui.prompt.text}▏ ${matched}` : `/${ui.filter} ${matched}`;
}

/** The footer's lead while a filter is typed or in force: "/gar▏ 2 of 6". */
function FilterLead({ui, shown, count}: {readonly ui: FleetUiState; readonly shown: number; readonly count: number}) {
	const theme = useTheme();
	const matched = `${shown} of ${count}`;
	if (ui.prompt) {
		const {text, caret} = ui.prompt;
		return (
			<Text>
				<Text {...theme.text('accent')}>{`/${text.slice(0, caret)}▏${text.slice(caret)}`}</Text>
				<Text {...theme.text('muted')}>{` ${matched}`}</Text>
			</Text>
		);
	}

	return (
		<Text>
			<Text {...theme.text('accent')}>{`/${ui.filter}`}</Text>
			<Text {...theme.text('muted')}>{` ${matched}`}</Text>
		</Text>
	);
}

/**
 * Every miner on one screen: a row each, a totals row, the newest events of all of them, and the
 * keys. Rows can be sorted (`s`, `I`) and filtered (`/`); the selection stays on its rig while the
 * rows move. The table scrolls to keep the selected rig in view; the frame stays under the
 * terminal's height whatever the number of rigs. Reads the fleet store, never does I/O.
 */
export function FleetView({
	fleet,
	onQuit,
	onOpen,
	onRefreshAll,
	onChart,
	onEvents,
	initialSelected,
	onSelect,
	saved,
	onSave,
	hours = NO_HOURS,
	now: fixedNow,
}: FleetViewProps) {
	const {states, alerts, notices, at} = useStore(fleet);
	const hour = useStore(hours);
	const {columns, rows: terminalRows} = useTerminalSize();
	// The fleet store's time: the labels redraw with the data, with no clock of their own.
	const now = fixedNow ?? at;
	const rows = useMemo(() => fleetRows(states, now, alerts?.rigs, hour.rigs), [states, alerts, now, hour.rigs]);
	// Keys act on the rows as drawn.
	const latestRows = useRef(rows);
	useLayoutEffect(() => {
		latestRows.current = rows;
	}, [rows]);

	const run = useCallback(
		(effect: FleetCommand) => {
			if (effect.command === 'quit') onQuit();
			else if (effect.command === 'refreshAll') onRefreshAll?.();
			else if (effect.command === 'open') onOpen(effect.index);
			else if (effect.command === 'chart') onChart?.(effect.index);
			else onEvents?.();
		},
		[onQuit, onOpen, onRefreshAll, onChart, onEvents],
	);
	const [offered] = useState<ReadonlySet<Capability>>(() => {
		const set = new Set<Capability>();
		if (onRefreshAll) set.add('refresh');
		if (onChart) set.add('chart');
		if (onEvents) set.add('events');
		set.add('scrollHelp');
		return set;
	});
	const [ui, dispatch] = useStepReducer(
		fleetReducer,
		() => initialFleetUiState({...(initialSelected === undefined ? {} : {selected: initialSelected}), offered, ...(saved ? {saved} : {})}),
		run,
	);
	useEffect(() => {
		onSave?.({sort: ui.sort, filter: ui.filter});
	}, [onSave, ui.sort, ui.filter]);
	const filter = activeFilter(ui);
	const order = useMemo(() => fleetOrder(rows, ui.sort, filter), [rows, ui.sort, filter]);
	const fleetTotalsAll = useMemo(() => fleetTotals(states, now), [states, now]);
	const shownTotals = useMemo(
		() =>
			order.length === states.length
				? fleetTotalsAll
				: fleetTotals(
						order.map((index) => states[index]!),
						now,
					),
		[order, states, now, fleetTotalsAll],
	);
	// The widths: the rig, pool and shares columns' over every rig, so scrolling and filtering keep them.
	const wants = useMemo(() => fleetWants(rows, fleetTotalsAll), [rows, fleetTotalsAll]);
	const gap = fleetGap(columns);
	const fitted = useMemo(
		() =>
			fitFleetColumns(
				now,
				{rig: wants.rig, pool: wants.pool, shares: wants.shares ?? 0},
				hour.enabled,
				ui.sort,
				columns - PREFIX_WIDTH,
				gap,
			),
		[now, wants.rig, wants.pool, wants.shares, hour.enabled, ui.sort, columns, gap],
	);
	const counted = hasCountedLine(fitted, shownTotals);
	const layout = useMemo(
		() => computeFleetLayout(columns, terminalRows, Math.max(1, order.length), counted),
		[columns, terminalRows, order.length, counted],
	);

	useKeys(
		(input, key) => {
			dispatch({type: 'key', input, key, rows: latestRows.current});
		},
		{
			onPaste(text) {
				dispatch({type: 'paste', text, rows: latestRows.current});
			},
		},
	);

	// Placed with this render's page size (the reducer hears of a new one after the frame).
	const {position, offset} = place({...ui, pageSize: layout.rigRows}, order);
	const selected = position < 0 ? null : (order[position] ?? null);
	const {pinned} = ui;
	useEffect(() => {
		if (selected !== null && !pinned) onSelect?.(selected);
	}, [onSelect, selected, pinned]);

	const visible = useMemo(
		() => order.slice(offset, offset + layout.rigRows).flatMap((index) => (rows[index] ? [rows[index]] : [])),
		[order, rows, offset, layout.rigRows],
	);
	// The events of the rigs shown (all of them without a filter), each named as its row is.
	const labels = useMemo(() => rows.map((row) => rigLabel(row)), [rows]);
	const only = useMemo(() => (filter.trim() === '' ? undefined : new Set(order)), [filter, order]);
	const events = useMemo(
		() => fleetEventLines(states, layout.eventLines === 1 ? 8 : layout.eventLines, now, {labels, notices, ...(only ? {only} : {})}),
		[states, layout.eventLines, now, labels, only, notices],
	);
	const scrolls = order.length > layout.rigRows;
	const window = scrolls ? `rigs ${offset + 1}–${Math.min(order.length, offset + layout.rigRows)} of ${order.length}` : null;

	const footer = useMemo(() => {
		const hints = SCREEN_KEYMAP.footer(ui.help ? 'help' : ui.prompt ? 'fleetFilter' : 'fleet', fleetAvailable(ui));
		// With a filter in force, the key that clears it goes first, next to the filter.
		const clear = ui.help || ui.prompt ? undefined : hints.find((hint) => hint.keys === SCREEN_KEYMAP.keyOf('clearFilter', 'fleet'));
		return clear ? [clear, ...hints.filter((hint) => hint !== clear)] : hints;
	}, [ui]);
	// The fleet's keys (the help's own, Esc and ↑↓, are on its frame: listing them here would give them two meanings).
	const help = useMemo(() => SCREEN_KEYMAP.help(['fleet', 'fleetFilter'], offered).filter((entry) => entry.available), [offered]);
	const helpMax = useMemo(() => helpMaxOffset(help, columns, layout.bodyHeight), [help, columns, layout.bodyHeight]);
	useEffect(() => {
		dispatch({type: 'viewport', pageSize: layout.rigRows, helpMax});
	}, [dispatch, layout.rigRows, helpMax]);
	const filtering = ui.prompt !== null || ui.filter !== '';

	return (
		<FixedNowContext.Provider value={fixedNow ?? null}>
			<Box
				flexDirection="column"
				width={columns}
				height={ui.help ? 1 + layout.bodyHeight + layout.footerLines : layout.height}
				overflowY="hidden"
			>
				<FleetHeader totals={fleetTotalsAll} width={columns} window={window} sort={describeSort(ui.sort)} />
				{ui.help ? (
					<HelpOverlay
						entries={help}
						offset={ui.helpOffset}
						scrollKeys={helpScrollKeys(SCREEN_KEYMAP)}
						width={columns}
						height={layout.bodyHeight}
					/>
				) : (
					<>
						<FleetTable
							rows={visible}
							totals={shownTotals}
							selected={selected ?? -1}
							fitted={fitted}
							gap={gap}
							counted={layout.countedLines > 0}
							filtered={order.length < states.length}
							empty={filter.trim() === '' ? 'no rigs' : `no rig matches "${filter.trim()}"`}
						/>
						<FleetEvents events={events} lines={layout.eventLines} width={columns} />
					</>
				)}
				{layout.footerLines > 0 ? (
					<Footer
						hints={footer}
						width={columns}
						{...(filtering && !ui.help
							? {
									lead: <FilterLead ui={ui} shown={order.length} count={states.length} />,
									leadWidth: filterLeadText(ui, order.length, states.length).length,
								}
							: {})}
					/>
				) : null}
			</Box>
		</FixedNowContext.Provider>
	);
}
