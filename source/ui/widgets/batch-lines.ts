/**
 * The batch pane's lines as drawn: each rig's line ("✓ rig-01  paused (read back)"), its text wrapped under itself
 * (wordLines) so why a rig failed is read whole. The pane scrolls by these screen lines, not by rigs: its reducer, its
 * keys' availability and its view all measure them here, so the last line of the last rig's result can always be
 * scrolled to and nothing is drawn past the pane.
 */
import type {BatchState, RigProgress, RigStatus} from '../../batch/types.js';
import type {ThemeToken} from '../text/theme.js';
import {cutText, wordLines} from './wrap.js';
import {padText, textWidth} from '../../text/cells.js';

/** Each status in a word and a mark (readable without colour), and its colour. */
const STATUS: Readonly<Record<RigStatus, {readonly mark: string; readonly word: string; readonly tone: ThemeToken}>> = {
	applied: {mark: '✓', word: '', tone: 'ok'},
	already: {mark: '=', word: '', tone: 'info'},
	planned: {mark: '·', word: 'planned: ', tone: 'info'},
	skipped: {mark: '-', word: 'skipped: ', tone: 'warn'},
	failed: {mark: '✗', word: 'failed: ', tone: 'error'},
	unreachable: {mark: '-', word: 'unreachable: ', tone: 'warn'},
	cancelled: {mark: '⊘', word: 'cancelled: ', tone: 'warn'},
};

/** The batches the pane has words of its own for: the fleet's pause and resume. */
export type PauseOrResume = 'pause' | 'resume';

/** Lines of the pane that are not a rig's result: its title. */
export const BATCH_TITLE_LINES = 1;

/** What a pane says of a batch other than pause and resume (the fleet config view's): its title, a rig at work, a rig applied. */
export type PaneWords = {readonly title: string; readonly doing: string; readonly applied: string};

/** The words of a pause or resume batch. */
export function wordsOf(action: PauseOrResume | PaneWords): PaneWords {
	if (typeof action !== 'string') return action;
	return action === 'pause'
		? {title: 'pause', doing: 'pausing…', applied: 'paused'}
		: {title: 'resume', doing: 'resuming…', applied: 'resumed'};
}

/** The longest name column; a longer name is cut ("…"). */
const NAME_MOST = 24;
/** The least width a rig's text gets beside its name; in a narrower pane it goes under the name. */
const TEXT_LEAST = 16;
/** The indent of a rig's text under its name, in a narrow pane. */
const UNDER_INDENT = 5;

/** One rig's mark and text (its name goes between): "✓" "rig-01" "paused (read back)"; "-" "rig-03" "skipped: cannot pause: …". */
function progressParts(
	progress: RigProgress,
	action: PauseOrResume | PaneWords,
): {readonly mark: string; readonly text: string; readonly tone: ThemeToken | null} {
	const parts = statusParts(progress, action);
	// A token the user did not give (a running miner's) is said on the rig's line from the start, as the shell says it.
	const {tokenFrom} = progress.rig;
	return tokenFrom === undefined ? parts : {...parts, text: `${parts.text} · no token given: the one from ${tokenFrom}`};
}

function statusParts(
	progress: RigProgress,
	action: PauseOrResume | PaneWords,
): {readonly mark: string; readonly text: string; readonly tone: ThemeToken | null} {
	if (progress.state !== 'done')
		return progress.state === 'waiting'
			? {mark: ' ', text: 'waiting', tone: 'muted'}
			: {mark: '…', text: wordsOf(action).doing, tone: null};
	const {status, reason, lines} = progress.result;
	const shown = STATUS[status];
	// A config rig applied says what it read back ("cpu.huge-pages-jit: false → true"), as the shell's line does.
	const said = status === 'applied' && lines.length > 0 ? `${lines.join('; ')} (read back)` : reason;
	return {mark: shown.mark, text: `${shown.word}${said}`, tone: shown.tone};
}

/** One screen line of the pane: its text (at most the pane's width), its colour, and the rig (its index) it belongs to. */
export type BatchLine = {readonly key: string; readonly text: string; readonly tone: ThemeToken | null; readonly rig: number};

/**
 * Every rig's lines in a pane `width` columns wide: " ✓ rig-01  paused (read back)", a long text wrapped under
 * itself; in a pane too narrow for the text beside the name, the text goes under the name.
 */
export function batchLines(batch: BatchState, action: PauseOrResume | PaneWords, width: number): readonly BatchLine[] {
	const nameWidth = Math.min(NAME_MOST, Math.max(0, ...batch.rigs.map((progress) => textWidth(progress.rig.name))));
	// " ✓ name  ": the columns before a rig's text.
	const indent = nameWidth + 5;
	const beside = width - indent >= TEXT_LEAST;
	const lines: BatchLine[] = [];
	batch.rigs.forEach((progress, rig) => {
		const {mark, text, tone} = progressParts(progress, action);
		const head = ` ${mark} ${padText(progress.rig.name, nameWidth)}`;
		const push = (line: string) => lines.push({key: `${rig}-${lines.length}`, text: line, tone, rig});
		if (beside) {
			wordLines(text, width - indent).forEach((line, at) => push(at === 0 ? `${head}  ${line}` : `${' '.repeat(indent)}${line}`));
			return;
		}

		push(cutText(head.trimEnd(), width));
		const room = Math.max(1, width - UNDER_INDENT);
		for (const line of wordLines(text, room)) push(`${' '.repeat(width > UNDER_INDENT ? UNDER_INDENT : 0)}${line}`);
	});
	return lines;
}

/** Screen lines of a pane `height` tall that show results (the title takes the rest). */
export function batchRows(height: number): number {
	return Math.max(1, height - BATCH_TITLE_LINES);
}

/** The furthest the pane scrolls (its first line shown): the offset that shows its last line at the bottom; 0 when all fit. */
export function batchScrollMax(batch: BatchState, action: PauseOrResume | PaneWords, width: number, height: number): number {
	return Math.max(0, batchLines(batch, action, width).length - batchRows(height));
}
