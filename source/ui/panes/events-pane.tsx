import {Box, Text} from 'ink';
import {memo} from 'react';
import type {Severity} from '../../monitor/types.js';
import type {EventLine} from '../text/event-lines.js';
import {Wrapped, wrappedHeight} from '../widgets/wrap.js';
import {useTheme, type ThemeToken} from '../text/theme.js';

export type Notice = {readonly text: string; readonly tone: ThemeToken};

export type EventsPaneProps = {
	/** Newest first, as event-lines.ts tells them (dated when not today, outages with their span). */
	readonly events: readonly EventLine[];
	readonly lines: number;
	readonly width: number;
	/** A message that goes before the events (e.g. how to fix an error), wrapped over the lines it needs. */
	readonly notice: Notice | null;
	/** Lines the notice needs (wrapped in the pane's width: noticeHeight); it gets them all if the pane has them. */
	readonly noticeLines?: number;
};

/** The lines a notice needs in an events pane of `width` columns. */
export function noticeHeight(notice: Notice | null, width: number): number {
	return notice ? wrappedHeight(notice.text, Math.max(1, width - 2)) : 0;
}

const toneOf: Readonly<Record<Severity, ThemeToken>> = {info: 'muted', warn: 'warn', error: 'error'};

/**
 * The latest events, newest first, each with its time (and date when not today): on one line
 * (" · " between them) when there is one line, else one per line.
 */
function EventsPaneView({events, lines, width, notice, noticeLines: wanted = noticeHeight(notice, width)}: EventsPaneProps) {
	const theme = useTheme();
	if (lines <= 0) return null;
	// The notice (the reason and its fix) first, on every line it needs that the pane has; the events get the rest.
	const noticeLines = notice ? Math.min(Math.max(1, wanted), lines) : 0;
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
		<Box flexDirection="column" width={width} height={lines} paddingX={1} overflowY="hidden">
			{notice ? (
				<Box height={noticeLines} overflowY="hidden">
					{noticeLines > 1 ? (
						<Wrapped {...theme.text(notice.tone)} lines={noticeLines} width={width - 2}>
							{notice.text}
						</Wrapped>
					) : (
						<Text wrap="truncate-end" {...theme.text(notice.tone)}>
							{notice.text}
						</Text>
					)}
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
