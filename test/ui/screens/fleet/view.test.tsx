import {Text, useInput} from 'ink';
import {useSyncExternalStore} from 'react';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {AlertCenter} from '../../../../source/alerts/center.js';
import {SessionHistory} from '../../../../source/history/source.js';
import {HistoryStores} from '../../../../source/history/stores.js';
import {App, type AppMiner, type ConfigTarget} from '../../../../source/ui/app.js';
import {createStore, makeSnapshot, makeState, NOW, refused} from '../../helpers/state.js';
import {KEYS, linesOf, renderTerminal, tick} from '../../helpers/terminal.js';
import {startSimFleet, type SimFleet} from './helpers/sim-fleet.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function rigs(count: number): AppMiner[] {
	return Array.from({length: count}, (_, index) => {
		const name = `rig-${String(index + 1).padStart(2, '0')}`;
		return {
			store: createStore(
				makeState({name, snapshot: makeSnapshot({workerId: name, hashrate: {total: [1000 * (index + 1), 1000 * (index + 1), null]}})}),
			),
		};
	});
}

function ConfigSlot({target, onBack}: {readonly target: ConfigTarget; readonly onBack: () => void}) {
	useInput((_input, key) => {
		if (key.escape) onBack();
	});
	return <Text>config view of miner {target.index}</Text>;
}

