import {Box, Text} from 'ink';
import type {ReactNode} from 'react';
import {useTheme} from '../theme.js';

export type TitleBarProps = {
	readonly width: number;
	/** What the screen shows, after " rigtop  "; cut at the edge when the right side needs the room. */
	readonly title: string;
	/**
	 * The state, right-aligned: text (styled Text inside is kept); it keeps its width, up to the whole line's, and is
	 * cut there (it is drawn inside one `truncate-end` Text, so no caller's text can wrap into the next row).
	 */
	readonly children: ReactNode;
};

/** The first line of every screen (dashboard, fleet, config view): " rigtop  <title>" on the left, the state on the right. */
export function TitleBar({width, title, children}: TitleBarProps) {
	const theme = useTheme();
	return (
		<Box width={width} height={1} flexDirection="row">
			<Box flexGrow={1} flexShrink={1} overflowY="hidden">
				<Text wrap="truncate-end">
					<Text bold {...theme.text('accent')}>
						{' rigtop  '}
					</Text>
					{title}
				</Text>
			</Box>
			<Box flexShrink={0} maxWidth={width} paddingLeft={width > 4 ? 1 : 0} paddingRight={width > 4 ? 1 : 0}>
				<Text wrap="truncate-end">{children}</Text>
			</Box>
		</Box>
	);
}
