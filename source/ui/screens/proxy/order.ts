/**
 * Which workers the proxy's table shows, in which order: `/` keeps the workers whose name or ip holds the filter; `s`
 * cycles the sort and `I` reverses it, as in the fleet. The sorts are the workers' columns' (columns.ts, read by
 * ../../table/sort.ts): trouble first, ties in the proxy's own order.
 */
import {LISTED_KEY, type TableSort} from '../../table/sort.js';
import {WORKER_SORTS} from './columns.js';
import type {WorkerRow} from './rows.js';

/** A sortable column's id, or 'listed': the proxy's own order (/1/workers). */
export type WorkerSortKey = string;
export const WORKER_SORT_CYCLE: readonly WorkerSortKey[] = WORKER_SORTS.cycle;
export type WorkerSort = TableSort;
export const WORKERS_LISTED: WorkerSort = {key: LISTED_KEY, reversed: false};

export function nextWorkerSort(sort: WorkerSort): WorkerSort {
	return WORKER_SORTS.next(sort);
}

/** The header's words about a sort ("by 1m, lowest first"); null for the list's order. */
export const describeWorkerSort = WORKER_SORTS.describe;

/** The column the sort is on and its arrow: ▲ when values grow down the list, ▼ when they shrink. */
export const workerSortArrow = WORKER_SORTS.arrow;

/** The keys (WorkerRow.key) of the workers to show, in the order to show them. */
export function workerOrder(rows: readonly WorkerRow[], sort: WorkerSort, filter: string): readonly string[] {
	return WORKER_SORTS.order(rows, sort, filter).map((row) => row.key);
}
