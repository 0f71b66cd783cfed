/**
 * The lines each rig takes in the fleet config view's diff pane (pure): a reason wraps in a third of the pane, or
 * more while every rig fits; a change is one line; the scroll stops where the last rig shows whole.
 */
import {describe, expect, it} from 'vitest';
import {diffMaxOffset, diffRigLines} from '../../../../source/ui/screens/fleet-config/diff-lines.js';
import type {DiffPlan, RigDiff} from '../../../../source/ui/screens/fleet-config/rigs.js';

const WHY = 'failed: the miner refused to let rigtop read it (401) — set http.access-token in its config and restart it';

function plan(...rigs: RigDiff[]): DiffPlan {
	return {rigs, counts: {change: 0, already: 0, lacks: 0, skipped: 0, failed: 0, unreachable: 0}};
}

describe("each rig's lines in the diff", () => {
	// 40 columns less "   rig-1  ": 30 for the text, where WHY takes 4 lines.
	const reasons = plan(
		{name: 'rig-1', kind: 'failed', text: WHY},
		{name: 'rig-2', kind: 'change', text: `cpu.huge-pages-jit: false → true ${'x'.repeat(60)}`},
		{name: 'rig-3', kind: 'skipped', text: WHY.replace('failed', 'skipped')},
	);

	it('a reason whole where the pane has the lines, a change on one line', () => {
		expect(diffRigLines(reasons, 40, 20)).toEqual([4, 1, 4]);
	});

	it('a reason in a third of a full pane, or in the lines the pane has spare', () => {
		expect(diffRigLines(reasons, 40, 6)).toEqual([2, 1, 2]);
		// A third of 7 is 2, but 3 + 1 + 3 fit.
		expect(diffRigLines(reasons, 40, 7)).toEqual([3, 1, 3]);
	});

	it('scrolls as far as the first rig from which the last shows whole', () => {
		expect(diffMaxOffset([1, 1, 3, 3], 4)).toBe(3);
		expect(diffMaxOffset([1, 1, 3, 3], 6)).toBe(2);
		expect(diffMaxOffset([1, 1, 3, 3], 8)).toBe(0);
		expect(diffMaxOffset([], 8)).toBe(0);
	});
});
