/**
 * Issue 22, items 4 and 11: the fleet's headline total sums every live rig, each column's total says how many rigs it
 * sums, the sort column and its direction show at every width, a long list says which rigs are in view, and shares are
 * never shortened. At 80×24, 120×40 and 200×50 (and the sort marker at 40 columns too).
 */
import {describe, expect, test} from 'vitest';
import {App, type AppMiner} from '../../../../source/ui/app.js';
import type {MonitorState} from '../../../../source/monitor/types.js';
import {createStore, makeSnapshot, makeState, NOW, refused} from '../../helpers/state.js';
import {expectFits, linesOf, renderTerminal} from '../../helpers/terminal.js';

const SIZES = [
	{columns: 80, rows: 24},
	{columns: 120, rows: 40},
	{columns: 200, rows: 50},
] as const;

type Rates = [number | null, number | null, number | null];

function rig(name: string, port: number, rates: Rates, shares: [number, number] = [1204, 1207], uptime = 3 * 86_400): MonitorState {
	return makeState({
		name,
		url: `http://127.0.0.1:${port}`,
		snapshot: makeSnapshot({
			workerId: name,
			uptime,
			hashrate: {total: rates},
			results: {good: shares[0], total: shares[1], rejected: shares[1] - shares[0]},
		}),
	});
}

/**
 * The issue's fleet: five rigs, four live. Two have run for days (every window), two started minutes ago (no 15 m
 * yet), one is down. The old headline summed the 15 m column: "5 rigs · 5.83 kH/s total (2 of 5)".
 */
function issueFleet(): AppMiner[] {
	const states = [
		rig('old-a', 18_081, [2900, 2910, 2920]),
		rig('old-b', 18_082, [2905, 2908, 2910]),
		rig('new-c', 18_083, [2950, 2940, null], [12, 12], 240),
		rig('new-d', 18_084, [2960, 2950, null], [9, 9], 180),
		makeState({name: 'gone-e', url: 'http://127.0.0.1:18085', status: 'down', failingSince: NOW - 60_000, error: refused()}),
	];
	return states.map((state) => ({store: createStore(state)}));
}

/** The column of `text`'s last character in `line` (right-aligned cells end where their heading ends). */
const endOf = (line: string, text: string) => [...line.slice(0, line.indexOf(text))].length + [...text].length;

describe('the fleet totals (issue 22, item 4)', () => {
	for (const size of SIZES) {
		test(`${size.columns}×${size.rows}: the headline sums every live rig's 10 s; each column's total says "2 of 5" when not every rig has it`, async () => {
			const terminal = await renderTerminal(<App miners={issueFleet()} onQuit={() => {}} now={NOW} color={false} />, size);
			const lines = linesOf(terminal.frame());
			// 2900 + 2905 + 2950 + 2960: all four live rigs, the two fresh ones too; no "(2 of 5)".
			expect(lines[0]).toMatch(/^ rigtop {2}5 rigs · 11\.7 kH\/s total +● 4 live · 1 down$/);
			const headings = lines[1] ?? '';
			const total = lines.find((line) => /^ {2}total /.test(line)) ?? '';
			const counted = lines[lines.indexOf(total) + 1] ?? '';
			// Each column sums the rigs that have a value in it: 10 s and 60 s four rigs, 15 m two (2920 + 2910).
			expect(total).toMatch(/^ {2}total +4\/5 up +11\.7 kH\/s +11\.7 kH\/s +5\.83 kH\/s +2 429\/2 435 /);
			// Under each total, right-aligned with its column, how many rigs it sums: "15m 5.83 kH/s · 2 of 5".
			expect(counted.trim().split(/ {2,}/)).toEqual(['· 4 of 5', '· 4 of 5', '· 2 of 5', '· 4 of 5']);
			expect(endOf(counted, '· 2 of 5')).toBe(endOf(headings, '15m'));
			expect(endOf(total, '5.83 kH/s')).toBe(endOf(headings, '15m'));
			expectFits(terminal, size.columns, size.rows);
		});
	}

	test('a fresh rig that has no rate at all yet: the headline says how many live rigs it counts; none missing, no line under the totals', async () => {
		const miners = [rig('a', 18_081, [1000, 1000, 1000]), rig('b', 18_082, [null, null, null], [0, 0], 2)].map((state) => ({
			store: createStore(state),
		}));
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns: 80, rows: 24});
		expect(linesOf(terminal.frame())[0]).toMatch(/^ rigtop {2}2 rigs · 1\.00 kH\/s total \(1 of 2 up rigs\) +● 2 live$/);

		const full = [rig('a', 18_081, [1000, 1000, 1000]), rig('b', 18_082, [2000, 2000, 2000])].map((state) => ({store: createStore(state)}));
		const whole = await renderTerminal(<App miners={full} onQuit={() => {}} now={NOW} color={false} />, {columns: 80, rows: 24});
		const lines = linesOf(whole.frame());
		expect(lines[0]).toMatch(/^ rigtop {2}2 rigs · 3\.00 kH\/s total +● 2 live$/);
		const total = lines.findIndex((line) => /^ {2}total /.test(line));
		expect(lines[total + 1]).not.toMatch(/ of 2/);
		expect(whole.frame()).not.toContain(' of 2');
	});
});

