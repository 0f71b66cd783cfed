import {memo} from 'react';
import type {FittedColumn} from '../../table/table.js';
import {ListLine, ListTable, PREFIX_WIDTH, type RowProps} from '../../table/list-table.js';
import type {ThemeToken} from '../../text/theme.js';
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

function WorkerLineView({row, outdated, ...place}: RowProps<WorkerRow, WorkerLine> & {readonly outdated: boolean}) {
	const trouble = row.word === 'gone' || row.word === 'quiet';
	const tone = (id: string): ThemeToken | null => (id === 'state' ? row.tone : id === 'name' && trouble ? row.tone : null);
	return (
		<ListLine
			{...place}
			line={{kind: 'worker', row}}
			// Selection mark, then trouble mark: "▸!" — readable without colour.
			mark={`${place.selected ? '▸' : ' '}${trouble ? '!' : ' '}`}
			markTone={trouble ? row.tone : null}
			tone={tone}
			dim={outdated}
		/>
	);
}

const WorkerLineMemo = memo(WorkerLineView);

/** Column headings, one line per worker in view, the totals and the line that says what they sum. */
function WorkerTableView({rows, totals, listed, selected, fitted, gap, outdated, empty, window = null, sort = null}: WorkerTableProps) {
	return (
		<ListTable
			fitted={fitted}
			gap={gap}
			prefix={PREFIX_WIDTH}
			rows={rows.map((row) => (
				<WorkerLineMemo key={row.key} row={row} fitted={fitted} gap={gap} selected={row.key === selected} outdated={outdated} />
			))}
			empty={empty}
			totals={{kind: 'total', totals, shown: totals.count < listed}}
			note={[window, sort, totalsNote(totals, listed)].filter((part) => part !== null).join(' · ')}
		/>
	);
}

export const WorkerTable = memo(WorkerTableView);
