/**
 * Where the dashboard's parts go for a terminal size. The frame never uses more than rows - 1
 * lines: Ink clears the whole screen on every frame once its output reaches the terminal's
 * height. Space is handed out by priority: header and footer, the Hashrate/Pool row, the
 * Shares/System row, one events line, then the threads pane takes all that is left. Small
 * terminals lose the threads pane first; tall ones give threads (and a few events) more room.
 * Narrower than two stats panes side by side need (80 columns), the four stack in one column,
 * whole, rather than being cut to nothing; below MIN_COLUMNS × MIN_ROWS the screens say the
 * terminal is too small (as btop does) instead of drawing a broken frame.
 */

/** Height of a stats pane: two border lines and three lines of content. */
export const STAT_PANE_HEIGHT = 5;
/** The smallest useful threads pane: borders, the column header and one row. */
export const MIN_THREADS_HEIGHT = 4;
/** Lines of the threads pane that are not thread rows: two borders and the column header. */
export const THREADS_CHROME = 3;
/** The width two stats panes need side by side (each line of a pane is up to 36 columns, plus border and padding). */
export const SIDE_BY_SIDE_COLUMNS = 80;
/** The smallest terminal the screens serve: one stats pane whole, with the header, an events line and the footer. */
export const MIN_COLUMNS = 50;
export const MIN_ROWS = 10;

/** Whether a terminal is below the smallest size the screens serve. */
export function isTooSmall(columns: number, rows: number): boolean {
	return columns < MIN_COLUMNS || rows < MIN_ROWS;
}
/** From this many rows the System pane may take two lines for the rig's readings (one below: the threads keep theirs). */
export const SENSOR_TALL_ROWS = 32;
/** Lines the hashrate row may grow by on a tall terminal, for a sparkline of several rows (up to 8). */
export const MAX_SPARK_EXTRA = 7;

export type DashboardLayout = {
	readonly columns: number;
	/** Lines the whole frame uses (≤ rows - 1). */
	readonly height: number;
	readonly headerLines: 0 | 1;
	readonly footerLines: 0 | 1 | 2;
	/** Lines between header and footer (for the help, connecting and error screens). */
	readonly bodyHeight: number;
	/** Below MIN_COLUMNS × MIN_ROWS: the screen says so instead of drawing. */
	readonly tooSmall: boolean;
	/** The stats panes in one column (narrower than SIDE_BY_SIDE_COLUMNS), each the full width. */
	readonly stacked: boolean;
	/** Widths of the left and right stats panes side by side; stacked, both are the full width. */
	readonly leftWidth: number;
	readonly rightWidth: number;
	/** Rows of stats panes that fit: side by side 2 = Hashrate/Pool and Shares/System; stacked, one pane a row (up to 4). */
	readonly statRows: number;
	/** Stats panes shown, in the order Hashrate, Pool, Shares, System. */
	readonly statPanes: number;
	/** Lines the Hashrate pane has beyond STAT_PANE_HEIGHT (its row, side by side): its sparkline's extra rows. */
	readonly sparkExtra: number;
	/** Lines the System pane (and its row) has beyond STAT_PANE_HEIGHT for the rig's own readings (°C, GHz, W, H/W). */
	readonly systemExtra: number;
	readonly eventLines: number;
	/** 0 when the threads pane does not fit. */
	readonly threadsHeight: number;
	/** Thread rows visible in the threads pane. */
	readonly threadRows: number;
	/** Columns available inside a left pane (for the sparkline). */
	readonly sparklineWidth: number;
};

/**
 * `threadCount`: the threads the miner reports, when known; the threads pane then takes no more
 * lines than they need and the events list gets the rest.
 * `noticeLines`: extra lines wanted for a notice above the events (the reason and fix of an error,
 * wrapped); they come before the threads pane (which keeps the lines left if they are enough for it).
 * `footerWanted`: lines for the footer (a message in its place may want two).
 * `systemWanted`: lines the System pane wants for the rig's own readings (0 without any: a remote rig); it gets one
 * on a short terminal, up to two from SENSOR_TALL_ROWS on, and none where its row would not fit with them.
 */
