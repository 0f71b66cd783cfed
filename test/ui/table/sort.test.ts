/**
 * One table module: a sortable column is one descriptor. The `s` cycle, the title's words, the heading's arrow, the
 * order of the rows and the `s` key's help are read from the descriptors, for a made-up table as for the fleet's and a
 * proxy's workers (whose `s` help in the keymap is the one their columns give).
 */
import {describe, expect, test} from 'vitest';
import {SCREEN_KEYMAP, SORT_BY_COLUMN} from '../../../source/ui/keys/bindings.js';
import type {HelpEntry} from '../../../source/ui/keys/matcher.js';
import {keysMarkdown} from '../../../source/ui/keys/reference.js';
import {fleetHelp} from '../../../source/ui/screens/fleet/availability.js';
import {proxyHelp} from '../../../source/ui/screens/proxy/availability.js';
import {FLEET_SORTS} from '../../../source/ui/screens/fleet/columns.js';
import {WORKER_SORTS} from '../../../source/ui/screens/proxy/columns.js';
import {columnsOf, type ColumnSpec} from '../../../source/ui/table/descriptor.js';
import {tableSorts} from '../../../source/ui/table/sort.js';

type Row = {readonly index: number; readonly search: string; readonly name: string; readonly heat: number | null};
type Ctx = {readonly hot: boolean};

const COLUMNS: readonly ColumnSpec<Row, Row, Ctx>[] = [
	{
		id: 'name',
		header: 'name',
		width: 6,
		cell: (row) => row.name,
		sort: {at: 2, words: ['name', 'a–z', 'z–a'], compare: (a, b) => a.name.localeCompare(b.name)},
	},
	{id: 'note', header: 'note', width: 4, cell: () => ''},
	{
		id: 'heat',
		header: (ctx) => (ctx.hot ? 'heat!' : 'heat'),
		width: 5,
		shown: (ctx) => ctx.hot,
		cell: (row) => String(row.heat ?? '—'),
		sort: {
			at: 1,
			words: ['heat', 'hottest first', 'coolest first'],
			falling: true,
			help: 'heat (hot rows)',
			value: (row) => (row.heat === null ? null : -row.heat),
		},
	},
];

const rows: readonly Row[] = [
	{index: 0, search: 'b', name: 'b', heat: 40},
	{index: 1, search: 'a', name: 'a', heat: null},
	{index: 2, search: 'c', name: 'c', heat: 90},
];

describe('a table read from its column descriptors', () => {
	const sorts = tableSorts(COLUMNS, 'name');

	test('the cycle, the words, the arrow and the help come from the sortable columns, by their place', () => {
		expect(sorts.cycle).toEqual(['listed', 'heat', 'name']);
		expect(sorts.help).toBe('sort by the next column: heat (hot rows), name, as listed');
		expect(sorts.describe({key: 'heat', reversed: false})).toBe('by heat, hottest first');
		expect(sorts.describe({key: 'listed', reversed: true})).toBe('listed, last first');
		expect(sorts.describeShort({key: 'heat', reversed: true})).toBe('by heat▲');
		expect(sorts.arrow({key: 'heat', reversed: false})).toEqual({column: 'heat', arrow: '▼'});
		expect(sorts.arrow({key: 'listed', reversed: false})).toEqual({column: 'name', arrow: '▲', word: 'listed'});
	});

	test("a sort whose column is not shown is skipped by `s`, and kept as the rows' own order until it shows", () => {
		expect(sorts.next({key: 'listed', reversed: false}, {hot: false})).toEqual({key: 'name', reversed: false});
		expect(sorts.next({key: 'listed', reversed: false}, {hot: true})).toEqual({key: 'heat', reversed: false});
		expect(sorts.shown({key: 'heat', reversed: true}, {hot: false})).toEqual({key: 'listed', reversed: true});
		expect(columnsOf(COLUMNS, {hot: false}, null).map((column) => column.id)).toEqual(['name', 'note']);
		const marked = columnsOf(COLUMNS, {hot: true}, sorts.arrow({key: 'heat', reversed: false}));
		expect(marked.map((column) => column.header)).toEqual(['name', 'note', 'heat!▼']);
	});

	test('rows without the value are last both ways; the filter keeps what it holds', () => {
		expect(sorts.order(rows, {key: 'heat', reversed: false}, '').map((row) => row.name)).toEqual(['c', 'b', 'a']);
		expect(sorts.order(rows, {key: 'heat', reversed: true}, '').map((row) => row.name)).toEqual(['b', 'c', 'a']);
		expect(sorts.order(rows, {key: 'name', reversed: true}, ' B ').map((row) => row.name)).toEqual(['b']);
	});

	test("the `s` help on the fleet and a proxy's workers is what their columns say: in the `?` help and the readme", () => {
		const sortOf = (entries: readonly HelpEntry[]) => entries.find((entry) => entry.keys === 's')?.description;
		expect(sortOf(fleetHelp({refreshAll: true, chart: true, events: true}))).toBe(FLEET_SORTS.help);
		const proxy = {refresh: true, config: true, chart: true, events: true, back: true};
		expect(sortOf(proxyHelp(proxy, false))).toBe(WORKER_SORTS.help);
		const markdown = keysMarkdown({fleet: FLEET_SORTS.help, proxy: WORKER_SORTS.help}).split('\n');
		expect(markdown.find((row) => row.startsWith('| fleet |'))).toContain(`\`s\` ${FLEET_SORTS.help} ·`);
		expect(markdown.find((row) => row.startsWith('| proxy '))).toContain(`\`s\` ${WORKER_SORTS.help} ·`);
		// The keymap itself names no column: a new one is a descriptor, not a line here.
		const keymapSort = SCREEN_KEYMAP.bindings.find((binding) => binding.command === 'sort' && binding.contexts.includes('fleet'));
		expect(keymapSort?.description).toBe(SORT_BY_COLUMN);
	});
});
