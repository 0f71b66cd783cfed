import {Box, Text} from 'ink';
import {memo} from 'react';
import {SCREEN_KEYMAP, type HelpEntry} from '../keymap.js';
import {useTheme} from '../theme.js';
import {Line, Pane} from './pane.js';

export type HelpOverlayProps = {
	readonly entries: readonly HelpEntry[];
	readonly width: number;
	readonly height: number;
};

const closeKeys = `${SCREEN_KEYMAP.keyOf('help', 'help')} or ${SCREEN_KEYMAP.keyOf('back', 'help')} to close`;

/** Every key, from the keymap; keys whose action this session lacks are marked, not hidden. */
function HelpOverlayView({entries, width, height}: HelpOverlayProps) {
	const theme = useTheme();
	const keyWidth = Math.max(...entries.map((entry) => entry.keys.length), 4) + 2;
	const inner = Math.max(0, height - 2);
	const shown = entries.length <= inner ? entries : entries.slice(0, Math.max(0, inner - 1));
	return (
		<Pane title="Keys" note={`· ${closeKeys}`} width={width} height={height}>
			{shown.map((entry) => (
				<Box key={`${entry.keys} ${entry.description}`} height={1}>
					<Text wrap="truncate-end">
						<Text bold {...theme.text(entry.available ? 'accent' : 'muted')}>
							{entry.keys.padEnd(keyWidth)}
						</Text>
						<Text {...(entry.available ? {} : theme.text('muted'))}>{entry.description}</Text>
						{entry.available ? '' : <Text {...theme.text('muted')}> (not available here)</Text>}
					</Text>
				</Box>
			))}
			{entries.length > shown.length ? (
				<Line tone="muted">{`… ${entries.length - shown.length} more (make the terminal taller)`}</Line>
			) : null}
		</Pane>
	);
}

export const HelpOverlay = memo(HelpOverlayView);
