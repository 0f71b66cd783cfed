import {Text} from 'ink';
import {memo} from 'react';
import type {FittedColumn} from '../../table.js';
import {headingsOf, segments, Segments} from '../../panes/segments.js';
import {useTheme, type ThemeToken} from '../../theme.js';
import {PREFIX_WIDTH} from '../fleet/table.js';
import type {WorkerLine} from './columns.js';
import type {WorkerRow, WorkerTotals} from './rows.js';

export type WorkerTableProps = {
	/** The workers in view (already windowed). */
	readonly rows: readonly WorkerRow[];
	readonly totals: WorkerTotals;
	/** Workers the proxy lists (the totals' note says how many of them the totals sum). */
	readonly listed: number;
	readonly selected: string | null;
	readonly fitted: readonly FittedColumn<WorkerLine>[];
	readonly gap: number;
	/** The dimmed rows: last-known values (the proxy stopped answering). */
	readonly outdated: boolean;
	readonly empty: string;
	/** "workers 1–13 of 29" when the list scrolls, and the sort's words, for the line under the totals. */
	readonly window?: string | null;
	readonly sort?: string | null;
};

/** The note under the totals: what they sum, and that they are not the proxy's own figures (those are above). */
export function totalsNote(totals: Pick<WorkerTotals, 'count'>, listed: number): string {
	return totals.count === listed
		? `totals: all ${listed} workers listed, not the proxy's own figures (above)`
		: `totals: the ${totals.count} ${totals.count === 1 ? 'worker' : 'workers'} shown of ${listed}`;
}

function WorkerLineView({
	row,
	fitted,
	gap,
	selected,
	outdated,
}: {
	row: WorkerRow;
	fitted: WorkerTableProps['fitted'];
	gap: number;
	selected: boolean;
	outdated: boolean;
}) {
	const theme = useTheme();
	const trouble = row.word === 'gone' || row.word === 'quiet';
	const tone = (id: string): ThemeToken | null => (id === 'state' ? row.tone : id === 'name' && trouble ? row.tone : null);
	// Selection mark, then trouble mark: "▸!" — readable without colour.
	const mark = `${selected ? '▸' : ' '}${trouble ? '!' : ' '}`;
	return (
		<Text wrap="truncate-end" inverse={selected && theme.color} bold={selected}>
			<Text {...(trouble ? theme.text(row.tone) : {})}>{mark}</Text>
			<Segments parts={segments(fitted, {kind: 'worker', row}, gap, tone)} dim={outdated} />
		</Text>
	);
}

const WorkerLineMemo = memo(WorkerLineView);

/** Column headings, one line per worker in view, the totals and the line that says what they sum. */
function WorkerTableView({rows, totals, listed, selected, fitted, gap, outdated, empty, window = null, sort = null}: WorkerTableProps) {
	const theme = useTheme();
	const pad = ' '.repeat(PREFIX_WIDTH);
	return (
		<>
			<Text wrap="truncate-end" bold {...theme.text('muted')}>
				{pad}
				{headingsOf(fitted, gap)}
			</Text>
			{rows.length === 0 ? (
				<Text wrap="truncate-end" {...theme.text('muted')}>
					{pad}
					{empty}
				</Text>
			) : (
				rows.map((row) => (
					<WorkerLineMemo key={row.key} row={row} fitted={fitted} gap={gap} selected={row.key === selected} outdated={outdated} />
				))
			)}
			<Text wrap="truncate-end" bold>
				{pad}
				<Segments parts={segments(fitted, {kind: 'total', totals, shown: totals.count < listed}, gap, () => null)} dim={false} />
			</Text>
			<Text wrap="truncate-end" {...theme.text('muted')}>
				{pad}
				{[window, sort, totalsNote(totals, listed)].filter((part) => part !== null).join(' · ')}
			</Text>
		</>
	);
}

export const WorkerTable = memo(WorkerTableView);
