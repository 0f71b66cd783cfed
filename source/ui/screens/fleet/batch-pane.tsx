import {Box, Text} from 'ink';
import {memo} from 'react';
import type {BatchState, RigProgress, RigStatus} from '../../../batch/types.js';
import {useTheme, type ThemeToken} from '../../theme.js';
import {wordLines} from '../../wrap.js';
import {batchRows, type FleetAction} from './batch-plan.js';

/** Each status in a word and a mark (readable without colour), and its colour. */
const STATUS: Readonly<Record<RigStatus, {readonly mark: string; readonly word: string; readonly tone: ThemeToken}>> = {
	applied: {mark: '✓', word: '', tone: 'ok'},
	already: {mark: '=', word: '', tone: 'info'},
	planned: {mark: '·', word: 'planned: ', tone: 'info'},
	skipped: {mark: '-', word: 'skipped: ', tone: 'warn'},
	failed: {mark: '✗', word: 'failed: ', tone: 'error'},
	cancelled: {mark: '⊘', word: 'cancelled: ', tone: 'warn'},
};

/** What a pane says of a batch other than pause and resume (the fleet config view's): its title, a rig at work, a rig applied. */
export type PaneWords = {readonly title: string; readonly doing: string; readonly applied: string};

/** The words of a pause or resume batch. */
function wordsOf(action: FleetAction | PaneWords): PaneWords {
	if (typeof action !== 'string') return action;
	return action === 'pause'
		? {title: 'pause', doing: 'pausing…', applied: 'paused'}
		: {title: 'resume', doing: 'resuming…', applied: 'resumed'};
}

/** One rig's line: "✓ rig-01  paused (read back)", "- rig-03  skipped: cannot pause: …", "… rig-02  pausing…". */
export function progressLine(
	progress: RigProgress,
	action: FleetAction | PaneWords,
	nameWidth: number,
): {readonly text: string; readonly tone: ThemeToken | null} {
	const name = progress.rig.name.padEnd(nameWidth);
	if (progress.state !== 'done')
		return progress.state === 'waiting'
			? {text: `  ${name}  waiting`, tone: 'muted'}
			: {text: `… ${name}  ${wordsOf(action).doing}`, tone: null};
	const {status, reason, lines} = progress.result;
	const shown = STATUS[status];
	// A config rig applied says what it read back ("cpu.huge-pages-jit: false → true"), as the shell's line does.
	const said = status === 'applied' && lines.length > 0 ? `${lines.join('; ')} (read back)` : reason;
	return {text: `${shown.mark} ${name}  ${shown.word}${said}`, tone: shown.tone};
}

/** The title: "pause 4 rigs: 2 of 4 done", then "pause 4 rigs: 2 paused · 1 skipped · 1 failed". */
export function batchTitle(batch: BatchState, action: FleetAction | PaneWords): string {
	const words = wordsOf(action);
	const rigs = `${words.title} ${batch.rigs.length} rig${batch.rigs.length === 1 ? '' : 's'}`;
	if (!batch.finished)
		return `${rigs}: ${batch.done} of ${batch.rigs.length} done${batch.cancelled ? ', cancelling (a rig already sent to is read back)' : ''}`;
	const counts = new Map<string, number>();
	for (const progress of batch.rigs) {
		if (progress.state !== 'done') continue;
		const {status} = progress.result;
		const word = status === 'applied' ? words.applied : status === 'already' ? 'already so' : status;
		counts.set(word, (counts.get(word) ?? 0) + 1);
	}

	return `${rigs}${batch.cancelled ? ' (cancelled)' : ''}: ${[...counts].map(([word, n]) => `${n} ${word}`).join(' · ')}`;
}

export type BatchPaneProps = {
	readonly batch: BatchState;
	readonly action: FleetAction | PaneWords;
	/** The first rig shown. */
	readonly offset: number;
	readonly width: number;
	readonly height: number;
};

/** A batch as it goes (each rig waiting, running, done) and, once done, each rig's result: the table's place. */
function BatchPaneView({batch, action, offset, width, height}: BatchPaneProps) {
	const theme = useTheme();
	const rows = batchRows(height);
	const first = Math.max(0, Math.min(offset, batch.rigs.length - rows));
	const nameWidth = Math.min(24, Math.max(0, ...batch.rigs.map((progress) => progress.rig.name.length)));
	// Each rig's line wraps under its text (why a rig failed is read whole), while the pane has lines for it.
	const indent = ' '.repeat(nameWidth + 5);
	const shown: {key: string; text: string; tone: ThemeToken | null}[] = [];
	let last = first - 1;
	for (let index = first; index < batch.rigs.length && shown.length < rows; index++) {
		const line = progressLine(batch.rigs[index]!, action, nameWidth);
		const lines = wordLines(` ${line.text}`, Math.max(10, width - indent.length)).map((text, at) => (at === 0 ? text : `${indent}${text}`));
		const fits = lines.slice(0, Math.max(1, rows - shown.length));
		fits.forEach((text, at) => shown.push({key: `${index}-${at}`, text, tone: line.tone}));
		last = index;
	}

	const more = batch.rigs.length > last - first + 1 ? ` (rigs ${first + 1}–${last + 1} of ${batch.rigs.length})` : '';
	return (
		<Box flexDirection="column" width={width} height={height} overflowY="hidden">
			<Text wrap="truncate-end" bold {...theme.text(batch.finished ? 'accent' : 'info')}>
				{` ${batchTitle(batch, action)}${more}`}
			</Text>
			{shown.map((line) => (
				<Text key={line.key} wrap="truncate-end" {...(line.tone ? theme.text(line.tone) : {})}>
					{line.text}
				</Text>
			))}
		</Box>
	);
}

export const BatchPane = memo(BatchPaneView);
