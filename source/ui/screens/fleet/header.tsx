import {Text} from 'ink';
import {memo} from 'react';
import {formatHashrate} from '../../../text/format.js';
import type {StatusBadge} from '../../text/status.js';
import {useTheme, type ThemeToken} from '../../text/theme.js';
import {TitleBar, titleFitsWhole} from '../../panes/title-bar.js';
import type {FleetTotals} from './rows.js';

export type FleetHeaderProps = {
	readonly totals: FleetTotals;
	readonly width: number;
	/** "rigs 1–18 of 100" when the table scrolls, else null. */
	readonly window: string | null;
	/** "by state, worst first" when the rows are sorted, else null. */
	readonly sort?: string | null;
	/** Its short form, where the long one does not fit: "by state▼". */
	readonly sortShort?: string | null;
	/** How many rigs are marked (Space, *): "3 marked" after the count. */
	readonly marked?: number;
	/** Rigs down or in error that the filter hides, by state: "1 error (1 hidden)" on the right. */
	readonly hidden?: ReadonlyMap<StatusBadge['word'], number>;
};

const NONE_HIDDEN: ReadonlyMap<StatusBadge['word'], number> = new Map();

const ORDER: readonly StatusBadge['word'][] = ['live', 'PAUSED', 'no pool', 'stale', 'connecting', 'down', 'error'];

/**
 * The headline's total, each thing said once: "11.7 kH/s total"; "(3 of 4 up rigs)" when some rig that answered has
 * no rate yet. With proxies in the fleet it is the miners' alone and says so: "11.7 kH/s from 4 miners", or "11.7
 * kH/s from 3 of 4 up miners" when one that answered has no rate yet.
 */
export function headlineTotal(totals: HeadlineTotals): string {
	return headlineForms(totals)[0] ?? '';
}

type HeadlineTotals = Pick<FleetTotals, 'rate' | 'rated' | 'minersAnswered' | 'miners' | 'proxies'>;

/** The headline's total, longest first: where the line is short, a shorter one is drawn rather than none ("(3 of 4)"). */
export function headlineForms(totals: HeadlineTotals): readonly string[] {
	const rate = formatHashrate(totals.rate);
	const counted = totals.rated < totals.minersAnswered ? `${totals.rated} of ${totals.minersAnswered}` : null;
	const forms: string[] = [];
	if (totals.proxies.count > 0)
		forms.push(
			counted === null ? `${rate} from ${totals.miners} miner${totals.miners === 1 ? '' : 's'}` : `${rate} from ${counted} up miners`,
		);
	else if (counted !== null) forms.push(`${rate} total (${counted} up rigs)`);
	forms.push(counted === null ? `${rate} total` : `${rate} total (${counted})`);
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
 * scrolls, and the sort in words (left; in short words where the line is short, the proxies' rate dropped before it); the count in each state (right), worst colour wins, with how many rigs down or in error the filter hides.
 */
function FleetHeaderView({totals, width, window, sort = null, sortShort = null, marked = 0, hidden = NONE_HIDDEN}: FleetHeaderProps) {
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
	const proxies = proxiesTotal(totals);
	// Each part in its longest form that fits, the sort kept (short: "by 10s▲") before the proxies' rate is dropped: a
	// mark, a proxy or a scrolling window never pushes the sort out of the title.
	const sorts = [sort, sortShort ?? sort];
	// The window without its word ("1–18 of 60") where the line is short.
	const windows = [window, window?.replace(/^rigs /, '') ?? null];
	const candidates: string[][] = [];
	for (const withProxies of proxies === null ? [false] : [true, false])
		for (const form of forms)
			for (const shown of windows)
				for (const sorted of sorts)
					candidates.push([
						...lead,
						form,
						...(withProxies && proxies ? [proxies] : []),
						...(shown ? [shown] : []),
						...(sorted ? [sorted] : []),
					]);
	const total = forms.find((form) => titleFitsWhole([...lead, form], width, stateWidth)) ?? forms.at(-1) ?? '';
	const left = candidates.find((parts) => titleFitsWhole(parts, width, stateWidth)) ?? [
		...lead,
		total,
		...(proxies ? [proxies] : []),
		...(window ? [window] : []),
		...(sortShort ? [sortShort] : []),
	];
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
