/**
 * The fleet table's columns: what each cell says for a rig row, the totals row and the line under it that says how
 * many rigs a column's total sums when it is not every rig ("· 2 of 5"). Widths are the minimum each needs; `drop`
 * says which go first on narrow terminals (the alert text, then when the rig was last seen, the last hour's history,
 * its pool, uptime, W, reject rate, H/W, the 60 s window, then the shares, °C, the 15 m and the 10 s rates and the
 * state; °C, H/W and W are there when some rig is on this machine, with its own readings); the
 * column the rows are sorted by is never dropped, and its heading carries the sort's arrow. The rig column always
 * stays. The rig and pool columns want the width of their longest text, and the history column 30 characters (2
 * minutes each); they get it where the terminal has room (at 200 columns names and pools show whole). The shares
 * column is as wide as its longest count written whole: shares are never shortened ("25 102/25 140").
 */
import {
	DASH,
	formatCelsius,
	formatDurationShort,
	formatHashesPerWatt,
	formatHashrate,
	formatInteger,
	formatPercent,
	formatWatts,
} from '../../../text/format.js';
import {fitColumns, tableGap, type Column, type FittedColumn} from '../../table/table.js';
import {columnsOf, type ColumnSpec} from '../../table/descriptor.js';
import {tableSorts, type TableSort} from '../../table/sort.js';
import {compareNames} from '../../table/name-order.js';
import type {StatusBadge} from '../../text/status.js';
import {hourCells} from './hours.js';
import type {ColumnTotal, FleetRow, FleetTotals} from './rows.js';
import {cutText, textWidth} from '../../widgets/wrap.js';

/** A cell source: a rig's row, the totals, or the line under the totals that says how many rigs each one sums. */
export type FleetLine =
	| {readonly kind: 'rig'; readonly row: FleetRow}
	/** `shown`: a filter hides rigs, so the totals sum only the rigs shown (the row says "shown", not "total"). */
	| {readonly kind: 'total'; readonly totals: FleetTotals; readonly shown?: boolean}
	| {readonly kind: 'counted'; readonly totals: FleetTotals};

function rate(line: FleetLine, window: 0 | 1 | 2, width: number): string {
	if (line.kind === 'counted') return countedNote(line.totals.windows[window], line.totals.miners, width);
	const value: number | null = line.kind === 'rig' ? (line.row.rates?.[window] ?? null) : line.totals.windows[window].sum;
	if (line.kind === 'rig' && line.row.rates === null) return DASH;
	return formatHashrate(value, {pad: true}).trimEnd();
}

/**
 * Under a column's total, how many rigs it sums when that is not every rig: "· 2 of 5" ("2 of 5", "2/5" where the
 * column is narrower); "" when it sums every rig, or none (its total is "—").
 */
export function countedNote(total: Pick<ColumnTotal, 'counted'>, count: number, width: number): string {
	if (total.counted === 0 || total.counted >= count) return '';
	const forms = [`· ${total.counted} of ${count}`, `${total.counted} of ${count}`, `${total.counted}/${count}`];
	return forms.find((form) => form.length <= width) ?? forms.at(-1) ?? '';
}

/** The shares column's least width: "9 999/9 999". */
const SHARES_WIDTH = 11;

/** "1 204/1 207", "25 102/25 140": whole, whatever their size (the column widens to fit them). */
export function formatShares(good: number | null, total: number | null): string {
	if (good === null || total === null) return DASH;
	return `${formatInteger(good)}/${formatInteger(total)}`;
}

/** The totals row's state cell: how many rigs answered their latest poll, "4/6 up" (with proxies, how many miners). */
export function totalsState(
	totals: Pick<FleetTotals, 'answered' | 'count'> & Partial<Pick<FleetTotals, 'proxies' | 'miners' | 'minersAnswered'>>,
): string {
	// With proxies the row is the miners' ("miners"): their count, none when only proxies are shown.
	if (totals.proxies !== undefined && totals.proxies.count > 0 && totals.miners !== undefined && totals.minersAnswered !== undefined) {
		return totals.miners === 0 ? DASH : `${totals.minersAnswered}/${totals.miners} up`;
	}

	return `${totals.answered}/${totals.count} up`;
}

