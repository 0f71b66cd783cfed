import {describe, expect, test, vi} from 'vitest';
import {formatHashrate, formatInteger} from '../../../../source/text/format.js';
import {SessionHistory} from '../../../../source/history/source.js';
import {HistoryStores} from '../../../../source/history/stores.js';
import {App, type AppMiner} from '../../../../source/ui/app.js';
import {summaryLines} from '../../../../source/ui/screens/proxy/summary.js';
import {initialProxyUiState, reduce} from '../../../../source/ui/screens/proxy/reduce.js';
import {workerRows} from '../../../../source/ui/screens/proxy/rows.js';
import {ProxyView} from '../../../../source/ui/screens/proxy/view.js';

const GIVEN_ALL = {refresh: true, config: true, chart: true, events: true, back: false};
import {createStore, makeSnapshot, makeState} from '../../helpers/state.js';
import {KEYS, linesOf, renderTerminal, tick} from '../../helpers/terminal.js';
import {startSimProxy} from './helpers/sim-proxy.js';

function fits(frame: string, columns: number, rows: number): void {
	const lines = linesOf(frame);
	expect(lines.length).toBeLessThanOrEqual(rows - 1);
	for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
}

describe('the proxy screen', () => {
	test("80×24: the proxy's own numbers in H/s by its windows' names, then its workers; no pause offered", async () => {
		const proxy = await startSimProxy();
		const store = await proxy.store();
		const info = store.getState().snapshot!.proxy!;
		const terminal = await renderTerminal(<App miners={[{store, onRefresh() {}}]} onQuit={() => {}} now={proxy.now()} color={false} />);
		const frame = terminal.frame();
		const lines = linesOf(frame);
		// The title bar every screen has, the program by its own name.
		expect(lines[0]).toMatch(/^ rigtop {2}proxy-a( \(sim-proxy\))? · xmrig-proxy 6\.26\.0 · up 3d \d+h? ?\d*m?( · nicehash)? +● live/);
		expect(frame).not.toContain('XMRig-proxy');
		expect(frame).toContain('upstreams 1 active  0 sleep  0 error  of 1');
		expect(frame).toContain(`miners    ${info.miners!.now} now  ${info.miners!.max} max  workers 29`);
		expect(frame).toContain(`${formatInteger(info.results.accepted)} accepted  ${formatInteger(info.results.rejected)} rejected (`);
		for (const [index, label] of ['1m', '10m', '1h', '12h', '24h'].entries())
			expect(frame).toContain(`${label} ${formatHashrate(info.hashrate[index] ?? null)}`);
		expect(frame).toContain(`since start ${formatHashrate(info.sinceStart)}`);
		expect(frame).not.toMatch(/\b(10s|60s|15m) +(—|[\d.]+ k?H\/s)/);
		// Nor as a column ("10s ago" in the last-share column is a time, not a window).
		expect(frame.split('\n').find((line) => line.includes('worker listed'))).not.toMatch(/\b(10s|60s|15m)\b/);
		expect(frame).toMatch(/worker listed▲ +state +1m +10m +acc +rej +last share/);
		expect(frame).toMatch(/▸ {1}rig-01 +live +[\d.]+ kH\/s +[\d.]+ kH\/s +[\d ]+ +[\d ]+ +\d+s ago/);
		expect(frame).toMatch(/^ {2}total +29\/29 conn/m);
		expect(frame).toContain('workers 1–');
		expect(frame).toContain('of 29 · totals: all 29 workers listed');
		expect(lines.at(-1)).toMatch(/^ q quit {2}\? help {2}↑↓ select {2}Enter open {2}s sort {2}\/ filter {2}R refresh/);
		expect(frame).not.toContain('pause');
		fits(frame, 80, 24);
	});

	test('200×50: every window, the ip, connections and invalid shares; names whole', async () => {
		const proxy = await startSimProxy();
		const store = await proxy.store();
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />, {
			columns: 200,
			rows: 50,
		});
		const frame = terminal.frame();
		expect(frame).toMatch(/worker listed▲ +state +ip +conn +1m +10m +1h +12h +24h +acc +rej +inv +last share/);
		expect(frame).toMatch(/rig-01 +live +10\.0\.0\.11 +1 +/);
		// Every worker fits: no "workers 1–N of 29".
		expect(frame).toMatch(/rig-29 +live/);
		expect(frame).not.toContain('workers 1–');
		fits(frame, 200, 50);
	});

	test('a worker that stops sharing is quiet, one whose miners left is gone: in words, marked without colour', async () => {
		const proxy = await startSimProxy({workers: 6});
		proxy.sim.quietWorker('rig-02');
		proxy.sim.dropWorker('rig-03');
		proxy.advance(6 * 60_000);
		const store = await proxy.store();
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />);
		const frame = terminal.frame();
		expect(frame).toMatch(/^ !rig-02 +quiet 6m /m);
		expect(frame).toMatch(/^ !rig-03 +gone /m);
		expect(frame).toMatch(/^ {2}rig-04 +live /m);
		expect(frame).toMatch(/^ {2}total +5\/6 conn/m);
		// s: by state, worst first: gone, then quiet.
		await terminal.press('s', 'by state, worst first');
		const order = linesOf(terminal.frame()).filter((line) => /rig-0\d/.test(line));
		expect(order[0]).toMatch(/rig-03 +gone/);
		expect(order[1]).toMatch(/rig-02 +quiet/);
	});

	test('keys in one chunk move the selection; Enter opens the worker, Esc comes back to it; / filters with totals of those shown', async () => {
		const proxy = await startSimProxy();
		const store = await proxy.store();
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />);
		await terminal.press('jjj', '▸ rig-04');
		await terminal.press('\r', 'worker rig-04');
		const detail = terminal.frame();
		const worker = store.getState().snapshot!.proxy!.workers!.find((entry) => entry.name === 'rig-04')!;
		for (const [index, label] of ['1m', '10m', '1h', '12h', '24h'].entries())
			expect(detail).toContain(`${label} ${formatHashrate(worker.hashrate[index] ?? null)}`);
		expect(detail).toContain(`${formatInteger(worker.accepted)} accepted  ${formatInteger(worker.rejected)} rejected (`);
		expect(detail).toMatch(/last share +\d\d:\d\d(:\d\d)? · (just now|\d+s ago)/);
		expect(detail).toMatch(/connections +1/);
		expect(detail).toMatch(/ip +10\.0\.0\.14/);
		expect(linesOf(detail).at(-1)).toContain('Esc back');
		fits(detail, 80, 24);
		await terminal.press(KEYS.escape, '▸ rig-04');
		await terminal.press('/rig-1', 'of 29');
		await terminal.press('\r', /totals: the \d+ workers shown of 29/);
		expect(terminal.frame()).toMatch(/^ {2}shown /m);
		expect(terminal.frame()).not.toMatch(/rig-0\d/);
	});

	test('g and e open the chart and the events of the proxy, or of the worker whose detail is open', async () => {
		const proxy = await startSimProxy({workers: 4});
		const store = await proxy.store();
		const asked: string[] = [];
		const terminal = await renderTerminal(
			<ProxyView
				store={store}
				caps={{quit: () => {}, chart: (worker) => asked.push(`chart ${worker}`), events: (worker) => asked.push(`events ${worker}`)}}
			/>,
		);
		await terminal.press('ge');
		await vi.waitFor(() => {
			expect(asked).toEqual(['chart null', 'events null']);
		});
		// In one chunk, as a user types them: the keys after Enter reach the detail it opened.
		await terminal.press('j\rge', 'worker rig-02');
		await vi.waitFor(() => {
			expect(asked).toEqual(['chart null', 'events null', 'chart rig-02', 'events rig-02']);
		});
	});

	test('the first line shown outlives the chart opened from it (issue 35, item 1: the list is the screen’s state)', async () => {
		const proxy = await startSimProxy();
		const store = await proxy.store();
		const history = new HistoryStores(new SessionHistory({monitor: store, slot: 0, recorder: null, intervalMs: 2000, capacity: 10}), store);
		const terminal = await renderTerminal(<App miners={[{store, history}]} onQuit={() => {}} now={proxy.now()} color={false} />);
		// Down to rig-25 (the table scrolls), then up a few: the selection is not on the last line shown.
		await terminal.press('j'.repeat(24), /▸ rig-25/);
		await terminal.press('kkk', /▸ rig-22/);
		const first = () => linesOf(terminal.frame()).find((line) => /rig-\d\d/.test(line)) ?? '';
		const top = first();
		expect(top).not.toContain('rig-01');
		await terminal.press('g');
		await terminal.waitFor(/^(?![^]*worker listed)/);
		await tick();
		await terminal.press(KEYS.escape, /▸ rig-22/);
		expect(first()).toBe(top);
		history.close();
	});

	test('upstreams in error are said in words and drawn in the error colour', async () => {
		const proxy = await startSimProxy({workers: 3});
		proxy.sim.failUpstream();
		proxy.advance(10_000);
		const store = await proxy.store();
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} />);
		expect(terminal.frame()).toMatch(/upstreams 0 active {2}0 sleep {2}1 in error {2}of 1 {2}no upstream active/);
		// The parts in the theme's error colour (the test setup pins FORCE_COLOR=0, so the frame has none to read).
		const state = store.getState();
		const lines = summaryLines(state.snapshot!.proxy!, state.snapshot!, 80);
		const errors = lines.flat().filter((part) => part.tone === 'error');
		expect(errors.map((part) => part.text)).toEqual(['1 in error', 'no upstream active']);
	});

	test('windows longer than the uptime are marked as filling, as --once marks them', async () => {
		const proxy = await startSimProxy({warm: false, workers: 3});
		proxy.advance(90_000);
		const store = await proxy.store();
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />);
		expect(terminal.frame()).toMatch(/10m [\d.]+ k?H\/s~/);
		expect(terminal.frame()).toContain("~ window longer than the proxy's uptime: still filling");
	});

	test('below 50×10 it says the terminal is too small', async () => {
		const proxy = await startSimProxy({workers: 3});
		const store = await proxy.store();
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />, {
			columns: 40,
			rows: 8,
		});
		expect(terminal.frame()).toContain('terminal too small');
		// Keys that would act out of sight do nothing: the help, and a filter typed unseen.
		await terminal.press('?');
		await terminal.press('/rig');
		terminal.resize(80, 24);
		await terminal.waitFor('upstreams');
		const frame = terminal.frame();
		// The table and its own footer, no help over it, and no filter line ("/rig") under it.
		expect(frame).toContain('q quit  ? help');
		expect(frame).not.toContain('/rig');
		expect(frame).toMatch(/rig-01[\s\S]*rig-02[\s\S]*rig-03/);
	});

	test("a miner's snapshot keeps the dashboard; the App turns to the proxy screen when its snapshot is a proxy's", async () => {
		const proxy = await startSimProxy({workers: 3});
		const snapshot = await proxy.read();
		const store = createStore(makeState({name: 'flip', snapshot: makeSnapshot()}));
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />);
		expect(terminal.frame()).toContain('Hashrate');
		store.set({snapshot});
		await terminal.waitFor('xmrig-proxy 6.26.0');
		expect(terminal.frame()).toContain('upstreams');
	});

	test('in a fleet: Enter opens the proxy screen (its workers read while open), g its chart and Esc back to it with the detail, Esc to the fleet', async () => {
		const proxy = await startSimProxy({workers: 4});
		const proxyStore = await proxy.store('proxy-a');
		const minerStore = createStore(makeState({name: 'rig-x', snapshot: makeSnapshot({workerId: 'rig-x'})}));
		const closes: (() => void)[] = [];
		const miners: AppMiner[] = [proxyStore, minerStore].map((store, slot) => {
			const history = new HistoryStores(new SessionHistory({monitor: store, slot, recorder: null, intervalMs: 2000, capacity: 10}), store);
			closes.push(() => history.close());
			return {store, history};
		});
		const opened: (number | null)[] = [];
		try {
			const terminal = await renderTerminal(
				<App miners={miners} onQuit={() => {}} now={proxy.now()} color={false} onOpenChange={(index) => opened.push(index)} />,
			);
			await terminal.press('\r', 'xmrig-proxy 6.26.0');
			await tick();
			// The session reads the open rig's per-thread document: the proxy's /1/workers.
			expect(opened).toEqual([null, 0]);
			expect(linesOf(terminal.frame()).at(-1)).toContain('Esc back');
			await terminal.press('j\r', 'worker rig-02');
			await terminal.press('g', /span|chart|10 min/);
			await tick();
			expect(opened).toEqual([null, 0]);
			// The detail itself (the chart's title may name the worker too).
			await terminal.press(KEYS.escape, /connections +1/);
			await terminal.press(KEYS.escape, '▸ rig-02');
			await terminal.press(KEYS.escape, 'rig-x');
			await tick();
			expect(opened).toEqual([null, 0, null]);
		} finally {
			for (const close of closes) close();
		}
	});

	test('in a fleet, a filter in force: the footer says Esc clear filter, as the fleet does; Esc clears it, then Esc back', async () => {
		const proxy = await startSimProxy({workers: 4});
		const proxyStore = await proxy.store('proxy-a');
		const minerStore = createStore(makeState({name: 'rig-x', snapshot: makeSnapshot({workerId: 'rig-x'})}));
		const terminal = await renderTerminal(
			<App miners={[{store: proxyStore}, {store: minerStore}]} onQuit={() => {}} now={proxy.now()} color={false} />,
		);
		await terminal.press('\r', 'xmrig-proxy 6.26.0');
		await terminal.press('/rig-02', 'rig-02▏');
		// The filter kept: no longer typing.
		await terminal.press('\r', /^(?![\s\S]*Enter keep)[\s\S]*rig-02 /);
		expect(terminal.frame()).not.toContain('rig-03');
		const footer = linesOf(terminal.frame()).at(-1)!;
		expect(footer).toContain('Esc clear filter');
		expect(footer).not.toContain('Esc back');
		await terminal.press(KEYS.escape, 'rig-03');
		const after = linesOf(terminal.frame()).at(-1)!;
		expect(after).toContain('Esc back');
		expect(after).not.toContain('clear filter');
		// Still the proxy's screen: that Esc cleared the filter, the next goes back to the fleet.
		expect(terminal.frame()).toContain('xmrig-proxy 6.26.0');
		await terminal.press(KEYS.escape, 'rig-x');
	});

	test('two workers whose names clean alike are two rows, each with its own numbers; one is selected, and each opens its own', async () => {
		const proxy = await startSimProxy({workers: 2});
		// Whitespace runs collapse when names are cleaned: `rig  01` shows as `rig 01`, as the real one does.
		proxy.sim.connectMiner({name: 'rig 01', ip: '10.0.9.1', hashrate: 20_000});
		proxy.sim.connectMiner({name: 'rig  01', ip: '10.0.9.2', hashrate: 3000});
		proxy.advance(120_000);
		const store = await proxy.store();
		const workers = store.getState().snapshot!.proxy!.workers!;
		const alike = workers.filter((worker) => worker.name === 'rig 01');
		expect(alike.map((worker) => worker.ip)).toEqual(['10.0.9.1', '10.0.9.2']);
		const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={proxy.now()} color={false} />, {
			columns: 200,
			rows: 50,
		});
		const rows = () => linesOf(terminal.frame()).filter((line) => / rig 01 /.test(line));
		expect(rows()).toHaveLength(2);
		// Each row its own ip and rate, not the last one's twice.
		expect(rows().find((line) => line.includes('10.0.9.1'))).toContain(formatHashrate(alike[0]!.hashrate[0] ?? null));
		expect(rows().find((line) => line.includes('10.0.9.2'))).toContain(formatHashrate(alike[1]!.hashrate[0] ?? null));
		// The selection marks one row at a time as it moves over them, each of the two in its turn.
		const marked: string[] = [];
		for (let step = 0; step < 4; step++) {
			const lines = linesOf(terminal.frame()).filter((line) => line.startsWith('▸'));
			expect(lines).toHaveLength(1);
			marked.push(lines[0]!);
			await terminal.press('j');
			await tick();
		}

		expect(marked.filter((line) => line.includes(' rig 01 ')).map((line) => /10\.0\.9\.\d/.exec(line)?.[0])).toEqual([
			'10.0.9.1',
			'10.0.9.2',
		]);

		// Enter on each (the last row, then the one above) opens that worker: its own ip.
		const opened: string[] = [];
		for (let step = 0; step < 2; step++) {
			await terminal.press('\r', 'Esc back');
			opened.push(/ip +(\S+)/.exec(terminal.frame())?.[1] ?? '');
			await terminal.press(KEYS.escape, 'Enter open');
			await terminal.press('k');
			await tick();
		}

		expect(opened).toEqual(['10.0.9.2', '10.0.9.1']);

		// Open on the second of the name, g and e ask for the worker's chart and events by its name (stored by name).
		const snapshot = store.getState().snapshot!;
		const rowsNow = workerRows(snapshot.proxy!.workers!, proxy.now(), snapshot.uptime);
		const second = rowsNow.find((row) => row.ip === '10.0.9.2')!;
		expect(second.key).not.toBe('rig 01');
		const env = {snapshot, proxy: snapshot.proxy!, rows: rowsNow, now: proxy.now(), size: {columns: 200, rows: 50}, given: GIVEN_ALL};
		const open = {...initialProxyUiState(), selected: second.key, pinned: false, detail: second.key};
		for (const [input, command] of [
			['g', 'chart'],
			['e', 'events'],
		] as const)
			expect(reduce(open, {type: 'key', input, key: {}}, env).effects).toEqual([{command, worker: 'rig 01'}]);
	});
});
