/**
 * What the dashboard's hashrate and events panes show of a miner's history: its stores' answers
 * (history/stores.ts) — the sparkline filled from the store ("since 3d") instead of starting empty, and the events
 * from before this session. The panes never read the history themselves: they ask the stores from an effect, and
 * until the first answer comes (the frame after the first) they show the monitor's own samples and events.
 */
import {useCallback, useEffect, useMemo} from 'react';
import {
	paneEventsRequest,
	paneWanted,
	storedEventOf,
	type Answer,
	type MinerHistory,
	type SparkData,
	type SparkRequest,
} from '../../history/stores.js';
import {formatDurationShort} from '../../text/format.js';
import {shareUnchanged} from '../../monitor/structural-share.js';
import type {MinerEvent, MonitorState} from '../../monitor/types.js';
import type {Store} from '../../monitor/store.js';
import type {TimedEvent} from '../text/event-lines.js';
import {syncClocks} from './use-now.js';
import {useSelected, useStore} from './use-store.js';

const NO_ANSWERS: readonly Answer<never>[] = [];
const NO_STORE: Store<readonly Answer<never>[]> = {subscribe: () => () => {}, getState: () => NO_ANSWERS};

/**
 * The sparkline's values: the history's (`points` buckets up to the last poll), else `recent` (the monitor's own
 * samples). Following the polls, the store reads at each one by itself (RequestStore.follow) and the screen takes its
 * newest answer, redrawn only when the values or the span's start change (a paused miner's line does not move);
 * `held` (the dashboard's freeze) asks for the line of that state's last poll and keeps it.
 */
export function useSparkline(
	history: MinerHistory | undefined,
	monitor: Store<MonitorState>,
	held: MonitorState | null,
	recent: readonly (number | null)[],
	points: number,
	fixedNow: number | null,
): SparkData {
	const store = history?.sparkline;
	const asked = points > 0;
	const heldLatest = held === null ? null : (held.lastAttemptAt ?? 0);
	const heldRequest = useMemo<SparkRequest | null>(
		() => (heldLatest === null ? null : {points, now: fixedNow ?? heldLatest, latest: heldLatest}),
		[points, fixedNow, heldLatest],
	);
	const select = useCallback(
		(answers: readonly Answer<SparkData>[]) => {
			if (store === undefined || !asked) return undefined;
			return heldRequest === null ? answers[0]?.value : store.answerFor(answers, heldRequest);
		},
		[store, asked, heldRequest],
	);
	// syncClocks: the "… ago" labels move with the poll the line is read for, in the same frame (use-now.ts).
	const answer = useSelected<readonly Answer<SparkData>[], SparkData | undefined>(store ?? NO_STORE, select, shareSpark, syncClocks);
	useEffect(() => {
		if (store === undefined || !asked) return;
		const ask = () => {
			const latest = heldLatest ?? monitor.getState().lastAttemptAt ?? 0;
			store.request(heldRequest ?? {points, now: fixedNow ?? latest, latest});
		};

		ask();
		if (heldRequest === null) return;
		// Held still: asked again at each answer, so the store stops following the polls and keeps this one.
		return store.subscribe(ask);
	}, [store, asked, points, fixedNow, heldLatest, heldRequest, monitor]);
	return answer ?? {values: recent, since: null};
}

/** The previous answer while the line and its title draw the same (the span's end moves at each poll). */
function shareSpark(previous: SparkData | undefined, next: SparkData | undefined): SparkData | undefined {
	if (previous === undefined || next === undefined) return next;
	if (previous.since !== next.since || sparkSpan(previous) !== sparkSpan(next)) return next;
	const values = shareUnchanged(previous.values, next.values);
	return values === previous.values ? previous : next;
}

/** What the line's title says of its span ("since 3d": from its start to its end), or null without history. */
export function sparkSpan(data: SparkData): string | null {
	return data.since === null || data.until === undefined ? null : formatDurationShort(Math.max(0, data.until - data.since) / 1000);
}

/**
 * The newest `count` events (oldest first), the stored ones from before this session included, and the session's
 * notices; read again (by the store) when the monitor logs one. A few more than shown are read, so an 'up' on screen
 * finds the 'down' it ends.
 */
export function usePaneEvents(history: MinerHistory | undefined, events: readonly MinerEvent[], count: number): readonly TimedEvent[] {
	const store = history?.paneEvents;
	const answers = useStore(store ?? NO_STORE);
	const request = useMemo(() => paneEventsRequest(events, count), [events, count]);
	useEffect(() => {
		store?.request(request);
	}, [store, request, answers]);
	// Before the first answer: the monitor's own events (and the notices), as without history.
	const own = useMemo(() => events.slice(-paneWanted(count)).map((event) => storedEventOf(event)), [events, count]);
	return (store?.answerFor(answers, request) ?? own) as readonly TimedEvent[];
}
