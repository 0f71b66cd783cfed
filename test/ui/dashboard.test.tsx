import {stripVTControlCharacters} from 'node:util';
import {render} from 'ink-testing-library';
import fc from 'fast-check';
import {describe, expect, test, vi} from 'vitest';
import type {MonitorState} from '../../source/monitor/types.js';
import {App} from '../../source/ui/app.js';
import {Dashboard, type DashboardProps} from '../../source/ui/dashboard.js';
import {formatClock} from '../../source/format.js';
import {createStore, makeEvent, makeSnapshot, makeState, makeThreads, NOW, refused, wrongToken} from './helpers/state.js';
import {KEYS, linesOf, renderTerminal, type Terminal} from './helpers/terminal.js';

type Options = Partial<Omit<DashboardProps, 'store'>> & {readonly columns?: number; readonly rows?: number};

async function show(state: MonitorState, options: Options = {}) {
	const {columns = 80, rows = 24, onQuit = () => {}, ...rest} = options;
	const store = createStore(state);
	const terminal = await renderTerminal(<Dashboard store={store} onQuit={onQuit} now={NOW} {...rest} />, {columns, rows});
	return {store, terminal};
}

function expectFits(terminal: Terminal, columns: number, rows: number) {
	for (const frame of terminal.frames) {
		const lines = linesOf(stripVTControlCharacters(frame));
		expect(lines.length).toBeLessThanOrEqual(rows - 1);
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(columns);
	}
}