describe('the headline total at 80 columns', () => {
	test('a fleet with a rig starting, one stale and one down keeps its total, in fewer words, rather than dropping it', async () => {
		// Seen at 80×24: "rigtop  12 rigs … ● 10 live · 1 stale · 1 down" with no total at all while a restarted rig had no
		// rate yet: "11.7 kH/s total (9 of 10 up rigs)" did not fit beside the states and the title dropped it whole.
		const states = [
			...Array.from({length: 9}, (_, index) => rig(`rig-${index + 1}`, 18_100 + index, [1000, 1000, 1000])),
			rig('fresh', 18_120, [null, null, null], [0, 0], 2),
			makeState({name: 'late', url: 'http://127.0.0.1:18121', status: 'stale', lastSuccessAt: NOW - 12_000}),
			makeState({name: 'gone', url: 'http://127.0.0.1:18122', status: 'down', failingSince: NOW - 60_000, error: refused()}),
		];
		const miners = states.map((state) => ({store: createStore(state)}));
		const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns: 80, rows: 24});
		expect(linesOf(terminal.frame())[0]).toMatch(/^ rigtop {2}12 rigs · 9\.00 kH\/s total \(9 of 10\) +● 10 live · 1 stale · 1 down$/);
		// Where there is room, the whole words.
		const wide = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns: 120, rows: 40});
		expect(linesOf(wide.frame())[0]).toContain('12 rigs · 9.00 kH/s total (9 of 10 up rigs)');
	});
});

/** Rigs with distinct rates, shares and uptimes, so every sort orders them. */
function manyRigs(count: number): AppMiner[] {
	return Array.from({length: count}, (_, index) => {
		const name = `rig-${String(index + 1).padStart(2, '0')}`;
		const rate = 1000 + ((index * 7919) % 4000);
		return {store: createStore(rig(name, 18_100 + index, [rate, rate, rate], [1000 + index, 1003 + index], 3600 * (index + 1)))};
	});
}

/** The heading line's marks, and the expected one after each `s` (then `I` reverses the last). */
const CYCLE: readonly (readonly [key: string, heading: RegExp])[] = [
	['s', /state▼/],
	['s', /10s▲/],
	['s', /15m▲/],
	['s', /rej▼/],
	['s', /up▲/],
	['s', /rig▲/],
	['I', /rig▼/],
];

