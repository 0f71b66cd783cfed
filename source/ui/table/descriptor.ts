/**
 * A table's columns as data: one descriptor per column holds its id, heading, width, drop rank and cell, and, for a
 * column the rows can be sorted by, the sort (its value, its words and its direction: sort.ts). What depends on the
 * rows on screen (the longest name, whether a proxy is among the rigs) is read from the table's context (`Ctx`), so a
 * table's descriptors are one constant list: the sort cycle, the sort's words, the heading's arrow and the `s` key's
 * help are read from the same list the cells are (sort.ts). The fleet and a proxy's workers are lists of these.
 */
import {markSorted, type Column, type SortMark} from './table.js';

/**
 * How a column sorts the rows. A value sort starts at its weak end (the lowest value first: `value` is negated for a
 * column whose weak end is its highest, as rejects); a row without the value ("—") is last in both directions.
 */
export type SortSpec<Row> = {
	/** Its place in the `s` cycle, lowest first (the cycle starts with the rows' own order, "as listed"). */
	readonly at: number;
	/** The title's words: what it sorts by ("10s"), the natural order's words ("lowest first") and the reversed's. */
	readonly words: readonly [what: string, natural: string, reversed: string];
	/** The natural order has the largest value on top (most rejects first, worst state first): the arrow points down. */
	readonly falling?: boolean;
	/** What the `s` key's help calls it, when not `what` ("H/W (rigs on this machine)"). */
	readonly help?: string;
	/** A number to sort on, smallest first; null where the row has none (last either way). */
	readonly value?: (row: Row) => number | null;
	/** Instead of a value: how two rows compare (names); no row lacks it. */
	readonly compare?: (a: Row, b: Row) => number;
};

/** A column: `Line` is what a cell reads (a row, the totals…), `Row` what the rows are sorted as, `Ctx` the context. */
export type ColumnSpec<Line, Row, Ctx> = {
	readonly id: string;
	readonly header: string | ((ctx: Ctx) => string);
	readonly width: number | ((ctx: Ctx) => number);
	readonly want?: (ctx: Ctx) => number;
	readonly uses?: (width: number, ctx: Ctx) => number;
	readonly wantOver?: number;
	readonly align?: 'left' | 'right';
	readonly flex?: boolean;
	readonly drop?: number | ((ctx: Ctx) => number);
	/** Whether the table has this column in this context (default: always); a sort on a column not shown is skipped. */
	readonly shown?: (ctx: Ctx) => boolean;
	readonly cell: (line: Line, width: number, ctx: Ctx) => string;
	readonly sort?: SortSpec<Row>;
};

const valueOf = <T, Ctx>(value: T | ((ctx: Ctx) => T), ctx: Ctx): T =>
	typeof value === 'function' ? (value as (ctx: Ctx) => T)(ctx) : value;

/** The renderer's columns (table.tsx) of the descriptors shown in `ctx`, the sorted one marked and kept. */
export function columnsOf<Line, Row, Ctx>(
	specs: readonly ColumnSpec<Line, Row, Ctx>[],
	ctx: Ctx,
	sorted: SortMark | null,
): readonly Column<Line>[] {
	const columns = specs
		.filter((spec) => spec.shown?.(ctx) ?? true)
		.map((spec): Column<Line> => {
			const {want, uses, drop} = spec;
			return {
				id: spec.id,
				header: valueOf(spec.header, ctx),
				width: valueOf(spec.width, ctx),
				...(want ? {want: want(ctx)} : {}),
				...(uses ? {uses: (width: number) => uses(width, ctx)} : {}),
				...(spec.wantOver === undefined ? {} : {wantOver: spec.wantOver}),
				...(spec.align ? {align: spec.align} : {}),
				...(spec.flex ? {flex: true} : {}),
				...(drop === undefined ? {} : {drop: valueOf(drop, ctx)}),
				cell: (line, width) => spec.cell(line, width, ctx),
			};
		});
	return markSorted(columns, sorted);
}
