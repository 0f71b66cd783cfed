/**
 * What the screens remember between runs (prefs/prefs.ts), through the App: the fleet's sort and filter and the
 * chart's span start as the last run left them, and each change reaches the file (a real one, in a temporary state
 * folder); the defaults of a first run are not written.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {PrefsFile} from '../../source/prefs/prefs.js';
import {App, type AppMiner} from '../../source/ui/app.js';
import {tempDir} from '../config/helpers/fixtures.js';
import {createStore, makeSnapshot, makeState, NOW} from './helpers/state.js';
import {nightHistory} from './helpers/history.js';
import {KEYS, linesOf, renderTerminal} from './helpers/terminal.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function stateDir(): string {
	const temp = tempDir('rigtop-app-prefs-');
	cleanups.push(temp.remove);
	return path.join(temp.dir, 'rigtop');
}

function rigs(count: number): AppMiner[] {
	return Array.from({length: count}, (_, index) => {
		const name = `rig-${String(index + 1).padStart(2, '0')}`;
		const rate = 1000 * (index + 1);
		return {store: createStore(makeState({name, snapshot: makeSnapshot({workerId: name, hashrate: {total: [rate, rate, null]}})}))};
	});
}

const fileOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'prefs.json'), 'utf8')) as unknown;

describe('remembered between runs', () => {
	test("the fleet's sort and filter: a first run writes nothing until they change; the next run starts with them", async () => {
		const dir = stateDir();
		const first = new PrefsFile({stateDir: dir, writeDelayMs: 60_000});
		const terminal = await renderTerminal(<App miners={rigs(3)} onQuit={() => {}} now={NOW} color={false} prefs={first} />);
		await terminal.waitFor('3 rigs');
		expect(first.current).toEqual({});
		// s s: by state, then by 10s (lowest first); I: highest first.
		await terminal.press('s', 'by state');
		await terminal.press('s', 'by 10s, lowest first');
		await terminal.press('I', 'by 10s, highest first');
		expect(linesOf(terminal.frame())[2]).toMatch(/^. rig-03 /u);
		terminal.unmount();
		await first.close();
		expect(fileOf(dir)).toEqual({fleet: {sort: 'r10', reversed: true, filter: ''}});

		const second = new PrefsFile({stateDir: dir, writeDelayMs: 60_000});
		const again = await renderTerminal(<App miners={rigs(3)} onQuit={() => {}} now={NOW} color={false} prefs={second} />);
		await again.waitFor('by 10s, highest first');
		expect(linesOf(again.frame())[2]).toMatch(/^. rig-03 /u);
		await again.press('/', '/▏');
		await again.press('rig-01', '/rig-01▏ 1 of 3');
		await again.press('\r', /^ \/rig-01 1 of 3/mu);
		again.unmount();
		await second.close();
		expect(fileOf(dir)).toEqual({fleet: {sort: 'r10', reversed: true, filter: 'rig-01'}});
	});

	test('a filter from the last run that hides rigs is said at start, and a rig in error it hides is counted in the header', async () => {
		const dir = stateDir();
		const last = new PrefsFile({stateDir: dir, writeDelayMs: 60_000});
		last.update({fleet: {sort: 'listed', reversed: false, filter: 'one'}});
		await last.close();
		const miners: AppMiner[] = [
			{store: createStore(makeState({name: 'rig-one', snapshot: makeSnapshot({workerId: 'rig-one'})}))},
			{store: createStore(makeState({name: 'rig-two', status: 'error', snapshot: null}))},
		];
		const prefs = new PrefsFile({stateDir: dir, writeDelayMs: 60_000});
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} prefs={prefs} />);
		await terminal.waitFor('rig-one');
		const lines = linesOf(terminal.frame());
		expect(lines.at(-1)).toBe(' filter /one from last time hides 1 of 2 rigs · Esc clears');
		expect(lines[0]).toMatch(/● 1 live · 1 error \(1 hidden\)$/u);
		expect(terminal.frame()).not.toContain('rig-two');
		// Any key ends the notice; the footer says the filter as it always does, and the header still counts the rig.
		await terminal.press('j', /^ \/one 1 of 2/mu);
		expect(terminal.frame()).not.toContain('from last time');
		// Said once: not again on coming back from a rig's dashboard.
		await terminal.press('\r', 'Hashrate');
		await terminal.press(KEYS.escape, /^ \/one 1 of 2/mu);
		expect(terminal.frame()).not.toContain('from last time');
		expect(linesOf(terminal.frame())[0]).toContain('1 error (1 hidden)');
		// Esc clears the filter: the rig in error is listed, and no longer counted as hidden.
		await terminal.press(KEYS.escape, 'rig-two');
		expect(linesOf(terminal.frame())[0]).toMatch(/● 1 live · 1 error$/u);
		terminal.unmount();
		await prefs.close();
	});

	test("the chart's span: the chart opens with the last one chosen, in this run and the next", async () => {
		const dir = stateDir();
		const store = createStore(makeState({lastSuccessAt: NOW, lastAttemptAt: NOW}));
		const night = nightHistory(store);
		cleanups.push(() => night.close());
		const first = new PrefsFile({stateDir: dir, writeDelayMs: 60_000});
		const terminal = await renderTerminal(<App miners={[{store, history: night.history}]} onQuit={() => {}} now={NOW} prefs={first} />);
		await terminal.press('g', 'rig-01 · last 1 h');
		await terminal.press(KEYS.escape, 'Hashrate');
		// Opened and closed at its default: nothing to remember.
		expect(first.current).toEqual({});
		await terminal.press('g', 'last 1 h');
		await terminal.press('3', 'rig-01 · last 6 h');
		await terminal.press(KEYS.escape, 'Hashrate');
		await terminal.press('g', 'rig-01 · last 6 h');
		terminal.unmount();
		await first.close();
		expect(fileOf(dir)).toEqual({chartSpanMs: 6 * 3_600_000});

		const second = new PrefsFile({stateDir: dir});
		const again = await renderTerminal(<App miners={[{store, history: night.history}]} onQuit={() => {}} now={NOW} prefs={second} />);
		await again.press('g', 'rig-01 · last 6 h');
		again.unmount();
		await second.close();
	});
});