describe('live dashboard at 80×24', () => {
	test('in error with values on screen, the whole reason and its fix are on screen, wrapped above the events', async () => {
		const {terminal} = await show(
			makeState({status: 'error', error: wrongToken(), failingSince: NOW - 30_000, lastSuccessAt: NOW - 40_000}),
		);
		const frame = terminal.frame();
		const text = linesOf(frame)
			.map((line) => line.trim())
			.join(' ');
		expect(text).toContain(wrongToken().message);
		expect(text.replaceAll(/\s+/g, ' ')).toContain(`fix: ${wrongToken().hint}`.replaceAll(/\s+/g, ' '));
		expectFits(terminal, 80, 24);
	});

	test('a rig opened from the fleet whose threads were not read says why, not that the miner reports none', async () => {
		const unread = makeSnapshot({threads: [], perThreadRead: false});
		const down = await show(makeState({status: 'down', snapshot: unread, error: refused(), failingSince: NOW - 60_000}), {rows: 40});
		expect(down.terminal.frame()).toContain('the threads have not been read: the rig is down');
		expect(down.terminal.frame()).not.toContain('reports no per-thread rates');
		const live = await show(makeState({snapshot: unread}), {rows: 40});
		expect(live.terminal.frame()).toContain('reading the threads…');
		const none = await show(makeState({snapshot: makeSnapshot({threads: []})}), {rows: 40});
		expect(none.terminal.frame()).toContain('this miner reports no per-thread rates');
	});

	test('shows who the miner is and that it is live', async () => {
		const {terminal} = await show(makeState());
		const [header] = linesOf(terminal.frame());
		expect(header).toContain('rig-01');
		expect(header).toContain('XMRig 6.26.0');
		expect(header).toContain('rx/0');
		expect(header).toContain('up 3d 04h');
		expect(header).toMatch(/● live · 2s ago\s*$/);
	});

	test('names the worker id when the display name differs', async () => {
		const {terminal} = await show(makeState({name: 'basement'}));
		expect(terminal.frame()).toContain('basement (rig-01)');
	});

	test('hashrates carry units, and an unfilled window is "—", not 0', async () => {
		const {terminal} = await show(makeState());
		const frame = terminal.frame();
		expect(frame).toContain('10s 4.82 kH/s  60s 4.80  15m —');
		expect(frame).toContain('max 5.01 kH/s  avg 4.78 kH/s');
		expect(frame).toMatch(/[▁▂▃▄▅▆▇█]{30,}/);
	});

	test('a miner that just started shows dashes everywhere', async () => {
		const snapshot = makeSnapshot({hashrate: {total: [null, null, null], highest: null}});
		const {terminal} = await show(makeState({snapshot, history: [], sessionAverage: null}));
		expect(terminal.frame()).toContain('10s —  60s —  15m —');
		expect(terminal.frame()).toContain('max —  avg —');
		expect(terminal.frame()).toContain('collecting samples…');
	});

	test('pool, shares and system panes', async () => {
		const {terminal} = await show(makeState());
		const frame = terminal.frame();
		expect(frame).toContain('pool.example.org:443  TLSv1.3');
		expect(frame).toContain('ping 38 ms · diff 120K · up 2d 11h');
		expect(frame).toContain('failures 0 · ip 203.0.113.7');
		expect(frame).toContain('1 204 / 1 207 good · best 4.1M');
		expect(frame).toContain('3 rejected 0.2% · avg 31s');
		expect(frame).toContain('16C/32T AES AVX2 · AMD Ryzen 9 5950X');
		expect(frame).toContain('hugepages 1 168/1 168 100%');
		expect(frame).toContain('load 7.91 7.88 7.50 · rss 2.5 GB');
	});

	test('partial hugepages and an old miner without pages or resources', async () => {
		const partial = await show(makeState({snapshot: makeSnapshot({hugepages: {kind: 'pages', allocated: 600, total: 1168}})}));
		expect(partial.terminal.frame()).toContain('hugepages 600/1 168 51.4%');
		const old = makeSnapshot({
			version: '2.16.0-beta',
			kind: 'cpu',
			uptime: null,
			paused: null,
			hugepages: {kind: 'flag', enabled: true},
			resources: null,
		});
		const legacy = await show(makeState({snapshot: old}));
		expect(legacy.terminal.frame()).toContain('XMRig 2.16.0-beta');
		expect(linesOf(legacy.terminal.frame())[0]).not.toContain(' up ');
		expect(legacy.terminal.frame()).toContain('hugepages on');
		expect(legacy.terminal.frame()).toContain('load — · rss —');
	});

	test('events, newest first, with their time', async () => {
		const {terminal} = await show(makeState());
		const lines = linesOf(terminal.frame());
		const events = lines.at(-2) ?? '';
		expect(events).toContain(`${formatClock(NOW)} share rejected: low difficulty · ${formatClock(NOW - 20 * 60_000)} pool reconnected`);
	});

	test('the footer offers only the actions the app gave', async () => {
		const bare = await show(makeState());
		expect(linesOf(bare.terminal.frame()).at(-1)).toBe(' q quit  ? help  ↑↓ threads');
		const full = await show(makeState(), {onConfig() {}, onPause() {}, onResume() {}, onRefresh() {}});
		// The miner says it is mining, so pause is offered and resume is not.
		expect(linesOf(full.terminal.frame()).at(-1)).toBe(' q quit  ? help  c config  p pause  R refresh  ↑↓ threads');
		const paused = await show(makeState({snapshot: makeSnapshot({paused: true})}), {onPause() {}, onResume() {}});
		expect(linesOf(paused.terminal.frame()).at(-1)).toBe(' q quit  ? help  r resume  ↑↓ threads');
		expect(linesOf(paused.terminal.frame())[0]).toContain('● PAUSED');
	});

	test('no pool is said in the header and the pool pane', async () => {
		const snapshot = makeSnapshot({connection: {connected: false, ip: null, uptime: 0}});
		const {terminal} = await show(makeState({snapshot}));
		expect(linesOf(terminal.frame())[0]).toContain('● no pool · 2s ago');
		expect(terminal.frame()).toContain('pool.example.org:443  disconnected');
	});
});

