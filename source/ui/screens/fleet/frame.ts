/**
 * The fleet's environment (what it reads but does not own) and the frame a state makes of it: the rigs in order, the
 * columns fitted, the totals of the rigs shown and where each part goes. The view draws this frame; the reducer reads
 * its page size and how far its help scrolls from the same function, so a key moves by the page on screen.
 */
import type {MonitorState} from '../../../monitor/types.js';
import type {TerminalSize} from '../../hooks/use-terminal-size.js';
import type {FittedColumn} from '../../table/table.js';
import {helpMaxOffset} from '../../panes/help-overlay.js';
import {fleetHelp, type FleetGiven} from './availability.js';
import {fitFleetColumns, fleetGap, type FleetLine, type FleetWants} from './columns.js';
import type {BatchState} from '../../../batch/types.js';
import {computeFleetLayout, type FleetLayout} from './layout.js';
import {fleetOrder, shownSort, type FleetSort} from './order.js';
import {fleetTotals, type FleetRow, type FleetTotals} from './rows.js';
import {hasCountedLine} from './table.js';
import {prefixWidth} from '../../table/list-table.js';

/** What the fleet reads but does not own, as in the frame on screen (the view builds it each render it changes). */
export type FleetEnv = {
	/** Every rig's row, in the session's order, as drawn now. */
	readonly rows: readonly FleetRow[];
	/** Every rig's state (the totals of the rigs shown are made from them). */
	readonly states: readonly MonitorState[];
	/** The time the rows were drawn at. */
	readonly now: number;
	/** Every rig's totals (the header's), and the widths the rig, pool and shares columns want over every rig. */
	readonly totals: FleetTotals;
	readonly wants: FleetWants;
	/** Whether the rows have a last-hour column (a session with history). */
	readonly hours: boolean;
	readonly size: TerminalSize;
	/** What the app gave: poll every rig, the chart, the events (open and quit are always given). */
	readonly given: FleetGiven;
	/** Each rig: whether rigtop sends it a token (what `p`/`r` say cannot be done); --read-only: they are refused. */
	readonly tokens?: readonly boolean[];
	/** Each rig: whose token rigtop sends when none was given (null: given or none). */
	readonly tokenFrom?: readonly (string | null)[];
	readonly readOnly?: boolean;
	/** The batch on screen (`p`, `r`), null when none is. */
	readonly batch?: BatchState | null;
};

export type FleetFrame = {
	/** The rigs shown, in order (sorted, filtered): indexes into the rows. */
	readonly order: readonly number[];
	/** The totals of the rigs shown (every rig's when none is hidden). */
	readonly shownTotals: FleetTotals;
	readonly gap: number;
	readonly fitted: readonly FittedColumn<FleetLine>[];
	readonly layout: FleetLayout;
};

/**
 * The frame of a sort and a filter (the one in force, or the one being typed) in this env; `marking`: some rig is
 * marked, and the rows have a column for the mark.
 */
export function fleetFrame(sort: FleetSort, filter: string, env: FleetEnv, marking = false): FleetFrame {
	const {rows, states, now, totals, wants, hours, size} = env;
	const shown = shownSort(sort, wants.sensors === true);
	const order = fleetOrder(rows, shown, filter);
	const shownTotals =
		order.length === states.length
			? totals
			: fleetTotals(
					order.map((index) => states[index]!),
					now,
					order.map((index) => rows[index]?.kind ?? null),
				);
	// The widths: the rig, pool and shares columns' over every rig, so scrolling and filtering keep them.
	const gap = fleetGap(size.columns);
	const fitted = fittedColumns({...wants, shares: wants.shares ?? 0}, hours, shown, size.columns - prefixWidth(marking), gap);
	const layout = computeFleetLayout(size.columns, size.rows, Math.max(1, order.length), hasCountedLine(fitted, shownTotals));
	return {order, shownTotals, gap, fitted, layout};
}

type Fitted = readonly FittedColumn<FleetLine>[];

/** The last columns fitted and what they were fitted for. */
let lastFit: {readonly key: string; readonly fitted: Fitted} | null = null;

/**
 * The fleet's columns fitted (fitFleetColumns), the same object while what they are fitted for is the same: the
 * rows' memo (table.tsx) compares them, so a poll redraws only the rows whose text changed.
 */
function fittedColumns(wants: FleetWants & {readonly shares: number}, hours: boolean, sort: FleetSort, width: number, gap: number): Fitted {
	const key = JSON.stringify([
		wants.rig,
		wants.pool,
		wants.shares,
		wants.proxies,
		wants.kind,
		// The kind column's room follows each proxy's worker count (its `uses`), not only its longest text.
		wants.proxyWorkers,
		wants.state,
		wants.sensors,
		wants.temp,
		hours,
		sort,
		width,
		gap,
	]);
	if (lastFit?.key !== key) lastFit = {key, fitted: fitFleetColumns(wants, hours, sort, width, gap)};
	return lastFit.fitted;
}

/** The last entry the help can scroll to in a frame of this layout (0 when it fits). */
export function helpMax(env: Pick<FleetEnv, 'given' | 'size'>, layout: FleetLayout): number {
	return helpMaxOffset(fleetHelp(env.given), env.size.columns, layout.bodyHeight);
}
