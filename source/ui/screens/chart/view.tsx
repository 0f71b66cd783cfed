import {Box, Text} from 'ink';
import {useCallback, useEffect, useMemo} from 'react';
import {chartWindow, type ChartRequest, type MinerHistory} from '../../../history/stores.js';
import type {MonitorState} from '../../../monitor/types.js';
import type {Store} from '../../../monitor/store.js';
import {formatRateIn, formatSensor, formatTimeSpan, pickRateUnit} from '../../../text/format.js';
import {syncClocks, useFixedNow, useNow} from '../../hooks/use-now.js';
import {useStore} from '../../hooks/use-store.js';
import {useTerminalSize} from '../../hooks/use-terminal-size.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {Footer} from '../../panes/footer.js';
import {HelpOverlay} from '../../panes/help-overlay.js';
import {TitleBar} from '../../panes/title-bar.js';
import {useTheme} from '../../text/theme.js';
import {Wrapped} from '../../widgets/wrap.js';
import {keyAction, useScreen, type ScreenDefinition} from '../contract.js';
import {availability, chartHelp, seriesOffered} from './availability.js';
import {
	chartModel,
	chartPoints,
	isBriefOutage,
	isOutage,
	spanStats,
	Y_AXIS_WIDTH,
	type ChartModel,
	type Marker,
	type Reference,
	type Segment,
	type SegmentRow,
} from './model.js';
import {CHART_SPANS, initialChartState, reduce, shownSpan, spanMs, type ChartAction, type ChartEffect} from './reduce.js';
import type {ChartEnv, ChartUiState} from './state.js';
import {noSeriesText, seriesAt, seriesLimit, seriesPoints, seriesRecorded, sensorAxis} from './series.js';

const SCREEN: ScreenDefinition<ChartUiState, ChartAction, ChartEnv, ChartEffect, CommandName, Screen, boolean> = {
	reduce,
	availability,
	keymap: SCREEN_KEYMAP,
	help: chartHelp,
	key: keyAction,
};

/** What the chart can do beyond itself, as the App offers it. */
export type ChartCaps = {
	/** Back to the screen it was opened from (Esc). */
	readonly close: () => void;
	readonly quit: () => void;
	/** Told the span shown (index in CHART_SPANS) when it changes, to remember it. */
	readonly span?: ((span: number) => void) | undefined;
};

export type ChartViewProps = {
	readonly store: Store<MonitorState>;
	readonly history: MinerHistory;
	readonly caps: ChartCaps;
	/** The span it opens with (index in CHART_SPANS); undefined: the shortest that holds what is known, up to an hour. */
	readonly initialSpan?: number | undefined;
	/** A proxy's worker whose history `history` is (its name), or null for the rig itself. */
	readonly worker?: string | null | undefined;
};

const NO_EVENTS: readonly {readonly t: number; readonly kind: string; readonly text: string}[] = [];

/** Lines that are not the plot: title, legend (one line; two on a narrow terminal), axis, time labels, footer. */
const CHROME_LINES = 5;
/** Below this the chart says the terminal is too small. */
export const MIN_CHART_COLUMNS = 30;
export const MIN_PLOT_ROWS = 3;

/** The events marked under the chart, and how telling each is (the most telling wins a shared column). */
export function markerOf(event: {readonly t: number; readonly kind: string; readonly text: string}): Marker | null {
	switch (event.kind) {
		case 'restarted':
			return {t: event.t, letter: 'R', tone: 'warn', rank: 3};
		case 'pool-lost':
			return {t: event.t, letter: 'L', tone: 'warn', rank: 2};
		case 'paused':
			return {t: event.t, letter: 'P', tone: 'info', rank: 1};
		case 'action':
			return /^config (apply|undo)/.test(event.text) ? {t: event.t, letter: 'C', tone: 'info', rank: 0} : null;
		default:
			return null;
	}
}

const MARKER_NAMES: Readonly<Record<string, string>> = {R: 'restart', L: 'pool lost', P: 'paused', C: 'config'};

