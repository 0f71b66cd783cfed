import {memo, useMemo} from 'react';
import type {ThreadInfo} from '../../miner/model.js';
import {DASH, formatHashrate, formatRateIn, pickRateUnit, rateDecimals, type RateUnit} from '../../text/format.js';
import {Table, type Column} from '../table/table.js';
import {Line, Pane} from './pane.js';
import {BY_INDEX, describeThreadSort, sortThreads, type ThreadSort} from './thread-order.js';

export type ThreadsPaneProps = {
	readonly threads: readonly ThreadInfo[];
	/** First row shown. */
	readonly offset: number;
	/** Rows that fit. */
	readonly visibleRows: number;
	readonly width: number;
	readonly height: number;
	readonly outdated: boolean;
	/** What to say when there are no threads to show; default: the miner reports none. */
	readonly empty?: string;
	/** The column the rows are sorted by (s, I); default: the miner's order. */
	readonly sort?: ThreadSort;
};

function health(thread: ThreadInfo): string {
	const parts: string[] = [];
	if (thread.device) parts.push(thread.device);
	const h = thread.health;
	if (h) {
		if (h.temperature !== null) parts.push(`${Math.round(h.temperature)}°C`);
		if (h.power !== null) parts.push(`${Math.round(h.power)}W`);
		if (h.fan !== null) parts.push(`fan ${Math.round(h.fan)}`);
	}

	return parts.join(' ');
}

/**
 * One unit for the whole table when every backend's threads suit the same unit (then the title
 * names it and cells are bare numbers); null when they do not (a 300 H/s CPU thread next to a
 * 1.2 MH/s GPU), and each cell then carries its own unit.
 */
export function sharedThreadUnit(threads: readonly ThreadInfo[]): RateUnit | null {
	const units = new Set<RateUnit>();
	const backends = new Set(threads.map((thread) => thread.backend));
	for (const backend of backends) {
		units.add(pickRateUnit(threads.filter((thread) => thread.backend === backend).flatMap((thread) => thread.hashrate)));
	}

	const [only] = units;
	return units.size <= 1 ? (only ?? 'H/s') : null;
}

/** The sorted column's header: "10s▲" lowest first, "10s▼" highest first (unmarked in the miner's own order). */
function marked(header: string, id: string, sort: ThreadSort): string {
	if (id !== sort.key || describeThreadSort(sort) === null) return header;
	return `${header}${sort.reversed ? '▼' : '▲'}`;
}

function columnsFor(threads: readonly ThreadInfo[], unit: RateUnit | null, sort: ThreadSort): readonly Column<ThreadInfo>[] {
	const rate =
		unit === null
			? (window: 0 | 1 | 2) => (thread: ThreadInfo) => formatHashrate(thread.hashrate[window], {pad: true}).trimEnd()
			: (window: 0 | 1 | 2) => (thread: ThreadInfo) => formatRateIn(thread.hashrate[window], unit, {decimals: rateDecimals(unit)});
	const rateWidth = unit === null ? 9 : 8;
	const backends = new Set(threads.map((thread) => thread.backend));
	const hasDevices = threads.some((thread) => thread.device !== null || thread.health !== null);
	const columns: Column<ThreadInfo>[] = [];
	if (backends.size > 1) columns.push({id: 'backend', header: 'backend', width: 7, drop: 3, cell: (thread) => thread.backend});
	columns.push(
		{id: 'index', header: marked('#', 'index', sort), width: 3, align: 'right', cell: (thread) => String(thread.index)},
		{id: '10s', header: marked('10s', '10s', sort), width: rateWidth, align: 'right', cell: rate(0)},
		{id: '60s', header: marked('60s', '60s', sort), width: rateWidth, align: 'right', cell: rate(1)},
		{id: '15m', header: marked('15m', '15m', sort), width: rateWidth, align: 'right', cell: rate(2)},
		{
			id: 'intensity',
			header: 'intensity',
			width: 9,
			align: 'right',
			drop: 2,
			cell: (thread) => (thread.intensity === null ? DASH : String(thread.intensity)),
		},
		{
			id: 'affinity',
			header: 'affinity',
			width: 8,
			align: 'right',
			drop: 1,
			cell: (thread) => (thread.affinity === null ? DASH : String(thread.affinity)),
		},
	);
	if (hasDevices) columns.push({id: 'device', header: 'device', width: 6, flex: true, drop: 4, cell: health});
	return columns;
}

const rowKey = (thread: ThreadInfo) => `${thread.backend}:${thread.index}`;

/**
 * Per-thread rates in one shared unit (named in the title), intensity and affinity, and the GPU
 * device with its health where known. Scrolls when there are more threads than rows; sorted by a column (s, I).
 */
function ThreadsPaneView({threads, offset, visibleRows, width, height, outdated, empty, sort = BY_INDEX}: ThreadsPaneProps) {
	const unit = useMemo(() => sharedThreadUnit(threads), [threads]);
	const columns = useMemo(() => columnsFor(threads, unit, sort), [threads, unit, sort]);
	const ordered = useMemo(() => sortThreads(threads, sort), [threads, sort]);
	const count = threads.length;
	const shown = ordered.slice(offset, offset + Math.max(0, visibleRows));
	const notes: string[] = unit === null ? [] : [unit];
	const sortedBy = describeThreadSort(sort);
	if (sortedBy !== null && count > 1) notes.push(sortedBy);
	if (count > visibleRows && shown.length > 0) notes.push(`rows ${offset + 1}–${offset + shown.length} of ${count}`, '↑↓');
	return (
		<Pane
			title={`Threads ${count}`}
			note={notes.length > 0 ? `· ${notes.join(' · ')}` : ''}
			width={width}
			height={height}
			outdated={outdated}
		>
			{count === 0 ? (
				<Line tone="muted">{empty ?? 'this miner reports no per-thread rates'}</Line>
			) : (
				<Table columns={columns} rows={shown} rowKey={rowKey} width={Math.max(0, width - 4)} dim={outdated} />
			)}
		</Pane>
	);
}

export const ThreadsPane = memo(ThreadsPaneView);
