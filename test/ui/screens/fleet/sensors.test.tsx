/**
 * Issue 28, the fleet's half of item 4: a rig on this machine has °C (its hottest package's headline), H/W and W
 * columns; a rig elsewhere has them blank; they drop by priority at narrow widths; `s` sorts by them, hottest and
 * least efficient first, only in a fleet that has such a rig.
 */
import {describe, expect, test} from 'vitest';
import type {MonitorState} from '../../../../source/monitor/types.js';
import type {SensorReading} from '../../../../source/sensors/types.js';
import {App, type AppMiner} from '../../../../source/ui/app.js';
import {efficiencyCell, fleetColumns, fleetWants, tempCell, wattsCell} from '../../../../source/ui/screens/fleet/columns.js';
import {fleetOrder, LISTED, nextSort} from '../../../../source/ui/screens/fleet/order.js';
import {fleetRow, fleetRows} from '../../../../source/ui/screens/fleet/rows.js';
import {makeReading, makeTemp, okPower} from '../../../helpers/sensor-reading.js';
import {inkTruecolorForTests} from '../../helpers/colour.js';
import {createStore, makeSnapshot, makeState, NOW, refused} from '../../helpers/state.js';
import {expectFits, linesOf, renderTerminal} from '../../helpers/terminal.js';

function rig(name: string, port: number, sensors?: SensorReading, overrides: Partial<MonitorState> = {}): MonitorState {
	return makeState({
		name,
		url: `http://127.0.0.1:${port}`,
		snapshot: makeSnapshot({workerId: name, ...(sensors === undefined ? {} : {sensors})}),
		...overrides,
	});
}

const cool = makeReading({temps: [makeTemp({celsius: 62})], power: okPower(120), hashesPerWatt: 40.2});
const hot = makeReading({temps: [makeTemp({celsius: 96, max: 95, crit: 105})], power: okPower(150), hashesPerWatt: 32.1});
const denied = makeReading({power: {state: 'denied', message: 'package power needs root'}, hashesPerWatt: null});

/** Two rigs on this machine (a second miner on another port), one elsewhere, one on this machine that is down. */
function fleet(): MonitorState[] {
	return [
		rig('remote', 18_081, undefined, {url: 'http://10.0.0.7:18081'}),
		rig('cool', 18_082, cool),
		rig('hot', 18_083, hot),
		rig('gone', 18_084, denied, {status: 'down', failingSince: NOW - 60_000, error: refused()}),
	];
}

const miners = (states: readonly MonitorState[]): AppMiner[] => states.map((state) => ({store: createStore(state)}));

describe('the fleet rows and cells of a rig reading', () => {
	test('a local rig: its hottest headline with a word at its limits, W, H/W; a remote one: blank; a local one down: "—"', () => {
		const rows = fleetRows(fleet(), NOW);
		expect(rows.map((row) => tempCell(row))).toEqual(['', '62°C', '96°C hot', '—']);
		expect(rows.map((row) => wattsCell(row))).toEqual(['', '120 W', '150 W', '—']);
		expect(rows.map((row) => efficiencyCell(row))).toEqual(['', '40.2 H/W', '32.1 H/W', '—']);
		const critical = fleetRow(rig('x', 1, makeReading({temps: [makeTemp({celsius: 106, max: 95, crit: 105})]})), 0, NOW);
		expect(tempCell(critical)).toBe('106°C crit');
		expect(wattsCell(fleetRow(rig('x', 1, denied), 0, NOW))).toBe('denied');
		// Two packages: the hottest headline, not a core.
		const two = makeReading({
			temps: [makeTemp({celsius: 60}), makeTemp({label: 'Core 1', celsius: 99, headline: false}), makeTemp({package: 1, celsius: 70})],
		});
		expect(tempCell(fleetRow(rig('x', 1, two), 0, NOW))).toBe('70°C');
	});

	test('the columns exist only in a fleet with a local rig that has something to read', () => {
		const ids = (states: MonitorState[]) => fleetColumns(fleetWants(fleetRows(states, NOW))).map((column) => column.id);
		expect(ids(fleet())).toEqual(expect.arrayContaining(['temp', 'hpw', 'watts']));
		expect(ids([rig('a', 1), rig('b', 2)])).not.toEqual(expect.arrayContaining(['temp']));
		expect(ids([rig('a', 1), rig('b', 2)]).some((id) => ['temp', 'hpw', 'watts'].includes(id))).toBe(false);
		// On a machine with no hwmon, cpufreq or powercap (a container) the reading is empty: no columns either.
		const empty = makeReading({temps: [], clock: null, throttle: null, power: {state: 'none'}, hashesPerWatt: null});
		expect(ids([rig('a', 1, empty), rig('b', 2)]).some((id) => ['temp', 'hpw', 'watts'].includes(id))).toBe(false);
	});

	test('sorting: °C hottest first, H/W least efficient first, a rig with no reading last; skipped without local rigs', () => {
		const rows = fleetRows(fleet(), NOW);
		const names = (order: readonly number[]) => order.map((index) => rows[index]?.name);
		expect(names(fleetOrder(rows, {key: 'temp', reversed: false}, ''))).toEqual(['hot', 'cool', 'remote', 'gone']);
		expect(names(fleetOrder(rows, {key: 'hpw', reversed: false}, ''))).toEqual(['hot', 'cool', 'remote', 'gone']);
		expect(names(fleetOrder(rows, {key: 'hpw', reversed: true}, ''))).toEqual(['cool', 'hot', 'remote', 'gone']);
		expect(nextSort({key: 'up', reversed: false}).key).toBe('temp');
		expect(nextSort({key: 'temp', reversed: false}).key).toBe('hpw');
		expect(nextSort({key: 'up', reversed: false}, false).key).toBe('rig');
		// A °C sort kept from a run with local rigs goes on to the next one there is.
		expect(nextSort({key: 'temp', reversed: false}, false).key).toBe('rig');
		expect(nextSort(LISTED, false).key).toBe('state');
	});
});

