import {Box, Text} from 'ink';
import {createContext, useContext, type ReactNode} from 'react';
import {useTheme, type ThemeToken} from '../text/theme.js';
import {cutText} from '../widgets/wrap.js';

/** Whether the enclosing pane shows last-known values (its lines are dimmed). */
const OutdatedContext = createContext(false);

export type PaneProps = {
	readonly title: string;
	/** Muted text after the title ("16 · rows 1–7 of 16"). */
	readonly note?: string;
	readonly width: number;
	readonly height: number;
	/** Last-known values: the title says "(stale)", and with colour the pane is dimmed. */
	readonly outdated?: boolean;
	readonly children?: ReactNode;
};

/**
 * A rounded frame with its title set in the top border ("╭ Hashrate ───╮"), exactly `width` by
 * `height`. Ink boxes have no border titles, so the top edge is drawn as a text line.
 */
export function Pane({title, note, width, height, outdated = false, children}: PaneProps) {
	const theme = useTheme();
	const inner = Math.max(0, width - 2);
	const stale = outdated ? ' (stale)' : '';
	const noteText = note ? ` ${note}` : '';
	let label = ` ${title}${stale}${noteText} `;
	if (label.length > inner) label = cutText(label, inner);
	const titleEnd = Math.min(label.length, 1 + title.length);
	const staleEnd = Math.min(label.length, titleEnd + stale.length);
	const borderTone = theme.border('border', outdated);
	if (width < 4) {
		// No room for the frame (its edges and padding take four columns): the content alone, cut to the space.
		return (
			<Box flexDirection="column" width={Math.max(0, width)} height={Math.max(0, height)} flexShrink={0} overflowY="hidden">
				<OutdatedContext.Provider value={outdated}>{children}</OutdatedContext.Provider>
			</Box>
		);
	}

	const edgeTone = {...theme.text('border'), ...theme.dim(outdated)};
	return (
		<Box flexDirection="column" width={width} height={height} flexShrink={0}>
			<Text wrap="truncate-end" {...edgeTone}>
				{width >= 2 ? '╭' : ''}
				<Text bold {...theme.dim(outdated)}>
					{label.slice(0, titleEnd)}
				</Text>
				<Text {...theme.text('warn')}>{label.slice(titleEnd, staleEnd)}</Text>
				<Text {...theme.text('muted')}>{label.slice(staleEnd)}</Text>
				{'─'.repeat(Math.max(0, inner - label.length))}
				{width >= 2 ? '╮' : ''}
			</Text>
			<Box
				borderStyle="round"
				borderTop={false}
				{...borderTone}
				width={width}
				height={Math.max(0, height - 1)}
				flexDirection="column"
				paddingX={1}
				overflowY="hidden"
			>
				<OutdatedContext.Provider value={outdated}>{children}</OutdatedContext.Provider>
			</Box>
		</Box>
	);
}

/** One line of pane content: never wraps (it is cut at the edge), dimmed in an outdated pane. */
export function Line({tone, children}: {readonly tone?: ThemeToken; readonly children?: ReactNode}) {
	const theme = useTheme();
	const outdated = useContext(OutdatedContext);
	return (
		<Text wrap="truncate-end" {...theme.dim(outdated)} {...(tone ? theme.text(tone) : {})}>
			{children}
		</Text>
	);
}

/** A run of text in a semantic tone, inside a `Line`. */
export function Tone({token, bold, children}: {readonly token: ThemeToken; readonly bold?: boolean; readonly children?: ReactNode}) {
	const theme = useTheme();
	return (
		<Text bold={bold === true} {...theme.text(token)}>
			{children}
		</Text>
	);
}
