import {Box, Text} from 'ink';
import {memo} from 'react';
import type {Hint} from '../keymap.js';
import {useTheme} from '../theme.js';

export type FooterProps = {
	readonly hints: readonly Hint[];
	readonly width: number;
};

/** The footer's word for the help key: that hint is the last one given up when the line is short. */
const HELP_LABEL = 'help';

/**
 * The hints that fit a line of `room` columns, and the gap between them: two spaces when all fit so,
 * else one; when even that is too long, whole hints are dropped from the end (the help hint last), so
 * no hint is ever cut mid-word.
 */
export function fitHints(hints: readonly Hint[], room: number): {readonly shown: readonly Hint[]; readonly gap: string} {
	const length = (list: readonly Hint[], gap: number) =>
		list.reduce((sum, hint, index) => sum + (index === 0 ? 0 : gap) + hint.keys.length + 1 + hint.label.length, 0);
	if (length(hints, 2) <= room) return {shown: hints, gap: '  '};
	const shown = [...hints];
	while (shown.length > 0 && length(shown, 1) > room) {
		let drop = shown.length - 1;
		while (drop > 0 && shown[drop]?.label === HELP_LABEL) drop--;
		shown.splice(drop, 1);
	}

	return {shown, gap: ' '};
}

/** The keys that work now, from the keymap: " q quit  ? help  p pause  ↑↓ threads". */
function FooterView({hints, width}: FooterProps) {
	const theme = useTheme();
	const {shown, gap} = fitHints(hints, Math.max(0, width - 2));
	return (
		<Box width={width} height={1} paddingX={1} overflow="hidden">
			<Text wrap="truncate-end">
				{shown.map((hint, index) => (
					<Text key={hint.keys}>
						{index === 0 ? '' : gap}
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
