/**
 * Which workers the proxy's table shows, in which order: `/` keeps the workers whose name or ip holds the filter; `s`
 * cycles the sort and `I` reverses it, as in the fleet (list.ts), trouble first: state worst first (gone, quiet, new,
 * live), rates lowest first, rejects highest first, the longest since a share first. Ties keep the proxy's own order.
 */
import {nextSortIn, type ListSort} from '../list.js';
import type {WorkerRow, WorkerWord} from './rows.js';
import {compareNames} from '../../name-order.js';

/** 'listed': the proxy's own order (/1/workers). */
export type WorkerSortKey = 'listed' | 'state' | 'm1' | 'm10' | 'rej' | 'last' | 'name';
export const WORKER_SORT_CYCLE: readonly [WorkerSortKey, ...WorkerSortKey[]] = ['listed', 'state', 'm1', 'm10', 'rej', 'last', 'name'];
export type WorkerSort = ListSort<WorkerSortKey>;
export const WORKERS_LISTED: WorkerSort = {key: 'listed', reversed: false};

export function nextWorkerSort(sort: WorkerSort): WorkerSort {
	return nextSortIn(WORKER_SORT_CYCLE, sort);
}

/** The column a sort is on, and the words the header says about it ("by 1m, lowest first"); null words for the list's order. */
const WORDS: Readonly<Record<WorkerSortKey, readonly [column: string, what: string, natural: string, reversed: string]>> = {
	listed: ['name', '', 'as listed', 'listed, last first'],
	state: ['state', 'state', 'worst first', 'worst last'],
	m1: ['m1', '1m', 'lowest first', 'highest first'],
	m10: ['m10', '10m', 'lowest first', 'highest first'],
	rej: ['rej', 'rejects', 'most first', 'fewest first'],
	last: ['last', 'last share', 'oldest first', 'newest first'],
	name: ['name', 'name', 'a–z', 'z–a'],
};

export function describeWorkerSort(sort: WorkerSort): string | null {
	const [, what, natural, reversed] = WORDS[sort.key];
	if (sort.key === 'listed') return sort.reversed ? reversed : null;
	return `by ${what}, ${sort.reversed ? reversed : natural}`;
}

/** The column the sort is on and its arrow: ▲ when values grow down the list, ▼ when they shrink. */
export function workerSortArrow(sort: WorkerSort): {readonly column: string; readonly arrow: '▲' | '▼'; readonly word?: string} {
	const column = WORDS[sort.key][0];
	if (sort.key === 'listed') return {column, arrow: sort.reversed ? '▼' : '▲', word: 'listed'};
	const falling = sort.key === 'state' || sort.key === 'rej' || sort.key === 'last';
	return {column, arrow: falling !== sort.reversed ? '▼' : '▲'};
}

const STATE_RANK: Readonly<Record<WorkerWord, number>> = {gone: 0, quiet: 1, new: 2, live: 3};

/** A number to sort on, smallest first; null where the worker has none (a window not filled, no share yet). */
function measure(row: WorkerRow, key: WorkerSortKey): number | null {
	switch (key) {
		case 'state':
			return STATE_RANK[row.word];
		case 'm1':
			return row.rates[0] ?? null;
		case 'm10':
			return row.rates[1] ?? null;
		case 'rej': {
			const total = row.accepted + row.rejected;
			return total === 0 ? null : -row.rejected / total;
		}

		case 'last':
			return row.lastShareAt ?? null;
		default:
			return row.index;
	}
}

function compare(a: WorkerRow, b: WorkerRow, key: WorkerSortKey): number {
	if (key === 'name') return compareNames(a.name, b.name);
	const x = measure(a, key) ?? 0;
	const y = measure(b, key) ?? 0;
	return x < y ? -1 : x > y ? 1 : 0;
}

/** The keys (WorkerRow.key) of the workers to show, in the order to show them. */
export function workerOrder(rows: readonly WorkerRow[], sort: WorkerSort, filter: string): readonly string[] {
	const wanted = filter.trim().toLowerCase();
	const kept = wanted === '' ? [...rows] : rows.filter((row) => row.search.includes(wanted));
	const direction = sort.reversed ? -1 : 1;
	// A worker without the value sorted on ("—") is last either way, as in htop.
	const missing = (row: WorkerRow) => (sort.key !== 'name' && measure(row, sort.key) === null ? 1 : 0);
	kept.sort((a, b) => missing(a) - missing(b) || direction * compare(a, b, sort.key) || a.index - b.index);
	return kept.map((row) => row.key);
}
