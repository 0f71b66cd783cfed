import {Text} from 'ink';
import {memo, useMemo} from 'react';
import type {Severity} from '../../monitor/types.js';
import {fitCell, fitColumns, type FittedColumn} from '../table.js';
import {useTheme, type ThemeToken} from '../theme.js';
import {fleetColumns, type FleetLine, type FleetWants} from './fleet-columns.js';
import type {FleetRow, FleetTotals} from './fleet-rows.js';

export type FleetTableProps = {
	/** The rows in view (already windowed). */
	readonly rows: readonly FleetRow[];
	readonly totals: FleetTotals;
	/** The selected rig's index (-1: none). */
	readonly selected: number;
	readonly width: number;
	readonly now: number;
	/** What the rig and pool columns want (their longest text over every rig). */
	readonly wants?: FleetWants;
	/** The line shown when there is no row (a filter that matches no rig). */
	readonly empty?: string;
	/** The session keeps history: the last-hour column, where the width allows. */
	readonly hours?: boolean;
};

/** Selection mark, then alert mark: "▸!" — both readable without colour. */
const PREFIX_WIDTH = 2;

const alertTone: Readonly<Record<Severity, ThemeToken>> = {info: 'info', warn: 'warn', error: 'error'};

type Fitted = readonly FittedColumn<FleetLine>[];

/** Cells whose colour can differ from the rest of the row. */
const TONED = new Set(['rig', 'state', 'alert']);

type Segment = {readonly text: string; readonly tone: ThemeToken | null; readonly plain: boolean};

/**
 * The row as a few segments: each toned cell on its own, the plain cells between them joined into
 * one string. A row is then a handful of Text nodes, not one per cell (layout cost per redraw).
 */
function segments(fitted: Fitted, line: FleetLine, gap: number, tone: (id: string) => ThemeToken | null): readonly Segment[] {
	const out: Segment[] = [];
	let plain = '';
	fitted.forEach(({column, width}, index) => {
		const text = `${index === 0 ? '' : ' '.repeat(gap)}${fitCell(column.cell(line, width), width, column.align)}`;
		const token = TONED.has(column.id) ? tone(column.id) : null;
		if (token === null) {
			plain += text;
			return;
		}

		if (plain !== '') out.push({text: plain, tone: null, plain: true});
		plain = '';
		out.push({text, tone: token, plain: false});
	});
	if (plain !== '') out.push({text: plain.trimEnd(), tone: null, plain: true});
	return out;
}

function Segments({parts, dim}: {parts: readonly Segment[]; dim: boolean}) {
	const theme = useTheme();
	return (
		<>
			{parts.map((part, index) => (
				<Text key={index} {...(part.tone ? theme.text(part.tone) : {})} {...theme.dim(dim && part.plain)}>
					{part.text}
				</Text>
			))}
		</>
	);
}

function RigLineView({row, fitted, gap, selected}: {row: FleetRow; fitted: Fitted; gap: number; selected: boolean}) {
	const theme = useTheme();
	const alert = row.alert;
	const trouble = alert !== null && alert.severity !== 'info';
	const tone = (id: string): ThemeToken | null => {
		if (id === 'state') return row.tone;
		if (id === 'alert' && alert) return alertTone[alert.severity];
		if (id === 'rig' && trouble) return alertTone[alert.severity];
		return null;
	};

	const mark = `${selected ? '▸' : ' '}${trouble ? '!' : ' '}`;
	return (
		<Text wrap="truncate-end" inverse={selected && theme.color} bold={selected}>
			<Text {...(trouble ? theme.text(alertTone[alert.severity]) : {})}>{mark}</Text>
			<Segments parts={segments(fitted, {kind: 'rig', row}, gap, tone)} dim={row.outdated} />
		</Text>
	);
}

function sameRow(a: FleetRow, b: FleetRow): boolean {
	return (
		a.index === b.index &&
		a.name === b.name &&
		a.where === b.where &&
		a.tag === b.tag &&
		a.state === b.state &&
		a.tone === b.tone &&
		a.outdated === b.outdated &&
		a.rates?.[0] === b.rates?.[0] &&
		a.rates?.[1] === b.rates?.[1] &&
		a.rates?.[2] === b.rates?.[2] &&
		a.good === b.good &&
		a.total === b.total &&
		a.rejected === b.rejected &&
		a.pool === b.pool &&
		a.uptime === b.uptime &&
		a.lastSeenAt === b.lastSeenAt &&
		a.alert === b.alert &&
		a.hour === b.hour
	);
}

/** Redrawn only when something it shows changed (most rows, most seconds, nothing did). */
const RigLine = memo(
	RigLineView,
	(before, after) =>
		before.fitted === after.fitted && before.gap === after.gap && before.selected === after.selected && sameRow(before.row, after.row),
);

/** Column headings, one line per rig in view, and the totals line; never wider than `width`. */
function FleetTableView({rows, totals, selected, width, now, wants, empty = 'no rigs', hours = false}: FleetTableProps) {
	const theme = useTheme();
	const gap = width >= 110 ? 2 : 1;
	const rigWant = wants?.rig ?? 0;
	const poolWant = wants?.pool ?? 0;
	const fitted = useMemo(
		() => fitColumns(fleetColumns(now, {rig: rigWant, pool: poolWant}, hours), Math.max(1, width - PREFIX_WIDTH), gap),
		[now, width, gap, rigWant, poolWant, hours],
	);
	const headings = fitted.map(({column, width: cellWidth}) => fitCell(column.header, cellWidth, column.align)).join(' '.repeat(gap));
	return (
		<>
			<Text wrap="truncate-end" bold {...theme.text('muted')}>
				{' '.repeat(PREFIX_WIDTH)}
				{headings.trimEnd()}
			</Text>
			{rows.length === 0 ? (
				<Text wrap="truncate-end" {...theme.text('muted')}>
					{' '.repeat(PREFIX_WIDTH)}
					{empty}
				</Text>
			) : (
				rows.map((row) => <RigLine key={row.index} row={row} fitted={fitted} gap={gap} selected={row.index === selected} />)
			)}
			<Text wrap="truncate-end" bold>
				{' '.repeat(PREFIX_WIDTH)}
				<Segments parts={segments(fitted, {kind: 'total', totals}, gap, () => null)} dim={false} />
			</Text>
		</>
	);
}

export const FleetTable = memo(FleetTableView);
