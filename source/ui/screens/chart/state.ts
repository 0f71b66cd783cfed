/**
 * What the chart's reducer and its availability both read: the state the chart owns and the env it reads at each
 * dispatch (reduce.ts reduces the one, availability.ts decides its keys from both).
 */

export type ChartUiState = {
	readonly help: boolean;
	/** Index in CHART_SPANS: the span chosen (or remembered); while `fit`, the span shown is the one the data fits. */
	readonly span: number;
	/**
	 * No span was chosen or remembered: the span shown is the shortest that holds everything known, up to DEFAULT_SPAN
	 * (fittedSpan). A key that changes the span or moves in time fixes it.
	 */
	readonly fit: boolean;
	/** Where the span ends, epoch ms; null: now (it follows the polls). */
	readonly end: number | null;
	/** Index in CHART_SERIES: what is drawn (0, the hashrate, by default). */
	readonly series: number;
};

/** What the chart reads but does not own, at each dispatch. */
export type ChartEnv = {
	/** The present, for moving back from it. */
	readonly now: number;
	/** The first time anything is known of the miner (no use moving back past it), or null. */
	readonly earliest: number | null;
	/**
	 * Whether the sensor series are offered (`s`): not for an xmrig-proxy or its worker, whose polls never carry a
	 * reading. Absent: offered.
	 */
	readonly sensors?: boolean;
	/**
	 * Which series (index in CHART_SERIES) have anything recorded for this rig (series.ts `seriesRecorded`): `s` skips
	 * the others. Absent: every series.
	 */
	readonly recorded?: readonly boolean[];
};