describe('the fleet view', () => {
	test('one row per rig with state, windows, shares and a total of the rigs that answered', async () => {
		const miners = rigs(3);
		const down = createStore(
			makeState({
				name: 'rig-03',
				snapshot: makeSnapshot({workerId: 'rig-03'}),
				status: 'down',
				failingSince: NOW - 4 * 60_000,
				error: refused(),
			}),
		);
		miners[2] = {store: down};
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns: 80, rows: 24});
		const lines = linesOf(terminal.frame());
		expect(lines[0]).toMatch(/^ rigtop {2}3 rigs · 3\.00 kH\/s total +● 2 live · 1 down$/);
		expect(lines[1]).toMatch(/^ {2}rig listed▲ +state +10s +60s +15m +shares +rej/);
		expect(lines[2]).toMatch(/^▸ rig-01 +live +1\.00 kH\/s +1\.00 kH\/s +— +1 204\/1 207 +0\.2%/);
		expect(lines[3]).toMatch(/^ {2}rig-02 +live +2\.00 kH\/s/);
		expect(lines[4]).toMatch(/^ {2}rig-03 +down 4m +— +— +— +—/);
		expect(lines[5]).toMatch(/^ {2}total +2\/3 up +3\.00 kH\/s +3\.00 kH\/s +— +2 408\/2 414 +0\.2%/);
		expect(lines.at(-1)).toBe(' q quit  ? help  ↑↓ select  Enter open  s sort  / filter');
		expect(lines.length).toBeLessThanOrEqual(23);
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
	});

	test('tells onOpenChange which rig is open: none on the fleet, the rig on its dashboard and config view', async () => {
		const opened: (number | null)[] = [];
		const terminal = await renderTerminal(
			<App
				miners={rigs(3)}
				onQuit={() => {}}
				now={NOW}
				color={false}
				onOpenChange={(index) => opened.push(index)}
				renderConfig={(target, onBack) => <ConfigSlot target={target} onBack={onBack} />}
			/>,
		);
		expect(opened).toEqual([null]);
		await terminal.press(KEYS.down, /▸ rig-02/);
		await terminal.press('\r', 'Hashrate');
		await tick();
		expect(opened).toEqual([null, 1]);
		await terminal.press('c', 'config view of miner 1');
		await tick();
		expect(opened).toEqual([null, 1]);
		await terminal.press(KEYS.escape, 'Hashrate');
		await tick();
		await terminal.press(KEYS.escape, '3 rigs');
		await tick();
		expect(opened).toEqual([null, 1, null]);
	});

	test('tells onOpenChange once per change of the open rig, however often the App is drawn again', async () => {
		const opened: (number | null)[] = [];
		const miners = rigs(2);
		// A parent drawn again at each change of this store, handing the App a new callback each time.
		const redraws = createStore(makeState());
		function Parent() {
			useSyncExternalStore(redraws.subscribe, redraws.getState);
			return <App miners={miners} onQuit={() => {}} now={NOW} color={false} onOpenChange={(index) => opened.push(index)} />;
		}

		const terminal = await renderTerminal(<Parent />);
		redraws.set({});
		await tick();
		expect(opened).toEqual([null]);
		await terminal.press('\r', 'Hashrate');
		await tick();
		redraws.set({});
		await tick();
		expect(opened).toEqual([null, 0]);
		await terminal.press(KEYS.escape, '2 rigs');
		await tick();
		redraws.set({});
		await tick();
		expect(opened).toEqual([null, 0, null]);
	});

	test('↑/↓ select, Enter opens the rig, Esc comes back with it still selected; c opens the config slot', async () => {
		const terminal = await renderTerminal(
			<App
				miners={rigs(3)}
				onQuit={() => {}}
				now={NOW}
				color={false}
				renderConfig={(target, onBack) => <ConfigSlot target={target} onBack={onBack} />}
			/>,
		);
		await terminal.press(KEYS.down, /▸ rig-02/);
		await terminal.press(KEYS.down, /▸ rig-03/);
		await terminal.press(KEYS.up, /▸ rig-02/);
		await terminal.press('\r', 'Hashrate');
		// A new screen reads keys once its effects have run.
		await tick();
		const dashboard = linesOf(terminal.frame());
		expect(dashboard[0]).toContain('rig-02');
		expect(dashboard.at(-1)).toContain('Esc fleet');
		expect(dashboard.at(-1)).toContain('c config');

		await terminal.press('c', 'config view of miner 1');
		await tick();
		await terminal.press(KEYS.escape, 'Hashrate');
		await tick();
		expect(linesOf(terminal.frame())[0]).toContain('rig-02');

		await terminal.press(KEYS.escape, '3 rigs');
		await tick();
		expect(terminal.frame()).toMatch(/▸ rig-02/);
		await terminal.press('?', 'Keys');
		expect(terminal.frame()).toContain("open the selected rig's dashboard");
		expect(terminal.frame()).not.toContain('scroll threads');
		await terminal.press(KEYS.escape, /▸ rig-02/);
	});

	test('its help scrolls at 80×24 (↓ j) down to the last keys, g and e; it lists Esc and ↑↓ once, on its frame', async () => {
		const miners: AppMiner[] = rigs(3).map((miner, slot) => {
			const history = new HistoryStores(
				new SessionHistory({monitor: miner.store, slot, recorder: null, intervalMs: 2000, capacity: 10}),
				miner.store,
			);
			cleanups.push(() => history.close());
			return {...miner, history, onRefresh() {}};
		});
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns: 80, rows: 24});
		await terminal.press('?', 'Keys');
		expect(terminal.frame()).toMatch(/more below · ↑↓ scroll/);
		expect(terminal.frame()).not.toContain('close this help');
		for (let i = 0; i < 10 && !terminal.frame().includes('every event'); i++) await terminal.press('j');
		expect(terminal.frame()).toContain('every event');
		expect(terminal.frame()).toContain('the hashrate chart');
		await terminal.press(KEYS.escape, /rigs/);
	});

	test('one miner: its dashboard straight away, and Esc does not leave it', async () => {
		const [miner] = rigs(1);
		const terminal = await renderTerminal(<App miners={[miner!]} onQuit={() => {}} now={NOW} color={false} />);
		await terminal.waitFor('Hashrate');
		expect(linesOf(terminal.frame()).at(-1)).not.toContain('Esc');
		await terminal.press(KEYS.escape);
		expect(terminal.frame()).toContain('Hashrate');
	});

	test('a hundred rigs: the table scrolls with the selection and the frame stays inside the terminal', async () => {
		const quits: number[] = [];
		const terminal = await renderTerminal(<App miners={rigs(100)} onQuit={() => quits.push(1)} now={NOW} color={false} />, {
			columns: 80,
			rows: 24,
		});
		let lines = linesOf(terminal.frame());
		expect(lines.length).toBeLessThanOrEqual(23);
		expect(lines[0]).toContain('100 rigs');
		expect(lines[0]).toContain('rigs 1–18 of 100');
		await terminal.press(KEYS.end, /▸ rig-100/);
		lines = linesOf(terminal.frame());
		expect(lines.length).toBeLessThanOrEqual(23);
		expect(lines[0]).toContain('rigs 83–100 of 100');
		expect(lines.filter((line) => line.startsWith('▸'))).toHaveLength(1);
		await terminal.press(KEYS.pageUp, /▸ rig-82/);
		await terminal.press(KEYS.home, /rigs 1–18 of 100/);
		terminal.resize(120, 12);
		await terminal.waitFor(/rigs 1–\d of 100/);
		expect(linesOf(terminal.frame()).length).toBeLessThanOrEqual(11);
		await terminal.press('q');
		await vi.waitFor(() => expect(quits).toEqual([1]));
	});
});

