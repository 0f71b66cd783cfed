import {Box, Text} from 'ink';
import {memo, type ReactNode} from 'react';
import {DASH, formatClock, formatCount, formatInteger, formatPercent} from '../../../text/format.js';
import {formatLastShare, formatProxyWindows} from '../../../miner/format-proxy.js';
import {useTheme} from '../../text/theme.js';
import type {WorkerRow} from './rows.js';

export type WorkerDetailProps = {
	/** The worker, or null when the proxy no longer lists it. */
	readonly row: WorkerRow | null;
	readonly name: string;
	/** The proxy's uptime, seconds (a window longer than it is still filling). */
	readonly uptime: number | null;
	readonly now: number;
	readonly width: number;
	readonly height: number;
};

/** "label       value": the label column as the proxy's summary has it. */
function Line({label, children}: {readonly label: string; readonly children: ReactNode}) {
	const theme = useTheme();
	return (
		<Text wrap="truncate-end">
			<Text {...theme.text('muted')}>{`  ${label.padEnd(12)}`}</Text>
			{children}
		</Text>
	);
}

/**
 * One worker's detail (Enter on its row): its state in words, its rates over every window, its shares with the
 * reject rate, its hashes, its last share (the clock and how long ago), its connections and ip.
 */
function WorkerDetailView({row, name, uptime, now, width, height}: WorkerDetailProps) {
	const theme = useTheme();
	if (row === null) {
		return (
			<Box flexDirection="column" width={width} height={height} overflowY="hidden">
				<Text wrap="truncate-end" bold>{`  worker ${name}`}</Text>
				<Text wrap="truncate-end" {...theme.text('warn')}>
					{'  not listed by the proxy any more'}
				</Text>
			</Box>
		);
	}

	const windows = formatProxyWindows(row.rates, uptime);
	const total = row.accepted + row.rejected;
	return (
		<Box flexDirection="column" width={width} height={height} overflowY="hidden">
			<Text wrap="truncate-end">
				<Text bold>{`  worker ${row.name}  `}</Text>
				<Text bold {...theme.text(row.tone)}>
					{row.state}
				</Text>
			</Text>
			{windows.map((text, index) => (
				<Line key={text.split(' ')[0]} label={index === 0 ? 'hashrate' : ''}>
					{text}
				</Line>
			))}
			<Line label="shares">
				{`${formatInteger(row.accepted)} accepted  ${formatInteger(row.rejected)} rejected (${formatPercent(row.rejected, total)})  ${formatInteger(row.invalid)} invalid`}
			</Line>
			<Line label="hashes">{formatCount(row.hashes)}</Line>
			<Line label="last share">
				{row.lastShareAt === null ? 'never' : `${formatClock(row.lastShareAt)} · ${formatLastShare(row.lastShareAt, now)}`}
			</Line>
			<Line label="connections">{formatInteger(row.connections)}</Line>
			<Line label="ip">{row.ip ?? DASH}</Line>
		</Box>
	);
}

export const WorkerDetail = memo(WorkerDetailView);