/**
 * The totals row's rig cell: "total", "shown" under a filter; with proxies among the rigs (shown), "miners", since the
 * row sums the miners alone (a proxy's rate and shares are its miners'; the footer says when a filter is in force).
 */
export function totalsLabel(totals: Pick<FleetTotals, 'proxies'>, shown: boolean): string {
	if (totals.proxies.count === 0) return shown ? 'shown' : 'total';
	return 'miners';
}

/** A name or pool longer than this is cut even where there is room (one odd name must not take the table). */
const MAX_WANT = 40;

/** The rig column's full text: the name, and what tells it apart when another rig has the same name ("attic :18082"). */
export function rigLabel(row: Pick<FleetRow, 'name' | 'tag'>): string {
	return row.tag === null ? row.name : `${row.name} ${row.tag}`;
}

/** The rig column's whole text: the label, and the worker id beside it where known ("127.0.0.1:18081 (rig-01)"). */
export function rigCell(row: Pick<FleetRow, 'name' | 'tag' | 'worker'>): string {
	const label = rigLabel(row);
	return row.worker === null ? label : `${label} (${row.worker})`;
}

const tail = (text: string, width: number) => cutText(text, width, 'start');

/**
 * The rig column's text in `width` columns. The name goes before the worker id: the worker id is cut at its end in what
 * room the name leaves ("127.0.0.1:18081 (rig-…)"), and left out where not 3 cells of it fit.
 */
export function fitRigLabel(row: Pick<FleetRow, 'name' | 'where' | 'tag' | 'worker'>, width: number): string {
	const whole = rigCell(row);
	if (textWidth(whole) <= width) return whole;
	const label = fitName(row, width);
	const room = width - textWidth(label) - ' ()'.length;
	return row.worker === null || room < 3 ? label : `${label} (${cutText(row.worker, room)})`;
}

/**
 * The name and tag in `width` columns. A name that is an address (a rig the rigs file does not name) is cut at its
 * start, so that the port, which tells rigs on one host apart, stays: "…0.0.1:18081". A tagged rig keeps its tag whole
 * (or its end) after as much of its name as leaves room for it: "garage-ry… :18081".
 */
function fitName(row: Pick<FleetRow, 'name' | 'where' | 'tag'>, width: number): string {
	const label = rigLabel(row);
	if (textWidth(label) <= width) return label;
	if (row.name === row.where) return tail(row.name, width);
	if (row.tag === null) return label; // cut at its end by the table
	const keep = Math.min(textWidth(row.name), Math.max(3, width - 1 - textWidth(row.tag)));
	const name = cutText(row.name, keep);
	const room = width - textWidth(name) - 1;
	return room < 2 ? name : `${name} ${tail(row.tag, room)}`;
}

/**
 * What the rig and pool columns want: their longest text over every rig (not only those in view, so scrolling keeps
 * the widths); the shares column's width: its longest count over every rig and their total (`totals`, of every rig).
 */
export type FleetWants = {
	readonly rig: number;
	readonly pool: number;
	readonly shares?: number;
	/** Some rig is an xmrig-proxy: the table has a kind column, and its 60 s and pool columns say what a proxy's hold. */
	readonly proxies?: boolean;
	/** The kind column's longest text. */
	readonly kind?: number;
	/** Each proxy's workers (null: not said), whose forms the kind column's width follows. */
	readonly proxyWorkers?: readonly (number | null)[];
	/** The state column's longest text of a proxy ("no upstream"), where a proxy's is longer than a miner's words. */
	readonly state?: number;
	/** Some rig is on this machine with its own readings: the table has its °C, H/W and W columns. */
	readonly sensors?: boolean;
	/** The °C column's longest text ("96°C hot"). */
	readonly temp?: number;
};

/**
 * A local rig's °C cell: its hottest package's headline, with a word at its sensor's own limits ("96°C hot",
 * "106°C crit"), "—" where not read; "" for a rig on another machine (nothing is read there).
 */
export function tempCell(row: Pick<FleetRow, 'sensors'>): string {
	const sensors = row.sensors;
	if (sensors === null) return '';
	if (sensors.celsius === null) return DASH;
	const word = sensors.level === 'critical' ? ' crit' : sensors.level === 'max' ? ' hot' : '';
	return `${formatCelsius(sensors.celsius)}${word}`;
}

