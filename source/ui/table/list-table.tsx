/**
 * A table a user moves through (the fleet's rigs, a proxy's workers): the headings, one line per row in view with its
 * marks before it (the selection "▸", a mark "*", trouble "!": readable without colour), the totals line and a muted
 * line under it. Each row is a few segments (panes/segments.tsx) and is redrawn only when what it shows changed: the
 * screen memoizes its row component.
 */
import {Text} from 'ink';
import type {ReactNode} from 'react';
import {headingsOf, segments, Segments} from './segments.js';
import {useTheme, type ThemeToken} from '../text/theme.js';
import type {FittedColumn} from './table.js';

/** Selection mark, then alert mark: "▸!" — both readable without colour. */
export const PREFIX_WIDTH = 2;

/** The marks before a row: with some row marked (Space), a column for it between the two: "▸*!". */
export function prefixWidth(marking: boolean): number {
	return marking ? PREFIX_WIDTH + 1 : PREFIX_WIDTH;
}

/** What a screen's row component takes: its row, the columns fitted, the gap, whether it is selected. */
export type RowProps<Row, Line> = {
	readonly row: Row;
	readonly fitted: readonly FittedColumn<Line>[];
	readonly gap: number;
	readonly selected: boolean;
};

export type ListLineProps<Line> = {
	readonly line: Line;
	readonly fitted: readonly FittedColumn<Line>[];
	readonly gap: number;
	readonly selected: boolean;
	/** The marks before the cells ("▸*!"), and their tone. */
	readonly mark: string;
	readonly markTone: ThemeToken | null;
	/** A cell's tone by its column's id (null: plain). */
	readonly tone: (id: string) => ThemeToken | null;
	/** Dim the plain cells (last-known values). */
	readonly dim: boolean;
};

/** One row: its marks, then its cells; inverse and bold while selected. */
export function ListLine<Line>({line, fitted, gap, selected, mark, markTone, tone, dim}: ListLineProps<Line>) {
	const theme = useTheme();
	return (
		<Text wrap="truncate-end" inverse={selected && theme.color} bold={selected}>
			<Text {...(markTone ? theme.text(markTone) : {})}>{mark}</Text>
			<Segments parts={segments(fitted, line, gap, tone)} dim={dim} />
		</Text>
	);
}

export type ListTableProps<Line> = {
	readonly fitted: readonly FittedColumn<Line>[];
	readonly gap: number;
	/** The width of the marks before each line. */
	readonly prefix: number;
	/** The lines of the rows in view, drawn (ListLine); none: the `empty` line. */
	readonly rows: readonly ReactNode[];
	readonly empty: string;
	/** The totals line's source. */
	readonly totals: Line;
	/** The muted line under the totals; null: none. */
	readonly note: string | null;
};

/** Column headings, one line per row in view (or the empty line), the totals and the note under them. */
export function ListTable<Line>({fitted, gap, prefix, rows, empty, totals, note}: ListTableProps<Line>) {
	const theme = useTheme();
	const pad = ' '.repeat(prefix);
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
				rows
			)}
			<Text wrap="truncate-end" bold>
				{pad}
				<Segments parts={segments(fitted, totals, gap, () => null)} dim={false} />
			</Text>
			{note === null ? null : (
				<Text wrap="truncate-end" {...theme.text('muted')}>
					{pad}
					{note}
				</Text>
			)}
		</>
	);
}
