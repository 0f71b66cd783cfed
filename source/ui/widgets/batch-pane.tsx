import {Box, Text} from 'ink';
import {memo} from 'react';
import type {BatchState} from '../../batch/types.js';
import {useTheme} from '../text/theme.js';
import {cutText} from './wrap.js';
import {batchLines, batchRows, wordsOf, type PaneWords, type PauseOrResume} from './batch-lines.js';

/** The title: "pause 4 rigs: 2 of 4 done", then "pause 4 rigs: 2 paused · 1 skipped · 1 failed". */
export function batchTitle(batch: BatchState, action: PauseOrResume | PaneWords): string {
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
	readonly action: PauseOrResume | PaneWords;
	/** The first screen line of the results shown (clamped here: batchScrollMax). */
	readonly offset: number;
	readonly width: number;
	readonly height: number;
};

/**
 * A batch as it goes (each rig waiting, running, done) and, once done, each rig's result: the table's place. Each
 * rig's text wraps under itself (batch-lines.ts); the pane shows the screen lines from `offset` that fit, and when
 * they do not all fit its title ends with which lines are shown ("lines 4–12 of 20"), cut before that if need be.
 */
function BatchPaneView({batch, action, offset, width, height}: BatchPaneProps) {
	const theme = useTheme();
	const rows = batchRows(height);
	const lines = batchLines(batch, action, width);
	const first = Math.max(0, Math.min(offset, lines.length - rows));
	const shown = lines.slice(first, first + rows);
	const more = lines.length > rows ? ` (lines ${first + 1}–${first + shown.length} of ${lines.length})` : '';
	return (
		<Box flexDirection="column" width={width} height={height} overflowY="hidden">
			<Text wrap="truncate-end" bold {...theme.text(batch.finished ? 'accent' : 'info')}>
				{` ${cutText(batchTitle(batch, action), width - 1 - [...more].length)}${more}`}
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