/** A local rig's W cell: "142 W"; "denied" where only root may read the power, "lost" where it stopped; "" elsewhere. */
export function wattsCell(row: Pick<FleetRow, 'sensors'>): string {
	const sensors = row.sensors;
	if (sensors === null) return '';
	if (sensors.power === 'denied' || sensors.power === 'lost') return sensors.power;
	return formatWatts(sensors.watts);
}

/** A local rig's H/W cell: "70.3 H/W", "—" where the power is not read; "" for a rig on another machine. */
export function efficiencyCell(row: Pick<FleetRow, 'sensors'>): string {
	return row.sensors === null ? '' : formatHashesPerWatt(row.sensors.hashesPerWatt);
}

/** The kind column's text for a rig: "miner"; a proxy with its workers, "proxy, 12 workers" (shorter forms where narrow). */
export function kindCell(row: Pick<FleetRow, 'kind' | 'workers'>, width = Number.POSITIVE_INFINITY): string {
	if (row.kind === 'miner') return 'miner';
	if (row.workers === null) return 'proxy';
	const count = formatInteger(row.workers);
	const forms = [`proxy, ${count} worker${row.workers === 1 ? '' : 's'}`, `proxy ${count} wk`, `proxy ${count}`, `px ${count}`];
	return forms.find((form) => form.length <= width) ?? forms.at(-1) ?? 'proxy';
}

export function fleetWants(rows: readonly FleetRow[], totals?: Pick<FleetTotals, 'good' | 'total' | 'sharesCounted'>): FleetWants {
	let rig = 0;
	let pool = 0;
	let kind = 0;
	let state = 0;
	let proxies = false;
	const proxyWorkers: (number | null)[] = [];
	let sensors = false;
	let temp = 0;
	let shares = totals && totals.sharesCounted > 0 ? formatShares(totals.good, totals.total).length : 0;
	for (const row of rows) {
		rig = Math.max(rig, textWidth(rigCell(row)));
		pool = Math.max(pool, textWidth((row.kind === 'proxy' ? row.upstream : row.pool) ?? ''));
		kind = Math.max(kind, kindCell(row).length);
		proxies ||= row.kind === 'proxy';
		if (row.kind === 'proxy') proxyWorkers.push(row.workers);
		if (row.kind === 'proxy') state = Math.max(state, row.state.length);
		shares = Math.max(shares, formatShares(row.good, row.total).length);
		sensors ||= row.sensors !== null;
		temp = Math.max(temp, tempCell(row).length);
	}

	const wants = {
		rig: Math.min(MAX_WANT, rig),
		pool: Math.min(MAX_WANT, pool),
		shares: Math.max(SHARES_WIDTH, shares),
		...(sensors ? {sensors, temp} : {}),
	};
	return proxies ? {...wants, proxies, kind, state, proxyWorkers} : wants;
}

/** The history column: at least 12 characters (5 minutes each), 30 where there is room (2 minutes each). */
const HOUR_WIDTH = 12;
const HOUR_WANT = 30;

/** What the columns read besides a line: the widths over every rig, and whether the table has the last-hour column. */
export type FleetContext = FleetWants & {readonly hours?: boolean};

/** Trouble first: the badge word's rank, a live rig with an open warning just before the quiet ones. */
const STATE_RANK: Readonly<Record<StatusBadge['word'], number>> = {
	error: 0,
	down: 1,
	stale: 2,
	'no pool': 3,
	PAUSED: 4,
	connecting: 6,
	live: 7,
	// The dashboard's own word (f); a fleet row never shows it.
	FROZEN: 7,
};

function stateRank(row: FleetRow): number {
	const rank = STATE_RANK[row.word];
	return row.word === 'live' && row.trouble ? 5 : rank;
}

const RATE_WORDS = ['lowest first', 'highest first'] as const;

/** A local rig's own readings (a remote rig's cells are blank): only in a fleet with one. */
const onThisMachine = (ctx: FleetContext) => ctx.sensors === true;

/**
 * The fleet's columns, in the order they stand. The sorts (order.ts): the state sort puts the rigs in trouble first
 * (htop's and btop's habit of putting what needs a look on top: error, down, stale… first), as the header's count
 * does; a value sort starts at its weak end (hashrate and uptime lowest first, rejects highest first).
 */
