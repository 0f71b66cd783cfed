/**
 * Which rigs the fleet table shows, in which order: `/` keeps the rigs whose name, URL or pool holds the filter; `s`
 * cycles the sort column and `I` reverses it. The sorts are the fleet's columns' (columns.ts: each sortable column's
 * descriptor holds its value, words and direction; ../../table/sort.ts reads them): the state sort puts the rigs in
 * trouble first, a value sort starts at its weak end, a rig without the value ("—") is last in both directions, as in
 * htop; ties keep the session's order. The °C and H/W sorts are offered while some rig is on this machine (their columns
 * are shown). Pure: the reducer moves the selection through the same order the view draws.
 */
import {LISTED_KEY, type TableSort} from '../../table/sort.js';
import {FLEET_SORTS} from './columns.js';
import type {FleetRow} from './rows.js';

/** A sortable column's id, or 'listed': the session's order (the command line's, or the --rigs file's). */
export type FleetSortKey = string;

/** The order `s` goes through (°C and H/W only in a fleet with a rig on this machine: `nextSort`'s `sensors`). */
export const SORT_CYCLE: readonly FleetSortKey[] = FLEET_SORTS.cycle;

export type FleetSort = TableSort;

export const LISTED: FleetSort = {key: LISTED_KEY, reversed: false};

/** The columns a fleet with (or without) a rig on this machine shows, as the sorts ask. */
const withSensors = (sensors: boolean) => ({rig: 0, pool: 0, sensors});

/** The sort after this one; without `sensors` (no rig on this machine has readings) the °C and H/W sorts are skipped. */
export function nextSort(sort: FleetSort, sensors = true): FleetSort {
	return FLEET_SORTS.next(sort, withSensors(sensors));
}

/**
 * The sort the table is in: a °C or H/W sort kept from a run with local rigs is the session's order while no rig has
 * those columns (no heading would carry its arrow, and every rig would tie); the kept sort comes back when one has.
 */
export function shownSort(sort: FleetSort, sensors: boolean): FleetSort {
	return FLEET_SORTS.shown(sort, withSensors(sensors));
}

/** The title's words for a sort: "by state, worst first"; null for the session's order. */
export const describeSort = FLEET_SORTS.describe;

/** The title's short words for a sort, where the long ones do not fit: "by 10s▲"; null for the session's order. */
export const describeSortShort = FLEET_SORTS.describeShort;

/** The column a sort is on and its arrow ("10s▲"); the session's order is said on the rig column ("rig listed▲"). */
export const sortArrow = FLEET_SORTS.arrow;

/** The index of each row to show, in the order to show them. */
export function fleetOrder(rows: readonly FleetRow[], sort: FleetSort, filter: string): readonly number[] {
	return FLEET_SORTS.order(rows, sort, filter).map((row) => row.index);
}
