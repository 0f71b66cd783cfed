import {Box, Text} from 'ink';
import {memo, type ReactNode} from 'react';
import type {Hint} from '../keys/matcher.js';
import {useTheme, type ThemeToken} from '../text/theme.js';
import {Wrapped} from '../widgets/wrap.js';

export type FooterProps = {
	readonly hints: readonly Hint[];
	readonly width: number;
	/** What goes before the keys (the fleet's filter), or nothing. */
	readonly lead?: ReactNode;
	/** The columns the lead takes (the hints fit in the rest, whole). */
	readonly leadWidth?: number;
};

/** The footer's word for the help key: that hint is the last one given up when the line is short. */
const HELP_LABEL = 'help';

/**
 * The hints that fit a line of `room` columns, and the gap between them: two spaces when all fit so,
 * else one; when even that is too long, whole hints are dropped — the low-ranked ones first (moving,
 * sorting, polling now: the keymap's footerRank), then from the end, the help hint last —, so no hint is
 * ever cut mid-word and the keys that open or change something stay longest.
 */
export function fitHints(hints: readonly Hint[], room: number): {readonly shown: readonly Hint[]; readonly gap: string} {
	const length = (list: readonly Hint[], gap: number) =>
		list.reduce((sum, hint, index) => sum + (index === 0 ? 0 : gap) + hint.keys.length + 1 + hint.label.length, 0);
	if (length(hints, 2) <= room) return {shown: hints, gap: '  '};
	const shown = [...hints];
	while (shown.length > 0 && length(shown, 1) > room) {
		const low = shown.findLastIndex((hint) => hint.low === true && hint.label !== HELP_LABEL);
		let drop = shown.length - 1;
		while (drop > 0 && shown[drop]?.label === HELP_LABEL) drop--;
		shown.splice(low >= 0 ? low : drop, 1);
	}

	return {shown, gap: ' '};
}

/** The keys that work now, from the keymap: " q quit  ? help  p pause  ↑↓ threads". */
function FooterView({hints, width, lead, leadWidth = 0}: FooterProps) {
	const theme = useTheme();
	// The lead and the gap (up to two spaces) before the first hint.
	const {shown, gap} = fitHints(hints, Math.max(0, width - 2 - (lead ? leadWidth + 2 : 0)));
	return (
		<Box width={width} height={1} paddingX={1} overflowY="hidden">
			<Text wrap="truncate-end">
				{lead}
				{shown.map((hint, index) => (
					<Text key={hint.keys}>
						{index === 0 && !lead ? '' : gap}
						<Text bold {...theme.text('accent')}>
							{hint.keys}
						</Text>
						<Text {...theme.text('muted')}>{` ${hint.label}`}</Text>
					</Text>
				))}
			</Text>
		</Box>
	);
}

export const Footer = memo(FooterView);

export type MessageLineProps = {
	readonly message: {readonly text: string; readonly tone: ThemeToken};
	readonly width: number;
	/** Lines it may take (it wraps over them). */
	readonly lines: number;
};

/** A message in the footer's place (why a key did nothing, a question): wrapped, never cut mid-word. */
function MessageLineView({message, width, lines}: MessageLineProps) {
	const theme = useTheme();
	return (
		<Box width={width} height={Math.max(1, lines)} paddingX={1} overflowY="hidden">
			<Wrapped bold {...theme.text(message.tone)} lines={Math.max(1, lines)} width={width - 2}>
				{message.text}
			</Wrapped>
		</Box>
	);
}

export const MessageLine = memo(MessageLineView);