export const FLEET_COLUMNS: readonly ColumnSpec<FleetLine, FleetRow, FleetContext>[] = [
	{
		id: 'rig',
		header: 'rig',
		width: 10,
		want: (ctx) => ctx.rig,
		// The last hour, when it was seen and the alert text go before a name is cut.
		wantOver: 9,
		cell: (line, width) =>
			line.kind === 'rig' ? fitRigLabel(line.row, width) : line.kind === 'total' ? totalsLabel(line.totals, line.shown === true) : '',
		sort: {at: 8, words: ['name', 'a–z', 'z–a'], compare: (a, b) => compareNames(a.name, b.name) || compareNames(a.where, b.where)},
	},
	{
		id: 'state',
		header: 'state',
		width: 9,
		// A proxy's "no upstream" whole where there is room.
		want: (ctx) => ctx.state ?? 0,
		drop: 1,
		cell: (line) => (line.kind === 'rig' ? line.row.state : line.kind === 'total' ? totalsState(line.totals) : ''),
		sort: {at: 1, words: ['state', 'worst first', 'worst last'], falling: true, value: stateRank},
	},
	// With proxies: what kind of rig, and a proxy's workers; kept about as long as the state.
	{
		id: 'kind',
		// "proxy 12" under "kind/wk" where narrow ("proxy, 12 workers" where there is room).
		header: 'kind/wk',
		width: 8,
		want: (ctx) => ctx.kind ?? 0,
		// Its forms are a few widths: room between them is left to the pool's and the names' text.
		uses: (width, ctx) => Math.max(0, ...(ctx.proxyWorkers ?? []).map((workers) => kindCell({kind: 'proxy', workers}, width).length)),
		drop: 1.5,
		shown: (ctx) => ctx.proxies === true,
		cell: (line, width) => (line.kind === 'rig' ? kindCell(line.row, width) : ''),
	},
	{
		id: 'r10',
		header: '10s',
		width: 9,
		align: 'right',
		drop: 2,
		cell: (line, width) => rate(line, 0, width),
		// A proxy has no 10 s or 15 m window: it sorts by its 1 min and 10 min rates, the nearest it has.
		sort: {at: 2, words: ['10s', ...RATE_WORDS], value: (row) => (row.kind === 'proxy' ? row.rates?.[1] : row.rates?.[0]) ?? null},
	},
	{
		id: 'r60',
		// A proxy has no 60 s window: its 1 min rate shows here, and the heading says so (kept: it is a proxy's only rate).
		header: (ctx) => (ctx.proxies === true ? '60s/1m' : '60s'),
		width: 9,
		align: 'right',
		drop: (ctx) => (ctx.proxies === true ? 2.5 : 5),
		cell: (line, width) => rate(line, 1, width),
	},
	{
		id: 'r15',
		header: '15m',
		width: 9,
		align: 'right',
		drop: 3,
		cell: (line, width) => rate(line, 2, width),
		sort: {at: 3, words: ['15m', ...RATE_WORDS], value: (row) => (row.kind === 'proxy' ? row.proxyLong : row.rates?.[2]) ?? null},
	},
	// A local rig's own readings (a remote rig's cells are blank); the totals row leaves them blank: local rigs share
	// one machine's packages, so their watts do not add up.
	{
		id: 'temp',
		header: '°C',
		width: 6,
		want: (ctx) => ctx.temp ?? 0,
		align: 'right',
		drop: 3.5,
		shown: onThisMachine,
		cell: (line) => (line.kind === 'rig' ? tempCell(line.row) : ''),
		// The hottest first.
		sort: {
			at: 6,
			words: ['°C', 'hottest first', 'coolest first'],
			falling: true,
			value: (row) => (row.sensors?.celsius == null ? null : -row.sensors.celsius),
		},
	},
	{
		id: 'hpw',
		header: 'H/W',
		width: 8,
		align: 'right',
		drop: 5.5,
		shown: onThisMachine,
		cell: (line) => (line.kind === 'rig' ? efficiencyCell(line.row) : ''),
		// The least efficient first.
		sort: {at: 7, words: ['H/W', ...RATE_WORDS], help: 'H/W (rigs on this machine)', value: (row) => row.sensors?.hashesPerWatt ?? null},
	},
	{
		id: 'watts',
		header: 'W',
		width: 6,
		align: 'right',
		drop: 6.5,
		shown: onThisMachine,
		cell: (line) => (line.kind === 'rig' ? wattsCell(line.row) : ''),
	},
	{
		id: 'hour',
		header: 'last hour',
		width: HOUR_WIDTH,
		want: () => HOUR_WANT,
		drop: 9,
		shown: (ctx) => ctx.hours === true,
		cell: (line, width) => (line.kind === 'rig' ? hourCells(line.row.hour, width) : ''),
	},
	{
		id: 'shares',
		header: 'shares',
		width: (ctx) => Math.max(SHARES_WIDTH, ctx.shares ?? 0),
		align: 'right',
		drop: 4,
		cell: (line, width) =>
			line.kind === 'rig'
				? formatShares(line.row.good, line.row.total)
				: line.kind === 'counted'
					? countedNote({counted: line.totals.sharesCounted}, line.totals.miners, width)
					: line.totals.sharesCounted > 0
						? formatShares(line.totals.good, line.totals.total)
						: DASH,
	},
	{
		id: 'rej',
		header: 'rej',
		width: 5,
		align: 'right',
		drop: 6,
		cell: (line) =>
			line.kind === 'rig'
				? formatPercent(line.row.rejected, line.row.total)
				: line.kind === 'total'
					? formatPercent(line.totals.total - line.totals.good, line.totals.total)
					: '',
		// Highest rate first: sort on its negative. No shares yet: no rate.
		sort: {
			at: 4,
			words: ['rejects', 'most first', 'fewest first'],
			falling: true,
			value: (row) => (row.total === null || row.total === 0 || row.rejected === null ? null : -row.rejected / row.total),
		},
	},
	{
		id: 'pool',
		// A proxy's pools are its upstreams: "1/1 up", "error 1/2".
		header: (ctx) => (ctx.proxies === true ? 'pool/upstream' : 'pool'),
		width: (ctx) => (ctx.proxies === true ? 13 : 12),
		want: (ctx) => ctx.pool,
		drop: 8,
		cell: (line) => (line.kind === 'rig' ? ((line.row.kind === 'proxy' ? line.row.upstream : line.row.pool) ?? DASH) : ''),
	},
	{
		id: 'up',
		header: 'up',
		width: 4,
		align: 'right',
		drop: 7,
		cell: (line) => (line.kind === 'rig' ? formatDurationShort(line.row.uptime) : ''),
		sort: {at: 5, words: ['uptime', 'shortest first', 'longest first'], value: (row) => row.uptime ?? null},
	},
	{
		id: 'seen',
		header: 'seen',
		width: 8,
		align: 'right',
		drop: 10,
		cell: (line) => (line.kind === 'rig' ? line.row.seen : ''),
	},
	{
		id: 'alert',
		header: 'alert',
		width: 16,
		flex: true,
		drop: 11,
		cell: (line) => (line.kind === 'rig' ? (line.row.alert?.message ?? '') : ''),
	},
];

/** The fleet's sorts, read from its columns; the session's order is said on the rig column ("rig listed▲"). */
export const FLEET_SORTS = tableSorts(FLEET_COLUMNS, 'rig');

/** The columns; `hours`: the session keeps history, so the table has its last-hour column where the width allows. */
export function fleetColumns(
	wants: FleetWants = {rig: 0, pool: 0},
	hours = false,
	sort: TableSort | null = null,
): readonly Column<FleetLine>[] {
	// The column the rows are sorted by is never dropped, and says so: "10s▲".
	return columnsOf(FLEET_COLUMNS, {...wants, hours}, sort === null ? null : FLEET_SORTS.arrow(sort));
}

/** The gap between the fleet's columns: two spaces where the terminal is wide, else one. */
export function fleetGap(width: number): number {
	return tableGap(width);
}

/** The fleet's columns fitted to `width` columns of table (the terminal's, less the selection and alert marks). */
export function fitFleetColumns(
	wants: FleetWants,
	hours: boolean,
	sort: TableSort | null,
	width: number,
	gap: number,
): readonly FittedColumn<FleetLine>[] {
	return fitColumns(fleetColumns(wants, hours, sort), Math.max(1, width), gap);
}
