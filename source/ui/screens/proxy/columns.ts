/**
 * The workers table's columns: what each cell says for a worker and for the totals row. Widths are the least each
 * needs; `drop` says which go first on narrow terminals: the 24h, 12h and 1h windows, then invalid shares, connections,
 * the ip, accepted and rejected shares, the last share, the 10m rate and the state. The name and the 1m rate stay, and
 * so does the column the rows are sorted by (its heading carries the sort's arrow, as in the fleet). At 80 columns the
 * table shows name, state, ip, 1m, 10m, acc, rej and last share; at 200 every column, names whole.
 */
import {DASH, formatDurationShort, formatInteger} from '../../../format.js';
import {formatProxyWindow} from '../../../format-proxy.js';
import {PROXY_WINDOW_LABELS} from '../../../miner/proxy-model.js';
import {fitColumns, markSorted, type Column, type FittedColumn} from '../../table.js';
import {textWidth} from '../../cells.js';
import {workerSortArrow, type WorkerSort} from './order.js';
import type {WorkerRow, WorkerTotals} from './rows.js';

export type WorkerLine =
	| {readonly kind: 'worker'; readonly row: WorkerRow}
	/** `shown`: a filter hides workers, so the row sums those shown. */
	| {readonly kind: 'total'; readonly totals: WorkerTotals; readonly shown: boolean};

/** What the cells need besides the line: the time, and the proxy's uptime (a window longer than it is still filling). */
export type CellContext = {readonly now: number; readonly uptime: number | null};

/** A name longer than this is cut even where there is room. */
const MAX_NAME = 40;

function rateColumn(window: number, drop: number, context: CellContext): Column<WorkerLine> {
	const label = PROXY_WINDOW_LABELS[window] ?? '?';
	return {
		id: `m${window}`,
		header: label,
		width: 10,
		align: 'right',
		drop,
		cell: (line) =>
			formatProxyWindow((line.kind === 'worker' ? line.row.rates : line.totals.rates)[window] ?? null, window, context.uptime),
	};
}

function count(line: WorkerLine, field: 'accepted' | 'rejected' | 'invalid'): string {
	return formatInteger(line.kind === 'worker' ? line.row[field] : line.totals[field]);
}

/** A last share in a cell: "12s ago", "34m ago", "never". */
export function lastShareCell(at: number | null, now: number): string {
	return at === null ? 'never' : `${formatDurationShort(Math.max(0, (now - at) / 1000))} ago`;
}

/**
 * The widths the table wants over every worker listed (not only those in view, so scrolling keeps them): the longest
 * name, and the share counts written whole (they are never cut: "437 889").
 */
export type WorkerWants = {readonly name: number; readonly acc: number; readonly rej: number; readonly inv: number};

export function workerWants(rows: readonly WorkerRow[], totals: WorkerTotals): WorkerWants {
	const longest = (values: readonly number[]) => values.reduce((most, value) => Math.max(most, formatInteger(value).length), 0);
	return {
		name: rows.reduce((most, row) => Math.max(most, textWidth(row.name)), 0),
		acc: longest([totals.accepted, ...rows.map((row) => row.accepted)]),
		rej: longest([totals.rejected, ...rows.map((row) => row.rejected)]),
		inv: longest([totals.invalid, ...rows.map((row) => row.invalid)]),
	};
}

/** The columns, as wide as `wants` says. */
export function workerColumns(context: CellContext, wants: WorkerWants, sort: WorkerSort | null): readonly Column<WorkerLine>[] {
	const columns: Column<WorkerLine>[] = [
		{
			id: 'name',
			header: 'worker',
			width: 8,
			want: Math.min(MAX_NAME, wants.name),
			wantOver: 10,
			cell: (line) => (line.kind === 'worker' ? line.row.name : line.shown ? 'shown' : 'total'),
		},
		{
			id: 'state',
			header: 'state',
			width: 10,
			drop: 3,
			cell: (line) => (line.kind === 'worker' ? line.row.state : `${line.totals.connected}/${line.totals.count} conn`),
		},
		{id: 'ip', header: 'ip', width: 15, drop: 6, cell: (line) => (line.kind === 'worker' ? (line.row.ip ?? DASH) : '')},
		{
			id: 'conn',
			header: 'conn',
			width: 4,
			align: 'right',
			drop: 7,
			cell: (line) => (line.kind === 'worker' ? formatInteger(line.row.connections) : ''),
		},
		{...rateColumn(0, 0, context), id: 'm1'},
		{...rateColumn(1, 2, context), id: 'm10'},
		rateColumn(2, 10, context),
		rateColumn(3, 11, context),
		rateColumn(4, 12, context),
		{id: 'acc', header: 'acc', width: Math.max(3, wants.acc), align: 'right', drop: 5, cell: (line) => count(line, 'accepted')},
		{id: 'rej', header: 'rej', width: Math.max(3, wants.rej), align: 'right', drop: 5, cell: (line) => count(line, 'rejected')},
		{id: 'inv', header: 'inv', width: Math.max(3, wants.inv), align: 'right', drop: 8, cell: (line) => count(line, 'invalid')},
		{
			id: 'last',
			header: 'last share',
			width: 10,
			align: 'right',
			drop: 4,
			cell: (line) => (line.kind === 'worker' ? lastShareCell(line.row.lastShareAt, context.now) : ''),
		},
	];
	return markSorted(columns, sort === null ? null : workerSortArrow(sort));
}

export function fitWorkerColumns(
	context: CellContext,
	wants: WorkerWants,
	sort: WorkerSort | null,
	width: number,
	gap: number,
): readonly FittedColumn<WorkerLine>[] {
	return fitColumns(workerColumns(context, wants, sort), Math.max(1, width), gap);
}
