/**
 * Every table measures in terminal cells (issue 35, item 7): a rig or worker named with CJK (2 cells a character),
 * emoji (2) or combining marks (0) takes the cells its name takes, so each row is exactly its table's width and the
 * columns after the name stay where the others' are. Checked on the one cutting/padding helper (ui/cells.ts) and on
 * the tables drawn: the fleet and a proxy's workers at every width, the batch results of the shell and of the fleet.
 */
import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import type {RigResult} from '../../source/batch/types.js';
import {reportLines} from '../../source/commands/batch/batch.js';
import type {ProxyWorker} from '../../source/miner/proxy-model.js';
import {HistoryStores} from '../../source/history/stores.js';
import {SessionHistory} from '../../source/history/source.js';
import {App} from '../../source/ui/app.js';
import {FixedNowContext} from '../../source/ui/hooks/use-now.js';
import {EventView} from '../../source/ui/screens/events/view.js';
import {cutText, padText, textWidth} from '../../source/text/cells.js';
import {fitCell} from '../../source/ui/table/table.js';
import {makeProxySnapshot} from '../helpers/proxy-snapshot.js';
import {createStore, makeEvent, makeSnapshot, makeState, NOW} from '../ui/helpers/state.js';
import {linesOf, renderTerminal} from '../ui/helpers/terminal.js';

/** The rig of the report: its name shifted the fleet's row by two columns and cut `up` to `…` at 80×24. */
const REPORTED = 'ünïcødé-矿机';

/** Pieces names are made of: ASCII, Latin with combining marks, CJK, Hangul, emoji (with a ZWJ sequence and a flag). */
const PIECES = ['a', 'rig-', '07', 'é', 'u\u0308', 'n\u0303\u0301', '矿', '机', '漢字', '한', 'ｶ', '🚀', '👩‍💻', '🇯🇵', '✓', '—', ' '];
const wideName = fc
	.array(fc.constantFrom(...PIECES), {minLength: 1, maxLength: 14})
	.map((pieces) => pieces.join('').trim())
	.filter((name) => name !== '');

/** The cell where `line` reaches `cell` cells, and what follows it; null when a wide character straddles that cell. */
function fromCell(line: string, cell: number): string | null {
	let used = 0;
	for (const {segment, index} of new Intl.Segmenter().segment(line)) {
		if (used === cell) return line.slice(index);
		used += textWidth(segment);
		if (used > cell) return null;
	}

	return used === cell ? '' : null;
}

describe('the cell measure', () => {
	test('cutText, padText and fitCell give exactly the cells asked for, whatever the text', () => {
		fc.assert(
			fc.property(wideName, fc.integer({min: 0, max: 50}), fc.constantFrom('left' as const, 'right' as const), (name, width, align) => {
				const padded = padText(name, width, align);
				expect(textWidth(padded)).toBe(width);
				expect(textWidth(fitCell(name, width, align))).toBe(width);
				const cut = cutText(name, width);
				expect(textWidth(cut)).toBeLessThanOrEqual(width);
				if (textWidth(name) <= width) expect(cut).toBe(name);
				else if (width > 0) expect(cut.endsWith('…')).toBe(true);
				// A cut falls between grapheme clusters: a letter keeps its marks, an emoji its ZWJ parts.
				const kept = cut.endsWith('…') ? cut.slice(0, -1) : cut;
				expect(name.startsWith(kept.trimEnd()) || kept === '').toBe(true);
				expect(cutText(name, width, 'start').length === 0 || name.endsWith(cutText(name, width, 'start').replace(/^…/, ''))).toBe(true);
			}),
			{numRuns: 400, examples: [[REPORTED, 8, 'left']]},
		);
		expect(textWidth(REPORTED)).toBe(12);
		expect(padText(REPORTED, 13)).toBe(`${REPORTED} `);
		expect(cutText('矿机矿机', 4)).toBe('矿…');
	});
});

