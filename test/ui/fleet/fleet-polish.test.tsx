import {describe, expect, test} from 'vitest';
import {App, type AppMiner} from '../../../source/ui/app.js';
import {createStore, makeSnapshot, makeState, NOW, type TestStore} from '../helpers/state.js';
import {KEYS, linesOf, renderTerminal} from '../helpers/terminal.js';

function stores(count: number, status: 'live' | 'connecting' = 'live'): TestStore[] {
	return Array.from({length: count}, (_, index) => {
		const name = `rig-${String(index + 1).padStart(2, '0')}`;
		const snapshot = makeSnapshot({workerId: name, hashrate: {total: [1000 * (index + 1), 1000 * (index + 1), null]}});
		return createStore(
			status === 'live'
				? makeState({name, snapshot})
				: makeState({name, status: 'connecting', snapshot: null, lastSuccessAt: null, history: [], sessionAverage: null, events: []}),
		);
	});
}

const miners = (list: readonly TestStore[]): AppMiner[] => list.map((store) => ({store}));

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
		for (const store of list.slice(0, 3)) store.set({status: 'live', snapshot: makeSnapshot(), lastSuccessAt: NOW - 2000});
		await terminal.waitFor(/3 live/);
		const lines = linesOf(terminal.frame());
		expect(lines[0]).toMatch(/rigs 1–\d+ of 29/);
		expect(lines[2]).toMatch(/^▸ rig-04 /);
		// A key that moves the selection chooses a rig: it is followed from then on.
		await terminal.press(KEYS.down, /▸ rig-05/);
		list[4]!.set({status: 'live', snapshot: makeSnapshot(), lastSuccessAt: NOW - 2000});
		await terminal.waitFor(/4 live/);
		expect(terminal.frame()).toMatch(/▸ rig-05 +live/);
	});
});