describe('the fleet against real simulated miners', () => {
	let fleet: SimFleet | null = null;
	let center: AlertCenter | null = null;
	afterEach(async () => {
		center?.stop();
		await fleet?.close();
		fleet = null;
	});

	test('three dialects; one stopped mid-run reads down with an alert mark, the others keep updating, the total leaves it out', async () => {
		fleet = await startSimFleet([
			{dialect: '6', workerId: 'six-rig', timeScale: 30, seed: 1},
			{dialect: '5', workerId: 'five-rig', timeScale: 30, seed: 2},
			{dialect: '2', workerId: 'two-rig', timeScale: 30, seed: 3},
		]);
		center = new AlertCenter(fleet.miners.map((miner) => miner.monitor));
		center.start();
		fleet.start();
		const miners = fleet.miners.map((miner) => ({store: miner.monitor}));
		const terminal = await renderTerminal(<App miners={miners} alerts={center} onQuit={() => {}} color={false} fleetThrottleMs={50} />, {
			columns: 120,
			rows: 24,
		});
		await terminal.waitFor(/● 3 live/);
		// Without a rigs file each rig is named by its address, its worker id beside it.
		const [six, five, two] = fleet.sims.map(
			(sim, index) => `${new URL(sim.url).host.replaceAll('.', '\\.')} \\(${['six-rig', 'five-rig', 'two-rig'][index]}\\)`,
		);
		if (six === undefined || five === undefined || two === undefined) throw new Error('three simulators');
		for (const cell of [six, five, two]) expect(terminal.frame()).toMatch(new RegExp(`${cell} +live +[\\d.]+ k?H/s`));

		await fleet.sims[2]!.stop();
		await vi.waitFor(() => expect(terminal.frame()).toMatch(new RegExp(`!${two} +down`)), {timeout: 5000, interval: 20});
		let frame = terminal.frame();
		expect(frame).toMatch(/● 2 live · 1 down/);
		expect(frame).toMatch(new RegExp(`${two} +down \\S+ +— +— +—`));
		expect(frame).toMatch(/total +2\/3 up/);
		expect(frame).toContain(`${new URL(fleet.sims[2]!.url).host} down: connection refused`);

		// The total is the two live rigs' sum, and the live rows keep moving. Share counts are exact
		// ("1 204/1 207") while they fit the column, else three digits ("17.9K/18K"): compare within that.
		const scale: Record<string, number> = {'': 1, K: 1e3, M: 1e6};
		const count = (text: string) => Number(/^[\d.]+/.exec(text)?.[0]) * (scale[/[KM]?$/.exec(text)?.[0] ?? ''] ?? Number.NaN);
		const sharesCell = (text: string, name: string) =>
			new RegExp(`${name} .*? (\\d{1,3}(?: \\d{3})*|[\\d.]+[KM])/(\\d{1,3}(?: \\d{3})*|[\\d.]+[KM]) +[\\d.]+%`).exec(text)?.[2] ?? '';
		const sharesOf = (text: string, name: string) => count(sharesCell(text, name).replaceAll(' ', ''));
		const sixRow = () => linesOf(terminal.frame()).find((line) => line.includes('six-rig'));
		const before = sixRow();
		await vi.waitFor(() => expect(sixRow()).not.toBe(before), {timeout: 6000, interval: 20});
		frame = terminal.frame();
		const live = sharesOf(frame, six) + sharesOf(frame, five);
		expect(sharesOf(frame, 'total')).toBeGreaterThan(0);
		expect(Math.abs(sharesOf(frame, 'total') - live)).toBeLessThanOrEqual(live * 0.01);
	});
});