export function computeLayout(
	columns: number,
	rows: number,
	noticeLines = 0,
	threadCount: number | null = null,
	footerWanted = 1,
	systemWanted = 0,
): DashboardLayout {
	const width = Math.max(1, Math.floor(columns));
	const budget = Math.max(1, Math.floor(rows) - 1);
	const headerLines = 1;
	const footerLines = budget >= 2 ? (footerWanted >= 2 && budget >= 8 ? 2 : 1) : 0;
	const bodyHeight = budget - headerLines - footerLines;
	let left = bodyHeight;

	const stacked = width < SIDE_BY_SIDE_COLUMNS;
	const perRow = stacked ? 1 : 2;
	// Hashrate and Pool always come first; the other panes only where a notice keeps its lines.
	const essentialRows = stacked ? 2 : 1;
	const reserve = noticeLines > 0 ? 1 + noticeLines : 0;
	// The System pane is the fourth: its row (the second side by side, the fourth stacked) is taller by its readings.
	const systemRow = stacked ? 3 : 1;
	let systemExtra = Math.max(0, Math.min(systemWanted, rows >= SENSOR_TALL_ROWS ? 2 : 1));
	let statRows = 0;
	while (statRows * perRow < 4 && left >= STAT_PANE_HEIGHT) {
		if (statRows >= essentialRows && left - STAT_PANE_HEIGHT < reserve) break;
		// Its readings only where the events keep their line (and a notice its lines).
		if (statRows === systemRow && left - STAT_PANE_HEIGHT - systemExtra < Math.max(1, reserve)) systemExtra = 0;
		const height = STAT_PANE_HEIGHT + (statRows === systemRow ? systemExtra : 0);
		statRows++;
		left -= height;
	}

	if (statRows <= systemRow) systemExtra = 0;

	let eventLines = 0;
	if (left >= 1) {
		eventLines = 1;
		left -= 1;
	}

	// A notice (the reason and fix of an error) gets every line it needs before the threads do: the
	// threads then show last-known values, and the fix is what the user needs to read.
	if (noticeLines > 0 && eventLines > 0) {
		const extra = Math.min(noticeLines, left);
		eventLines += extra;
		left -= extra;
	}

	// Tall terminals show a short list of events, one per line, if threads keep a fair share.
	const extraEvents = rows >= 40 ? 3 : rows >= 32 ? 1 : 0;
	if (extraEvents > 0 && left - extraEvents >= MIN_THREADS_HEIGHT + 4) {
		eventLines += extraEvents;
		left -= extraEvents;
	}

	let threadsHeight = 0;
	let sparkExtra = 0;
	if (left >= MIN_THREADS_HEIGHT) {
		threadsHeight = left;
		left = 0;
		// A tall terminal and few threads: the pane is as tall as its rows, the events get the rest.
		const needed = threadCount === null ? threadsHeight : Math.max(MIN_THREADS_HEIGHT, threadCount + THREADS_CHROME);
		if (needed < threadsHeight && eventLines > 0) {
			const spare = threadsHeight - needed;
			threadsHeight = needed;
			// Half of what is spare makes the sparkline taller (instead of 25 blank lines at 200×50), the rest lists events.
			sparkExtra = statRows >= 1 ? Math.min(MAX_SPARK_EXTRA, Math.floor(spare / 2)) : 0;
			eventLines += spare - sparkExtra;
		}
	} else if (eventLines > 0) {
		// Too little for threads: the spare lines list more events instead of staying blank.
		eventLines += left;
		left = 0;
	}

	const leftWidth = stacked ? width : Math.floor(width / 2);
	return {
		columns: width,
		height: budget - left,
		headerLines,
		footerLines,
		bodyHeight,
		tooSmall: isTooSmall(width, Math.floor(rows)),
		stacked,
		leftWidth,
		rightWidth: stacked ? width : width - leftWidth,
		statRows,
		statPanes: statRows * perRow,
		sparkExtra,
		systemExtra,
		eventLines,
		threadsHeight,
		threadRows: Math.max(0, threadsHeight - THREADS_CHROME),
		sparklineWidth: Math.max(0, leftWidth - 4),
	};
}
