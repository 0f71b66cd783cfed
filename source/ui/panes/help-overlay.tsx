import {Box, Text} from 'ink';
import {memo} from 'react';
import {type HelpEntry} from '../keys/matcher.js';
import {SCREEN_KEYMAP} from '../keys/bindings.js';
import {useTheme} from '../text/theme.js';
import {wordLines} from '../widgets/wrap.js';
import {Line, Pane} from './pane.js';

export type HelpOverlayProps = {
	readonly entries: readonly HelpEntry[];
	readonly width: number;
	readonly height: number;
	/** The first entry shown, for a screen that scrolls its help (clamped here). */
	readonly offset?: number;
	/** The keys that scroll it ("↑↓"), for a screen that does; without them, entries that do not fit are counted. */
	readonly scrollKeys?: string;
	/** How to close it; default the live screens' keys ("? or Esc to close"). */
	readonly closeHint?: string;
	/** The frame's title; default "Keys". */
	readonly title?: string;
};

const closeKeys = `${SCREEN_KEYMAP.keyOf('help', 'help')} or ${SCREEN_KEYMAP.keyOf('back', 'help')} to close`;

/** The least width a description is given beside the keys; in a narrower frame it goes under them. */
const MIN_DESCRIPTION = 12;

/**
 * How entries are laid out in a frame `width` wide: the keys column (the longest keys label and two spaces) with
 * each description wrapping beside it; or, when that would leave a description less than MIN_DESCRIPTION columns,
 * each entry's keys on a line of their own (cut at the edge) and its description under them, indented by two.
 * `lines` are each description's wrapped lines as drawn (wordLines: without the space a break leaves at a line's
 * start, which Ink's own wrap keeps: "show or hide / ␠this help"); `heights` the lines each entry takes.
 */
function helpLayout(entries: readonly HelpEntry[], width: number) {
	const inner = Math.max(1, width - 4);
	const keys = Math.max(...entries.map((entry) => entry.keys.length), 4) + 2;
	const stacked = inner - keys < MIN_DESCRIPTION;
	const keyWidth = stacked ? inner : keys;
	const room = stacked ? Math.max(1, inner - 2) : inner - keys;
	const lines = entries.map((entry) => wordLines(entry.description, room));
	const heights = lines.map((wrapped) => (stacked ? 1 : 0) + wrapped.length);
	return {stacked, keyWidth, lines, heights};
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** How many entries from `from` fit in `lines` lines. */
function fitting(heights: readonly number[], from: number, lines: number): number {
	let used = 0;
	let count = 0;
	while (from + count < heights.length && used + (heights[from + count] ?? 1) <= lines) used += heights[from + count++] ?? 1;
	return Math.max(1, count);
}

/**
 * The largest useful offset (first entry shown) for these entries in a frame `width` × `height`: 0 when they
 * all fit, else the one that shows the last entries (one line of the frame says what is above and below).
 */
export function helpMaxOffset(all: readonly HelpEntry[], width: number, height: number): number {
	return maxOffset(
		helpLayout(
			all.filter((entry) => entry.available),
			width,
		).heights,
		height,
	);
}

/** helpMaxOffset from the entries' heights. */
function maxOffset(heights: readonly number[], height: number): number {
	const inner = Math.max(0, height - 2);
	if (sum(heights) <= inner) return 0;
	let offset = heights.length;
	let used = 0;
	while (offset > 0 && used + (heights[offset - 1] ?? 1) <= Math.max(1, inner - 1)) used += heights[--offset] ?? 1;
	return Math.min(offset, Math.max(0, heights.length - 1));
}

/**
 * The keys that work here, from the keymap (the ones this miner or mode cannot use are left out); a
 * description wraps beside its keys (under them in a narrow frame). A screen may scroll it.
 */
function HelpOverlayView({entries: all, width, height, offset = 0, scrollKeys, closeHint = closeKeys, title = 'Keys'}: HelpOverlayProps) {
	const theme = useTheme();
	const entries = all.filter((entry) => entry.available);
	const {stacked, keyWidth, lines, heights} = helpLayout(entries, width);
	const inner = Math.max(0, height - 2);
	const fits = sum(heights) <= inner;
	const from = fits || scrollKeys === undefined ? 0 : Math.min(Math.max(0, offset), maxOffset(heights, height));
	const count = fits ? entries.length : fitting(heights, from, Math.max(1, inner - 1));
	const shown = entries.slice(from, from + count);
	const above = from;
	const below = entries.length - from - shown.length;
	// As tall as what it holds (up to the room given): no run of empty framed lines under a short help. The room stays
	// the screen's, so the footer under it does not move.
	const paneHeight = fits ? Math.min(height, sum(heights) + 2) : height;
	return (
		<Box flexDirection="column" width={width} height={height} flexShrink={0}>
			<Pane title={title} note={`· ${closeHint}`} width={width} height={paneHeight}>
				{shown.map((entry, index) => (
					<Box
						key={`${entry.keys} ${entry.description}`}
						height={heights[from + index]}
						flexDirection={stacked ? 'column' : 'row'}
						flexShrink={0}
					>
						<Box width={keyWidth} flexShrink={0}>
							<Text bold wrap="truncate-end" {...theme.text('accent')}>
								{entry.keys}
							</Text>
						</Box>
						<Box flexGrow={1} flexShrink={1} paddingLeft={stacked ? 2 : 0}>
							<Text wrap="truncate-end">{lines[from + index]?.join('\n')}</Text>
						</Box>
					</Box>
				))}
				{fits ? null : (
					<Line tone="muted">
						{scrollKeys === undefined
							? `… ${below} more (make the terminal taller)`
							: `${[above > 0 ? `${above} above` : '', below > 0 ? `${below} more below` : ''].filter(Boolean).join(', ')} · ${scrollKeys} scroll`}
					</Line>
				)}
			</Pane>
		</Box>
	);
}

export const HelpOverlay = memo(HelpOverlayView);