describe('the fleet at every width (issue 22, item 11)', () => {
	for (const size of [...SIZES, {columns: 40, rows: 24}]) {
		test(`${size.columns}×${size.rows}: the sorted column's heading carries the sort's arrow, whatever columns fit`, async () => {
			const terminal = await renderTerminal(<App miners={manyRigs(6)} onQuit={() => {}} now={NOW} color={false} />, size);
			// The session's order, marked on the rig column (which always shows).
			expect(linesOf(terminal.frame())[1]).toMatch(/^ {2}rig listed▲ /);
			for (const [key, heading] of CYCLE) {
				await terminal.press(key, heading);
				const headings = linesOf(terminal.frame())[1] ?? '';
				expect(headings).toMatch(heading);
				// One arrow, on the heading line only.
				expect([...terminal.frame()].filter((char) => char === '▲' || char === '▼')).toHaveLength(1);
				expect([...headings].length).toBeLessThanOrEqual(size.columns);
			}

			// Back to the session's order, marked again.
			await terminal.press('s', 'rig listed▲');
			expect([...terminal.frame()].filter((char) => char === '▲' || char === '▼')).toHaveLength(1);
			expectFits(terminal, size.columns, size.rows);
		});
	}

	for (const size of SIZES) {
		// At 80×24, 18 rig rows fit: 29 rigs. Taller terminals hold more rows, so the fleet is longer there.
		const rigRows = size.rows - 6;
		const count = rigRows + 11;
		test(`${size.columns}×${size.rows}: ${count} rigs say "rigs 1–${rigRows} of ${count}", kept when the sort's words do not fit`, async () => {
			const terminal = await renderTerminal(<App miners={manyRigs(count)} onQuit={() => {}} now={NOW} color={false} />, size);
			const window = `rigs 1–${rigRows} of ${count}`;
			expect(linesOf(terminal.frame())[0]).toContain(window);
			await terminal.press('s', /state▼/);
			await terminal.press('s', /10s▲/);
			const title = linesOf(terminal.frame())[0] ?? '';
			expect(title).toContain(window);
			// The words of the sort come after it, where they fit (the arrow says it anyway).
			if (size.columns >= 120) expect(title).toContain(`${window} · by 10s, lowest first`);
			expectFits(terminal, size.columns, size.rows);
		});
	}

	for (const size of [...SIZES, {columns: 60, rows: 24}]) {
		test(`${size.columns}×${size.rows}: shares are whole ("25 102/25 140", never "25.1K/25.1K"); the column widens for them`, async () => {
			const miners = [
				rig('big', 18_081, [5000, 5000, 5000], [25_102, 25_140]),
				rig('bigger', 18_082, [5000, 5000, 5000], [117_921, 118_022]),
			].map((state) => ({store: createStore(state)}));
			const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, size);
			const frame = terminal.frame();
			expect(frame).toMatch(/big +live .* 25 102\/25 140( |$)/m);
			expect(frame).toMatch(/bigger +live .* 117 921\/118 022( |$)/m);
			expect(frame).toMatch(/total +2\/2 up .* 143 023\/143 162( |$)/m);
			expect(frame).not.toMatch(/\d[KM]\//);
			expect(frame).not.toMatch(/\d…/);
			expectFits(terminal, size.columns, size.rows);
		});
	}

	test('40 columns: too narrow for whole shares beside the rates, the shares column goes whole, never shortened', async () => {
		const miners = [rig('big', 18_081, [5000, 5000, 5000], [25_102, 25_140])].concat(rig('b', 18_082, [1, 1, 1]));
		const terminal = await renderTerminal(
			<App miners={miners.map((state) => ({store: createStore(state)}))} onQuit={() => {}} now={NOW} color={false} />,
			{columns: 40, rows: 24},
		);
		const frame = terminal.frame();
		expect(linesOf(frame)[1]).toMatch(/^ {2}rig listed▲ +state +10s$/);
		expect(frame).not.toContain('25.1K');
		expect(frame).not.toMatch(/25 1…|…\/25/);
		expectFits(terminal, 40, 24);
	});
});
