/**
 * The workers table's columns: what each cell says for a worker and for the totals row. Widths are the least each
 * needs; `drop` says which go first on narrow terminals: the 24h, 12h and 1h windows, then invalid shares, connections,
 * the ip, accepted and rejected shares, the last share, the 10m rate and the state. The name and the 1m rate stay, and
 * so does the column the rows are sorted by (its heading carries the sort's arrow, as in the fleet). At 80 columns the
 * table shows name, state, ip, 1m, 10m, acc, rej and last share; at 200 every column, names whole.
 */
import {DASH, formatDurationShort, formatInteger} from '../../../text/format.js';
import {formatProxyWindow} from '../../../miner/format-proxy.js';
import {PROXY_WINDOW_LABELS} from '../../../miner/proxy-model.js';
import {fitColumns, type FittedColumn} from '../../table/table.js';
import {columnsOf, type ColumnSpec} from '../../table/descriptor.js';
import {tableSorts, type TableSort} from '../../table/sort.js';
import {textWidth} from '../../../text/cells.js';
import {compareNames} from '../../table/name-order.js';
import type {WorkerRow, WorkerTotals, WorkerWord} from './rows.js';

export type WorkerLine =
	| {readonly kind: 'worker'; readonly row: WorkerRow}
	/** `shown`: a filter hides workers, so the row sums those shown. */
	| {readonly kind: 'total'; readonly totals: WorkerTotals; readonly shown: boolean};

/** What the cells need besides the line: the time, and the proxy's uptime (a window longer than it is still filling). */
export type CellContext = {readonly now: number; readonly uptime: number | null};

/** A name longer than this is cut even where there is room. */
const MAX_NAME = 40;

type WorkerColumn = ColumnSpec<WorkerLine, WorkerRow, WorkerContext>;

const RATE_WORDS = ['lowest first', 'highest first'] as const;

function rateColumn(window: number, drop: number, sort?: WorkerColumn['sort']): WorkerColumn {
	const label = PROXY_WINDOW_LABELS[window] ?? '?';
	return {
		id: `m${window}`,
		header: label,
		width: 10,
		align: 'right',
		drop,
		cell: (line, _width, context) =>
			formatProxyWindow((line.kind === 'worker' ? line.row.rates : line.totals.rates)[window] ?? null, window, context.uptime),
		...(sort ? {sort} : {}),
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

/** What the cells read besides a line: the time, the proxy's uptime and the widths over every worker. */
export type WorkerContext = CellContext & WorkerWants;

const STATE_RANK: Readonly<Record<WorkerWord, number>> = {gone: 0, quiet: 1, new: 2, live: 3};

/**
 * The workers' columns, in the order they stand. The sorts (order.ts) put trouble first: state worst first (gone,
 * quiet, new, live), rates lowest first, rejects highest first, the longest since a share first.
 */
export const WORKER_COLUMNS: readonly WorkerColumn[] = [
	{
		id: 'name',
		header: 'worker',
		width: 8,
		want: (ctx) => Math.min(MAX_NAME, ctx.name),
		wantOver: 10,
		cell: (line) => (line.kind === 'worker' ? line.row.name : line.shown ? 'shown' : 'total'),
		sort: {at: 6, words: ['name', 'a–z', 'z–a'], compare: (a, b) => compareNames(a.name, b.name)},
	},
	{
		id: 'state',
		header: 'state',
		width: 10,
		drop: 3,
		cell: (line) => (line.kind === 'worker' ? line.row.state : `${line.totals.connected}/${line.totals.count} conn`),
		sort: {at: 1, words: ['state', 'worst first', 'worst last'], falling: true, value: (row) => STATE_RANK[row.word]},
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
	{...rateColumn(0, 0, {at: 2, words: ['1m', ...RATE_WORDS], value: (row) => row.rates[0] ?? null}), id: 'm1'},
	{...rateColumn(1, 2, {at: 3, words: ['10m', ...RATE_WORDS], value: (row) => row.rates[1] ?? null}), id: 'm10'},
	rateColumn(2, 10),
	rateColumn(3, 11),
	rateColumn(4, 12),
	{id: 'acc', header: 'acc', width: (ctx) => Math.max(3, ctx.acc), align: 'right', drop: 5, cell: (line) => count(line, 'accepted')},
	{
		id: 'rej',
		header: 'rej',
		width: (ctx) => Math.max(3, ctx.rej),
		align: 'right',
		drop: 5,
		cell: (line) => count(line, 'rejected'),
		// Highest rate first: sort on its negative. No shares yet: no rate.
		sort: {
			at: 4,
			words: ['rejects', 'most first', 'fewest first'],
			falling: true,
			value: (row) => (row.accepted + row.rejected === 0 ? null : -row.rejected / (row.accepted + row.rejected)),
		},
	},
	{id: 'inv', header: 'inv', width: (ctx) => Math.max(3, ctx.inv), align: 'right', drop: 8, cell: (line) => count(line, 'invalid')},
	{
		id: 'last',
		header: 'last share',
		width: 10,
		align: 'right',
		drop: 4,
		cell: (line, _width, context) => (line.kind === 'worker' ? lastShareCell(line.row.lastShareAt, context.now) : ''),
		sort: {at: 5, words: ['last share', 'oldest first', 'newest first'], falling: true, value: (row) => row.lastShareAt ?? null},
	},
];

/** The workers' sorts, read from their columns; the proxy's own order is said on the name column ("worker listed▲"). */
export const WORKER_SORTS = tableSorts(WORKER_COLUMNS, 'name');

/** The columns, as wide as `wants` says, fitted to `width` (the sorted one never dropped, with its arrow). */
export function fitWorkerColumns(context: WorkerContext, sort: TableSort, width: number, gap: number): readonly FittedColumn<WorkerLine>[] {
	return fitColumns(columnsOf(WORKER_COLUMNS, context, WORKER_SORTS.arrow(sort)), Math.max(1, width), gap);
}
