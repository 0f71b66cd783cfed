/**
 * The fleet's fitted columns are kept while what they are fitted for is the same (frame.ts): that includes each
 * proxy's worker count, which the kind column's room follows (columns.ts, its `uses`), and so the pool's.
 */
import {expect, test} from 'vitest';
import {fitFleetColumns, fleetGap, type FleetWants} from '../../../../source/ui/screens/fleet/columns.js';
import {fleetFrame, type FleetEnv} from '../../../../source/ui/screens/fleet/frame.js';
import {LISTED} from '../../../../source/ui/screens/fleet/order.js';
import {fleetTotals} from '../../../../source/ui/screens/fleet/rows.js';
import {prefixWidth} from '../../../../source/ui/table/list-table.js';

const widths = (fitted: ReturnType<typeof fitFleetColumns>) => fitted.map(({column, width}) => `${column.id} ${width}`);

test("a proxy's worker count changing refits the columns, though no column's longest text changed", () => {
	const columns = 118;
	const base = {rig: 12, pool: 30, shares: 5, proxies: true, kind: 17, state: 11};
	// "proxy, 1 worker" fits a kind column of 15 where "proxy, 9 workers" does not ("proxy 9 wk"): the pool gets the rest.
	const before: FleetWants = {...base, proxyWorkers: [1, 10]};
	const after: FleetWants = {...base, proxyWorkers: [9, 10]};
	const env = (wants: FleetWants): FleetEnv => ({
		rows: [],
		states: [],
		now: 0,
		totals: fleetTotals([], 0, []),
		wants,
		hours: false,
		size: {columns, rows: 30},
		given: {refreshAll: true, chart: true, events: true},
	});
	const fresh = widths(fitFleetColumns(after, false, LISTED, columns - prefixWidth(false), fleetGap(columns)));
	expect(fresh).not.toEqual(widths(fitFleetColumns(before, false, LISTED, columns - prefixWidth(false), fleetGap(columns))));
	fleetFrame(LISTED, '', env(before));
	expect(widths(fleetFrame(LISTED, '', env(after)).fitted)).toEqual(fresh);
});
