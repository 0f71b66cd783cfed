import {Text} from 'ink';
import {memo} from 'react';
import type {MinerSnapshot} from '../../miner/model.js';
import {DASH, formatHashrate, formatRateIn, pickRateUnit} from '../../format.js';
import {sparkline} from '../sparkline.js';
import {Line, Pane, Tone} from './pane.js';

export type HashratePaneProps = {
	readonly hashrate: MinerSnapshot['hashrate'];
	readonly sessionAverage: number | null;
	readonly history: readonly (number | null)[];
	readonly paused: boolean;
	readonly width: number;
	readonly height: number;
	readonly outdated: boolean;
};

/**
 * 10 s / 60 s / 15 min in one unit (the unit of the largest, so the numbers line up), the
 * highest 10 s rate and the session average, and a sparkline of the 10 s history.
 */
function HashratePaneView({hashrate, sessionAverage, history, paused, width, height, outdated}: HashratePaneProps) {
	const unit = pickRateUnit(hashrate.total);
	// The unit follows the first known value; the others share it, so the numbers compare at a glance.
	const firstKnown = hashrate.total.findIndex((rate) => rate !== null);
	const windows = (['10s', '60s', '15m'] as const).map((label, index) => {
		const rate = hashrate.total[index] ?? null;
		const text = rate === null ? DASH : formatRateIn(rate, unit).padStart(4);
		return {label, text: index === firstKnown ? `${text} ${unit}` : text};
	});
	const line = sparkline(history, Math.max(0, width - 4));
	return (
		<Pane title="Hashrate" width={width} height={height} outdated={outdated}>
			<Line>
				{windows.map(({label, text}, index) => (
					<Text key={label}>
						<Tone token="muted">{`${index === 0 ? '' : '  '}${label} `}</Tone>
						{index === 0 ? (
							<Tone token="accent" bold>
								{text}
							</Tone>
						) : (
							text
						)}
					</Text>
				))}
			</Line>
			<Line>
				<Tone token="muted">max </Tone>
				{formatHashrate(hashrate.highest)}
				<Tone token="muted">{'  avg '}</Tone>
				{formatHashrate(sessionAverage)}
				{paused ? <Tone token="info">{'  paused'}</Tone> : null}
			</Line>
			{line.trim() === '' ? <Line tone="muted">collecting samples…</Line> : <Line tone="accent">{line}</Line>}
		</Pane>
	);
}

export const HashratePane = memo(HashratePaneView);
