/**
 * The lines each rig takes in the fleet config view's diff pane: one, but why a rig is not changed (skipped: down,
 * restricted…; failed: the value refused) wraps under its text, its fix being at the end, in a third of the pane (more
 * while every rig fits). The diff scrolls as far as the first rig from which the last one shows whole.
 */
import {wrappedHeight} from '../../widgets/wrap.js';
import {textWidth} from '../../../text/cells.js';
import type {DiffPlan, RigDiff} from './rigs.js';

/** Columns before a rig's name ("   rig-01  …"). */
const NAME_INDENT = 3;
/** Columns between a rig's name and its text. */
const NAME_GAP = 2;

/** The name column's width: the longest name, up to 24. */
export function diffNameWidth(plan: DiffPlan): number {
	return Math.min(24, Math.max(0, ...plan.rigs.map((rig) => textWidth(rig.name))));
}

/** Columns before a rig's text: its indent, name and gap. */
export function diffTextIndent(plan: DiffPlan): number {
	return NAME_INDENT + diffNameWidth(plan) + NAME_GAP;
}

/** Whether a rig's text is a reason (it wraps) rather than a change (one line, cut at the edge). */
export function wrapsReason(rig: RigDiff): boolean {
	return rig.kind === 'skipped' || rig.kind === 'failed' || rig.kind === 'unreachable';
}

/**
 * The lines each rig takes, in `width` columns of a pane that shows `rows` rig lines: a reason gets a third of the
 * pane, or more while every rig still fits (the pane's spare lines are not left blank).
 */
export function diffRigLines(plan: DiffPlan, width: number, rows: number): readonly number[] {
	const textWidth = Math.max(1, width - diffTextIndent(plan));
	const wanted = plan.rigs.map((rig) => (wrapsReason(rig) ? wrappedHeight(rig.text, textWidth) : 1));
	const within = (most: number) => wanted.map((lines) => Math.min(most, lines));
	const sum = (most: number) => within(most).reduce((total, lines) => total + lines, 0);
	let most = Math.max(1, Math.floor(rows / 3));
	while (most < rows && sum(most + 1) <= rows && sum(most + 1) > sum(most)) most++;
	return within(most);
}

/** The furthest the diff scrolls: the first rig from which every rig to the last fits in `rows` lines. */
export function diffMaxOffset(lines: readonly number[], rows: number): number {
	let first = lines.length;
	let used = 0;
	while (first > 0 && used + lines[first - 1]! <= rows) {
		used += lines[first - 1]!;
		first--;
	}

	return Math.max(0, Math.min(first, lines.length - 1));
}
