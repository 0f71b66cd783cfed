import {Box, Text} from 'ink';
import {memo} from 'react';
import type {MonitorState} from '../../monitor/types.js';
import {formatDuration} from '../../text/format.js';
import {useNowShown} from '../hooks/use-now.js';
import {useTheme} from '../text/theme.js';
import {Wrapped} from '../widgets/wrap.js';

export type WaitingScreenProps = {
	readonly state: MonitorState;
	readonly width: number;
	readonly height: number;
};

function retryText(nextPollAt: number | null, now: number): string | null {
	if (nextPollAt === null) return null;
	const seconds = Math.ceil((nextPollAt - now) / 1000);
	return seconds <= 0 ? 'retrying now…' : `retrying in ${formatDuration(seconds)}`;
}

/**
 * Before the first good answer: "connecting to <url> …", or, if the miner could not be used,
 * what went wrong and how to fix it, in plain words (MinerError.hint).
 */
function WaitingScreenView({state, width, height}: WaitingScreenProps) {
	const theme = useTheme();
	// Ticks redraw it only when the countdown's text changes (never while no poll has failed).
	const counting = state.error !== null || state.consecutiveFailures > 0;
	const now = useNowShown(1000, (at) => (counting ? (retryText(state.nextPollAt, at) ?? '') : ''));
	const error = state.error;
	const retry = retryText(state.nextPollAt, now);
	if (error === null) {
		return (
			<Box flexDirection="column" width={width} height={height} paddingX={1} paddingTop={height > 4 ? 1 : 0} overflowY="hidden">
				<Text wrap="truncate-end">
					<Text {...theme.text('info')}>connecting to </Text>
					<Text bold>{state.url}</Text>
					<Text {...theme.text('info')}> …</Text>
				</Text>
				<Text wrap="truncate-end" {...theme.text('muted')}>
					{state.consecutiveFailures > 0 && retry ? retry : "waiting for the miner's first answer"}
				</Text>
			</Box>
		);
	}

	const unreachable = error.kind === 'unreachable' || error.kind === 'timeout';
	const headline = unreachable ? `cannot reach ${state.url}` : `cannot use the miner at ${state.url}`;
	const detail = error.detail ? ` (${error.detail})` : '';
	return (
		<Box flexDirection="column" width={width} height={height} paddingX={1} paddingTop={height > 8 ? 1 : 0} overflowY="hidden">
			<Wrapped bold {...theme.text('error')}>
				{`✗ ${headline}`}
			</Wrapped>
			<Box paddingLeft={2} flexShrink={0}>
				<Wrapped>{`${error.message}${detail}`}</Wrapped>
			</Box>
			<Box marginTop={height > 6 ? 1 : 0} width={Math.max(1, width - 2)} flexShrink={0}>
				<Wrapped>
					<Text bold {...theme.text('accent')}>
						{'fix: '}
					</Text>
					{error.hint}
				</Wrapped>
			</Box>
			<Box marginTop={height > 6 ? 1 : 0}>
				<Text wrap="truncate-end" {...theme.text('muted')}>
					{[retry, 'q to quit'].filter(Boolean).join(' · ')}
				</Text>
			</Box>
		</Box>
	);
}

export const WaitingScreen = memo(WaitingScreenView);
