/**
 * The fleet's title line (issue 35, polish): marking a rig never drops the sort from it (its words shorten first, and
 * the proxies' rate goes before it), at every width.
 */
import {describe, expect, test} from 'vitest';
import {App, type AppMiner} from '../../../../source/ui/app.js';
import {createStore, makeSnapshot, makeState, NOW} from '../../helpers/state.js';
import {linesOf, renderTerminal, tick} from '../../helpers/terminal.js';

function rigs(count: number): AppMiner[] {
	return Array.from({length: count}, (_, slot) => {
		const name = `rig-${String(slot + 1).padStart(2, '0')}`;
		return {
			store: createStore(makeState({name, snapshot: makeSnapshot({workerId: name, hashrate: {total: [1000 * (slot + 1), 1000, null]}})})),
		};
	});
}

describe("the fleet's title line", () => {
	for (const [columns, rows] of [
		[80, 24],
		[120, 40],
		[200, 50],
	] as const) {
		test(`${columns}×${rows}: 60 rigs sorted by 10s, one marked: the title still says the sort`, async () => {
			const terminal = await renderTerminal(<App miners={rigs(60)} onQuit={() => {}} now={NOW} color={false} />, {columns, rows});
			await terminal.waitFor('60 rigs');
			await tick();
			await terminal.press('ss', /10s▲/);
			expect(linesOf(terminal.frame())[0]).toMatch(/by 10s(, lowest first|▲)/);
			await terminal.press(' ', '1 marked');
			const title = linesOf(terminal.frame())[0] ?? '';
			expect(title).toMatch(/by 10s(, lowest first|▲)/);
			expect(title).toMatch(/(rigs )?\d+–\d+ of 60/);
			expect([...title].length).toBeLessThanOrEqual(columns);
		});
	}
});
