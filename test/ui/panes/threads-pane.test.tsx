/** The threads table sorted by a column (s, I): the slow thread on top, the column marked in the header. */
import {describe, expect, test} from 'vitest';
import type {ThreadInfo} from '../../../source/miner/model.js';
import {ThreadsPane} from '../../../source/ui/panes/threads-pane.js';
import {describeThreadSort, sortThreads, type ThreadSort} from '../../../source/ui/panes/thread-order.js';
import {makeThreads} from '../helpers/state.js';
import {linesOf, renderTerminal} from '../helpers/terminal.js';

/** Eight threads near 300 H/s; thread 5 is slow (120), thread 2 the fastest (340), thread 6's 10s window not filled yet. */
function threads(): ThreadInfo[] {
	return makeThreads(8).map((thread) => {
		if (thread.index === 5) return {...thread, hashrate: [120, 180, 250] as const};
		if (thread.index === 2) return {...thread, hashrate: [340, 330, 320] as const};
		if (thread.index === 6) return {...thread, hashrate: [null, 301, null] as const};
		return thread;
	});
}

/** The table's rows (the lines under the header row) as their first number: the thread. */
async function drawn(sort?: ThreadSort): Promise<{header: string; title: string; order: number[]}> {
	const terminal = await renderTerminal(
		<ThreadsPane threads={threads()} offset={0} visibleRows={8} width={80} height={11} outdated={false} {...(sort ? {sort} : {})} />,
		{columns: 80, rows: 14},
	);
	const lines = linesOf(terminal.frame());
	terminal.unmount();
	const at = lines.findIndex((line) => /#.*10s.*60s.*15m/u.test(line));
	const order = lines
		.slice(at + 1)
		.map((line) => /^[│ ]*(\d+)\s/u.exec(line)?.[1])
		.filter((cell): cell is string => cell !== undefined)
		.map(Number);
	return {header: lines[at] ?? '', title: lines[0] ?? '', order};
}

describe('the threads table sorted by a column', () => {
	test('in the miner order nothing is marked; by 10s the slow thread is on top and "10s▲" marks the column', async () => {
		const plain = await drawn();
		expect(plain.order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
		expect(plain.header).not.toMatch(/[▲▼]/u);
		const slowFirst = await drawn({key: '10s', reversed: false});
		// The unfilled window ("—") counts as the lowest: trouble first, as in the fleet.
		expect(slowFirst.order.slice(0, 2)).toEqual([6, 5]);
		expect(slowFirst.order.at(-1)).toBe(2);
		expect(slowFirst.header).toContain('10s▲');
		expect(slowFirst.header).not.toContain('60s▲');
		expect(slowFirst.title).toContain('by 10s, lowest first');
		const fastFirst = await drawn({key: '10s', reversed: true});
		expect(fastFirst.order[0]).toBe(2);
		expect(fastFirst.order.at(-1)).toBe(6);
		expect(fastFirst.header).toContain('10s▼');
		expect(fastFirst.title).toContain('by 10s, highest first');
		const last = await drawn({key: 'index', reversed: true});
		expect(last.order).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
		expect(last.header).toMatch(/#▼/u);
	});

	test('ties keep the miner order, so rows that sort the same never swap', () => {
		const same = makeThreads(4).map((thread) => ({...thread, hashrate: [300, 300, 300] as const}));
		expect(sortThreads(same, {key: '60s', reversed: false}).map((thread) => thread.index)).toEqual([0, 1, 2, 3]);
		expect(sortThreads(same, {key: '60s', reversed: true}).map((thread) => thread.index)).toEqual([0, 1, 2, 3]);
		expect(sortThreads(same, {key: 'index', reversed: false})).toBe(same);
		expect(describeThreadSort({key: 'index', reversed: false})).toBeNull();
		// The 15 m window has filled on threads 5 and 2 only: the others ("—") first, in the miner's order.
		expect(sortThreads(threads(), {key: '15m', reversed: false}).map((thread) => thread.index)).toEqual([0, 1, 3, 4, 6, 7, 5, 2]);
	});
});
