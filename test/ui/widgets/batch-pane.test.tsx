/**
 * The batch pane: each rig's result in words and a mark that reads without colour, a long reason wrapped under its
 * text (never cut), and a title that counts the results.
 */
import type {ReactElement} from 'react';
import {afterEach, describe, expect, test} from 'vitest';
import {Batch} from '../../../source/batch/batch.js';
import {createLimiter} from '../../../source/monitor/limiter.js';
import {watchMiner, type WatchedMiner} from '../../../source/session/session.js';
import {startSimulator, type Simulator} from '../../../source/sim/simulator.js';
import {App} from '../../../source/ui/app.js';
import type {BatchState, RigResult} from '../../../source/batch/types.js';
import {batchLines} from '../../../source/ui/widgets/batch-lines.js';
import {BatchPane} from '../../../source/ui/widgets/batch-pane.js';
import {expectFits, KEYS, linesOf, renderTerminal} from '../helpers/terminal.js';

const rig = (name: string) => ({url: `http://127.0.0.1:1808${name.length}`, token: null, name});
const result = (name: string, status: RigResult['status'], reason: string): RigResult => ({
	rig: rig(name),
	status,
	reason,
	lines: [],
	sent: status === 'applied',
	answered: true,
	snapshot: null,
	apply: null,
});

describe('the batch pane', () => {
	test('at 60 columns a long reason wraps under its text; each status has its mark and word', async () => {
		const why = 'cannot pause: XMRig 2.14.4 has no pause or resume in its API (they came in XMRig 2.99.6)';
		const batch: BatchState = {
			rigs: [
				{rig: rig('rig-01'), state: 'done', result: result('rig-01', 'applied', 'paused (read back)')},
				{rig: rig('rig-03'), state: 'done', result: result('rig-03', 'skipped', why)},
				{rig: rig('rig-05'), state: 'done', result: result('rig-05', 'failed', 'the miner still shows running')},
			],
			done: 3,
			cancelled: false,
			finished: true,
		};
		const terminal = await renderTerminal(<BatchPane batch={batch} action="pause" offset={0} width={60} height={10} />, {
			columns: 60,
			rows: 12,
		});
		const lines = linesOf(terminal.frame());
		expect(lines[0]).toBe(' pause 3 rigs: 1 paused · 1 skipped · 1 failed');
		expect(lines[1]).toBe(' ✓ rig-01  paused (read back)');
		expect(lines[2]).toMatch(/^ - rig-03 {2}skipped: cannot pause: XMRig 2\.14\.4/);
		const rest = lines
			.slice(
				3,
				lines.findIndex((line) => line.includes('rig-05')),
			)
			.map((line) => line.trim());
		expect(`${lines[2]} ${rest.join(' ')}`).toContain('(they came in XMRig 2.99.6)');
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
		expect(lines.find((line) => line.includes('rig-05'))).toBe(' ✗ rig-05  failed: the miner still shows running');
	});
});

describe('batchLines', () => {
	test('a name over 24 columns is cut with "…"; too narrow for the text beside the name, it goes under it; no line is wider than the pane', () => {
		const why = 'cannot pause: XMRig 2.14.4 has no pause or resume in its API (they came in XMRig 2.99.6)';
		const batch: BatchState = {
			rigs: [
				{rig: rig('rig-01'), state: 'done', result: result('rig-01', 'applied', 'paused (read back)')},
				{rig: rig('garage-rig-in-the-back-shed-02'), state: 'done', result: result('garage-rig-in-the-back-shed-02', 'skipped', why)},
			],
			done: 2,
			cancelled: false,
			finished: true,
		};
		const wide = batchLines(batch, 'pause', 80).map((line) => line.text);
		expect(wide[1]).toMatch(/^ - garage-rig-in-the-back-… {2}skipped: cannot pause/);
		const narrow = batchLines(batch, 'pause', 36).map((line) => line.text);
		expect(narrow.slice(0, 2)).toEqual([' ✓ rig-01', '     paused (read back)']);
		expect(narrow[2]).toBe(' - garage-rig-in-the-back-…');
		expect(narrow.slice(3).join(' ').replaceAll(/\s+/g, ' ').trim()).toBe(`skipped: ${why}`);
		for (const line of wide) expect([...line].length).toBeLessThanOrEqual(80);
		for (const line of narrow) expect([...line].length).toBeLessThanOrEqual(36);
	});
});

