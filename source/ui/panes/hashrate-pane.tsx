import {Text} from 'ink';
import {memo} from 'react';
import type {MinerSnapshot} from '../../miner/model.js';
import {DASH, formatHashrate, formatRateIn, pickRateUnit} from '../../text/format.js';
import {sparkArea, sparkline} from '../widgets/sparkline.js';
import {Line, Pane, Tone} from './pane.js';

export type HashratePaneProps = {
	readonly hashrate: MinerSnapshot['hashrate'];
	readonly sessionAverage: number | null;
	/** The sparkline's values, oldest first (null: nothing known there); two a column when it has several rows. */
	readonly sparkline: readonly (number | null)[];
	/** Rows of the sparkline (the pane is that much taller than three lines of content). */
	readonly sparkRows?: number;
	/** What the sparkline spans, for its title ("since 3d"); null when it is this session's samples only. */
	readonly since?: string | null;
	readonly paused: boolean;
	readonly width: number;
	readonly height: number;
	readonly outdated: boolean;
};

/**
 * 10 s / 60 s / 15 min in one unit (the unit of the largest, so the numbers line up), the
 * highest 10 s rate and the session average, and a sparkline of the 10 s rates (the history store's, else the monitor's recent ones): the pane's whole
 * width, one row (blocks) or several on a tall terminal (braille, as btop draws).
 */
function HashratePaneView({
	hashrate,
	sessionAverage,
	sparkline: values,
	sparkRows = 1,
	since = null,
	paused,
	width,
	height,
	outdated,
}: HashratePaneProps) {
	const unit = pickRateUnit(hashrate.total);
	// The unit follows the first known value; the others share it, so the numbers compare at a glance.
	const firstKnown = hashrate.total.findIndex((rate) => rate !== null);
	const windows = (['10s', '60s', '15m'] as const).map((label, index) => {
		const rate = hashrate.total[index] ?? null;
		const text = rate === null ? DASH : formatRateIn(rate, unit).padStart(4);
		return {label, text: index === firstKnown ? `${text} ${unit}` : text};
	});
	const inner = Math.max(0, width - 4);
	const lines = sparkRows > 1 ? sparkArea(values, inner, sparkRows) : [sparkline(values, inner)];
	const empty = lines.every((line) => line.trim() === '');
	return (
		<Pane title="Hashrate" {...(since === null ? {} : {note: `since ${since}`})} width={width} height={height} outdated={outdated}>
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
			{empty ? (
				<Line tone="muted">collecting samples…</Line>
			) : (
				lines.map((line, row) => (
					// keyed by position: the rows of one drawing
					<Line key={row} tone="accent">
						{line}
					</Line>
				))
			)}
		</Pane>
	);
}

export const HashratePane = memo(HashratePaneView);
