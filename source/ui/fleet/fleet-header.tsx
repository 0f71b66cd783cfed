import {Text} from 'ink';
import {memo} from 'react';
import {formatHashrate} from '../../format.js';
import type {StatusBadge} from '../status.js';
import {useTheme, type ThemeToken} from '../theme.js';
import {TitleBar} from '../panes/title-bar.js';
import type {FleetTotals} from './fleet-rows.js';

export type FleetHeaderProps = {
	readonly totals: FleetTotals;
	readonly width: number;
	/** "rigs 1–18 of 100" when the table scrolls, else null. */
	readonly window: string | null;
	/** "by state, worst first" when the rows are sorted, else null. */
	readonly sort?: string | null;
};

const ORDER: readonly StatusBadge['word'][] = ['live', 'PAUSED', 'no pool', 'stale', 'connecting', 'down', 'error'];

/** How many rigs, the fleet's 10 s total (left); the count in each state (right), worst colour wins. */
function FleetHeaderView({totals, width, window, sort = null}: FleetHeaderProps) {
	const theme = useTheme();
	const rate = totals.summed > 0 ? formatHashrate(totals.rates[0] ?? totals.rates[1] ?? totals.rates[2] ?? null) : '—';
	const partial = totals.summed < totals.answered ? ` (${totals.summed} of ${totals.count})` : '';
	const left = [`${totals.count} rig${totals.count === 1 ? '' : 's'}`, `${rate} total${partial}`];
	if (sort) left.push(sort);
	if (window) left.push(window);
	const counts = ORDER.filter((word) => (totals.byState.get(word) ?? 0) > 0).map((word) => `${totals.byState.get(word) ?? 0} ${word}`);
	const bad = (totals.byState.get('down') ?? 0) + (totals.byState.get('error') ?? 0) > 0;
	const uneasy = (totals.byState.get('stale') ?? 0) + (totals.byState.get('no pool') ?? 0) > 0;
	const tone: ThemeToken = bad ? 'error' : uneasy ? 'warn' : totals.answered > 0 ? 'ok' : 'info';
	return (
		<TitleBar width={width} title={left} stateWidth={[...`● ${counts.join(' · ')}`].length}>
			<Text bold {...theme.text(tone)}>{`● ${counts.join(' · ')}`}</Text>
		</TitleBar>
	);
}

export const FleetHeader = memo(FleetHeaderView);
