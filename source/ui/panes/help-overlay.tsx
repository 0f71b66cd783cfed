import {Box, Text} from 'ink';
import {memo} from 'react';
import {SCREEN_KEYMAP, type HelpEntry} from '../keymap.js';
import {useTheme} from '../theme.js';
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

/** Entries shown at once in a help frame of `height` lines when they do not all fit (one line says what is above and below). */
function pageRows(height: number): number {
	return Math.max(1, height - 3);
}

/** The largest useful offset for `count` entries in a frame of `height` lines (0 when they all fit). */
export function helpMaxOffset(count: number, height: number): number {
	if (count <= Math.max(0, height - 2)) return 0;
	return Math.max(0, count - pageRows(height));
}

/** The keys that work here, from the keymap (the ones this miner or mode cannot use are left out). A screen may scroll it. */
function HelpOverlayView({entries: all, width, height, offset = 0, scrollKeys, closeHint = closeKeys, title = 'Keys'}: HelpOverlayProps) {
	const theme = useTheme();
	const entries = all.filter((entry) => entry.available);
	const keyWidth = Math.max(...entries.map((entry) => entry.keys.length), 4) + 2;
	const fits = entries.length <= Math.max(0, height - 2);
	const from = fits || scrollKeys === undefined ? 0 : Math.min(Math.max(0, offset), helpMaxOffset(entries.length, height));
	const shown = fits ? entries : entries.slice(from, from + pageRows(height));
	const above = from;
	const below = entries.length - from - shown.length;
	return (
		<Pane title={title} note={`· ${closeHint}`} width={width} height={height}>
			{shown.map((entry) => (
				<Box key={`${entry.keys} ${entry.description}`} height={1}>
					<Text wrap="truncate-end">
						<Text bold {...theme.text('accent')}>
							{entry.keys.padEnd(keyWidth)}
						</Text>
						{entry.description}
					</Text>
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
	);
}

export const HelpOverlay = memo(HelpOverlayView);
