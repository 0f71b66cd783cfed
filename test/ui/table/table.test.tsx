import {render} from '../helpers/ink-testing.js';
import {describe, expect, test} from 'vitest';
import {fitCell, fitColumns, Table, type Column} from '../../../source/ui/table/table.js';

type Row = {readonly id: number; readonly name: string; readonly value: string};

const columns: readonly Column<Row>[] = [
	{id: 'id', header: '#', width: 3, align: 'right', cell: (row) => String(row.id)},
	{id: 'value', header: 'value', width: 8, align: 'right', cell: (row) => row.value},
	{id: 'extra', header: 'extra', width: 10, drop: 1, cell: () => 'x'},
	{id: 'name', header: 'name', width: 6, flex: true, drop: 2, cell: (row) => row.name},
];

describe('fitColumns', () => {
	test('the flexible column takes the spare width', () => {
		const fitted = fitColumns(columns, 60);
		expect(fitted.map((entry) => entry.width)).toEqual([3, 8, 10, 6 + 60 - 33]);
	});

	test('columns are dropped by priority until the rest fits', () => {
		expect(fitColumns(columns, 30).map((entry) => entry.column.id)).toEqual(['id', 'value', 'extra']);
		expect(fitColumns(columns, 15).map((entry) => entry.column.id)).toEqual(['id', 'value']);
		expect(fitColumns(columns, 5).map((entry) => entry.column.id)).toEqual(['id', 'value']);
	});

	test('a column whose text comes in a few widths takes only what its text uses; the rest goes on (issue 35: a pool cut beside spaces)', () => {
		const forms = [11, 17];
		const wanting: readonly Column<Row>[] = [
			{
				id: 'kind',
				header: 'kind',
				width: 8,
				want: 17,
				drop: 1,
				uses: (width) => Math.max(...forms.filter((form) => form <= width), 0),
				cell: () => '',
			},
			{id: 'pool', header: 'pool', width: 12, want: 20, drop: 8, cell: () => ''},
		];
		// 8 to spare: "proxy 12 wk" (11) in the kind column, the 5 columns it could not use to the pool.
		expect(fitColumns(wanting, 8 + 12 + 1 + 8, 1).map((entry) => entry.width)).toEqual([11, 17]);
		// Room for the long form: it takes it.
		expect(fitColumns(wanting, 8 + 12 + 1 + 17, 1).map((entry) => entry.width)).toEqual([17, 20]);
	});

	test('spare width goes to the columns whose content wants more, the one least likely to be dropped first, then to the flexible one', () => {
		const wanting: readonly Column<Row>[] = [
			{id: 'name', header: 'name', width: 6, want: 20, cell: (row) => row.name},
			{id: 'value', header: 'value', width: 8, cell: (row) => row.value},
			{id: 'pool', header: 'pool', width: 6, want: 16, drop: 1, cell: () => ''},
			{id: 'note', header: 'note', width: 4, flex: true, drop: 2, cell: () => ''},
		];
		// The minimum is 6 + 8 + 6 + 4 + 3 gaps = 27.
		expect(fitColumns(wanting, 27, 1).map((entry) => entry.width)).toEqual([6, 8, 6, 4]);
		expect(fitColumns(wanting, 35, 1).map((entry) => entry.width)).toEqual([14, 8, 6, 4]);
		expect(fitColumns(wanting, 45, 1).map((entry) => entry.width)).toEqual([20, 8, 10, 4]);
		expect(fitColumns(wanting, 80, 1).map((entry) => entry.width)).toEqual([20, 8, 16, 4 + 80 - 51]);
	});

	test('a column with wantOver is not cut below its want while a column of that drop rank or above is shown', () => {
		const wanting: readonly Column<Row>[] = [
			{id: 'name', header: 'name', width: 6, want: 20, wantOver: 2, cell: (row) => row.name},
			{id: 'value', header: 'value', width: 8, cell: (row) => row.value},
			{id: 'pool', header: 'pool', width: 6, drop: 1, cell: () => ''},
			{id: 'history', header: 'history', width: 10, drop: 2, cell: () => ''},
		];
		// 20 + 8 + 6 + 10 + 3 gaps = 47: all, the name whole.
		expect(fitColumns(wanting, 47, 1).map((entry) => [entry.column.id, entry.width])).toEqual([
			['name', 20],
			['value', 8],
			['pool', 6],
			['history', 10],
		]);
		// One less: the history goes rather than the name being cut; the name still gets its want from the spare.
		expect(fitColumns(wanting, 46, 1).map((entry) => [entry.column.id, entry.width])).toEqual([
			['name', 20],
			['value', 8],
			['pool', 6],
		]);
		// Columns below that rank are kept at the name's expense.
		expect(fitColumns(wanting, 30, 1).map((entry) => [entry.column.id, entry.width])).toEqual([
			['name', 14],
			['value', 8],
			['pool', 6],
		]);
	});
});

describe('fitCell', () => {
	test('pads, aligns and cuts with an ellipsis', () => {
		expect(fitCell('ab', 5)).toBe('ab   ');
		expect(fitCell('ab', 5, 'right')).toBe('   ab');
		expect(fitCell('abcdef', 4)).toBe('abc…');
		expect(fitCell('abc', 0)).toBe('');
	});
});

describe('Table', () => {
	test('renders a header and one line per row, never wider than asked', () => {
		const rows: Row[] = [
			{id: 0, name: 'a very long device name that does not fit', value: '301.2'},
			{id: 1, name: 'short', value: '—'},
		];
		const {lastFrame} = render(<Table columns={columns} rows={rows} rowKey={(row) => String(row.id)} width={40} />);
		const lines = (lastFrame() ?? '').split('\n');
		expect(lines).toHaveLength(3);
		expect(lines[0]).toBe('  #     value  extra       name');
		expect(lines[1]).toBe('  0     301.2  x           a very long…');
		expect(lines[2]).toBe('  1         —  x           short');
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
	});
});
