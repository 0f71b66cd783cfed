import {Box, useInput, type Key} from 'ink';
import {useCallback, useEffect, useMemo} from 'react';
import {FixedNowContext} from '../hooks/use-now.js';
import {useStepReducer} from '../hooks/use-step-reducer.js';
import {useTerminalSize} from '../hooks/use-terminal-size.js';
import {SCREEN_KEYMAP} from '../keymap.js';
import {Footer} from '../panes/footer.js';
import {HelpOverlay} from '../panes/help-overlay.js';
import {computeFleetLayout} from './fleet-layout.js';
import {FleetEvents} from './fleet-events.js';
import {FleetHeader} from './fleet-header.js';
import {fleetReducer, initialFleetUiState, type FleetCommand} from './fleet-reducer.js';
import {fleetEventLines, fleetRow, fleetTotals} from './fleet-rows.js';
import type {Store} from '../../store.js';
import {useStore} from '../hooks/use-store.js';
import type {FleetState} from './fleet-store.js';
import {FleetTable} from './fleet-table.js';

export type FleetViewProps = {
	readonly fleet: Store<FleetState>;
	readonly onQuit: () => void;
	/** Enter on a rig: open its dashboard. */
	readonly onOpen: (index: number) => void;
	/** `g`: the selected rig's chart; `e`: every rig's events. Without them the keys do nothing. */
	readonly onChart?: (index: number) => void;
	readonly onEvents?: () => void;
	/** The rig selected when the view opens (e.g. the one whose dashboard was just closed). */
	readonly initialSelected?: number;
	/** Told whenever the selection moves, so the app can restore it. */
	readonly onSelect?: (index: number) => void;
	/** A fixed clock (epoch ms), for tests and screenshots. */
	readonly now?: number;
};

/**
 * Every miner on one screen: a row each (in session order), a totals row, the newest events of all
 * of them, and the keys. The table scrolls to keep the selected rig in view; the frame stays under
 * the terminal's height whatever the number of rigs. Reads the fleet store, never does I/O.
 */
export function FleetView({fleet, onQuit, onOpen, onChart, onEvents, initialSelected = 0, onSelect, now: fixedNow}: FleetViewProps) {
	const {states, alerts, at} = useStore(fleet);
	const {columns, rows} = useTerminalSize();
	const layout = useMemo(() => computeFleetLayout(columns, rows, states.length), [columns, rows, states.length]);
	// The fleet store's time: the labels redraw with the data, with no clock of their own.
	const now = fixedNow ?? at;

	const run = useCallback(
		(effect: FleetCommand) => {
			if (effect.command === 'quit') onQuit();
			else if (effect.command === 'open') onOpen(effect.index);
			else if (effect.command === 'chart') onChart?.(effect.index);
			else onEvents?.();
		},
		[onQuit, onOpen, onChart, onEvents],
	);
	const [ui, dispatch] = useStepReducer(
		fleetReducer,
		() => initialFleetUiState({count: states.length, pageSize: layout.rigRows, selected: initialSelected}),
		run,
	);
	useEffect(() => {
		dispatch({type: 'viewport', pageSize: layout.rigRows, count: states.length});
	}, [dispatch, layout.rigRows, states.length]);

	useInput((input: string, key: Key) => {
		dispatch({type: 'key', input, key});
	});

	useEffect(() => {
		onSelect?.(ui.selected);
	}, [onSelect, ui.selected]);

	const totals = useMemo(() => fleetTotals(states, now), [states, now]);
	const visible = useMemo(
		() =>
			states
				.slice(ui.offset, ui.offset + layout.rigRows)
				.map((state, i) => fleetRow(state, ui.offset + i, now, alerts?.rigs[ui.offset + i])),
		[states, alerts, ui.offset, layout.rigRows, now],
	);
	const events = useMemo(
		() => fleetEventLines(states, layout.eventLines === 1 ? 8 : layout.eventLines, now),
		[states, layout.eventLines, now],
	);
	const scrolls = states.length > layout.rigRows;
	const window = scrolls ? `rigs ${ui.offset + 1}–${Math.min(states.length, ui.offset + layout.rigRows)} of ${states.length}` : null;

	const hasChart = onChart !== undefined;
	const hasEvents = onEvents !== undefined;
	const footer = useMemo(() => {
		const screen = ui.help ? 'help' : 'fleet';
		const shown = new Set(SCREEN_KEYMAP.available(screen));
		if (!hasChart) shown.delete('chart');
		if (!hasEvents) shown.delete('events');
		return SCREEN_KEYMAP.footer(screen, shown);
	}, [ui.help, hasChart, hasEvents]);
	const help = useMemo(() => SCREEN_KEYMAP.help(['fleet', 'help']), []);

	return (
		<FixedNowContext.Provider value={fixedNow ?? null}>
			<Box
				flexDirection="column"
				width={columns}
				height={ui.help ? 1 + layout.bodyHeight + layout.footerLines : layout.height}
				overflow="hidden"
			>
				<FleetHeader totals={totals} width={columns} window={window} />
				{ui.help ? (
					<HelpOverlay entries={help} width={columns} height={layout.bodyHeight} />
				) : (
					<>
						<FleetTable rows={visible} totals={totals} selected={ui.selected} width={columns} now={now} />
						<FleetEvents events={events} lines={layout.eventLines} width={columns} />
					</>
				)}
				{layout.footerLines > 0 ? <Footer hints={footer} width={columns} /> : null}
			</Box>
		</FixedNowContext.Provider>
	);
}
