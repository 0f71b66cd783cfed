/**
 * The fleet's title line (issue 35, polish): marking a rig never drops the sort from it (its words shorten first, and
 * the proxies' rate goes before it), at every width. A row's `!` is a trouble still open.
 */
import {describe, expect, test} from 'vitest';
import type {AlertCenterState} from '../../../../source/alerts/center.js';
import type {Alert} from '../../../../source/alerts/types.js';
import type {Store} from '../../../../source/monitor/store.js';
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

describe("a row's ! (issue 35, polish)", () => {
	const alert = (kind: Alert['kind'], minerIndex: number, message: string): Alert => ({
		seq: minerIndex + 1,
		at: NOW - 60_000,
		kind,
		severity: 'warn',
		minerIndex,
		rig: `rig-0${minerIndex + 1}`,
		url: 'u',
		message,
	});

	test('marks a trouble still open, not an alert with no all-clear (restarted a minute ago: its words, no !)', async () => {
		const restarted = alert('restarted', 0, 'restarted (uptime 1m)');
		const drop = alert('hashrate-drop', 1, 'hashrate down to 1.00 kH/s');
		const state: AlertCenterState = {
			alerts: [restarted, drop],
			rigs: [
				{open: null, last: restarted},
				{open: drop, last: drop},
				{open: null, last: null},
			],
		};
		const alerts: Store<AlertCenterState> = {getState: () => state, subscribe: () => () => {}};
		const terminal = await renderTerminal(<App miners={rigs(3)} onQuit={() => {}} now={NOW} color={false} alerts={alerts} />, {
			columns: 200,
			rows: 30,
		});
		await terminal.waitFor('restarted (uptime 1m)');
		const row = (name: string) => linesOf(terminal.frame()).find((line) => line.includes(name)) ?? '';
		expect(row('rig-01')).toMatch(/^▸ rig-01/);
		expect(row('rig-01')).toContain('restarted (uptime 1m)');
		expect(row('rig-02')).toMatch(/^ !rig-02/);
	});

	test('the help says what ▸, * and ! before a name mean', async () => {
		const terminal = await renderTerminal(<App miners={rigs(3)} onQuit={() => {}} now={NOW} color={false} />, {columns: 200, rows: 50});
		await terminal.waitFor('3 rigs');
		await tick();
		await terminal.press('?', 'Keys');
		const frame = terminal.frame();
		expect(frame).toMatch(
			/marks +before a name: ▸ the selected rig · \* a marked rig \(Space; .*\) · ! a warning or error still open on it/,
		);
		// `*` is said once as a key (mark every rig shown); the marks are under their own word, not a second `*`.
		const keyed = (key: string) => linesOf(frame).filter((line) => new RegExp(`^[│ ]*\\${key} {2,}`).test(line));
		expect(keyed('*')).toHaveLength(1);
		expect(keyed('*')[0]).toMatch(/mark/);
		expect(keyed('▸')).toEqual([]);
	});
});
