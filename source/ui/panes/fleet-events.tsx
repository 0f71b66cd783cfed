import {Box, Text} from 'ink';
import {memo} from 'react';
import type {Severity} from '../../monitor/types.js';
import type {EventLine} from '../text/event-lines.js';
import {useTheme, type ThemeToken} from '../text/theme.js';

export type FleetEventsProps = {
	/** Newest first, with their rigs (fleetEventLines). */
	readonly events: readonly EventLine[];
	readonly lines: number;
	readonly width: number;
};

const toneOf: Readonly<Record<Severity, ThemeToken>> = {info: 'muted', warn: 'warn', error: 'error'};

/**
 * The latest events of every rig and the session's notices, "12:07 rig-03 down: connection refused" (dated when not
 * today), newest first; the proxy screen's, of one proxy and its workers, without the rig's name.
 */
function FleetEventsView({events, lines, width}: FleetEventsProps) {
	const theme = useTheme();
	if (lines <= 0) return null;
	const entry = (event: EventLine, separator: string) => (
		<Text key={event.key}>
			{separator}
			<Text {...theme.text('muted')}>{event.when} </Text>
			{/* The session's own notices are rigtop's, in its colour; one rig's events (the proxy screen's) need no name. */}
			{event.rig ? (
				<Text bold={event.severity !== 'info'} {...(event.own ? theme.text('accent') : {})}>
					{event.rig}{' '}
				</Text>
			) : null}
			<Text {...theme.text(toneOf[event.severity])}>{event.text}</Text>
		</Text>
	);

	return (
		<Box flexDirection="column" width={width} height={lines} paddingX={1} overflowY="hidden">
			{events.length === 0 ? (
				<Text wrap="truncate-end" {...theme.text('muted')}>
					no events yet
				</Text>
			) : lines === 1 ? (
				<Text wrap="truncate-end">{events.slice(0, 8).map((event, index) => entry(event, index === 0 ? '' : ' · '))}</Text>
			) : (
				events.slice(0, lines).map((event) => (
					<Text key={event.key} wrap="truncate-end">
						{entry(event, '')}
					</Text>
				))
			)}
		</Box>
	);
}

export const FleetEvents = memo(FleetEventsView);