describe('when the miner goes away', () => {
	test('stale: last values stay, marked, and the header says for how long', async () => {
		const {terminal} = await show(makeState({status: 'stale', lastSuccessAt: NOW - 12_000, error: refused()}));
		const frame = terminal.frame();
		expect(linesOf(frame)[0]).toMatch(/● stale · 12s\s*$/);
		for (const title of ['Hashrate (stale)', 'Pool (stale)', 'Shares (stale)', 'System (stale)', 'Threads 16 (stale)'])
			expect(frame).toContain(title);
		expect(frame).toContain('10s 4.82 kH/s');
	});

	test('down: since when and why, and how to fix it', async () => {
		const since = NOW - 180_000;
		const {terminal} = await show(makeState({status: 'down', failingSince: since, error: refused()}));
		const frame = terminal.frame();
		expect(linesOf(frame)[0]).toContain(`● down since ${formatClock(since)} — connection refused`);
		expect(frame).toContain('Hashrate (stale)');
		expect(frame).toContain('fix: check that XMRig is running');
	});

	test('error: the reason in the header', async () => {
		const {terminal} = await show(makeState({status: 'error', error: wrongToken()}));
		expect(linesOf(terminal.frame())[0]).toContain('● error — wrong token (403)');
		expect(terminal.frame()).toContain('fix: the token is wrong');
	});

	test('updates from the store are drawn, and recovery clears the marks', async () => {
		const {store, terminal} = await show(makeState({status: 'stale', lastSuccessAt: NOW - 12_000, error: refused()}));
		store.set({
			status: 'live',
			lastSuccessAt: NOW - 1000,
			error: null,
			snapshot: makeSnapshot({hashrate: {total: [9123.45, 9110.02, 9000]}}),
		});
		await terminal.waitFor('● live · 1s ago');
		expect(terminal.frame()).not.toContain('(stale)');
		expect(terminal.frame()).toContain('10s 9.12 kH/s  60s 9.11  15m 9.00');
	});
});

describe('before any data', () => {
	test('a connecting screen names the URL', async () => {
		const {terminal} = await show(makeState({status: 'connecting', snapshot: null, lastSuccessAt: null, events: []}));
		expect(terminal.frame()).toContain('connecting to http://127.0.0.1:18088 …');
		expect(linesOf(terminal.frame())[0]).toContain('● connecting');
	});

	test('an error before any data explains it and its fix', async () => {
		const state = makeState({status: 'error', snapshot: null, lastSuccessAt: null, error: wrongToken(), nextPollAt: null});
		const {terminal} = await show(state);
		const frame = terminal.frame();
		expect(frame).toContain('✗ cannot use the miner at http://127.0.0.1:18088');
		expect(frame).toContain('wrong token (403)');
		expect(frame).toContain('fix: the token is wrong: use the value of http.access-token');
	});

	test('an unreachable miner says it is retrying', async () => {
		const state = makeState({
			status: 'down',
			snapshot: null,
			lastSuccessAt: null,
			error: refused(),
			failingSince: NOW - 60_000,
			consecutiveFailures: 4,
			nextPollAt: NOW + 8000,
		});
		const {terminal} = await show(state);
		expect(terminal.frame()).toContain('✗ cannot reach http://127.0.0.1:18088');
		expect(terminal.frame()).toContain('retrying in 8s');
		expectFits(terminal, 80, 24);
	});

	test('the first answer replaces the waiting screen', async () => {
		const {store, terminal} = await show(makeState({status: 'connecting', snapshot: null, lastSuccessAt: null}));
		store.set({status: 'live', snapshot: makeSnapshot(), lastSuccessAt: NOW});
		await terminal.waitFor('Hashrate');
		expect(terminal.frame()).not.toContain('connecting to');
	});
});

