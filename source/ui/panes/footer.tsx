import {Box, Text} from 'ink';
import {memo, type ReactNode} from 'react';
import type {Hint} from '../keymap.js';
import {useTheme} from '../theme.js';

export type FooterProps = {
	readonly hints: readonly Hint[];
	readonly width: number;
	/** What goes before the keys (the fleet's filter), or nothing. */
	readonly lead?: ReactNode;
};

/** The keys that work now, from the keymap: " q quit  ? help  p pause  ↑↓ threads". */
function FooterView({hints, width, lead}: FooterProps) {
	const theme = useTheme();
	return (
		<Box width={width} height={1} paddingX={1} overflow="hidden">
			<Text wrap="truncate-end">
				{lead}
				{hints.map((hint, index) => (
					<Text key={hint.keys}>
						{index === 0 && !lead ? '' : '  '}
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
