import {Box} from 'ink';
import {memo} from 'react';
import {MIN_COLUMNS, MIN_ROWS} from '../screens/layout.js';
import {useTheme} from '../text/theme.js';
import {wordLines, Wrapped} from '../widgets/wrap.js';

export type TooSmallProps = {
	readonly columns: number;
	readonly rows: number;
	/** The key that still works, e.g. "q quits". */
	readonly hint: string;
};

/**
 * What a screen shows below the smallest size it can serve (as btop does): the size it needs and the
 * size it has, wrapped to whatever width there is, never taller than rows - 1. It goes as soon as the
 * terminal is made larger.
 */
function TooSmallView({columns, rows, hint}: TooSmallProps) {
	const theme = useTheme();
	const width = Math.max(1, columns);
	const height = Math.max(1, rows - 1);
	const inner = Math.max(1, width - (width > 4 ? 2 : 0));
	const need = `terminal too small — need ${MIN_COLUMNS}×${MIN_ROWS}`;
	// The need first, on the lines it takes that there are; the size and the way out on the rest (each cut with "…").
	const needLines = Math.min(height, wordLines(need, inner).length);
	return (
		<Box flexDirection="column" width={width} height={height} overflowY="hidden" paddingX={width > 4 ? 1 : 0}>
			<Wrapped bold {...theme.text('warn')} lines={needLines} width={inner}>
				{need}
			</Wrapped>
			{height > needLines ? (
				<Wrapped {...theme.text('muted')} lines={height - needLines} width={inner}>{`this one is ${columns}×${rows} · ${hint}`}</Wrapped>
			) : null}
		</Box>
	);
}

export const TooSmall = memo(TooSmallView);
