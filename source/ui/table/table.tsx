/**
 * A small table for live panes. Not @alcalzone/ink-table: that fork never truncates to the
 * terminal width (a wide row wraps and breaks the frame's height budget) and it hashes every row
 * with object-hash on each render to build keys, which a pane redrawn on every poll should not
 * pay for. Here columns have fixed widths fitted to the space given, columns
 * that do not fit are dropped by priority, each row is one pre-padded line cut at the edge, and
 * React keys come from the caller's stable row ids.
 */
import {Text} from 'ink';
import {useTheme} from '../text/theme.js';
import {padText, textWidth} from '../../text/cells.js';

export type Column<Row> = {
	readonly id: string;
	readonly header: string;
	/** Width in columns: the least it is given (the flexible column and one with `want` may get more). */
	readonly width: number;
	/**
	 * The width its content needs (the longest name, say), when that is more than `width`: spare width goes to
	 * such columns first, the one least likely to be dropped first, up to what each wants; the flexible column
	 * gets what is left after them.
	 */
	readonly want?: number;
	/**
	 * The width its text uses when given `width` (at most `width`): for a column whose text comes in a few forms ("proxy,
	 * 12 workers", "proxy 12 wk"), so room it cannot use is left to the next column that wants some. Default: all of it.
	 */
	readonly uses?: (width: number) => number;
	/**
	 * The columns of this drop rank and above go before this one is cut below its want: while any of them is shown,
	 * the column counts at its want (the fleet drops its history column before cutting the rigs' names).
	 */
	readonly wantOver?: number;
	readonly align?: 'left' | 'right';
	/** Takes whatever width is left over (at most one column should). */
	readonly flex?: boolean;
	/** When the table is too wide, the column with the highest number goes first; 0 = never dropped. */
	readonly drop?: number;
	/** The cell's text; `width` is what the column was given (a cell may cut itself smarter than at its end). */
	readonly cell: (row: Row, width: number) => string;
};

export type FittedColumn<Row> = {readonly column: Column<Row>; readonly width: number};

/** The columns that fit in `width` (with `gap` spaces between), and the width each gets. */
export function fitColumns<Row>(columns: readonly Column<Row>[], width: number, gap = 2): readonly FittedColumn<Row>[] {
	let kept = [...columns];
	const needs = (column: Column<Row>, list: readonly Column<Row>[]) =>
		column.wantOver !== undefined && list.some((other) => (other.drop ?? 0) >= (column.wantOver ?? 0))
			? Math.max(column.width, column.want ?? 0)
			: column.width;
	const total = (list: readonly Column<Row>[]) =>
		list.reduce((sum, column) => sum + needs(column, list), 0) + gap * Math.max(0, list.length - 1);
	while (total(kept) > width) {
		let victim: Column<Row> | null = null;
		for (const column of kept) {
			if ((column.drop ?? 0) > 0 && (victim === null || (column.drop ?? 0) > (victim.drop ?? 0))) victim = column;
		}

		if (victim === null) break;
		kept = kept.filter((column) => column !== victim);
	}

	let spare = Math.max(0, width - kept.reduce((sum, column) => sum + column.width, 0) - gap * Math.max(0, kept.length - 1));
	const widths = new Map(kept.map((column) => [column, column.width]));
	const growing = kept.filter((column) => (column.want ?? 0) > column.width).sort((a, b) => (a.drop ?? 0) - (b.drop ?? 0));
	for (const column of growing) {
		const offered = column.width + Math.min(spare, (column.want ?? 0) - column.width);
		const given = Math.max(column.width, Math.min(offered, column.uses?.(offered) ?? offered));
		widths.set(column, given);
		spare -= given - column.width;
	}

	return kept.map((column) => ({column, width: (widths.get(column) ?? column.width) + (column.flex ? spare : 0)}));
}

/** Where a table is sorted: the column's id, its arrow and a word for a sort with no column of its own ("listed"). */
export type SortMark = {readonly column: string; readonly arrow: '▲' | '▼'; readonly word?: string};

/** The column the rows are sorted by is never dropped, and says so in its heading: "10s▲", "rig listed▲". */
export function markSorted<Row>(columns: readonly Column<Row>[], sorted: SortMark | null): readonly Column<Row>[] {
	if (sorted === null) return columns;
	return columns.map((column) => {
		if (column.id !== sorted.column) return column;
		const header = sorted.word ? `${column.header} ${sorted.word}${sorted.arrow}` : `${column.header}${sorted.arrow}`;
		return {...column, header, width: Math.max(column.width, textWidth(header)), drop: 0};
	});
}

/** The gap between a table's columns: two spaces where the terminal is wide, else one (the fleet's, a proxy's workers). */
export function tableGap(width: number): number {
	return width >= 110 ? 2 : 1;
}

/** Pads or cuts `text` to exactly `width` terminal cells ("…" marks a cut; wrap.tsx, padText, measures in cells). */
export function fitCell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
	return padText(text, width, textWidth(text) > width ? 'left' : align);
}

function joinCells<Row>(fitted: readonly FittedColumn<Row>[], gap: number, text: (column: Column<Row>, width: number) => string): string {
	return fitted
		.map(({column, width}) => fitCell(text(column, width), width, column.align))
		.join(' '.repeat(gap))
		.trimEnd();
}

export type TableProps<Row> = {
	readonly columns: readonly Column<Row>[];
	readonly rows: readonly Row[];
	readonly rowKey: (row: Row) => string;
	readonly width: number;
	readonly gap?: number;
	/** Dim the rows (last-known values; only with colour). */
	readonly dim?: boolean;
};

/** A header line and one line per row, never wider than `width`. */
export function Table<Row>({columns, rows, rowKey, width, gap = 2, dim = false}: TableProps<Row>) {
	const theme = useTheme();
	const fitted = fitColumns(columns, width, gap);
	return (
		<>
			<Text wrap="truncate-end" bold {...theme.text('muted')}>
				{joinCells(fitted, gap, (column) => column.header)}
			</Text>
			{rows.map((row) => (
				<Text key={rowKey(row)} wrap="truncate-end" {...theme.dim(dim)}>
					{joinCells(fitted, gap, (column, cellWidth) => column.cell(row, cellWidth))}
				</Text>
			))}
		</>
	);
}
