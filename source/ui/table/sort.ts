/**
 * A table's sorts, read from its column descriptors (descriptor.ts): the `s` cycle (the rows' own order, "as listed",
 * then each sortable column by its `at`), the title's words ("by 10s, lowest first"), the heading's arrow ("10s▲"),
 * the `s` key's help and the order of the rows. `/` keeps the rows whose search text holds the filter. A value sort
 * starts at its weak end, and a row without the value ("—": a down rig has no rate) is last in both directions, as in
 * htop; ties keep the rows' own order, so rows that sort the same never swap. Pure.
 */
import type {ColumnSpec, SortSpec} from './descriptor.js';
import type {SortMark} from './table.js';

/** A sort: the key (a sortable column's id, or 'listed': the rows' own order) and whether it is reversed. */
export type TableSort = {readonly key: string; readonly reversed: boolean};

/** The rows' own order (the session's, the proxy's list). */
export const LISTED_KEY = 'listed';

/** What a table's rows have for sorting and filtering: their place in the list, and what `/` matches (lower case). */
export type SortableRow = {readonly index: number; readonly search: string};

/** Whether a row holds the filter (case-insensitive; an empty filter holds for every row). */
export function matchesFilter(row: Pick<SortableRow, 'search'>, filter: string): boolean {
	const wanted = filter.trim().toLowerCase();
	return wanted === '' || row.search.includes(wanted);
}

export type TableSorts<Row, Ctx> = {
	/** The keys `s` goes through, 'listed' first. */
	readonly cycle: readonly string[];
	/** Whether `key` is a sort of this table (a remembered one is checked with it). */
	readonly has: (key: string) => boolean;
	/** The sort after this one, skipping the sorts whose column `ctx` does not show (without a ctx: none skipped). */
	readonly next: (sort: TableSort, ctx?: Ctx) => TableSort;
	/** The sort in force: one kept on a column `ctx` does not show is the rows' own order until it shows again. */
	readonly shown: (sort: TableSort, ctx: Ctx) => TableSort;
	/** The title's words: "by state, worst first"; null for the rows' own order. */
	readonly describe: (sort: TableSort) => string | null;
	/** The title's short words, where the long ones do not fit: "by 10s▲", "listed▼"; null for the rows' own order. */
	readonly describeShort: (sort: TableSort) => string | null;
	/** The column a sort is on and its arrow: ▲ when the values grow down the list, ▼ when they shrink. */
	readonly arrow: (sort: TableSort) => SortMark;
	/** The `s` key's help: "sort by the next column: state, 10s, …, name, as listed". */
	readonly help: string;
	/** The rows that hold the filter, in the order of the sort. */
	readonly order: <R extends Row & SortableRow>(rows: readonly R[], sort: TableSort, filter: string) => R[];
};

/** The sorts of a table whose own order is said on the column `listedOn` ("rig listed▲"). */
export function tableSorts<Line, Row, Ctx>(specs: readonly ColumnSpec<Line, Row, Ctx>[], listedOn: string): TableSorts<Row, Ctx> {
	const sortable = specs
		.filter((spec): spec is ColumnSpec<Line, Row, Ctx> & {readonly sort: SortSpec<Row>} => spec.sort !== undefined)
		.sort((a, b) => a.sort.at - b.sort.at);
	const byKey = new Map(sortable.map((spec) => [spec.id, spec]));
	const cycle = [LISTED_KEY, ...sortable.map((spec) => spec.id)];
	const available = (key: string, ctx: Ctx | undefined) => ctx === undefined || (byKey.get(key)?.shown?.(ctx) ?? true);
	const measure = (row: Row & SortableRow, sort: SortSpec<Row> | undefined): number | null =>
		sort === undefined ? row.index : sort.value ? sort.value(row) : 0;
	const compare = (a: Row & SortableRow, b: Row & SortableRow, sort: SortSpec<Row> | undefined): number => {
		if (sort?.compare) return sort.compare(a, b);
		const x = measure(a, sort) ?? 0;
		const y = measure(b, sort) ?? 0;
		return x < y ? -1 : x > y ? 1 : 0;
	};

	const describe = (sort: TableSort): string | null => {
		const spec = byKey.get(sort.key)?.sort;
		if (spec === undefined) return sort.reversed ? 'listed, last first' : null;
		const [what, natural, reversed] = spec.words;
		return `by ${what}, ${sort.reversed ? reversed : natural}`;
	};

	const arrow = (sort: TableSort): SortMark => {
		const spec = byKey.get(sort.key)?.sort;
		if (spec === undefined) return {column: listedOn, arrow: sort.reversed ? '▼' : '▲', word: 'listed'};
		return {column: sort.key, arrow: (spec.falling ?? false) !== sort.reversed ? '▼' : '▲'};
	};

	return {
		cycle,
		has: (key) => cycle.includes(key),
		next(sort, ctx) {
			const shown = cycle.filter((key) => available(key, ctx));
			const at = shown.indexOf(sort.key);
			// A sort not offered now (°C kept from a run with local rigs) goes on from where it stands in the whole cycle.
			const from = at >= 0 ? at : shown.filter((key) => cycle.indexOf(key) < cycle.indexOf(sort.key)).length - 1;
			return {key: shown[(from + 1) % shown.length] ?? LISTED_KEY, reversed: false};
		},
		shown: (sort, ctx) => (available(sort.key, ctx) ? sort : {key: LISTED_KEY, reversed: sort.reversed}),
		describe,
		describeShort(sort) {
			const long = describe(sort);
			if (long === null) return null;
			const mark = arrow(sort).arrow;
			return byKey.has(sort.key) ? `${long.slice(0, long.indexOf(','))}${mark}` : `listed${mark}`;
		},
		arrow,
		help: `sort by the next column: ${[...sortable.map((spec) => spec.sort.help ?? spec.sort.words[0]), 'as listed'].join(', ')}`,
		order(rows, sort, filter) {
			const kept = filter.trim() === '' ? [...rows] : rows.filter((row) => matchesFilter(row, filter));
			const spec = byKey.get(sort.key)?.sort;
			const direction = sort.reversed ? -1 : 1;
			const missing = (row: Row & SortableRow) => (spec !== undefined && spec.compare === undefined && measure(row, spec) === null ? 1 : 0);
			return kept.sort((a, b) => missing(a) - missing(b) || direction * compare(a, b, spec) || a.index - b.index);
		},
	};
}
