import {Box, Text} from 'ink';
import {useCallback, useEffect, useMemo} from 'react';
import {EventListStore, type MinerHistory} from '../../../history/stores.js';
import type {MinerEvent, MonitorState, Severity} from '../../../monitor/types.js';
import type {Store} from '../../../monitor/store.js';
import {describeEvents, type EventLine} from '../../text/event-lines.js';
import {useNow} from '../../hooks/use-now.js';
import {useStore} from '../../hooks/use-store.js';
import {useTerminalSize} from '../../hooks/use-terminal-size.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {Footer} from '../../panes/footer.js';
import {HelpOverlay} from '../../panes/help-overlay.js';
import {TitleBar} from '../../panes/title-bar.js';
import {useTheme, type ThemeToken} from '../../text/theme.js';
import {padText, textWidth} from '../../../text/cells.js';
import {cutText, Wrapped} from '../../widgets/wrap.js';
import {keyAction, useScreen, type ScreenDefinition} from '../contract.js';
import {SESSION_LABEL} from '../../text/event-lines.js';
import {availability, eventsHelp} from './availability.js';
import {
	initialEventViewState,
	offsetOf,
	reduce,
	type EventsEnv,
	type EventViewAction,
	type EventViewEffect,
	type EventViewState,
} from './reduce.js';

const SCREEN: ScreenDefinition<EventViewState, EventViewAction, EventsEnv, EventViewEffect, CommandName, Screen> = {
	reduce,
	availability,
	keymap: SCREEN_KEYMAP,
	help: eventsHelp,
	key: keyAction,
};

/** One rig whose events are listed: its monitor (for new events) and its history (for the stored ones). */
export type EventSource = {
	readonly name: string;
	readonly store: Store<MonitorState>;
	readonly history: MinerHistory;
};

export type EventViewProps = {
	/** One rig (its dashboard's `e`), or every rig of the fleet (each line then names its rig). */
	readonly sources: readonly EventSource[];
	/** What the title says is listed ("night-rig", "all rigs"). */
	readonly title: string;
	/** The session's own notices (about no rig in particular): listed among the events, as rigtop's. */
	readonly notices?: Store<readonly MinerEvent[]> | undefined;
	readonly caps: EventViewCaps;
};

/** What the event view can do beyond itself, as the App offers it. */
export type EventViewCaps = {
	/** Back to the screen it was opened from (Esc). */
	readonly close: () => void;
	readonly quit: () => void;
};

/** Events read per rig at most: a rig at the store's bound holds 10 000; a fleet shares 20 000. */
export function eventLimit(rigs: number): number {
	return Math.max(500, Math.min(10_000, Math.floor(20_000 / Math.max(1, rigs))));
}

const toneOf: Readonly<Record<Severity, ThemeToken>> = {info: 'muted', warn: 'warn', error: 'error'};

const graphemes = new Intl.Segmenter();

/** The head of `word` in at most `room` terminal cells (at least one grapheme cluster), and the rest. */
function splitAtCells(word: string, room: number): [string, string] {
	let used = 0;
	let end = 0;
	for (const {segment, index} of graphemes.segment(word)) {
		const width = textWidth(segment);
		if (end > 0 && used + width > room) break;
		used += width;
		end = index + segment.length;
	}

	return [word.slice(0, end), word.slice(end)];
}

/**
 * Words of `text` in lines of at most `width` terminal cells (ui/cells.ts: a rig's name in an event may hold CJK or
 * emoji); a word longer than a line is cut across lines between grapheme clusters.
 */
export function wrapText(text: string, width: number): string[] {
	const room = Math.max(1, width);
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(' ')) {
		let rest = word;
		while (textWidth(rest) > room) {
			if (line !== '') {
				lines.push(line);
				line = '';
			}

			const [head, tail] = splitAtCells(rest, room);
			lines.push(head);
			rest = tail;
		}

		if (line === '') line = rest;
		else if (textWidth(line) + 1 + textWidth(rest) <= room) line += ` ${rest}`;
		else {
			lines.push(line);
			line = rest;
		}
	}

	lines.push(line);
	return lines;
}

/**
 * The event view's env hook: every rig's events (their history's store, this session's notices merged in), the view's
 * own state (reduce.ts) and its keys.
 */
