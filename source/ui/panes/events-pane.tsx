import {Box, Text} from 'ink';
import {memo} from 'react';
import type {Severity} from '../../monitor/types.js';
import type {EventLine} from '../event-lines.js';
import {useTheme, type ThemeToken} from '../theme.js';

export type Notice = {readonly text: string; readonly tone: ThemeToken};

export type EventsPaneProps = {
	/** Newest first, as event-lines.ts tells them (dated when not today, outages with their span). */
	readonly events: readonly EventLine[];
	readonly lines: number;
	readonly width: number;
	/** A line that goes before the events (e.g. how to fix an error). */
	readonly notice: Notice | null;
};

const toneOf: Readonly<Record<Severity, ThemeToken>> = {info: 'muted', warn: 'warn', error: 'error'};

/**
 * The latest events, newest first, each with its time (and date when not today): on one line
 * (" · " between them) when there is one line, else one per line.
 */
function EventsPaneView({events, lines, width, notice}: EventsPaneProps) {
	const theme = useTheme();
	if (lines <= 0) return null;
	// The notice wraps over two lines where the pane has three or more, else it takes one.
	const noticeLines = notice ? (lines >= 3 ? 2 : 1) : 0;
	const eventLines = lines - noticeLines;
	const newest = events.slice(0, Math.max(eventLines === 1 ? 8 : eventLines, 0));
	const entry = (event: EventLine, separator: string) => (
		<Text key={event.key}>
			{separator}
			<Text {...theme.text('muted')}>{event.when} </Text>
			<Text {...theme.text(toneOf[event.severity])}>{event.text}</Text>
		</Text>
	);

	return (
		<Box flexDirection="column" width={width} height={lines} paddingX={1} overflow="hidden">
			{notice ? (
				<Box height={noticeLines} overflow="hidden">
					<Text wrap={noticeLines > 1 ? 'wrap' : 'truncate-end'} {...theme.text(notice.tone)}>
						{notice.text}
					</Text>
				</Box>
			) : null}
			{eventLines <= 0 ? null : newest.length === 0 ? (
				<Text wrap="truncate-end" {...theme.text('muted')}>
					no events yet
				</Text>
			) : eventLines === 1 ? (
				<Text wrap="truncate-end">{newest.map((event, index) => entry(event, index === 0 ? '' : ' · '))}</Text>
			) : (
				newest.map((event) => (
					<Text key={event.key} wrap="truncate-end">
						{entry(event, '')}
					</Text>
				))
			)}
		</Box>
	);
}

export const EventsPane = memo(EventsPaneView);
