import {render} from '../../helpers/ink-testing.js';
import fc from 'fast-check';
import {describe, expect, test, vi} from 'vitest';
import {MinerError} from '../../../../source/miner/errors.js';
import type {MonitorState} from '../../../../source/monitor/types.js';
import {App} from '../../../../source/ui/app.js';
import {Dashboard, type DashboardCaps, type DashboardProps} from '../../../../source/ui/screens/dashboard/view.js';
import {formatClock} from '../../../../source/text/format.js';
import {FixedNowContext} from '../../../../source/ui/hooks/use-now.js';
import {PollInterval} from '../../../../source/monitor/poll-interval.js';
import {createStore, makeEvent, makeSnapshot, makeState, makeThreads, NOW, refused, wrongToken} from '../../helpers/state.js';
import {expectFits, KEYS, linesOf, renderTerminal} from '../../helpers/terminal.js';

/** The dashboard's capabilities as `onX` options (`onQuit`: `caps.quit`). */
type OnCaps = {readonly [K in keyof DashboardCaps as `on${Capitalize<K>}`]?: DashboardCaps[K]};
type Options = Partial<Omit<DashboardProps, 'store' | 'caps'>> & OnCaps & {readonly columns?: number; readonly rows?: number};

async function show(state: MonitorState, options: Options = {}) {
	const {columns = 80, rows = 24, onQuit = () => {}, onConfig, onPause, onResume, onRefresh, onBack, onChart, onEvents, ...rest} = options;
	const store = createStore(state);
	const caps: DashboardCaps = {
		quit: onQuit,
		config: onConfig,
		pause: onPause,
		resume: onResume,
		refresh: onRefresh,
		back: onBack,
		chart: onChart,
		events: onEvents,
	};
	const terminal = await renderTerminal(
		<FixedNowContext.Provider value={NOW}>
			<Dashboard store={store} caps={caps} {...rest} />
		</FixedNowContext.Provider>,
		{columns, rows},
	);
	return {store, terminal};
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

	test('a long reason and fix wrap over every line they need, never cut, at 80 and at 60 columns', async () => {
		const error = new MinerError('unauthorized', 'the miner refused rigtop (401): it wants a token, or refuses one it did not ask for', {
			status: 401,
			hint:
				"set http.restricted to false in the miner's config file (with http.access-token set to a token) and restart the miner, " +
				'then give rigtop that token with --token-file or RIGTOP_TOKEN',
		});
		for (const columns of [80, 60]) {
			const {terminal} = await show(makeState({status: 'error', error, failingSince: NOW - 30_000, lastSuccessAt: NOW - 40_000}), {
				columns,
			});
			const text = linesOf(terminal.frame())
				.map((line) => line.replace(/^[│ ]+|[│ ]+$/g, ''))
				.join(' ')
				.replaceAll(/\s+/g, ' ');
			expect(text).toContain(`${error.message} — fix: ${error.hint}`);
			expectFits(terminal, columns, 24);
		}
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
		const {terminal} = await show(makeState({snapshot, recentRates: [], sessionAverage: null}));
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
		expect(linesOf(bare.terminal.frame()).at(-1)).toBe(' q quit  ? help  ↑↓ threads  f freeze');
		const full = await show(makeState(), {onConfig() {}, onPause() {}, onResume() {}, onRefresh() {}});
		// The miner says it is mining, so pause is offered and resume is not.
		expect(linesOf(full.terminal.frame()).at(-1)).toBe(' q quit  ? help  c config  p pause  R refresh  ↑↓ threads  f freeze');
		const paused = await show(makeState({snapshot: makeSnapshot({paused: true})}), {onPause() {}, onResume() {}});
		expect(linesOf(paused.terminal.frame()).at(-1)).toBe(' q quit  ? help  r resume  ↑↓ threads  f freeze');
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

	test('before any data, a long reason wraps too (at 50 columns), as its fix does', async () => {
		const error = new MinerError(
			'incompatible',
			'the answer from /2/summary is not an XMRig summary: it has no hashrate, no version and no results',
			{
				detail: 'an HTML page (text/html)',
			},
		);
		const {terminal} = await show(makeState({status: 'error', snapshot: null, lastSuccessAt: null, error}), {columns: 50, rows: 20});
		// Below the header line (whose state detail is cut to fit), nothing is cut.
		const text = linesOf(terminal.frame())
			.slice(1)
			.map((line) => line.trim())
			.join(' ');
		expect(text).toContain(`${error.message} (an HTML page (text/html))`);
		expect(text).not.toContain('…');
		expectFits(terminal, 50, 20);
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

	test('a wrong token before any answer: one timing (the countdown, not "every 3s" too), and no c config offered', async () => {
		const state = makeState({
			status: 'error',
			snapshot: null,
			lastSuccessAt: null,
			error: wrongToken(),
			failingSince: NOW - 10_000,
			consecutiveFailures: 2,
			nextPollAt: NOW + 2000,
		});
		for (const [columns, rows] of [
			[80, 24],
			[200, 50],
		] as const) {
			const {terminal} = await show(state, {columns, rows, interval: new PollInterval([], 3000), onConfig() {}, onRefresh() {}});
			const frame = terminal.frame();
			expect(frame).toContain('retrying in 2s');
			expect(frame).not.toContain('every 3s');
			const footer = linesOf(frame).at(-1) ?? '';
			expect(footer).toContain('R refresh');
			expect(footer).not.toContain('config');
			// Pressed anyway, c says why in one line.
			await terminal.press('c', 'its config cannot be read now');
			terminal.unmount();
		}
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

	test('s sorts the threads by 10s: the slow thread, out of sight at row 12, rises to the top; I puts it last', async () => {
		const threads = makeThreads(16).map((thread) => (thread.index === 11 ? {...thread, hashrate: [97.5, 240, null] as const} : thread));
		const {terminal} = await show(makeState({snapshot: makeSnapshot({threads})}));
		const firstRow = () => {
			const lines = linesOf(terminal.frame());
			return lines[lines.findIndex((line) => /#\s+10s/u.test(line)) + 1] ?? '';
		};
		expect(terminal.frame()).not.toContain('97.5');
		await terminal.press('j');
		await terminal.press('j', 'rows 3–9 of 16');
		await terminal.press('s', '10s▲');
		expect(terminal.frame()).toContain('by 10s, lowest first · rows 1–7 of 16');
		expect(firstRow()).toMatch(/^│\s+11\s+97\.5\s/u);
		await terminal.press('I', '10s▼');
		expect(firstRow()).toMatch(/^│\s+15\s+301\.5\s/u);
		await terminal.press('G', 'rows 10–16 of 16');
		expect(terminal.frame()).toMatch(/^│\s+11\s+97\.5\s/mu);
		// Round the columns back to the miner's order: no mark.
		await terminal.press('s', '60s▲');
		await terminal.press('s', '15m▲');
		await terminal.press('s');
		await vi.waitFor(() => expect(terminal.frame()).not.toMatch(/[▲▼]/u));
		expect(firstRow()).toMatch(/^│\s+0\s/u);
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
		expect(frame).toContain('q, F10, Ctrl+C  quit rigtop');
		expect(frame).toContain('p               pause mining');
		// Only what works here: no config view was given, and the miner is mining (nothing to resume).
		expect(frame).not.toContain("view and edit the miner's config");
		expect(frame).not.toContain('resume mining');
		// No key has two meanings in the list: the help's own keys (Esc, ↑↓) are on its frame, not beside the threads' ↑↓.
		expect(frame).not.toContain('scroll this help');
		expect(frame).not.toContain('Hashrate');
		expect(linesOf(frame).at(-1)).toBe(' q quit  ? help  Esc close');
		await terminal.press(KEYS.escape, 'Hashrate');
		await terminal.press('?', 'Keys');
		await terminal.press('?', 'Hashrate');
	});

	test('the help wraps a long description beside its keys (never cut), and scrolls with ↑↓ where it does not fit', async () => {
		const {terminal} = await show(makeState(), {columns: 60, rows: 12, interval: new PollInterval([], 2000), onPause() {}});
		await terminal.press('?', 'Keys');
		expect(terminal.frame()).toMatch(/│ q, F10, Ctrl\+C {2}quit rigtop/);
		expect(terminal.frame()).toContain('more below · ↑↓ scroll');
		for (let index = 0; index < 20; index++) await terminal.press('j');
		await terminal.waitFor(/│ f +freeze the display \(polling and alerts +│\n│ +go on\) +│/);
		expect(terminal.frame()).toContain('above · ↑↓ scroll');
		// Below the header line (whose state detail is cut to fit), nothing is cut.
		expect(linesOf(terminal.frame()).slice(1).join('\n')).not.toContain('…');
		expectFits(terminal, 60, 12);
	});

	test('the threads keys are offered only while the threads pane is on screen; pressed without it, they say why', async () => {
		const small = await show(makeState(), {columns: 60, rows: 16});
		expect(small.terminal.frame()).not.toContain('Threads');
		await small.terminal.press('j', /the threads pane is not shown at this size:\s+make\s+the\s+terminal\s+taller/);
		await small.terminal.press('?', 'Keys');
		expect(small.terminal.frame()).not.toContain('scroll threads');
		small.terminal.unmount();
		const large = await show(makeState(), {columns: 80, rows: 30});
		expect(large.terminal.frame()).toContain('Threads');
		await large.terminal.press('?', 'Keys');
		expect(large.terminal.frame()).toContain('scroll threads');
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

	test('F1 opens and closes the help, F10 quits (htop), whatever way the terminal spells them', async () => {
		const onQuit = vi.fn();
		const {terminal} = await show(makeState(), {onQuit});
		await terminal.press(KEYS.f1, 'Keys');
		expect(terminal.frame()).toContain('?, F1');
		await terminal.press(KEYS.f1, 'Hashrate');
		await terminal.press('\u001B[11~', 'Keys'); // rxvt's F1
		await terminal.press('\u001B[[A', 'Hashrate'); // the Linux console's
		await terminal.press('\u001B[15~'); // F5: nothing
		expect(onQuit).not.toHaveBeenCalled();
		await terminal.press(KEYS.f10);
		await vi.waitFor(() => {
			expect(onQuit).toHaveBeenCalledTimes(1);
		});
	});

	test('c, p, r and R reach their callbacks, in order, once each', async () => {
		const calls: string[] = [];
		// A miner that does not say whether it is paused (before 4.4): both are offered.
		const {terminal} = await show(makeState({snapshot: makeSnapshot({paused: null})}), {
			onConfig: () => calls.push('config'),
			onPause: () => calls.push('pause'),
			onResume: () => calls.push('resume'),
			onRefresh: () => calls.push('refresh'),
		});
		await terminal.press('p', 'Pause mining on rig-01? y pause · n or any other key: no');
		await terminal.press('y');
		await terminal.press('r');
		await terminal.press('R');
		await terminal.press('c');
		await vi.waitFor(() => {
			expect(calls).toEqual(['pause', 'resume', 'refresh', 'config']);
		});
		await terminal.press(KEYS.down);
		expect(calls).toHaveLength(4);
	});

	test('with a token the user did not give, p and r say whose it sends before the write (issue 35, item 5)', async () => {
		const calls: string[] = [];
		const whose = 'the command line of process 4242';
		const {terminal} = await show(makeState({snapshot: makeSnapshot({paused: null})}), {
			onPause: () => calls.push('pause'),
			onResume: () => calls.push('resume'),
			tokenFrom: whose,
			columns: 200,
			rows: 50,
		});
		await terminal.press('p', `No token was given: this uses the one from ${whose}.`);
		expect(calls).toEqual([]);
		await terminal.press('y');
		await vi.waitFor(() => {
			expect(calls).toEqual(['pause']);
		});
		await terminal.press('r', /Resume mining on rig-01\? No token was given: this uses the one from the command line of process 4242/);
		expect(calls).toEqual(['pause']);
		await terminal.press('n', 'not resumed: still paused');
		expect(calls).toEqual(['pause']);
		await terminal.press('r', 'Resume mining on rig-01?');
		await terminal.press('y');
		await vi.waitFor(() => {
			expect(calls).toEqual(['pause', 'resume']);
		});
	});

	test("p asks before pausing, in the footer's place; a stray key is a no, and says so", async () => {
		const onPause = vi.fn();
		const {terminal} = await show(makeState(), {onPause});
		await terminal.press('p', 'Pause mining on rig-01? y pause · n or any other key: no');
		expect(linesOf(terminal.frame()).at(-1)).toContain('Pause mining on rig-01?');
		await terminal.press('x', 'not paused: mining goes on');
		await terminal.press('j', 'q quit');
		await terminal.press('p', 'Pause mining on rig-01?');
		await terminal.press(KEYS.escape, 'not paused');
		expect(onPause).not.toHaveBeenCalled();
		await terminal.press('p', 'Pause mining on rig-01?');
		await terminal.press('y');
		await vi.waitFor(() => {
			expect(onPause).toHaveBeenCalledTimes(1);
		});
		expect(terminal.frame()).not.toContain('Pause mining on');
	});

	test('+ and - change the poll interval live, shown in the header; at the ends of the steps they say so', async () => {
		const monitors: number[] = [];
		const interval = new PollInterval([{setIntervalMs: (ms: number) => monitors.push(ms)}], 2000);
		const {terminal} = await show(makeState(), {interval});
		expect(linesOf(terminal.frame())[0]).toMatch(/● live · every 2s · 2s ago\s*$/);
		expect(linesOf(terminal.frame()).at(-1)).toContain('+- interval');
		await terminal.press('+', 'every 3s');
		await terminal.press('-', 'every 2s');
		await terminal.press('-', 'every 1s');
		expect(monitors).toEqual([3000, 2000, 1000]);
		await terminal.press('-', 'every 500 ms');
		await terminal.press('-', 'every 250 ms');
		await terminal.press('-', 'polling every 250 ms already: the shortest step');
		expect(monitors.at(-1)).toBe(250);
		expect(monitors).toHaveLength(5);
	});

	test('f freezes the display while the store keeps changing; f again shows the present', async () => {
		const {store, terminal} = await show(makeState());
		await terminal.press('f', /● FROZEN at \d\d:\d\d · f goes on/);
		store.set({snapshot: makeSnapshot({hashrate: {total: [9123.45, 9110.02, 9000]}})});
		await new Promise((resolve) => setTimeout(resolve, 30));
		expect(terminal.frame()).not.toContain('9.12 kH/s');
		expect(terminal.frame()).toContain('10s 4.82 kH/s');
		// Keys still work while frozen (help, scrolling); only the data is held.
		await terminal.press('?', 'Keys');
		expect(terminal.frame()).toContain('freeze the display (polling and alerts go on)');
		await terminal.press('?', 'Hashrate');
		await terminal.press('f', '10s 9.12 kH/s');
		expect(linesOf(terminal.frame())[0]).toContain('● live');
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

describe('actions that cannot work are not offered, and their keys say why', () => {
	const actions = {onConfig() {}, onPause: vi.fn(), onResume: vi.fn(), onRefresh() {}};
	const old = makeSnapshot({dialect: 'v1', version: '2.14.4', kind: 'cpu', paused: null, restricted: null});

	test('a 2.14 miner: no pause or resume in the footer or the help; p says why in one line, and nothing is sent', async () => {
		const {terminal} = await show(makeState({snapshot: old}), actions);
		expect(linesOf(terminal.frame()).at(-1)).toBe(' q quit  ? help  c config  R refresh  ↑↓ threads  f freeze');
		await terminal.press('p', 'XMRig 2.14.4 has no pause or resume in its API (they came in XMRig 2.99.6)');
		expect(terminal.frame()).not.toContain('method not allowed');
		await terminal.press('j', 'q quit');
		await terminal.press('r', 'XMRig 2.14.4 has no pause or resume');
		// The next key puts the footer back.
		await terminal.press('j', 'q quit');
		await terminal.press('?', 'Keys');
		expect(terminal.frame()).not.toContain('pause mining');
		expect(terminal.frame()).not.toContain('resume mining');
		expect(actions.onPause).not.toHaveBeenCalled();
		expect(actions.onResume).not.toHaveBeenCalled();
	});

	test('--read-only: no pause or resume; the config view is still offered (to read)', async () => {
		const {terminal} = await show(makeState({snapshot: makeSnapshot({paused: null})}), {...actions, readOnly: true});
		expect(linesOf(terminal.frame()).at(-1)).toBe(' q quit  ? help  c config  R refresh  ↑↓ threads  f freeze');
		await terminal.press('p', 'rigtop runs with --read-only: writes are off');
		expect(actions.onPause).not.toHaveBeenCalled();
	});

	test('a restricted miner, or no token: pause and the config view say what they need', async () => {
		const restricted = await show(makeState({snapshot: makeSnapshot({restricted: true})}), actions);
		expect(linesOf(restricted.terminal.frame()).at(-1)).toBe(' q quit  ? help  R refresh  ↑↓ threads  f freeze');
		await restricted.terminal.press('p', "the miner's API is restricted: pausing needs http.restricted false and a token");
		await restricted.terminal.press('c', /the miner's API is restricted: reading its config needs http\.restricted false\s+and a token/);
		const tokenless = await show(makeState(), {...actions, tokenGiven: false});
		await tokenless.terminal.press('p', "pausing needs the miner's access token: --token-file or RIGTOP_TOKEN");
	});

	test('a miner that is down: pause says nothing can be sent now; a paused one is offered resume only', async () => {
		const down = await show(makeState({status: 'down', failingSince: NOW - 60_000, error: refused()}), actions);
		expect(linesOf(down.terminal.frame()).at(-1)).not.toContain('pause');
		await down.terminal.press('p', 'the miner is not answering (down): nothing can be sent to it now');
		const paused = await show(makeState({snapshot: makeSnapshot({paused: true})}), actions);
		await paused.terminal.press('p', 'the miner is paused already (r resumes it)');
	});

	test("a long reason wraps over two lines in the footer's place at 60 columns, and the frame still fits", async () => {
		const {terminal} = await show(makeState({snapshot: old}), {...actions, columns: 60, rows: 24});
		await terminal.press('p', 'XMRig 2.14.4 has no pause or resume in its API');
		const lines = linesOf(terminal.frame());
		expect(lines.at(-2)).toMatch(/^ XMRig 2\.14\.4 has no pause or resume in its API \(they came\s*$/);
		expect(lines.at(-1)).toMatch(/^ in XMRig 2\.99\.6\)\s*$/);
		expectFits(terminal, 60, 24);
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

	test('between the smallest size and 80 columns the panes stack whole in one column', async () => {
		const {terminal} = await show(makeState(), {columns: 60, rows: 20});
		const lines = linesOf(terminal.frame());
		expect(lines[1]).toMatch(/^╭ Hashrate ─+╮$/);
		expect(lines[1]).toHaveLength(60);
		expect(lines[2]).toContain('10s 4.82 kH/s  60s 4.80  15m —');
		expect(lines[6]).toMatch(/^╭ Pool ─+╮$/);
		expect(lines[7]).toContain('pool.example.org:443  TLSv1.3');
		expect(lines[11]).toMatch(/^╭ Shares ─+╮$/);
		// The panes are whole: nothing in them is cut.
		expect(lines.slice(1, 16).join('\n')).not.toContain('…');
		expectFits(terminal, 60, 20);
	});

	test('below the smallest size, a rig opened from the fleet still goes back to it with Esc (the note says so)', async () => {
		const onBack = vi.fn();
		const {terminal} = await show(makeState(), {columns: 40, rows: 12, onBack});
		await terminal.waitFor(/q quits · Esc back\s+to the fleet/);
		await terminal.press(KEYS.escape);
		await vi.waitFor(() => {
			expect(onBack).toHaveBeenCalledTimes(1);
		});
	});

	test('the header drops what does not fit whole: never a part cut ("XMRig 6.2…" reads as another version)', async () => {
		for (const columns of [50, 56, 60, 66, 72, 80]) {
			const {terminal} = await show(makeState(), {columns, rows: 20});
			const header = linesOf(terminal.frame())[0] ?? '';
			expect(header, `at ${columns}`).toMatch(/^ rigtop {2}rig-01/);
			// Whole parts only ("rig-01 · XMRig 6.26.0 · rx/0 · up 3d 04h" as far as it fits): nothing left of the state is cut.
			expect(header.split('●')[0], `at ${columns}`).not.toContain('…');
			terminal.unmount();
		}
	});

	test('below the smallest size the only key is quit: p and y do not pause a miner out of sight', async () => {
		const onPause = vi.fn();
		const onQuit = vi.fn();
		const {terminal} = await show(makeState(), {columns: 40, rows: 12, onPause, onQuit});
		await terminal.waitFor('terminal too small');
		for (const key of ['p', 'y', '?', 'c']) await terminal.press(key);
		terminal.resize(80, 24);
		await terminal.waitFor('Hashrate');
		expect(terminal.frame()).not.toContain('Pause mining');
		expect(terminal.frame()).not.toContain('Keys');
		expect(onPause).not.toHaveBeenCalled();
		terminal.resize(40, 12);
		await terminal.waitFor('terminal too small');
		await terminal.press('q');
		await vi.waitFor(() => {
			expect(onQuit).toHaveBeenCalledTimes(1);
		});
	});

	test('below the smallest size it says so (and what it needs); q still quits; made larger, the dashboard is back', async () => {
		const onQuit = vi.fn();
		const {terminal} = await show(makeState(), {columns: 40, rows: 12, onQuit});
		expect(terminal.frame()).toContain('terminal too small — need 50×10');
		expect(terminal.frame()).toContain('this one is 40×12 · q quits');
		expect(terminal.frame()).not.toContain('Hashrate');
		expectFits(terminal, 40, 12);
		terminal.resize(100, 30);
		await terminal.waitFor('Hashrate');
		expect(terminal.frame()).not.toContain('too small');
		terminal.resize(70, 8);
		await terminal.waitFor('need 50×10');
		await terminal.press('q');
		await vi.waitFor(() => {
			expect(onQuit).toHaveBeenCalledTimes(1);
		});
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
	test("is the monitor's (monitor/last-share.ts): unknown, dated to a poll, or at least since a time", async () => {
		const {store, terminal} = await show(makeState());
		expect(terminal.frame()).toContain('last share —');
		const snapshot = makeSnapshot({results: {good: 1205, total: 1208}});
		store.set({snapshot, lastSuccessAt: NOW - 3000, lastShare: {at: NOW - 3000, atLeast: false}});
		await terminal.waitFor('last share 3s ago');
		expect(terminal.frame()).toContain('1 205 / 1 208 good');
		store.set({lastShare: {at: NOW - 300_000, atLeast: true}});
		await terminal.waitFor('last share at least 5m ago');
	});

	test('a share accepted while frozen is shown when f lets go', async () => {
		const {store, terminal} = await show(makeState());
		await terminal.press('f', /● FROZEN at/);
		const snapshot = makeSnapshot({results: {good: 1205, total: 1208}});
		store.set({snapshot, lastSuccessAt: NOW - 3000, lastShare: {at: NOW - 3000, atLeast: false}});
		store.set({snapshot, lastSuccessAt: NOW - 1000});
		await new Promise((resolve) => setTimeout(resolve, 30));
		expect(terminal.frame()).toContain('last share —');
		await terminal.press('f', '1 205 / 1 208 good');
		expect(terminal.frame()).toContain('last share 3s ago');
	});
});

describe('wiring', () => {
	test('App renders the dashboard; unmounting unsubscribes from the store', async () => {
		const store = createStore(makeState());
		const {lastFrame, unmount} = render(<App miners={[{store}]} onQuit={() => {}} now={NOW} color={false} />);
		expect(lastFrame()).toContain('rig-01');
		// The dashboard's selection, the header's age of the last good poll, and the App's own (whether the rig is an
		// xmrig-proxy, to show the proxy screen instead).
		expect(store.listeners).toBe(3);
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

		const terminal = await renderTerminal(
			<FixedNowContext.Provider value={NOW}>
				<Dashboard store={new ClassStore()} caps={{quit: () => {}}} />
			</FixedNowContext.Provider>,
		);
		expect(terminal.frame()).toContain('rig-01');
	});
});
