/**
 * Issue 35, item 1: the marks, the selection, the sort, the filter and the first line shown are the fleet's, not its
 * screen's. Every screen opened from the fleet (a rig's dashboard, the chart, the events, the help, the fleet config
 * view) and a resize give it back as it was left.
 */
import {Text, useInput} from 'ink';
import {afterEach, describe, expect, test} from 'vitest';
import {SessionHistory} from '../../../../source/history/source.js';
import {HistoryStores} from '../../../../source/history/stores.js';
import {App, type AppMiner} from '../../../../source/ui/app.js';
import {createStore, makeSnapshot, makeState, NOW} from '../../helpers/state.js';
import {KEYS, linesOf, renderTerminal, tick} from '../../helpers/terminal.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function rigs(count: number): AppMiner[] {
	return Array.from({length: count}, (_, slot) => {
		const name = `rig-${String(slot + 1).padStart(2, '0')}`;
		const store = createStore(
			makeState({name, snapshot: makeSnapshot({workerId: name, hashrate: {total: [1000 * (slot + 1), 1000 * (slot + 1), null]}})}),
		);
		const history = new HistoryStores(new SessionHistory({monitor: store, slot, recorder: null, intervalMs: 2000, capacity: 10}), store);
		cleanups.push(() => history.close());
		return {store, history, onRefresh() {}};
	});
}

function FleetConfigSlot({rigs, onBack}: {readonly rigs: readonly number[]; readonly onBack: () => void}) {
	useInput((_input, key) => {
		if (key.escape) onBack();
	});
	return <Text>fleet config of {rigs.join(',')}</Text>;
}

const rowOf = (frame: string, name: string) => linesOf(frame).find((line) => line.includes(name)) ?? '';

function app(miners: readonly AppMiner[]) {
	return (
		<App
			miners={miners}
			onQuit={() => {}}
			now={NOW}
			color={false}
			renderConfig={() => <Text>config</Text>}
			renderFleetConfig={(marked, onBack) => <FleetConfigSlot rigs={marked} onBack={onBack} />}
		/>
	);
}

/** The fleet is back, as it was left: rig-01 and rig-02 marked, rig-03 selected. */
async function backAsLeft(terminal: Awaited<ReturnType<typeof renderTerminal>>): Promise<void> {
	await terminal.waitFor(/4 rigs[^]*rig-04/);
	await tick();
	const frame = terminal.frame();
	expect(frame).toContain('2 marked');
	expect(rowOf(frame, 'rig-01')).toMatch(/^ \* {1,2}rig-01/);
	expect(rowOf(frame, 'rig-02')).toMatch(/^ \* {1,2}rig-02/);
	expect(rowOf(frame, 'rig-03')).toMatch(/^▸ {2}rig-03/);
	expect(rowOf(frame, 'rig-04')).not.toMatch(/\*/);
}

describe('the fleet keeps its state while the screens opened from it show', () => {
	test('Space Space, Enter on another rig, Esc: still 2 marked; the same after g, e, ?, c and a resize', async () => {
		const terminal = await renderTerminal(app(rigs(4)), {columns: 100, rows: 24});
		await terminal.waitFor('4 rigs');
		await tick();
		await terminal.press('  ', '2 marked');

		// A rig's dashboard, and its config view from there.
		await terminal.press('\r', 'Hashrate');
		await tick();
		expect(linesOf(terminal.frame())[0]).toContain('rig-03');
		await terminal.press(KEYS.escape);
		await backAsLeft(terminal);

		// The chart of the selected rig.
		await terminal.press('g', /Esc /);
		await tick();
		expect(terminal.frame()).not.toContain('4 rigs');
		await terminal.press(KEYS.escape);
		await backAsLeft(terminal);

		// Every rig's events.
		await terminal.press('e', 'all rigs');
		await tick();
		await terminal.press(KEYS.escape);
		await backAsLeft(terminal);

		// The help over the table.
		await terminal.press('?', 'Keys');
		await terminal.press(KEYS.escape);
		await backAsLeft(terminal);

		// The fleet config view of the marked rigs.
		await terminal.press('c', 'fleet config of 0,1');
		await tick();
		await terminal.press(KEYS.escape);
		await backAsLeft(terminal);

		// A resize.
		terminal.resize(200, 50);
		await tick();
		await backAsLeft(terminal);
	});

	test('a sort, a filter and the first line shown come back too', async () => {
		const terminal = await renderTerminal(app(rigs(40)), {columns: 100, rows: 24});
		await terminal.waitFor('40 rigs');
		await tick();
		// Down to rig-30: the table scrolled; then up a few, so the selection is not on the last line shown.
		await terminal.press('j'.repeat(29), /▸ +rig-30/);
		await terminal.press('kkk', /▸ +rig-27/);
		await terminal.press(' ', '1 marked');
		const first = () => linesOf(terminal.frame()).find((line) => /rig-\d\d/.test(line)) ?? '';
		const top = first();
		expect(top).not.toContain('rig-01');
		await terminal.press('\r', 'Hashrate');
		await tick();
		await terminal.press(KEYS.escape, '40 rigs');
		await tick();
		expect(first()).toBe(top);
		expect(terminal.frame()).toContain('1 marked');
		expect(terminal.frame()).toMatch(/▸ {2}rig-28/);

		await terminal.press('I', /▼/);
		await terminal.press('/rig-1\r', /rig-1/);
		await terminal.press('\r', 'Hashrate');
		await tick();
		await terminal.press(KEYS.escape, 'rigs');
		await tick();
		expect(terminal.frame()).toMatch(/▼/);
		expect(terminal.frame()).not.toContain('rig-28');
		expect(terminal.frame()).toContain('1 marked');
	});
});
