import {describe, expect, test} from 'vitest';
import {App, type AppMiner} from '../../../../source/ui/app.js';
import {createStore, makeSnapshot, makeState, NOW, type TestStore} from '../../helpers/state.js';
import {KEYS, linesOf, renderTerminal} from '../../helpers/terminal.js';

function stores(count: number, status: 'live' | 'connecting' = 'live'): TestStore[] {
	return Array.from({length: count}, (_, index) => {
		const name = `rig-${String(index + 1).padStart(2, '0')}`;
		const snapshot = makeSnapshot({workerId: name, hashrate: {total: [1000 * (index + 1), 1000 * (index + 1), null]}});
		return createStore(
			status === 'live'
				? makeState({name, snapshot})
				: makeState({name, status: 'connecting', snapshot: null, lastSuccessAt: null, recentRates: [], sessionAverage: null, events: []}),
		);
	});
}

const miners = (list: readonly TestStore[]): AppMiner[] => list.map((store) => ({store}));

describe('the fleet sort marker', () => {
	test.each([40, 80, 200])('the listed order shows on the rig column at %i columns, and reversed', async (columns) => {
		const terminal = await renderTerminal(<App miners={miners(stores(5))} onQuit={() => {}} now={NOW} color={false} />, {
			columns,
			rows: 24,
		});
		expect(linesOf(terminal.frame())[1]).toMatch(/^ {2}rig listed▲ /);
		await terminal.press('I', 'rig listed▼');
		const lines = linesOf(terminal.frame());
		expect(lines[1]).toMatch(/^ {2}rig listed▼ /);
		expect(lines[2]).toMatch(/^▸ rig-05 /);
		// Every step of `s` has a marker: state, 10s, 15m, rejects, uptime, name, and back to the listed order.
		const marks: string[] = [];
		for (const expected of ['state▼', '10s▲', '15m▲', 'rej▼', 'up▲', 'rig▲', 'rig listed▲']) {
			await terminal.press('s', expected);
			marks.push(/[▲▼]/.exec(linesOf(terminal.frame())[1] ?? '')?.[0] ?? 'none');
		}

		expect(marks).not.toContain('none');
		for (const line of linesOf(terminal.frame())) expect(line.length).toBeLessThanOrEqual(columns);
	});
});

describe('the fleet totals under a filter', () => {
	test('the totals row says "shown" while a filter hides rigs, "total" again once it is cleared', async () => {
		const terminal = await renderTerminal(<App miners={miners(stores(5))} onQuit={() => {}} now={NOW} color={false} />, {
			columns: 80,
			rows: 24,
		});
		const totalsLine = () => linesOf(terminal.frame()).find((line) => /^ {2}(total|shown) /.test(line)) ?? '';
		expect(totalsLine()).toMatch(/^ {2}total +5\/5 up +15\.0 kH\/s/);
		await terminal.press('/');
		await terminal.press('rig-01', '1 of 5');
		await terminal.press('\r');
		expect(linesOf(terminal.frame())[0]).toMatch(/5 rigs · 15\.0 kH\/s total/);
		expect(totalsLine()).toMatch(/^ {2}shown +1\/1 up +1\.00 kH\/s/);
		await terminal.press(KEYS.escape, /total +5\/5 up/);
		expect(totalsLine()).toMatch(/^ {2}total +5\/5 up +15\.0 kH\/s/);
	});
});

describe('the fleet on a fresh start', () => {
	test('29 rigs at 80×24 that come up while sorted by state: the list stays at the top, its first line selected', async () => {
		const list = stores(29, 'connecting');
		const terminal = await renderTerminal(<App miners={miners(list)} onQuit={() => {}} now={NOW} color={false} fleetThrottleMs={0} />, {
			columns: 80,
			rows: 24,
		});
		expect(linesOf(terminal.frame())[2]).toMatch(/^▸ rig-01 /);
		await terminal.press('s', 'state▼');
		// The first three answer: live sorts after connecting (trouble first).
		// Each answers with its own worker id, its name (none is shown beside it).
		const answer = (store: TestStore) =>
			({status: 'live', snapshot: makeSnapshot({workerId: store.getState().name}), lastSuccessAt: NOW - 2000}) as const;
		for (const store of list.slice(0, 3)) store.set(answer(store));
		await terminal.waitFor(/3 live/);
		const lines = linesOf(terminal.frame());
		expect(lines[0]).toMatch(/rigs 1–\d+ of 29/);
		expect(lines[2]).toMatch(/^▸ rig-04 /);
		// A key that moves the selection chooses a rig: it is followed from then on.
		await terminal.press(KEYS.down, /▸ rig-05/);
		list[4]!.set(answer(list[4]!));
		await terminal.waitFor(/4 live/);
		expect(terminal.frame()).toMatch(/▸ rig-05 +live/);
	});
});
