import {Text} from 'ink';
import {memo} from 'react';
import {formatHashrate} from '../../../format.js';
import type {StatusBadge} from '../../status.js';
import {useTheme, type ThemeToken} from '../../theme.js';
import {TitleBar, titleFitsWhole} from '../../panes/title-bar.js';
import type {FleetTotals} from './rows.js';

export type FleetHeaderProps = {
	readonly totals: FleetTotals;
	readonly width: number;
	/** "rigs 1–18 of 100" when the table scrolls, else null. */
	readonly window: string | null;
	/** "by state, worst first" when the rows are sorted, else null. */
	readonly sort?: string | null;
	/** How many rigs are marked (Space, *): "3 marked" after the count. */
	readonly marked?: number;
	/** Rigs down or in error that the filter hides, by state: "1 error (1 hidden)" on the right. */
	readonly hidden?: ReadonlyMap<StatusBadge['word'], number>;
};

const NONE_HIDDEN: ReadonlyMap<StatusBadge['word'], number> = new Map();

const ORDER: readonly StatusBadge['word'][] = ['live', 'PAUSED', 'no pool', 'stale', 'connecting', 'down', 'error'];

/**
 * The headline's total: "11.7 kH/s total"; "(3 of 4 up rigs)" when some rig that answered has no rate yet. With
 * proxies in the fleet it is the miners' alone and says so: "11.7 kH/s total of 4 miners".
 */
export function headlineTotal(totals: HeadlineTotals): string {
	return headlineForms(totals)[0] ?? '';
}

type HeadlineTotals = Pick<FleetTotals, 'rate' | 'rated' | 'minersAnswered' | 'miners' | 'proxies'>;

/**
 * The headline's total, longest first: where the line is short, a shorter one is drawn rather than none ("of N
 * miners" left to the proxies' own part, "(3 of 4)" as under the columns' totals).
 */
export function headlineForms(totals: HeadlineTotals): readonly string[] {
	const rate = `${formatHashrate(totals.rate)} total`;
	const counted = totals.rated < totals.minersAnswered ? `${totals.rated} of ${totals.minersAnswered}` : null;
	const partial = counted === null ? '' : ` (${counted} up rigs)`;
	const of = totals.proxies.count > 0 ? ` of ${totals.miners} miner${totals.miners === 1 ? '' : 's'}` : '';
	const forms = [`${rate}${of}${partial}`];
	if (of !== '') forms.push(`${rate}${partial}`);
	if (counted !== null) forms.push(`${rate} (${counted})`);
	return forms;
}

/**
 * The proxies' own total, apart from the miners' (a proxy's rate is its miners', who may be rows too): "proxy 1.05
 * kH/s (1m, not in total)", "2 proxies …"; null without proxies.
 */
export function proxiesTotal(totals: Pick<FleetTotals, 'proxies'>): string | null {
	const {count, rate} = totals.proxies;
	if (count === 0) return null;
	return `${count === 1 ? 'proxy' : `${count} proxies`} ${formatHashrate(rate)} (1m, not in total)`;
}

/**
 * How many rigs, what the fleet makes now (each answering rig's freshest rate), which of them the table shows when it
 * scrolls, and the sort in words (left, dropped first where the line is short: the sorted column's arrow says it
 * too); the count in each state (right), worst colour wins, with how many rigs down or in error the filter hides.
 */
function FleetHeaderView({totals, width, window, sort = null, marked = 0, hidden = NONE_HIDDEN}: FleetHeaderProps) {
	const theme = useTheme();
	// A rig in trouble is never hidden in silence: the count says how many of its rigs the filter hides.
	const counts = ORDER.filter((word) => (totals.byState.get(word) ?? 0) > 0).map((word) => {
		const count = `${totals.byState.get(word) ?? 0} ${word}`;
		const out = hidden.get(word) ?? 0;
		return out > 0 ? `${count} (${out} hidden)` : count;
	});
	const lead = [`${totals.count} rig${totals.count === 1 ? '' : 's'}`];
	if (marked > 0) lead.push(`${marked} marked`);
	const stateWidth = [...`● ${counts.join(' · ')}`].length;
	const forms = headlineForms(totals);
	const total = forms.find((form) => titleFitsWhole([...lead, form], width, stateWidth)) ?? forms.at(-1) ?? '';
	const left = [...lead, total];
	const proxies = proxiesTotal(totals);
	if (proxies !== null) left.push(proxies);
	if (window) left.push(window);
	if (sort) left.push(sort);
	const bad = (totals.byState.get('down') ?? 0) + (totals.byState.get('error') ?? 0) > 0;
	const uneasy = (totals.byState.get('stale') ?? 0) + (totals.byState.get('no pool') ?? 0) > 0;
	const tone: ThemeToken = bad ? 'error' : uneasy ? 'warn' : totals.answered > 0 ? 'ok' : 'info';
	return (
		<TitleBar width={width} title={left} stateWidth={stateWidth}>
			<Text bold {...theme.text(tone)}>{`● ${counts.join(' · ')}`}</Text>
		</TitleBar>
	);
}

export const FleetHeader = memo(FleetHeaderView);
