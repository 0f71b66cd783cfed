/**
 * The proxy screen's environment (what it reads but does not own) and the frame a state makes of it: the proxy's
 * summary lines, the workers in order, the columns fitted, the totals of the workers shown and where each part goes.
 * The view draws this frame; the reducer reads its page size and how far its help scrolls from the same function, so a
 * key moves by the page on screen. Like the fleet's, the frame never uses more than rows - 1 lines: the summary, the
 * column headings, the totals and the line saying what they sum, and the footer always show, the workers take the rest
 * and scroll; lines the workers do not need go to the newest events (the proxy's own and its workers'), so the frame
 * fills the terminal and the key help sits on its last line, as on the fleet.
 */
import type {MinerSnapshot, ProxyInfo} from '../../../miner/model.js';
import type {TerminalSize} from '../../hooks/use-terminal-size.js';
import {isTooSmall} from '../layout.js';
import {helpMaxOffset} from '../../panes/help-overlay.js';
import {PREFIX_WIDTH} from '../../table/list-table.js';
import {tableGap, type FittedColumn} from '../../table/table.js';
import {proxyHelp, type ProxyGiven} from './availability.js';
import {fitWorkerColumns, workerWants, type WorkerLine} from './columns.js';
import {workerOrder, type WorkerSort} from './order.js';
import {workerTotals, type WorkerRow, type WorkerTotals} from './rows.js';
import {summaryLines, type SummaryLine} from './summary.js';

/** What the proxy screen reads but does not own, as in the frame on screen. */
export type ProxyEnv = {
	/** The proxy's last read (the screen shows only while there is one). */
	readonly snapshot: MinerSnapshot;
	readonly proxy: ProxyInfo;
	/** Every worker listed, in the proxy's order, as drawn now. */
	readonly rows: readonly WorkerRow[];
	readonly now: number;
	readonly size: TerminalSize;
	readonly given: ProxyGiven;
};

export type ProxyLayout = {
	readonly tooSmall: boolean;
	/** Lines the frame uses (≤ rows - 1). */
	readonly height: number;
	readonly summaryLines: number;
	/** Worker rows in view at once. */
	readonly workerRows: number;
	/** Lines under the table for the newest events: only those the workers leave (the table comes first). */
	readonly eventLines: number;
	readonly footerLines: 0 | 1;
	/** Lines between the summary and the footer (the help, a worker's detail). */
	readonly bodyHeight: number;
};

/** The title bar every screen has, " rigtop  demo-proxy · xmrig-proxy 6.26.0 …". */
const TITLE_LINES = 1;

/** Lines of the table that are not workers: the headings, the totals and the line under them. */
const TABLE_CHROME = 3;

export function proxyLayout(size: TerminalSize, summary: number, workers: number): ProxyLayout {
	const tooSmall = isTooSmall(size.columns, size.rows);
	const budget = Math.max(1, Math.floor(size.rows) - 1);
	const footerLines: 0 | 1 = budget >= summary + TABLE_CHROME + 2 ? 1 : 0;
	const bodyHeight = Math.max(1, budget - summary - footerLines);
	const workerRows = Math.max(1, Math.min(Math.max(1, workers), bodyHeight - TABLE_CHROME));
	const eventLines = Math.max(0, bodyHeight - TABLE_CHROME - workerRows);
	const height = Math.min(budget, summary + Math.min(bodyHeight, TABLE_CHROME + workerRows + eventLines) + footerLines);
	return {tooSmall, height, summaryLines: summary, workerRows, eventLines, footerLines, bodyHeight};
}

export type ProxyFrame = {
	readonly summary: readonly SummaryLine[];
	/** The workers shown, in order (sorted, filtered): their names. */
	readonly order: readonly string[];
	/** The totals of the workers shown (every worker's when none is hidden). */
	readonly totals: WorkerTotals;
	readonly gap: number;
	readonly fitted: readonly FittedColumn<WorkerLine>[];
	readonly layout: ProxyLayout;
};

/** The frame of a sort and a filter (the one in force, or the one being typed) in this env. */
export function proxyFrame(sort: WorkerSort, filter: string, env: ProxyEnv): ProxyFrame {
	const {rows, size, now, snapshot, proxy} = env;
	const summary = summaryLines(proxy, snapshot, size.columns);
	const order = workerOrder(rows, sort, filter);
	const byKey = new Map(rows.map((row) => [row.key, row]));
	const totals = workerTotals(order.length === rows.length ? rows : order.flatMap((key) => byKey.get(key) ?? []));
	const gap = tableGap(size.columns);
	const wants = workerWants(rows, order.length === rows.length ? totals : workerTotals(rows));
	const fitted = fitWorkerColumns({now, uptime: snapshot.uptime, ...wants}, sort, size.columns - PREFIX_WIDTH, gap);
	// The title bar (panes/header.tsx) over the summary's lines.
	const layout = proxyLayout(size, TITLE_LINES + summary.length, order.length);
	return {summary, order, totals, gap, fitted, layout};
}

/** The last entry the help can scroll to in a frame of this layout (0 when it fits). */
export function proxyHelpMax(env: Pick<ProxyEnv, 'given' | 'size'>, layout: ProxyLayout, detail: boolean): number {
	return helpMaxOffset(proxyHelp(env.given, detail), env.size.columns, layout.bodyHeight);
}
