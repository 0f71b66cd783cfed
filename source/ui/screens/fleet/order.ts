/**
 * Which rigs the fleet table shows, in which order: `/` keeps the rigs whose name, URL or pool holds
 * the filter; `s` cycles the sort column and `I` reverses it. The state sort puts the rigs in trouble
 * first (htop's and btop's habit of putting what needs a look on top: error, down, stale… first), as
 * the header's count does. A value sort starts at its weak end (hashrate and uptime lowest first,
 * rejects highest first), but a rig without the value ("—": a down rig has no rate) is last in both
 * directions, as in htop; the state sort is the one that shows a down rig on top. Ties keep the
 * session's order, so rigs that sort the same never swap. Pure: the reducer moves the selection
 * through the same order the view draws.
 */
import type {StatusBadge} from '../../status.js';
import type {FleetRow} from './rows.js';
import {compareNames} from '../../name-order.js';

/** 'listed': the session's order (the command line's, or the --rigs file's). */
export type FleetSortKey = 'listed' | 'state' | 'r10' | 'r15' | 'rej' | 'up' | 'temp' | 'hpw' | 'rig';

/** The order `s` goes through (°C and H/W only in a fleet with a rig on this machine: `nextSort`'s `sensors`). */
export const SORT_CYCLE: readonly FleetSortKey[] = ['listed', 'state', 'r10', 'r15', 'rej', 'up', 'temp', 'hpw', 'rig'];

/** The sorts on a local rig's own readings. */
const SENSOR_SORTS: ReadonlySet<FleetSortKey> = new Set(['temp', 'hpw']);

export type FleetSort = {readonly key: FleetSortKey; readonly reversed: boolean};

export const LISTED: FleetSort = {key: 'listed', reversed: false};

/** The sort after this one; without `sensors` (no rig on this machine has readings) the °C and H/W sorts are skipped. */
export function nextSort(sort: FleetSort, sensors = true): FleetSort {
	const cycle = sensors ? SORT_CYCLE : SORT_CYCLE.filter((key) => !SENSOR_SORTS.has(key));
	const at = cycle.indexOf(sort.key);
	// A sort not in the cycle (°C kept from a run with local rigs) goes on from where it stands in the whole cycle.
	const from = at >= 0 ? at : cycle.filter((key) => SORT_CYCLE.indexOf(key) < SORT_CYCLE.indexOf(sort.key)).length - 1;
	return {key: cycle[(from + 1) % cycle.length] ?? 'listed', reversed: false};
}

/**
 * The sort the table is in: a °C or H/W sort kept from a run with local rigs is the session's order while no rig has
 * those columns (no heading would carry its arrow, and every rig would tie); the kept sort comes back when one has.
 */
export function shownSort(sort: FleetSort, sensors: boolean): FleetSort {
	return sensors || !SENSOR_SORTS.has(sort.key) ? sort : {key: 'listed', reversed: sort.reversed};
}

/** The title's words for a sort: "by state, worst first"; null for the session's order. */
export function describeSort(sort: FleetSort): string | null {
	const words: Record<FleetSortKey, readonly [string, string, string]> = {
		listed: ['', 'as listed', 'listed, last first'],
		state: ['state', 'worst first', 'worst last'],
		r10: ['10s', 'lowest first', 'highest first'],
		r15: ['15m', 'lowest first', 'highest first'],
		rej: ['rejects', 'most first', 'fewest first'],
		up: ['uptime', 'shortest first', 'longest first'],
		temp: ['°C', 'hottest first', 'coolest first'],
		hpw: ['H/W', 'lowest first', 'highest first'],
		rig: ['name', 'a–z', 'z–a'],
	};
	const [what, natural, reversed] = words[sort.key];
	if (sort.key === 'listed') return sort.reversed ? reversed : null;
	return `by ${what}, ${sort.reversed ? reversed : natural}`;
}

/** The title's short words for a sort, where the long ones do not fit: "by 10s▲"; null for the session's order. */
export function describeSortShort(sort: FleetSort): string | null {
	const long = describeSort(sort);
	if (long === null) return null;
	const {arrow} = sortArrow(sort);
	return sort.key === 'listed' ? `listed${arrow}` : `${long.slice(0, long.indexOf(','))}${arrow}`;
}

/**
 * The column a sort is on and its arrow, for the column's heading ("10s▲"): ▲ when the values grow down the list
 * (lowest first, a–z, shortest first, the session's order), ▼ when they shrink (most rejects first, state worst
 * first). The session's order has no column of its own: the rig column, which always shows, says it ("rig listed▲").
 */
export function sortArrow(sort: FleetSort): {readonly column: string; readonly arrow: '▲' | '▼'; readonly word?: string} {
	if (sort.key === 'listed') return {column: 'rig', arrow: sort.reversed ? '▼' : '▲', word: 'listed'};
	// The columns whose natural order (the one `s` gives) has the largest value on top.
	const falling = sort.key === 'state' || sort.key === 'rej' || sort.key === 'temp';
	return {column: sort.key, arrow: falling !== sort.reversed ? '▼' : '▲'};
}

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

/** A number to sort on, smallest first; null where the row has none (not read yet, down, no shares, no sensor). */
function measure(row: FleetRow, key: FleetSortKey): number | null {
	switch (key) {
		case 'state':
			return stateRank(row);
		// A proxy has no 10 s or 15 m window: it sorts by its 1 min and 10 min rates, the nearest it has.
		case 'r10':
			return (row.kind === 'proxy' ? row.rates?.[1] : row.rates?.[0]) ?? null;
		case 'r15':
			return (row.kind === 'proxy' ? row.proxyLong : row.rates?.[2]) ?? null;
		case 'rej':
			// Highest rate first: sort on its negative. No shares yet: no rate.
			return row.total === null || row.total === 0 || row.rejected === null ? null : -row.rejected / row.total;
		case 'up':
			return row.uptime ?? null;
		// The hottest first, the least efficient first.
		case 'temp': {
			const celsius = row.sensors?.celsius ?? null;
			return celsius === null ? null : -celsius;
		}

		case 'hpw':
			return row.sensors?.hashesPerWatt ?? null;
		default:
			return row.index;
	}
}

function compare(a: FleetRow, b: FleetRow, key: FleetSortKey): number {
	if (key === 'rig') return compareNames(a.name, b.name) || compareNames(a.where, b.where);
	const x = measure(a, key) ?? 0;
	const y = measure(b, key) ?? 0;
	return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether a row holds the filter (case-insensitive; an empty filter holds for every row). */
export function matchesFilter(row: FleetRow, filter: string): boolean {
	const wanted = filter.trim().toLowerCase();
	return wanted === '' || row.search.includes(wanted);
}

/** The index of each row to show, in the order to show them. */
export function fleetOrder(rows: readonly FleetRow[], sort: FleetSort, filter: string): readonly number[] {
	const kept = filter.trim() === '' ? [...rows] : rows.filter((row) => matchesFilter(row, filter));
	const direction = sort.reversed ? -1 : 1;
	// A rig without the value sorted on ("—": not read yet, down, no shares, no sensor) is last either way, as in htop.
	const unread = (row: FleetRow) => (sort.key !== 'rig' && measure(row, sort.key) === null ? 1 : 0);
	kept.sort((a, b) => unread(a) - unread(b) || direction * compare(a, b, sort.key) || a.index - b.index);
	return kept.map((row) => row.index);
}
