/**
 * The fleet keeps the screen contract (screens/contract.ts): its keys are reduced against the frame on screen, the app
 * hears of a change from the key that made it (never from a render), its keys follow what the app gives at each
 * render, and its clock is the App's.
 */
import {stripVTControlCharacters} from 'node:util';
import {useEffect, useState} from 'react';
import {describe, expect, test, vi} from 'vitest';
import type {MonitorState} from '../../../../source/monitor/types.js';
import {App, type AppMiner} from '../../../../source/ui/app.js';
import {FixedNowContext} from '../../../../source/ui/hooks/use-now.js';
import type {FleetSaved} from '../../../../source/ui/screens/fleet/reduce.js';
import {FleetStore} from '../../../../source/ui/screens/fleet/store.js';
import {FleetView, type FleetCaps, type FleetViewProps} from '../../../../source/ui/screens/fleet/view.js';
import {createStore, makeSnapshot, makeState, NOW, refused} from '../../helpers/state.js';
import {KEYS, linesOf, renderTerminal, tick} from '../../helpers/terminal.js';

function states(count: number): MonitorState[] {
	return Array.from({length: count}, (_, index) => {
		const name = `rig-${String(index + 1).padStart(2, '0')}`;
		const rate = 1000 * (index + 1);
		return makeState({
			name,
			url: `http://127.0.0.1:${18_081 + index}`,
			snapshot: makeSnapshot({workerId: name, hashrate: {total: [rate, rate, null]}}),
		});
	});
}

const miners = (list: readonly MonitorState[]): AppMiner[] => list.map((state) => ({store: createStore(state)}));

const fleetOf = (list: readonly MonitorState[]) =>
	new FleetStore(
		list.map((state) => createStore(state)),
		{throttleMs: 0},
	);

/** The fleet's capabilities as `onX` props (`onQuit`: `caps.quit`). */
type OnCaps = {readonly [K in keyof FleetCaps as `on${Capitalize<K>}`]?: FleetCaps[K]};

/** The fleet view on its own, under the App's clock, as the App draws it. */
function Fleet({onQuit = () => {}, onOpen = () => {}, onRefreshAll, onSave, onSelect, ...props}: Omit<FleetViewProps, 'caps'> & OnCaps) {
	return (
		<FixedNowContext.Provider value={NOW}>
			<FleetView {...props} caps={{quit: onQuit, open: onOpen, refreshAll: onRefreshAll, save: onSave, select: onSelect}} />
		</FixedNowContext.Provider>
	);
}

describe('the fleet reduces keys against the frame on screen', () => {
	test("PgDn read right after the frame at a new size is drawn pages by that frame's rig rows", async () => {
		const terminal = await renderTerminal(<App miners={miners(states(100))} onQuit={() => {}} now={NOW} color={false} />, {
			columns: 80,
			rows: 24,
		});
		expect(linesOf(terminal.frame())[0]).toContain('rigs 1–18 of 100');
		// The key comes in as soon as the frame at 80×12 (six rig rows) is written, before React's passive effects run:
		// a terminal's next read can land there.
		const frames = terminal.frames as string[];
		const push = frames.push.bind(frames);
		let sent = false;
		frames.push = (...added: string[]) => {
			const count = push(...added);
			if (!sent && added.some((frame) => stripVTControlCharacters(frame).includes('rigs 1–6 of 100'))) {
				sent = true;
				queueMicrotask(() => void terminal.press(KEYS.pageDown));
			}

			return count;
		};

		terminal.resize(80, 12);
		await terminal.waitFor(/▸ rig-\d+/);
		await vi.waitFor(() => expect(sent).toBe(true));
		await terminal.waitFor(/▸ rig-07/);
		expect(linesOf(terminal.frame())[0]).toContain('rigs 2–7 of 100');
	});
});

describe('the fleet tells the app from the key that made the change', () => {
	test('nothing on opening; each sort, filter and selection change once, as its key is reduced', async () => {
		const saves: FleetSaved[] = [];
		const selects: number[] = [];
		const terminal = await renderTerminal(
			<Fleet
				fleet={fleetOf(states(3))}
				initialSelected={1}
				saved={{sort: {key: 'r10', reversed: false}, filter: ''}}
				onSave={(saved) => saves.push(saved)}
				onSelect={(index) => selects.push(index)}
			/>,
		);
		await terminal.waitFor(/▸ rig-02/);
		await tick();
		expect(saves).toEqual([]);
		expect(selects).toEqual([]);

		await terminal.press('I', 'by 10s, highest first');
		expect(saves).toEqual([{sort: {key: 'r10', reversed: true}, filter: ''}]);
		await terminal.press('j', /▸ rig-01/);
		expect(selects).toEqual([0]);
		// Typing a filter is not a filter in force: only Enter makes it one.
		await terminal.press('/', '/▏');
		await terminal.press('rig-0', '/rig-0▏ 3 of 3');
		expect(saves).toHaveLength(1);
		await terminal.press('3', '/rig-03▏ 1 of 3');
		// The filter hides rig-01: the first rig shown, rig-03, is the one selected now.
		expect(selects).toEqual([0, 2]);
		await terminal.press('\r', /^ \/rig-03 1 of 3/m);
		expect(saves).toEqual([
			{sort: {key: 'r10', reversed: true}, filter: ''},
			{sort: {key: 'r10', reversed: true}, filter: 'rig-03'},
		]);
		expect(selects).toEqual([0, 2]);
	});
});

describe('the fleet offers what the app gives it now', () => {
	test('R appears in the footer and polls once the app gives a way to poll every rig, and goes when it is taken away', async () => {
		const fleet = fleetOf(states(3));
		const polled: number[] = [];
		let give: ((given: boolean) => void) | undefined;
		function Giving() {
			const [given, setGiven] = useState(false);
			useEffect(() => {
				give = setGiven;
			}, []);
			return <Fleet fleet={fleet} {...(given ? {onRefreshAll: () => polled.push(1)} : {})} />;
		}

		const terminal = await renderTerminal(<Giving />);
		expect(linesOf(terminal.frame()).at(-1)).not.toContain('R refresh');
		give?.(true);
		await terminal.waitFor('R refresh');
		await terminal.press('R');
		expect(polled).toEqual([1]);
		give?.(false);
		await vi.waitFor(() => expect(linesOf(terminal.frame()).at(-1)).not.toContain('R refresh'));
		await terminal.press('R');
		expect(polled).toEqual([1]);
	});
});

describe("the fleet's clock", () => {
	test("is the App's: a rig down since four minutes before the App's now reads down 4m", async () => {
		const down = makeState({
			name: 'rig-02',
			snapshot: makeSnapshot({workerId: 'rig-02'}),
			status: 'down',
			failingSince: NOW - 4 * 60_000,
			error: refused(),
		});
		const terminal = await renderTerminal(<Fleet fleet={fleetOf([states(1)[0]!, down])} />);
		await terminal.waitFor(/rig-02 +down 4m/);
	});
});
