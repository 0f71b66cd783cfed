/**
 * The order of the threads table: `s` cycles the column it is sorted by and `I` reverses it, as in the fleet
 * (screens/fleet/order.ts). A rate sorts lowest first, so the slow thread rises to the top; a window not filled yet ("—")
 * counts as the lowest. Ties keep the miner's order (backend, then thread number), so threads that sort the same
 * never swap from poll to poll. Pure: the pane sorts with it, the dashboard reducer moves it.
 */
import type {ThreadInfo} from '../../miner/model.js';

/** 'index': the miner's own order (thread 0 first). */
export type ThreadSortKey = 'index' | '10s' | '60s' | '15m';

/** The order `s` goes through. */
export const THREAD_SORT_CYCLE: readonly ThreadSortKey[] = ['index', '10s', '60s', '15m'];

export type ThreadSort = {readonly key: ThreadSortKey; readonly reversed: boolean};

export const BY_INDEX: ThreadSort = {key: 'index', reversed: false};

export function nextThreadSort(sort: ThreadSort): ThreadSort {
	const at = THREAD_SORT_CYCLE.indexOf(sort.key);
	return {key: THREAD_SORT_CYCLE[(at + 1) % THREAD_SORT_CYCLE.length] ?? 'index', reversed: false};
}

/** The pane title's words for a sort: "by 10s, lowest first"; null for the miner's own order. */
export function describeThreadSort(sort: ThreadSort): string | null {
	if (sort.key === 'index') return sort.reversed ? 'last thread first' : null;
	return `by ${sort.key}, ${sort.reversed ? 'highest' : 'lowest'} first`;
}

const WINDOW: Readonly<Record<Exclude<ThreadSortKey, 'index'>, 0 | 1 | 2>> = {'10s': 0, '60s': 1, '15m': 2};

function measure(thread: ThreadInfo, key: ThreadSortKey): number {
	if (key === 'index') return 0;
	return thread.hashrate[WINDOW[key]] ?? Number.NEGATIVE_INFINITY;
}

/** The threads in the order to show them (the same array when the order is the miner's own). */
export function sortThreads(threads: readonly ThreadInfo[], sort: ThreadSort): readonly ThreadInfo[] {
	if (sort.key === 'index' && !sort.reversed) return threads;
	const direction = sort.reversed ? -1 : 1;
	const position = new Map(threads.map((thread, at) => [thread, at] as const));
	return [...threads].sort((a, b) => {
		const x = measure(a, sort.key);
		const y = measure(b, sort.key);
		const byValue = x < y ? -1 : x > y ? 1 : 0;
		const inOrder = (position.get(a) ?? 0) - (position.get(b) ?? 0);
		// The miner's order is the tie-break, and for 'index' the order itself (reversed with the rest).
		return sort.key === 'index' ? direction * inOrder : direction * byValue || inOrder;
	});
}