function useEvents({sources, notices, caps}: EventViewProps) {
	const {columns, rows} = useTerminalSize();
	// The App's one clock (fixed for tests and screenshots).
	const now = useNow(60_000);
	const several = sources.length > 1;
	const limit = eventLimit(sources.length);
	// Every rig's events, read by its history's store (history/stores.ts), with the session's notices merged in.
	const list = useMemo(() => new EventListStore(sources, notices ?? null, SESSION_LABEL), [sources, notices]);
	const {events, sessionOnly, loaded} = useStore(list);
	useEffect(() => {
		list.request(limit);
	}, [list, limit]);
	const lines = useMemo(() => describeEvents(events, now).reverse(), [events, now]);

	const budget = Math.max(1, rows - 1);
	const listHeight = Math.max(1, budget - 3);
	const run = useCallback(
		(effect: EventViewEffect) => {
			if (effect === 'quit') caps.quit();
			else caps.close();
		},
		[caps],
	);
	const env = useMemo<EventsEnv>(() => ({count: lines.length, pageSize: listHeight}), [lines.length, listHeight]);
	const {state: ui, footer, help} = useScreen(SCREEN, initialEventViewState, env, run);
	return {ui, footer, help, lines, sessionOnly, loaded, several, columns, budget, listHeight};
}

/**
 * Every event (`e`): the stored ones from before this session — a rigtop started again still shows last night —
 * and this session's as they come, newest first, each with its date when not today and outages with their span and
 * length. With history off, this session's events (what the monitor keeps), and it says so.
 */
export function EventView(props: EventViewProps) {
	const theme = useTheme();
	const {ui, footer, help, lines, sessionOnly, loaded, several, columns, budget, listHeight} = useEvents(props);

	// Widths in terminal cells (ui/cells.ts): a rig's name may hold CJK, emoji or combining marks.
	const whenWidth = Math.max(5, ...lines.map((line) => textWidth(line.when)));
	const rigWidth = several ? Math.min(20, Math.max(...lines.map((line) => textWidth(line.rig ?? '')), 3)) : 0;
	const messageWidth = Math.max(10, columns - 2 - whenWidth - 2 - (several ? rigWidth + 2 : 0));
	const offset = offsetOf(ui, lines.length);

	const shown: {line: EventLine; text: string; first: boolean; key: string}[] = [];
	let last = offset;
	for (let index = offset; index < lines.length && shown.length < listHeight; index++) {
		const line = lines[index];
		if (!line) break;
		wrapText(line.text, messageWidth).forEach((text, part) => {
			if (shown.length < listHeight) shown.push({line, text, first: part === 0, key: `${line.key}:${part}`});
		});
		last = index;
	}

	const oldest = lines.at(-1);
	const summary = !loaded
		? ''
		: lines.length === 0
			? 'no events'
			: `${lines.length} event${lines.length === 1 ? '' : 's'}${oldest ? ` since ${oldest.when}` : ''}${sessionOnly ? ' · history off' : ''}`;
	const position =
		lines.length === 0
			? ''
			: `${offset + 1}–${last + 1} of ${lines.length}, newest first${last + 1 < lines.length ? ` · ${SCREEN_KEYMAP.keyOf('eventsDown', 'events')} older` : ''}`;

	return (
		<Box flexDirection="column" width={columns} height={budget} overflowY="hidden">
			<TitleBar width={columns} title={[props.title, 'events']} stateWidth={textWidth(summary)}>
				<Text {...theme.text(sessionOnly ? 'warn' : 'muted')}>{summary}</Text>
			</TitleBar>
			{ui.help ? (
				<HelpOverlay entries={help} width={columns} height={budget - 2} />
			) : (
				<>
					<Box flexDirection="column" height={listHeight} paddingX={1} overflowY="hidden">
						{!loaded ? null : lines.length === 0 ? (
							<Wrapped {...theme.text('muted')}>
								{sessionOnly ? 'no events in this session yet (history is off)' : 'no events stored yet'}
							</Wrapped>
						) : (
							shown.map(({line, text, first, key}) => (
								<Text key={key} wrap="truncate-end">
									<Text {...theme.text('muted')}>{padText(first ? line.when : '', whenWidth)}</Text>
									{several ? (
										<Text
											bold={line.severity !== 'info'}
										>{`  ${padText(cutText(first ? (line.rig ?? '') : '', rigWidth), rigWidth)}`}</Text>
									) : null}
									<Text {...theme.text(toneOf[line.severity])}>{`  ${text}`}</Text>
								</Text>
							))
						)}
					</Box>
					<Box height={1} paddingX={1}>
						<Text wrap="truncate-end" {...theme.text('muted')}>
							{position}
						</Text>
					</Box>
				</>
			)}
			<Footer hints={footer} width={columns} />
		</Box>
	);
}