describe('threads', () => {
	test('scroll with ↓, j, PgDn and End, and the title says which rows are shown', async () => {
		const {terminal} = await show(makeState());
		expect(terminal.frame()).toContain('Threads 16 · H/s · rows 1–7 of 16 · ↑↓');
		expect(terminal.frame()).toMatch(/^│\s+0\s+300\.0\s+299\.6\s+—\s+1\s+0\s+│$/m);
		await terminal.press(KEYS.down, 'rows 2–8 of 16');
		expect(terminal.frame()).not.toMatch(/^│\s+0\s+300\.0/m);
		expect(terminal.frame()).toMatch(/^│\s+7\s+300\.7/m);
		await terminal.press('j', 'rows 3–9 of 16');
		await terminal.press(KEYS.pageDown, 'rows 10–16 of 16');
		await terminal.press(KEYS.down);
		expect(terminal.frame()).toContain('rows 10–16 of 16');
		await terminal.press(KEYS.up, 'rows 9–15 of 16');
		await terminal.press(KEYS.home, 'rows 1–7 of 16');
		await terminal.press(KEYS.end, 'rows 10–16 of 16');
	});

	test('back-to-back keys are all counted', async () => {
		const {terminal} = await show(makeState());
		await terminal.press(`${KEYS.down}${KEYS.down}`);
		await terminal.press('j');
		await terminal.press('j', 'rows 5–11 of 16');
	});

	test('no scroll hint when every thread fits', async () => {
		const {terminal} = await show(makeState({snapshot: makeSnapshot({threads: makeThreads(4)})}));
		expect(terminal.frame()).toContain('Threads 4 · H/s ─');
		expect(linesOf(terminal.frame()).at(-1)).not.toContain('↑↓');
	});

	test('64 threads at 80×24: no frame is taller than the terminal', async () => {
		const {terminal} = await show(makeState({snapshot: makeSnapshot({threads: makeThreads(64)})}));
		await terminal.press(KEYS.pageDown, 'rows 8–14 of 64');
		await terminal.press('?', 'Keys');
		await terminal.press('?');
		await terminal.press(KEYS.end, 'rows 58–64 of 64');
		expect(linesOf(terminal.frame())).toHaveLength(23);
		expectFits(terminal, 80, 24);
	});

	test('GPU threads next to CPU threads each keep their own unit', async () => {
		const gpu = {
			backend: 'opencl',
			index: 0,
			hashrate: [1_200_000, 1_190_000, null] as const,
			intensity: 1024,
			affinity: null,
			device: 'RX 580',
			health: {temperature: 65, power: 120, clock: null, memClock: null, fan: null},
		};
		const {terminal} = await show(makeState({snapshot: makeSnapshot({threads: [...makeThreads(2), gpu]})}), {columns: 100, rows: 30});
		const frame = terminal.frame();
		expect(frame).toMatch(/cpu\s+0\s+300 H\/s\s+300 H\/s\s+—/);
		expect(frame).toMatch(/opencl\s+0\s+1\.20 MH\/s\s+1\.19 MH\/s\s+—\s+1024\s+—\s+RX 580 65°C 120W/);
	});
});

describe('keys', () => {
	test('? opens the help overlay listing the keys; ? or Esc closes it', async () => {
		const {terminal} = await show(makeState(), {onPause() {}});
		await terminal.press('?', 'Keys');
		const frame = terminal.frame();
		expect(frame).toContain('q, Ctrl+C  quit rigtop');
		expect(frame).toContain('p          pause mining');
		expect(frame).toContain("c          view and edit the miner's config (not available here)");
		expect(frame).not.toContain('Hashrate');
		expect(linesOf(frame).at(-1)).toBe(' q quit  ? help  Esc close');
		await terminal.press(KEYS.escape, 'Hashrate');
		await terminal.press('?', 'Keys');
		await terminal.press('?', 'Hashrate');
	});

	test('q and Ctrl+C call onQuit', async () => {
		const onQuit = vi.fn();
		const {terminal} = await show(makeState(), {onQuit});
		await terminal.press('q');
		await vi.waitFor(() => {
			expect(onQuit).toHaveBeenCalledTimes(1);
		});
		await terminal.press(KEYS.ctrlC);
		await vi.waitFor(() => {
			expect(onQuit).toHaveBeenCalledTimes(2);
		});
	});

	test('c, p, r and R reach their callbacks, in order, once each', async () => {
		const calls: string[] = [];
		const {terminal} = await show(makeState(), {
			onConfig: () => calls.push('config'),
			onPause: () => calls.push('pause'),
			onResume: () => calls.push('resume'),
			onRefresh: () => calls.push('refresh'),
		});
		await terminal.press('p');
		await terminal.press('r');
		await terminal.press('R');
		await terminal.press('c');
		await vi.waitFor(() => {
			expect(calls).toEqual(['pause', 'resume', 'refresh', 'config']);
		});
		await terminal.press(KEYS.down);
		expect(calls).toHaveLength(4);
	});

	test('keys for actions the app did not give do nothing', async () => {
		const onQuit = vi.fn();
		const {terminal} = await show(makeState(), {onQuit});
		await terminal.press('p');
		await terminal.press('c');
		await terminal.press('r');
		expect(onQuit).not.toHaveBeenCalled();
		expect(terminal.frame()).toContain('Hashrate');
	});
});