describe('the fleet view: widths, names, sort, filter, poll all', () => {
	const named = (name: string, port: number, options: {pool?: string; rate?: number; workerId?: string | null; host?: string} = {}) =>
		makeState({
			name,
			url: `http://${options.host ?? '127.0.0.1'}:${port}`,
			snapshot: makeSnapshot({
				workerId: options.workerId === undefined ? name : options.workerId,
				hashrate: {total: [options.rate ?? 1000, options.rate ?? 1000, null]},
				connection: {pool: options.pool ?? 'pool.example.org:443'},
			}),
		});

	test('at 200 columns names and pools are whole; at 80 they are cut, never past the edge', async () => {
		const miners: AppMiner[] = [
			{store: createStore(named('garage-ryzen-9-5950x-left', 18_081, {pool: 'gulf.moneroocean.stream:10128'}))},
			{store: createStore(named('attic', 18_082, {pool: 'xmr-eu1.nanopool.org:14433'}))},
		];
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns: 200, rows: 24});
		let lines = linesOf(terminal.frame());
		expect(lines[2]).toMatch(/^▸ garage-ryzen-9-5950x-left +live .* gulf\.moneroocean\.stream:10128 /);
		expect(lines[3]).toMatch(/^ {2}attic +live .* xmr-eu1\.nanopool\.org:14433 /);
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(200);

		terminal.resize(80, 24);
		await terminal.waitFor(/garage-ry\S*…/);
		lines = linesOf(terminal.frame());
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
	});

	test('rigs without a worker id are told apart by their port, and two rigs of one name by their port, in the rows and the events', async () => {
		const miners: AppMiner[] = [
			{store: createStore(named('192.168.100.201:18081', 18_081, {workerId: null, host: '192.168.100.201'}))},
			{store: createStore(named('192.168.100.201:18082', 18_082, {workerId: null, host: '192.168.100.201'}))},
			{store: createStore(named('x', 18_083))},
			{store: createStore(named('x', 18_084))},
		];
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns: 80, rows: 24});
		const lines = linesOf(terminal.frame());
		// At 80 columns the rig column is narrower than the addresses: they are cut at their start, so the ports stay.
		expect(lines[2]).toMatch(/^▸ …\S*:18081 +live/);
		expect(lines[3]).toMatch(/^ {2}…\S*:18082 +live/);
		expect(lines[4]).toMatch(/^ {2}x :18083 +live/);
		expect(lines[5]).toMatch(/^ {2}x :18084 +live/);
		expect(terminal.frame()).toMatch(/^ \d\d:\d\d x :18084 share rejected/m);
		terminal.resize(120, 24);
		await terminal.waitFor(/192\.168\.100\.201:18081 +live/);
	});

	test('s sorts (the title says how), the selection stays on its rig; / filters; Esc clears; R polls every rig', async () => {
		const polled: number[] = [];
		const stores = [
			createStore(named('alpha', 18_081, {rate: 3000})),
			createStore(named('bravo', 18_082, {rate: 1000})),
			createStore(named('charlie', 18_083, {rate: 2000})),
		];
		const miners: AppMiner[] = stores.map((store, index) => ({store, onRefresh: () => polled.push(index)}));
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} fleetThrottleMs={0} />, {
			columns: 100,
			rows: 24,
		});
		const rigLines = () => linesOf(terminal.frame()).slice(2, 5);
		expect(linesOf(terminal.frame()).at(-1)).toContain('R refresh');
		// Choose alpha (until a rig is chosen, the selection is the first line, whichever rig is on it).
		await terminal.press(KEYS.home);
		await terminal.press('s', 'by state, worst first');
		await terminal.press('s', 'by 10s, lowest first');
		expect(rigLines().map((line) => line.slice(2).split(' ')[0])).toEqual(['bravo', 'charlie', 'alpha']);
		// alpha was selected and still is, on the line it moved to.
		expect(rigLines()[2]).toMatch(/^▸ alpha/);
		await terminal.press(KEYS.home, /^▸ bravo/m);
		// bravo's rate climbs: it moves to the bottom, and the selection goes with it.
		stores[1]!.set({snapshot: makeSnapshot({workerId: 'bravo', hashrate: {total: [9000, 9000, null]}})});
		await terminal.waitFor(/charlie[\s\S]*alpha[\s\S]*▸ bravo/);
		await terminal.press('I', 'by 10s, highest first');
		expect(rigLines()[0]).toMatch(/^▸ bravo/);

		await terminal.press('/', '/▏');
		await terminal.press('a', '/a▏');
		await terminal.press('l', /\/al▏ 1 of 3/);
		expect(terminal.frame()).not.toMatch(/bravo +live/);
		expect(terminal.frame()).toMatch(/▸ alpha/);
		await terminal.press('\r', /^ \/al 1 of 3 {2}Esc clear filter {2}q quit/m);
		await terminal.press('/', '/al▏');
		await terminal.press('z', /no rig matches "alz"/);
		await terminal.press(KEYS.escape, /bravo +live/);
		expect(terminal.frame()).toMatch(/charlie +live/);

		await terminal.press('R');
		expect(polled).toEqual([0, 1, 2]);
	});

	test('with a filter in force at 80 columns, the footer keeps whole hints after it: none is cut', async () => {
		const miners: AppMiner[] = ['garage-1', 'attic', 'garage-2'].map((name, index) => ({
			store: createStore(named(name, 18_081 + index, {rate: 1000})),
			onRefresh() {},
		}));
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns: 80, rows: 24});
		await terminal.press('/', '/▏');
		await terminal.press('garage', '/garage▏ 2 of 3');
		await terminal.press('\r', /^ \/garage 2 of 3/m);
		const footer = linesOf(terminal.frame()).at(-1) ?? '';
		expect(footer).toMatch(/^ \/garage 2 of 3 +Esc clear filter /);
		expect(footer).not.toContain('…');
		expect(footer.length).toBeLessThanOrEqual(80);
	});

	test('a rig opened from a sorted, filtered table: Esc comes back to the same sort, filter and rig', async () => {
		const miners: AppMiner[] = [
			{store: createStore(named('garage-1', 18_081, {rate: 3000}))},
			{store: createStore(named('attic', 18_082, {rate: 1000}))},
			{store: createStore(named('garage-2', 18_083, {rate: 2000}))},
		];
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns: 100, rows: 24});
		await terminal.press('s', 'by state');
		await terminal.press('s', 'by 10s, lowest first');
		await terminal.press('/', '/▏');
		await terminal.press('garage', '/garage▏ 2 of 3');
		await terminal.press('\r', /^ \/garage 2 of 3/m);
		await terminal.press(KEYS.down, /^▸ garage-1/m);
		await terminal.press('\r', 'Hashrate');
		await tick();
		expect(linesOf(terminal.frame())[0]).toContain('garage-1');
		await terminal.press(KEYS.escape, 'by 10s, lowest first');
		await tick();
		const lines = linesOf(terminal.frame());
		expect(lines.slice(2, 4).map((line) => line.slice(2).split(' ')[0])).toEqual(['garage-2', 'garage-1']);
		expect(lines[3]).toMatch(/^▸ garage-1/);
		expect(lines.at(-1)).toMatch(/^ \/garage 2 of 3/);
	});
});
