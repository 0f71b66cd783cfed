import {memo} from 'react';
import type {ShareResults} from '../../miner/model.js';
import type {LastShare} from '../../monitor/last-share.js';
import {DASH, formatCount, formatLastAccepted, formatDuration, formatInteger, formatPercent} from '../../text/format.js';
import {useNowShown} from '../hooks/use-now.js';
import {Line, Pane, Tone} from './pane.js';

export type SharesPaneProps = {
	readonly results: ShareResults;
	/** The last accepted share as the monitor knows it (monitor/last-share.ts); null when unknown. */
	readonly lastShare: LastShare | null;
	readonly width: number;
	readonly height: number;
	readonly outdated: boolean;
};

/** Accepted of total, best share, rejects with their share of the total, average share time, last share. */
function SharesPaneView({results, lastShare, width, height, outdated}: SharesPaneProps) {
	// Ticks redraw the pane only when its label changes ("2h 05m ago" once a minute).
	const now = useNowShown(1000, (at) => formatLastAccepted(lastShare, at));
	const {good, total, rejected} = results;
	return (
		<Pane title="Shares" width={width} height={height} outdated={outdated}>
			<Line>
				<Tone token="ok">{formatInteger(good)}</Tone>
				{` / ${formatInteger(total)}`}
				<Tone token="muted">{' good · best '}</Tone>
				{results.best === null ? DASH : formatCount(results.best)}
			</Line>
			<Line>
				<Tone token={rejected > 0 ? 'warn' : 'muted'}>{`${formatInteger(rejected)} rejected`}</Tone>
				{total > 0 ? <Tone token={rejected > 0 ? 'warn' : 'muted'}>{` ${formatPercent(rejected, total)}`}</Tone> : null}
				<Tone token="muted">{' · avg '}</Tone>
				{formatDuration(results.avgTime)}
			</Line>
			<Line>
				<Tone token="muted">last share </Tone>
				{formatLastAccepted(lastShare, now)}
			</Line>
		</Pane>
	);
}

export const SharesPane = memo(SharesPaneView);
