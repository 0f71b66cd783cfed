import {Box, Text} from 'ink';
import {memo} from 'react';
import type {MinerEvent, Severity} from '../../monitor/types.js';
import {formatClock} from '../../format.js';
import {wrappedHeight} from '../wrap.js';
import {useTheme, type ThemeToken} from '../theme.js';

export type Notice = {readonly text: string; readonly tone: ThemeToken};

export type EventsPaneProps = {
	/** Oldest first, as the monitor keeps them. */
	readonly events: readonly MinerEvent[];
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
 * The latest events, newest first, each with its HH:MM: on one line (" · " between them) when
 * there is one line, else one per line.
 */
function EventsPaneView({events, lines, width, notice, noticeLines: wanted = noticeHeight(notice, width)}: EventsPaneProps) {
	const theme = useTheme();
	if (lines <= 0) return null;
	// The notice (the reason and its fix) first, on every line it needs that the pane has; the events get the rest.
	const noticeLines = notice ? Math.min(Math.max(1, wanted), lines) : 0;
	const eventLines = lines - noticeLines;
	const newest = events.slice(-Math.max(eventLines === 1 ? 8 : eventLines, 0)).reverse();
	const entry = (event: MinerEvent, separator: string) => (
		<Text key={event.seq}>
			{separator}
			<Text {...theme.text('muted')}>{formatClock(event.at)} </Text>
			<Text {...theme.text(toneOf[event.severity])}>{event.message}</Text>
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
					<Text key={event.seq} wrap="truncate-end">
						{entry(event, '')}
					</Text>
				))
			)}
		</Box>
	);
}

export const EventsPane = memo(EventsPaneView);
