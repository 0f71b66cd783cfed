/**
 * What the dashboard's hashrate and events panes read from a miner's history (history/source.ts): the sparkline
 * filled from the store at once ("since 3d") instead of starting empty, and the events from before this session.
 */
import {useEffect, useMemo, useState} from 'react';
import {SeriesCache, type MinerHistory} from '../../history/source.js';
import type {MinerEvent, MonitorState} from '../../monitor/types.js';
import type {TimedEvent} from '../event-lines.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Bucket widths under a minute a sparkline uses; above, whole minutes (whole 10 minutes above an hour). */
const SHORT_STEPS = [SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 20 * SECOND, 30 * SECOND, MINUTE];

/** The bucket width for at least `needed` ms: round, so the grid stays put while the span grows (a re-cut now and then). */
function roundStep(needed: number): number {
	if (needed <= MINUTE) return SHORT_STEPS.find((step) => step >= needed) ?? MINUTE;
	const unit = needed <= HOUR ? MINUTE : 10 * MINUTE;
	return Math.ceil(needed / unit) * unit;
}

/** The longest a sparkline looks back. */
export const SPARK_MAX_SPAN = 7 * 24 * HOUR;

export type SparkWindow = {readonly from: number; readonly to: number; readonly step: number};

/**
 * The span a sparkline of `points` buckets shows: everything known of the miner (from `first`, at most a week back),
 * in buckets of a round width no narrower than the poll interval — so a miner known for 3 days fills the line at
 * once, and one just started fills it from the right, a poll a bucket, as before. The buckets lie on a grid of
 * their width, so redrawing at each poll moves the line by whole buckets.
 */
export function sparkWindow(first: number | null, now: number, points: number, intervalMs: number): SparkWindow {
	const count = Math.max(1, Math.floor(points));
	const start = Math.max(first ?? now, now - SPARK_MAX_SPAN);
	const step = roundStep(Math.max(intervalMs, (now - start) / count));
	const to = Math.ceil((now + 1) / step) * step;
	return {from: to - step * count, to, step};
}

export type SparkData = {
	/** One value a bucket, oldest first; null where nothing is known (rigtop was not watching, or the miner was down). */
	readonly values: readonly (number | null)[];
	/** When what the line shows begins (the first thing known, within the span); null without history. */
	readonly since: number | null;
};

/** The histories whose series a sparkline has read in this process (useSparkline). */
const seriesRead = new WeakSet<MinerHistory>();

/**
 * The sparkline's values: from the history (`points` buckets up to now), else the monitor's recent samples. Read
 * again at each poll (a few indexed reads: history/read.ts measures them).
 */
export function useSparkline(history: MinerHistory | undefined, state: MonitorState, points: number, now: number): SparkData {
	const samples = state.history;
	// Read again at each poll (good or failed): the line ends at the newest one. Only the buckets that can have
	// changed are read (SeriesCache).
	const latest = state.lastAttemptAt ?? 0;
	const [cache] = useState(() => new SeriesCache());
	// The first frame drawn for a history shows the monitor's samples, and the sparkline's series is read from the next
	// frame on: its first reads (about 6 ms on Node 22, mostly SQLite preparing its statements) are not on the way to
	// the first frame with the miner's data. A history read once (a dashboard opened again from the fleet) reads at once.
	const [drawn, setDrawn] = useState(() => history === undefined || seriesRead.has(history));
	useEffect(() => {
		if (drawn) return;
		const timer = setImmediate(() => {
			if (history) seriesRead.add(history);
			setDrawn(true);
		});
		return () => {
			clearImmediate(timer);
		};
	}, [drawn, history]);
	return useMemo(() => {
		if (!history || points <= 0 || !drawn) return {values: samples, since: null};
		const first = history.span()?.first ?? null;
		const window = sparkWindow(first, Math.max(now, latest), points, history.intervalMs);
		const series = cache.read(history, {from: window.from, to: window.to, points});
		const values = series.points.map((point) => (point.live > 0 ? point.avg : null));
		return {values, since: first === null ? null : Math.max(first, window.from)};
	}, [cache, history, points, now, latest, samples, drawn]);
}

/** A monitor's event as the panes list it. */
export function timedEvent(event: MinerEvent): TimedEvent {
	return {t: event.at, kind: event.kind, severity: event.severity, text: event.message};
}

/**
 * The newest `count` events (oldest first), the stored ones from before this session included, and the session's
 * notices; read again when the monitor logs one. A few more than shown are read, so an 'up' on screen finds the 'down' it ends.
 */
export function usePaneEvents(history: MinerHistory | undefined, events: readonly MinerEvent[], count: number): readonly TimedEvent[] {
	// Events another rigtop stored (`rigtop config set`): read again when the newest stored one changes.
	const stamp = history?.eventsStamp?.() ?? '';
	return useMemo(() => {
		const wanted = Math.max(1, count) + 8;
		if (!history) return events.slice(-wanted).map((event) => timedEvent(event));
		const stored = history.events({since: 0, limit: wanted});
		// The session's own notices (with-notices.ts: a negative seq) are not the miner's and not stored: merged in by time.
		const notices = events.filter((event) => event.seq < 0);
		if (notices.length === 0) return stored;
		return [...stored, ...notices.slice(-wanted).map((event) => timedEvent(event))].sort((a, b) => a.t - b.t).slice(-wanted);
		// eslint-disable-next-line react-hooks/exhaustive-deps -- stamp: a newer event stored by anyone, read them again
	}, [history, events, count, stamp]);
}