describe('terminal size', () => {
	test('follows resize events, staying under the new height', async () => {
		const {terminal} = await show(makeState({snapshot: makeSnapshot({threads: makeThreads(64)})}));
		terminal.resize(120, 40);
		await terminal.waitFor('rows 1–20 of 64');
		expect(linesOf(terminal.frame())).toHaveLength(39);
		expect(linesOf(terminal.frame())[1]).toHaveLength(120);
		terminal.resize(80, 16);
		await vi.waitFor(() => {
			expect(terminal.frame()).not.toContain('Threads');
		});
		expect(linesOf(terminal.frame()).length).toBeLessThanOrEqual(15);
	});

	test('any size, any state: never taller than rows - 1, never wider than the terminal', async () => {
		const states = [
			makeState({
				snapshot: makeSnapshot({threads: makeThreads(64)}),
				events: Array.from({length: 20}, (_, index) => makeEvent(index, index, `event number ${index} with a long message that goes on`)),
			}),
			makeState({status: 'down', failingSince: NOW - 60_000, error: refused()}),
			makeState({status: 'error', snapshot: null, error: wrongToken()}),
			makeState({status: 'connecting', snapshot: null}),
		];
		await fc.assert(
			fc.asyncProperty(
				fc.integer({min: 30, max: 220}),
				fc.integer({min: 3, max: 70}),
				fc.integer({min: 0, max: states.length - 1}),
				fc.boolean(),
				async (columns, rows, which, help) => {
					const {terminal} = await show(states[which] ?? makeState(), {columns, rows});
					if (help) await terminal.press('?');
					expectFits(terminal, columns, rows);
					terminal.unmount();
				},
			),
			{numRuns: 20},
		);
	});
});

describe('last accepted share', () => {
	test('is unknown until the count goes up, then dated to that poll', async () => {
		const {store, terminal} = await show(makeState());
		expect(terminal.frame()).toContain('last share —');
		const snapshot = makeSnapshot({results: {good: 1205, total: 1208}});
		store.set({snapshot, lastSuccessAt: NOW - 3000});
		await terminal.waitFor('last share 3s ago');
		expect(terminal.frame()).toContain('1 205 / 1 208 good');
	});
});

describe('wiring', () => {
	test('App renders the dashboard; unmounting unsubscribes from the store', async () => {
		const store = createStore(makeState());
		const {lastFrame, unmount} = render(<App miners={[{store}]} onQuit={() => {}} now={NOW} color={false} />);
		expect(lastFrame()).toContain('rig-01');
		expect(store.listeners).toBe(1);
		unmount();
		expect(store.listeners).toBe(0);
	});

	test('a store whose methods need `this` works (like the Monitor class)', async () => {
		class ClassStore {
			private readonly state = makeState();
			private readonly listeners = new Set<() => void>();
			subscribe(listener: () => void) {
				this.listeners.add(listener);
				return () => this.listeners.delete(listener);
			}

			getState() {
				return this.state;
			}
		}

		const terminal = await renderTerminal(<Dashboard store={new ClassStore()} onQuit={() => {}} now={NOW} />);
		expect(terminal.frame()).toContain('rig-01');
	});
});
