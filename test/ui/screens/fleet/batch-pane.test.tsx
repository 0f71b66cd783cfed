/**
 * The batch pane: each rig's result in words and a mark that reads without colour, a long reason wrapped under its
 * text (never cut), and a title that counts the results.
 */
import {describe, expect, test} from 'vitest';
import type {BatchState, RigResult} from '../../../../source/batch/types.js';
import {BatchPane} from '../../../../source/ui/screens/fleet/batch-pane.js';
import {linesOf, renderTerminal} from '../../helpers/terminal.js';

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