describe('the batch pane scrolls by the lines it draws (a long result wraps over several)', () => {
	const TOKEN = 'batch-pane-token-7c';
	const reason = 'failed: cannot pause: XMRig 2.14.4 has no pause or resume in its API (they came in XMRig 2.99.6)';
	let sims: Simulator[] = [];
	let watched: WatchedMiner[] = [];
	afterEach(async () => {
		for (const miner of watched) miner.monitor.stop();
		await Promise.all(watched.map(async (miner) => miner.client.close()));
		await Promise.all(sims.map(async (sim) => sim.stop()));
		sims = [];
		watched = [];
	});

	/**
	 * A 6.x rig, then eight 2.14 rigs (each skipped with a reason that wraps at 60 columns) in the fleet, with the batch
	 * engine: the 6.x one makes p a question (with none to pause, nothing would be asked).
	 */
	const NAMES = ['new-00', 'old-01', 'old-02', 'old-03', 'old-04', 'old-05', 'old-06', 'old-07', 'old-08'];
	async function oldRigs(): Promise<ReactElement> {
		sims = await Promise.all(
			NAMES.map(async (workerId, n) =>
				startSimulator({dialect: n === 0 ? '6' : '2.14', warm: true, token: TOKEN, restricted: false, workerId, seed: n + 1}),
			),
		);
		const limiter = createLimiter(4);
		watched = sims.map((sim, index) => watchMiner({url: sim.url, token: TOKEN, name: NAMES[index]}, 250, limiter));
		for (const miner of watched) miner.monitor.start();
		const fleetBatch = (action: 'pause' | 'resume', rigs: readonly number[], signal: AbortSignal) => {
			const batch = new Batch({
				rigs: rigs.map((index) => ({url: watched[index]!.target.url, token: TOKEN, name: NAMES[index] ?? ''})),
				action: {kind: action},
				signal,
				dryRun: false,
				addKeys: false,
				confirmApiChanges: false,
				requestTimeoutMs: 2000,
			});
			void batch.run();
			return batch;
		};

		return (
			<App
				miners={watched.map((miner) => ({store: miner.monitor, tokenGiven: true}))}
				onQuit={() => {}}
				color={false}
				fleetThrottleMs={0}
				fleetBatch={fleetBatch}
			/>
		);
	}

	/** The text from a rig's line to the pane's last line, each line trimmed and joined by a space. */
	const fromRig = (lines: readonly string[], name: string) =>
		lines
			.slice(lines.findIndex((line) => line.includes(name)))
			.map((line) => line.trim())
			.join(' ');

	test('60×16: ↓ and PgDn typed in one chunk reach the last rig’s whole result; the title counts lines; nothing past the pane', async () => {
		const terminal = await renderTerminal(await oldRigs(), {columns: 60, rows: 16});
		await terminal.waitFor(/old-08 +live/);
		await terminal.waitFor(/new-00 +live/);
		await terminal.press('*', '9 marked');
		await terminal.press('p', /pause 1 rig: new-00; 8 cannot/);
		await terminal.press('y', /pause 9 rigs: 1 paused · 8 failed/);
		const first = linesOf(terminal.frame());
		expect(first.some((line) => line.includes('old-08'))).toBe(false);
		expect(first.at(-1)).toMatch(/↑↓ scroll/);

		// Each rig's reason wraps under it: more lines than the pane shows, every one reached by the keys.
		await terminal.press(`jjj${KEYS.pageDown}${KEYS.pageDown}${KEYS.pageDown}`, /old-08[^]*2\.99\.6\)\n ↑↓ scroll/);
		const last = linesOf(terminal.frame());
		expect(fromRig(last, 'old-08')).toMatch(new RegExp(`^✗ old-08 +${reason.replaceAll(/[().]/g, '\\$&')} ↑↓ scroll`));
		// The title says which lines are shown: the last ones.
		const [, from, to, total] = /\(lines (\d+)–(\d+) of (\d+)\)$/.exec(last[1] ?? '') ?? [];
		expect(Number(total)).toBeGreaterThanOrEqual(16);
		expect(to).toBe(total);
		expect(Number(to) - Number(from) + 1).toBe(last.length - 3);
		expect(first[1]).toContain(`(lines 1–${Number(to) - Number(from) + 1} of ${total})`);
		expectFits(terminal, 60, 16);

		// Back to the top, by the page and line by line.
		await terminal.press(`${KEYS.pageUp}${KEYS.pageUp}${KEYS.pageUp}k`, `(lines 1–`);
		expect(fromRig(linesOf(terminal.frame()), 'old-01')).toMatch(/^✗ old-01 +failed: cannot pause/);
	});

	test('made smaller while open (80×24 to 40×10), the pane scrolls at the new size without a key first', async () => {
		const terminal = await renderTerminal(await oldRigs(), {columns: 80, rows: 24});
		await terminal.waitFor(/old-08 +live/);
		await terminal.waitFor(/new-00 +live/);
		await terminal.press('*p', /pause 1 rig: new-00; 8 cannot/);
		await terminal.press('y', /pause 9 rigs: 1 paused · 8 failed/);
		// Every result fits at 80×24: nothing to scroll.
		expect(terminal.frame()).toContain('old-08');
		expect(terminal.frame()).not.toMatch(/scroll|\(lines/);
		terminal.resize(40, 10);
		await terminal.waitFor(/\(lines 1–\d+ of \d+\)/);
		await terminal.press('jj', /\(lines 3–/);
		expect(linesOf(terminal.frame()).at(-1)).toMatch(/↑↓ scroll/);
	});
});