function Row({segments}: {readonly segments: SegmentRow}) {
	const theme = useTheme();
	return (
		<Text wrap="truncate-end">
			{segments.map((segment, index) => (
				// keyed by position: rows and segments have no other identity
				<Text key={index} {...(segment.tone ? theme.text(segment.tone) : {})}>
					{segment.text}
				</Text>
			))}
		</Text>
	);
}

/** The chart's env hook: its state and keys, the span asked of the history's chart store and its answer, what is drawn. */
function useChart({store, history, caps, initialSpan, worker = null}: ChartViewProps) {
	const state = useStore(store, syncClocks);
	// What is drawn: the history's chart store answers what this view asks (syncClocks: its clock moves with the poll
	// the store read for, in the same frame).
	const answers = useStore(history.chart, syncClocks);
	const {columns, rows} = useTerminalSize();
	// The App's one clock: fixed for tests and screenshots, else live.
	const live = useFixedNow() === null;
	const now = useNow(history.intervalMs);

	const run = useCallback(
		(effect: ChartEffect) => {
			if (effect.type === 'quit') caps.quit();
			else if (effect.type === 'close') caps.close();
			else caps.span?.(effect.span);
		},
		[caps],
	);
	const earliest = answers[0]?.value.earliest ?? null;
	// An xmrig-proxy's line is its 1 min rate (a worker's too), its reference its 10 min window; a miner's 10 s and 15m.
	const proxy = state.snapshot?.proxy ?? null;
	const isProxy = proxy !== null;
	// The sensor series (s): not for a proxy or its worker (nothing is read on their machine for them).
	const sensorsOffered = !isProxy && worker === null;
	const sensors = state.snapshot?.sensors;
	// Which series have anything recorded for this rig (s skips the others), from the last answer's buckets and the live reading.
	const answered = answers[0]?.value.series?.points;
	const recorded = useMemo(() => seriesRecorded(answered ?? [], sensors), [answered, sensors]);
	const env = useMemo<ChartEnv>(() => ({now, earliest, sensors: sensorsOffered, recorded}), [now, earliest, sensorsOffered, recorded]);
	// The help lists s where the chart offers it (availability.ts).
	const {state: ui, footer: footerShown, help} = useScreen(SCREEN, () => initialChartState(initialSpan), env, run, seriesOffered(env));

	const budget = Math.max(1, rows - 1);
	const fits = columns >= MIN_CHART_COLUMNS && budget - CHROME_LINES >= MIN_PLOT_ROWS;
	const shown = shownSpan(ui, env);
	const span = spanMs(ui, env);
	const points = chartPoints(columns, span, history.intervalMs);
	const seq = state.events.at(-1)?.seq ?? 0;
	const request = useMemo<ChartRequest>(
		() => ({spanMs: span, points, end: ui.end, now, live, polls: state.polls, seq}),
		[span, points, ui.end, now, live, state.polls, seq],
	);
	const {from, to} = chartWindow(request);
	// Asked again when the answers change too: the store follows the polls, the view may have moved elsewhere.
	useEffect(() => {
		if (fits) history.chart.request(request);
	}, [history, fits, request, answers]);
	const data = fits ? history.chart.answerFor(answers, request) : undefined;
	// Drawn over the span the answer is for (the one asked, but for the frame before a new one comes).
	const series = data?.series ?? null;
	const events = data?.events ?? NO_EVENTS;
	// The series drawn (s): the hashrate, or a sensor reading's min / avg / max in its place.
	const kind = seriesAt(sensorsOffered ? ui.series : 0);
	const drawn = useMemo(() => (series ? seriesPoints(series.points, kind) : []), [series, kind]);
	const limit = kind.stat === null ? null : seriesLimit(drawn, kind, sensors);
	const rates = worker === null ? proxy?.hashrate : proxy?.workers?.find((each) => each.name === worker)?.hashrate;
	const fifteen = proxy ? (rates?.[1] ?? null) : (state.snapshot?.hashrate.total[2] ?? null);
	const references = useMemo<Reference[]>(
		() =>
			kind.stat !== null
				? // A sensor's own limit: the temperature's max, the clock's.
					limit === null
					? []
					: [{label: 'max', value: limit, tone: kind.name === 'temperature' ? 'error' : 'ok', pattern: 'dashes'}]
				: [
						{label: isProxy ? '10m' : '15m', value: fifteen, tone: 'ok', pattern: 'dashes'},
						...(worker === null ? [{label: 'session', value: state.sessionAverage, tone: 'info', pattern: 'dots'} as const] : []),
					],
		[kind, limit, isProxy, fifteen, worker, state.sessionAverage],
	);
	const markers = useMemo(() => events.map((event) => markerOf(event)).filter((marker): marker is Marker => marker !== null), [events]);
	const stats = useMemo(() => spanStats(drawn), [drawn]);
	return {
		state,
		ui,
		now,
		columns,
		budget,
		fits,
		footer: footerShown,
		help,
		shown,
		from,
		to,
		data,
		series,
		kind,
		drawn,
		sensors,
		isProxy,
		worker,
		references,
		markers,
		stats,
	};
}

