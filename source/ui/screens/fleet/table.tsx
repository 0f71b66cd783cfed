import {memo} from 'react';
import type {Severity} from '../../../monitor/types.js';
import {type FittedColumn} from '../../table/table.js';
import {ListLine, ListTable, prefixWidth, type RowProps} from '../../table/list-table.js';
import {segments} from '../../table/segments.js';
import type {ThemeToken} from '../../text/theme.js';
import type {FleetLine} from './columns.js';
import {tempTone} from '../../text/sensors.js';
import type {FleetRow, FleetTotals, RowSensors} from './rows.js';

export type FleetTableProps = {
	/** The rows in view (already windowed). */
	readonly rows: readonly FleetRow[];
	readonly totals: FleetTotals;
	/** The selected rig's index (-1: none). */
	readonly selected: number;
	/** The marked rigs (Space, *): a "*" on their rows. */
	readonly marked?: ReadonlySet<number>;
	/** The columns fitted to the terminal's width less the marks (fitFleetColumns), and the gap between them. */
	readonly fitted: Fitted;
	readonly gap: number;
	/** The line under the totals that says how many rigs a column's total sums ("· 2 of 5"). */
	readonly counted?: boolean;
	/** A filter hides rigs: the totals row sums the rigs shown and says "shown" instead of "total". */
	readonly filtered?: boolean;
	/** The line shown when there is no row (a filter that matches no rig). */
	readonly empty?: string;
};

const alertTone: Readonly<Record<Severity, ThemeToken>> = {info: 'info', warn: 'warn', error: 'error'};

type Fitted = readonly FittedColumn<FleetLine>[];

/** `marked` null: no rig is marked (no column for it). */
function RigLineView({row, marked, ...place}: RowProps<FleetRow, FleetLine> & {readonly marked: boolean | null}) {
	const alert = row.alert;
	// `!` is an open trouble; an alert with no all-clear (restarted) keeps its words a while, not the mark.
	const trouble = alert !== null && row.trouble;
	const tone = (id: string): ThemeToken | null => {
		if (id === 'state') return row.tone;
		if (id === 'alert' && alert) return alertTone[alert.severity];
		if (id === 'rig' && trouble) return alertTone[alert.severity];
		if (id === 'temp' && row.sensors?.level) return tempTone(row.sensors.level);
		if (id === 'watts' && row.sensors?.power === 'lost') return 'warn';
		return null;
	};

	return (
		<ListLine
			{...place}
			line={{kind: 'rig', row}}
			mark={`${place.selected ? '▸' : ' '}${marked === null ? '' : marked ? '*' : ' '}${trouble ? '!' : ' '}`}
			markTone={trouble ? alertTone[alert.severity] : marked ? 'accent' : null}
			tone={tone}
			dim={row.outdated}
		/>
	);
}

function sameSensors(a: RowSensors | null, b: RowSensors | null): boolean {
	if (a === null || b === null) return a === b;
	return (
		a.celsius === b.celsius && a.level === b.level && a.watts === b.watts && a.power === b.power && a.hashesPerWatt === b.hashesPerWatt
	);
}

function sameRow(a: FleetRow, b: FleetRow): boolean {
	return (
		a.index === b.index &&
		a.name === b.name &&
		a.where === b.where &&
		a.tag === b.tag &&
		a.worker === b.worker &&
		a.state === b.state &&
		a.tone === b.tone &&
		a.outdated === b.outdated &&
		a.kind === b.kind &&
		a.workers === b.workers &&
		a.upstream === b.upstream &&
		a.rates?.[0] === b.rates?.[0] &&
		a.rates?.[1] === b.rates?.[1] &&
		a.rates?.[2] === b.rates?.[2] &&
		a.good === b.good &&
		a.total === b.total &&
		a.rejected === b.rejected &&
		a.pool === b.pool &&
		a.uptime === b.uptime &&
		a.seen === b.seen &&
		a.alert === b.alert &&
		a.trouble === b.trouble &&
		a.hour === b.hour &&
		sameSensors(a.sensors, b.sensors)
	);
}

/** Redrawn only when something it shows changed (most rows, most seconds, nothing did). */
const RigLine = memo(
	RigLineView,
	(before, after) =>
		before.fitted === after.fitted &&
		before.gap === after.gap &&
		before.selected === after.selected &&
		before.marked === after.marked &&
		sameRow(before.row, after.row),
);

/** Whether any column shown has a total of fewer rigs than the table holds: the line under the totals says so. */
export function hasCountedLine(fitted: Fitted, totals: FleetTotals): boolean {
	const line: FleetLine = {kind: 'counted', totals};
	return fitted.some(({column, width}) => column.cell(line, width) !== '');
}

/** Column headings, one line per rig in view, the totals line and the line under it; never wider than the fitted columns. */
function FleetTableView({
	rows,
	totals,
	selected,
	marked,
	fitted,
	gap,
	counted = false,
	filtered = false,
	empty = 'no rigs',
}: FleetTableProps) {
	const marking = (marked?.size ?? 0) > 0;
	const note = counted
		? segments(fitted, {kind: 'counted', totals}, gap, () => null)
				.map((part) => part.text)
				.join('')
				.trimEnd()
		: null;
	return (
		<ListTable
			fitted={fitted}
			gap={gap}
			prefix={prefixWidth(marking)}
			rows={rows.map((row) => (
				<RigLine
					key={row.index}
					row={row}
					fitted={fitted}
					gap={gap}
					selected={row.index === selected}
					marked={marking ? (marked?.has(row.index) ?? false) : null}
				/>
			))}
			empty={empty}
			totals={{kind: 'total', totals, shown: filtered}}
			note={note}
		/>
	);
}

export const FleetTable = memo(FleetTableView);