describe('the tables, with names of every width', () => {
	test('the fleet at every width: each rig row as wide as the others, its columns where the others are', async () => {
		await fc.assert(
			fc.asyncProperty(fc.uniqueArray(wideName, {minLength: 2, maxLength: 4}), fc.integer({min: 24, max: 220}), async (names, columns) => {
				const all = [REPORTED, ...names.filter((name) => name !== REPORTED)];
				const miners = all.map((name, index) => ({
					store: createStore(makeState({name, url: `http://10.0.0.${index + 1}:8080`, snapshot: makeSnapshot({workerId: 'same'})})),
				}));
				const terminal = await renderTerminal(<App miners={miners} onQuit={() => {}} now={NOW} color={false} />, {columns, rows: 24});
				const lines = linesOf(terminal.frame());
				terminal.unmount();
				for (const line of lines) expect(textWidth(line), line).toBeLessThanOrEqual(columns);
				const heading = lines.findIndex((line) => line.includes('rig listed'));
				expect(heading).toBeGreaterThan(0);
				const rows = lines.slice(heading + 1, heading + 1 + all.length);
				// Every rig answers the same: after the rig column, each row is the same text in the same cells.
				const header = lines[heading]!;
				const state = header.indexOf('state');
				expect(state).toBeGreaterThan(0);
				const cell = textWidth(header.slice(0, state));
				const tails = rows.map((row) => fromCell(row, cell));
				for (const [index, tail] of tails.entries()) {
					expect(tail, rows[index]).not.toBeNull();
					expect(tail, rows[index]).toBe(tails[0]);
					expect(textWidth(rows[index]!)).toBe(textWidth(rows[0]!));
				}

				// At 80 columns and more the table holds the up column whole.
				if (columns >= 80) expect(tails[0]).toMatch(/ 3d( |$)/);
			}),
			{numRuns: 60, examples: [[['plain-rig', '🚀rocket'], 80]]},
		);
	});

	test("a proxy's workers at every width: each worker row as wide as the others, its columns where the others are", async () => {
		await fc.assert(
			fc.asyncProperty(fc.uniqueArray(wideName, {minLength: 2, maxLength: 5}), fc.integer({min: 30, max: 220}), async (names, columns) => {
				const all = [REPORTED, ...names.filter((name) => name !== REPORTED)];
				const workers: ProxyWorker[] = all.map((name) => ({
					name,
					ip: '10.0.0.9',
					connections: 1,
					accepted: 120,
					rejected: 1,
					invalid: 0,
					hashes: 1_000_000,
					lastShareAt: NOW - 4000,
					hashrate: [1000, 1000, 1000, 1000, 1000],
				}));
				const snapshot = makeProxySnapshot('px', {workers, workerCount: workers.length});
				const store = createStore(makeState({name: 'px', snapshot}));
				const terminal = await renderTerminal(<App miners={[{store}]} onQuit={() => {}} now={NOW} color={false} />, {columns, rows: 30});
				const lines = linesOf(terminal.frame());
				terminal.unmount();
				for (const line of lines) expect(textWidth(line), line).toBeLessThanOrEqual(columns);
				const heading = lines.findIndex((line) => line.includes('worker listed'));
				if (heading < 0) return; // too narrow for the workers' table
				const header = lines[heading]!;
				const state = header.indexOf('state');
				if (state < 0) return;
				const cell = textWidth(header.slice(0, state));
				const rows = lines.slice(heading + 1, heading + 1 + all.length).filter((line) => !line.trimStart().startsWith('total'));
				const tails = rows.map((row) => fromCell(row, cell));
				for (const [index, tail] of tails.entries()) {
					expect(tail, rows[index]).not.toBeNull();
					expect(tail, rows[index]).toBe(tails[0]);
				}
			}),
			{numRuns: 40, examples: [[['plain', '👩‍💻dev'], 80]]},
		);
	});

	test("every rig's events at every width: each event's text starts in the same cell, whatever its rig's name", async () => {
		await fc.assert(
			// From 45 columns the time, a rig's name (at most 20 cells) and the event's text fit on one line.
			fc.asyncProperty(fc.uniqueArray(wideName, {minLength: 2, maxLength: 4}), fc.integer({min: 45, max: 220}), async (names, columns) => {
				const all = [REPORTED, ...names.filter((name) => name !== REPORTED)];
				const sources = all.map((name, index) => {
					const store = createStore(makeState({name, events: [makeEvent(1, index + 1, 'paused')]}));
					const session = new SessionHistory({monitor: store, slot: index, recorder: null, intervalMs: 1000, capacity: 10});
					return {name, store, history: new HistoryStores(session, store)};
				});
				const terminal = await renderTerminal(
					<FixedNowContext.Provider value={NOW}>
						<EventView sources={sources} title="all rigs" caps={{close: () => {}, quit: () => {}}} />
					</FixedNowContext.Provider>,
					{columns, rows: 24},
				);
				const lines = linesOf(terminal.frame());
				terminal.unmount();
				for (const source of sources) source.history.close();
				for (const line of lines) expect(textWidth(line), line).toBeLessThanOrEqual(columns);
				const rows = lines.filter((line) => line.endsWith(' paused'));
				expect(rows).toHaveLength(all.length);
				// The same event of each rig: the text in the same cells on every row.
				for (const row of rows) expect(textWidth(row), row).toBe(textWidth(rows[0]!));
			}),
			{numRuns: 40, examples: [[['plain-rig', '🚀rocket'], 80]]},
		);
	});

	test('batch results in the shell: the names padded in cells, the statuses in one column', () => {
		fc.assert(
			fc.property(fc.uniqueArray(wideName, {minLength: 1, maxLength: 6}), (names) => {
				const all = [REPORTED, ...names.filter((name) => name !== REPORTED)];
				const results = all.map((name): RigResult => ({
					rig: {url: 'http://10.0.0.1:8080', token: null, name},
					status: 'applied',
					reason: '',
					lines: ['paused'],
					sent: true,
					answered: true,
					snapshot: null,
					apply: null,
				}));
				const lines = reportLines(results).slice(0, all.length);
				const at = Math.max(...all.map(textWidth)) + 2;
				for (const line of lines) expect(fromCell(line, at)).toBe('applied  paused');
			}),
		);
	});
});