describe('the fleet view with local rigs', () => {
	test('200×50: °C, H/W and W headings; each local rig its values, the remote rig blank there, the totals blank', async () => {
		const terminal = await renderTerminal(<App miners={miners(fleet())} onQuit={() => {}} now={NOW} color={false} />, {
			columns: 200,
			rows: 50,
		});
		const lines = linesOf(terminal.frame());
		const headings = lines[1] ?? '';
		expect(headings).toMatch(/°C +H\/W +W /u);
		const line = (name: string) => lines.find((text) => text.startsWith(`  ${name} `)) ?? '';
		expect(line('cool')).toMatch(/62°C +40\.2 H\/W +120 W/u);
		expect(line('hot')).toMatch(/96°C hot +32\.1 H\/W +150 W/u);
		expect(line('remote')).not.toMatch(/°C|H\/W| W /u);
		expect(line('gone')).toMatch(/— +— +—/u);
		const total = lines.find((text) => /^ {2}total /u.test(text)) ?? '';
		expect(total).not.toMatch(/°C|H\/W/u);
		expectFits(terminal, 200, 50);
	});

	test('80×24: the columns drop by priority: °C stays longest, then H/W; the frame fits', async () => {
		const terminal = await renderTerminal(<App miners={miners(fleet())} onQuit={() => {}} now={NOW} color={false} />, {
			columns: 80,
			rows: 24,
		});
		const headings = linesOf(terminal.frame())[1] ?? '';
		expect(headings).toContain('°C');
		expect(headings).not.toMatch(/ W( |$)/u);
		expectFits(terminal, 80, 24);
		// Sorted by °C (s past the others), the heading says so at 80 columns too, the hottest on top.
		for (const heading of [/state▼/u, /10s▲/u, /15m▲/u, /rej▼/u, /up▲/u, /°C▼/u]) await terminal.press('s', heading);
		const lines = linesOf(terminal.frame());
		expect(lines[2]).toMatch(/^.{2}hot /u);
		expect(lines[0]).toContain('by °C, hottest first');
		expectFits(terminal, 80, 24);
	});

	test('a fleet of remote rigs has no °C, H/W or W column, and s never sorts by them', async () => {
		const terminal = await renderTerminal(
			<App miners={miners([rig('a', 18_081), rig('b', 18_082)])} onQuit={() => {}} now={NOW} color={false} />,
			{columns: 200, rows: 50},
		);
		expect(terminal.frame()).not.toMatch(/°C|H\/W/u);
		for (const heading of [/state▼/u, /10s▲/u, /15m▲/u, /rej▼/u, /up▲/u, /rig name▲|rig▲/u]) await terminal.press('s', heading);
		expect(terminal.frame()).not.toMatch(/°C|H\/W/u);
	});
});

describe('a °C or H/W sort remembered from a run with local rigs, in a fleet without them', () => {
	test('the table is in the session order and says so; s goes on to the state sort', async () => {
		// Seen: "rigtop  2 rigs · 4.98 kH/s total · by H/W, lowest first" over a table with no H/W column and no arrow on
		// any heading (every rig tied), after a run with local rigs had left the H/W sort in prefs.json.
		const saved = {fleet: {sort: 'hpw' as const, reversed: false, filter: ''}};
		const prefs = {initial: saved, current: saved, update: () => undefined};
		const terminal = await renderTerminal(
			<App miners={miners([rig('b', 18_082), rig('a', 18_081)])} onQuit={() => {}} now={NOW} color={false} prefs={prefs} />,
			{columns: 80, rows: 24},
		);
		const lines = linesOf(terminal.frame());
		expect(lines[0]).not.toMatch(/H\/W/u);
		expect(lines[1]).toMatch(/rig listed▲/u);
		expect(lines[2]).toMatch(/^▸ b /u);
		await terminal.press('s', /state▼/u);
	});
});

describe('the °C cell toned by its sensor own limits', () => {
	inkTruecolorForTests();

	test('yellow at max, plain below it', async () => {
		const terminal = await renderTerminal(<App miners={miners(fleet())} onQuit={() => {}} now={NOW} color />, {columns: 200, rows: 50});
		const raw = terminal.rawFrame();
		// eslint-disable-next-line no-control-regex -- the cell's colour, ESC [ 33 m, before its padding
		expect(raw).toMatch(/\u001B\[33m *96°C hot\u001B\[39m/u);
		// eslint-disable-next-line no-control-regex -- no colour before the cool rig's cell
		expect(raw).not.toMatch(/\u001B\[3\dm *62°C/u);
		expect(raw).toContain('62°C');
	});
});
