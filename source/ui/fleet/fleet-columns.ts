/**
 * The fleet table's columns: what each cell says for a rig row or the totals row. Widths are the
 * minimum each needs; `drop` says which go first on narrow terminals (the alert text, then when the
 * rig was last seen, the last hour's history, its pool, uptime, reject rate and the 60 s window).
 * Name, state, the 10 s and 15 m rates and the shares always stay. The rig and pool columns want the
 * width of their longest text, and the history column 30 characters (2 minutes each); they get it
 * where the terminal has room (at 200 columns names and pools show whole).
 */
import type {RateWindows} from '../../miner/model.js';
import {DASH, formatAgo, formatCount, formatDurationShort, formatHashrate, formatInteger, formatPercent} from '../../format.js';
import type {Column} from '../table.js';
import {hourCells} from './fleet-hours.js';
import type {FleetRow, FleetTotals} from './fleet-rows.js';

/** A cell source: a rig's row, or the totals. */
export type FleetLine = {readonly kind: 'rig'; readonly row: FleetRow} | {readonly kind: 'total'; readonly totals: FleetTotals};

function rate(line: FleetLine, window: 0 | 1 | 2): string {
	const rates: RateWindows | null = line.kind === 'rig' ? line.row.rates : line.totals.summed > 0 ? line.totals.rates : null;
	return rates === null ? DASH : formatHashrate(rates[window] ?? null, {pad: true}).trimEnd();
}

/** The shares column's width: "9 999/9 999". */
const SHARES_WIDTH = 11;

/** "1 204/1 207" while that fits the column; larger counts shortened: "17.9K/18K", "1.2M/1.21M". */
export function formatShares(good: number | null, total: number | null): string {
	if (good === null || total === null) return DASH;
	const exact = `${formatInteger(good)}/${formatInteger(total)}`;
	return exact.length <= SHARES_WIDTH ? exact : `${formatCount(good)}/${formatCount(total)}`;
}

/** "4/6 up"; "5 of 6" when the row sums fewer rigs than are up (a window still filling). */
export function totalsState(totals: FleetTotals): string {
	return totals.summed < totals.answered ? `${totals.summed} of ${totals.count}` : `${totals.answered}/${totals.count} up`;
}

/** A name or pool longer than this is cut even where there is room (one odd name must not take the table). */
const MAX_WANT = 40;

/** The rig column's full text: the name, and what tells it apart when another rig has the same name ("attic :18082"). */
export function rigLabel(row: Pick<FleetRow, 'name' | 'tag'>): string {
	return row.tag === null ? row.name : `${row.name} ${row.tag}`;
}

const tail = (text: string, width: number) => (width <= 0 ? '' : text.length <= width ? text : `…${text.slice(-(width - 1))}`);

/**
 * The rig column's text in `width` columns. A name that is an address (a rig without a worker id) is cut at its start,
 * so that the port, which tells rigs on one host apart, stays: "…0.0.1:18081". A tagged rig keeps its tag whole (or
 * its end) after as much of its name as leaves room for it: "garage-ry… :18081".
 */
export function fitRigLabel(row: Pick<FleetRow, 'name' | 'where' | 'tag'>, width: number): string {
	const label = rigLabel(row);
	if (label.length <= width) return label;
	if (row.name === row.where) return tail(row.name, width);
	if (row.tag === null) return label; // cut at its end by the table
	const keep = Math.min(row.name.length, Math.max(3, width - 1 - row.tag.length));
	const name = keep < row.name.length ? `${row.name.slice(0, Math.max(0, keep - 1))}…` : row.name;
	const room = width - name.length - 1;
	return room < 2 ? name : `${name} ${tail(row.tag, room)}`;
}

/** What the rig and pool columns want: their longest text over every rig (not only those in view, so scrolling keeps the widths). */
export type FleetWants = {readonly rig: number; readonly pool: number};

export function fleetWants(rows: readonly FleetRow[]): FleetWants {
	let rig = 0;
	let pool = 0;
	for (const row of rows) {
		rig = Math.max(rig, rigLabel(row).length);
		pool = Math.max(pool, row.pool?.length ?? 0);
	}

	return {rig: Math.min(MAX_WANT, rig), pool: Math.min(MAX_WANT, pool)};
}

/** The history column: at least 12 characters (5 minutes each), 30 where there is room (2 minutes each). */
const HOUR_WIDTH = 12;
const HOUR_WANT = 30;

/** The columns; `hours`: the session keeps history, so the table has its last-hour column where the width allows. */
export function fleetColumns(now: number, wants: FleetWants = {rig: 0, pool: 0}, hours = false): readonly Column<FleetLine>[] {
	const columns: Column<FleetLine>[] = [
		{
			id: 'rig',
			header: 'rig',
			width: 10,
			want: wants.rig,
			// The last hour, when it was seen and the alert text go before a name is cut.
			wantOver: 6,
			cell: (line, width) => (line.kind === 'rig' ? fitRigLabel(line.row, width) : 'total'),
		},
		{
			id: 'state',
			header: 'state',
			width: 9,
			// The totals row says how many rigs it sums when some that are up are left out ("5 of 6").
			cell: (line) => (line.kind === 'rig' ? line.row.state : totalsState(line.totals)),
		},
		{id: 'r10', header: '10s', width: 9, align: 'right', cell: (line) => rate(line, 0)},
		{id: 'r60', header: '60s', width: 9, align: 'right', drop: 2, cell: (line) => rate(line, 1)},
		{id: 'r15', header: '15m', width: 9, align: 'right', cell: (line) => rate(line, 2)},
		{
			id: 'hour',
			header: 'last hour',
			width: HOUR_WIDTH,
			want: HOUR_WANT,
			drop: 6,
			cell: (line, width) => (line.kind === 'rig' ? hourCells(line.row.hour, width) : ''),
		},
		{
			id: 'shares',
			header: 'shares',
			width: SHARES_WIDTH,
			align: 'right',
			cell: (line) =>
				line.kind === 'rig'
					? formatShares(line.row.good, line.row.total)
					: line.totals.summed > 0
						? formatShares(line.totals.good, line.totals.total)
						: DASH,
		},
		{
			id: 'rej',
			header: 'rej',
			width: 5,
			align: 'right',
			drop: 3,
			cell: (line) =>
				line.kind === 'rig'
					? formatPercent(line.row.rejected, line.row.total)
					: formatPercent(line.totals.total - line.totals.good, line.totals.total),
		},
		{
			id: 'pool',
			header: 'pool',
			width: 12,
			want: wants.pool,
			drop: 5,
			cell: (line) => (line.kind === 'rig' ? (line.row.pool ?? DASH) : ''),
		},
		{
			id: 'up',
			header: 'up',
			width: 4,
			align: 'right',
			drop: 4,
			cell: (line) => (line.kind === 'rig' ? formatDurationShort(line.row.uptime) : ''),
		},
		{
			id: 'seen',
			header: 'seen',
			width: 8,
			align: 'right',
			drop: 7,
			cell: (line) => (line.kind === 'rig' ? formatAgo(line.row.lastSeenAt, now).replace(' ago', '') : ''),
		},
		{
			id: 'alert',
			header: 'alert',
			width: 16,
			flex: true,
			drop: 8,
			cell: (line) => (line.kind === 'rig' ? (line.row.alert?.message ?? '') : ''),
		},
	];
	return hours ? columns : columns.filter((column) => column.id !== 'hour');
}