/**
 * The full-screen hashrate chart (`g`): a braille line over the whole terminal, from the history store (or this
 * session's memory with history off), redrawn at every poll and on resize. `1`–`5` pick the span, `+`/`-` zoom,
 * `←`/`→` move back and forth in time, End comes back to now; `s` switches to a local miner's temperature, clock, power
 * or H/W (series.ts).
 */
export function ChartView(props: ChartViewProps) {
	const theme = useTheme();
	const chart = useChart(props);
	const {state, ui, now, columns, budget, fits, help, shown, from, to, data, series, kind, drawn, sensors, isProxy, worker} = chart;
	const {references, markers, stats} = chart;
	const label = CHART_SPANS[shown]?.label ?? '';
	const when = ui.end === null ? `last ${label}` : formatTimeSpan(from, to, now);
	const sensorUnit = kind.unit;
	const rateUnit = pickRateUnit([stats.max]);
	const valueText = useCallback(
		(value: number | null) => (sensorUnit === null ? formatRateIn(value, rateUnit) : formatSensor(value, sensorUnit)),
		[sensorUnit, rateUnit],
	);
	// A rate's values share its unit, written once; a reading's carry theirs ("min 60°C avg 67°C max 75°C").
	const statsText =
		stats.avg === null
			? ''
			: `min ${valueText(stats.min)} avg ${valueText(stats.avg)} max ${valueText(stats.max)}${sensorUnit === null ? ` ${rateUnit}` : ''}`;
	const sessionOnly = data?.where === 'session';
	const outages = series?.points.some((point) => isOutage(point)) ?? false;
	const brief = series?.points.some((point) => isBriefOutage(point)) ?? false;
	// The legend: what the lines, the shading and the markers on screen mean; on a second line when one is too short.
	const legend = useMemo(() => {
		const items: Segment[] = [{text: kind.stat !== null ? `⠤⠤ ${kind.label}` : isProxy ? '⠤⠤ 1m hashrate' : '⠤⠤ hashrate', tone: 'accent'}];
		if (sessionOnly) items.unshift({text: 'history off: this session only', tone: 'warn'});
		for (const reference of references) {
			if (reference.value !== null) items.push({text: `${reference.label} ${valueText(reference.value)}`, tone: reference.tone});
		}

		if (outages) items.push({text: '░ down', tone: 'error'});
		if (brief) items.push({text: '╳ down briefly', tone: 'error'});
		const marks = [...new Set(markers.map((marker) => marker.letter))].map((letter) => ({
			text: `${letter} ${MARKER_NAMES[letter] ?? ''}`,
			tone: 'muted' as const,
		}));
		const width = (segments: readonly Segment[]) => segments.reduce((sum, segment) => sum + segment.text.length + 2, Y_AXIS_WIDTH);
		return width([...items, ...marks]) <= columns || marks.length === 0 ? [[...items, ...marks]] : [items, marks];
	}, [kind, isProxy, sessionOnly, references, valueText, outages, brief, markers, columns]);
	const plotRows = budget - CHROME_LINES - (legend.length - 1);
	const model = useMemo(
		() =>
			series
				? chartModel({
						points: drawn,
						from: series.from,
						to: series.to,
						width: columns,
						rows: plotRows,
						references,
						markers,
						now,
						...(kind.unit === null ? {} : {axis: sensorAxis(kind.unit)}),
					})
				: null,
		[series, drawn, kind, columns, plotRows, references, markers, now],
	);

	let body;
	if (ui.help) {
		body = <HelpOverlay entries={help} width={columns} height={budget - 2} />;
	} else if (fits && !model) {
		// The first answer comes on the next turn (the store reads after this frame): the chart's place, blank.
		body = <Box height={budget - 2} width={columns} />;
	} else if (!fits || !model) {
		body = (
			<Box height={budget - 2} width={columns} paddingX={columns > 4 ? 1 : 0}>
				<Wrapped {...theme.text('warn')} lines={budget - 2} width={columns > 4 ? columns - 2 : columns}>
					{`terminal too small for the chart — need ${MIN_CHART_COLUMNS}×${MIN_PLOT_ROWS + CHROME_LINES + 1}`}
				</Wrapped>
			</Box>
		);
	} else {
		const answered = drawn.some((point) => point.live > 0);
		const empty = outages
			? 'the miner did not answer in this span'
			: kind.stat !== null && answered
				? noSeriesText(kind, {answered: state.snapshot !== null, sensors}, columns - Y_AXIS_WIDTH - 2)
				: sessionOnly
					? 'nothing seen in this span yet (history is off: this session only)'
					: 'nothing stored for this span';
		body = <ChartPlot legend={legend} model={model} rows={plotRows} empty={empty} />;
	}

	return (
		<Box flexDirection="column" width={columns} height={budget} overflowY="hidden">
			<TitleBar
				width={columns}
				title={[worker === null ? state.name : `${state.name} · worker ${worker}`, ...(kind.stat === null ? [] : [kind.label]), when]}
				stateWidth={[...statsText].length}
			>
				<Text {...theme.text('muted')}>{statsText}</Text>
			</TitleBar>
			{body}
			<Footer hints={chart.footer} width={columns} />
		</Box>
	);
}

