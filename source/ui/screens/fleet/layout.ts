/**
 * Where the fleet view's parts go for a terminal size. Like the dashboard, the frame never uses
 * more than rows - 1 lines (Ink redraws the whole screen once a frame reaches the terminal's
 * height). Header, column headings, totals (and, under them, the line that says how many rigs a column's total
 * sums when it is not every rig) and footer always show; one line of events; the rig
 * rows take the rest and scroll; lines the rigs do not need go to more events, so the frame fills
 * the terminal and the key help sits on its last line, as on the dashboard.
 */
export type FleetLayout = {
	readonly columns: number;
	/** Lines the frame uses (≤ rows - 1). */
	readonly height: number;
	/** Rig rows visible at once. */
	readonly rigRows: number;
	readonly eventLines: number;
	readonly footerLines: 0 | 1;
	/** The line under the totals ("· 2 of 5"): when asked for and there is room for it beside a rig row and the footer. */
	readonly countedLines: 0 | 1;
	/** Lines between header and footer (for the help overlay). */
	readonly bodyHeight: number;
};

/** Lines that are not rig rows or events: header, column headings, totals. */
const FIXED_LINES = 3;

/**
 * The lines between header and footer at this terminal height, whatever the rigs (the help's, the batch pane's): the
 * line under the totals only ever takes a line the footer can spare.
 */
export function fleetBodyHeight(rows: number): number {
	const budget = Math.max(1, Math.floor(rows) - 1);
	return Math.max(1, budget - 1 - (budget >= FIXED_LINES + 2 ? 1 : 0));
}

/** `countedLine`: the totals have the line under them ("· 2 of 5"). */
export function computeFleetLayout(columns: number, rows: number, rigCount: number, countedLine = false): FleetLayout {
	const width = Math.max(1, Math.floor(columns));
	const budget = Math.max(1, Math.floor(rows) - 1);
	const countedLines: 0 | 1 = countedLine && budget >= FIXED_LINES + 3 ? 1 : 0;
	const fixed = FIXED_LINES + countedLines;
	const footerLines: 0 | 1 = budget >= fixed + 2 ? 1 : 0;
	let left = Math.max(0, budget - fixed - footerLines);
	let eventLines = left >= 2 ? 1 : 0;
	left -= eventLines;
	const rigRows = Math.max(Math.min(1, left), Math.min(left, Math.max(0, rigCount)));
	left -= rigRows;
	if (left > 0) eventLines += left;
	const bodyHeight = fleetBodyHeight(rows);
	const used = Math.min(budget, fixed + rigRows + eventLines + footerLines);
	return {columns: width, height: used, rigRows, eventLines, footerLines, countedLines, bodyHeight};
}
