import {Box, Text} from 'ink';
import type {ReactNode} from 'react';
import {textWidth} from '../../text/cells.js';
import {useTheme} from '../text/theme.js';

/** A part of a title: its text, or its text and the columns it is given (its widest form, so it keeps its place). */
export type TitlePart = string | {readonly text: string; readonly room: number};

export type TitleBarProps = {
	readonly width: number;
	/**
	 * What the screen shows, after " rigtop  ": a string, cut at the edge when the right side needs the room; or its
	 * parts (joined by " · "), of which as many whole ones are shown as fit beside a state `stateWidth` wide, so a
	 * part is dropped rather than cut into something that reads as another value ("XMRig 6.2…" for 6.26.0). A part
	 * given a room is shown only where that room fits, so a part whose text ticks does not come and go.
	 */
	readonly title: string | readonly TitlePart[];
	/** The state's width in columns, for a title given in parts. */
	readonly stateWidth?: number;
	/**
	 * The state, right-aligned: text (styled Text inside is kept); it keeps its width, up to the whole line's, and is
	 * cut there (it is drawn inside one `truncate-end` Text, so no caller's text can wrap into the next row).
	 */
	readonly children: ReactNode;
};

/** " rigtop  " before the title. */
const LEAD = 9;

const textOf = (part: TitlePart | undefined): string => (part === undefined ? '' : typeof part === 'string' ? part : part.text);
const widthOf = (part: TitlePart): number => {
	const width = textWidth(textOf(part));
	return typeof part === 'string' ? width : Math.max(width, part.room);
};

/** The first part, and after it as many of the next ones as fit whole (in their room, where given) in `room` columns. */
export function fitTitle(parts: readonly TitlePart[], room: number): string {
	let title = textOf(parts[0]);
	let used = parts[0] === undefined ? 0 : widthOf(parts[0]);
	for (const part of parts.slice(1)) {
		used += 3 + widthOf(part);
		if (used > room) break;
		title = `${title} · ${textOf(part)}`;
	}

	return title;
}

/** Whether every part fits whole beside a state `stateWidth` wide, as TitleBar lays them out at `width`. */
export function titleFitsWhole(parts: readonly TitlePart[], width: number, stateWidth: number): boolean {
	const used = parts.reduce((sum, part, index) => sum + (index === 0 ? 0 : 3) + widthOf(part), 0);
	return used <= width - LEAD - stateWidth - (width > 4 ? 2 : 0);
}

/** The first line of every screen (dashboard, fleet, config view): " rigtop  <title>" on the left, the state on the right. */
export function TitleBar({width, title, stateWidth = 0, children}: TitleBarProps) {
	const theme = useTheme();
	const padding = width > 4 ? 2 : 0;
	const text = typeof title === 'string' ? title : fitTitle(title, width - LEAD - stateWidth - padding);
	return (
		<Box width={width} height={1} flexDirection="row">
			<Box flexGrow={1} flexShrink={1} overflowY="hidden">
				<Text wrap="truncate-end">
					<Text bold {...theme.text('accent')}>
						{' rigtop  '}
					</Text>
					{text}
				</Text>
			</Box>
			<Box flexShrink={0} maxWidth={width} paddingLeft={width > 4 ? 1 : 0} paddingRight={width > 4 ? 1 : 0}>
				<Text wrap="truncate-end">{children}</Text>
			</Box>
		</Box>
	);
}