/** The plot: its legend (one line, or two), the rows of the braille line, the axis and its time labels. */
function ChartPlot({
	legend,
	model,
	rows,
	empty,
}: {
	readonly legend: readonly (readonly Segment[])[];
	readonly model: ChartModel;
	readonly rows: number;
	/** What the middle row says where nothing is drawn. */
	readonly empty: string;
}) {
	const theme = useTheme();
	const middle = Math.floor(rows / 2);
	return (
		<>
			{legend.map((items, line) => (
				// keyed by position: the legend's first and second line
				<Row
					key={line}
					segments={[
						{text: (line === 0 ? model.unit : '').padEnd(Y_AXIS_WIDTH), tone: 'muted'},
						...items.flatMap((item, index) => [{text: index === 0 ? '' : '  '}, item]),
					]}
				/>
			))}
			{model.plot.map((row, index) =>
				!model.hasData && index === middle ? (
					// keyed by position: rows and segments have no other identity
					<Text key={index} wrap="truncate-end">
						<Row segments={row.slice(0, 2)} />
						<Text {...theme.text('muted')}>{`  ${empty}`}</Text>
					</Text>
				) : (
					// keyed by position: rows and segments have no other identity
					<Row key={index} segments={row} />
				),
			)}
			<Row segments={model.axis} />
			<Text wrap="truncate-end" {...theme.text('muted')}>
				{model.labels}
			</Text>
		</>
	);
}
