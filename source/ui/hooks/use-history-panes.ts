/**
 * What the dashboard's hashrate and events panes show of a miner's history: its stores' answers
 * (history/stores.ts) — the sparkline filled from the store ("since 3d") instead of starting empty, and the events
 * from before this session. The panes never read the history themselves: they ask the stores from an effect, and
 * until the first answer comes (the frame after the first) they show the monitor's own samples and events.
 */
import {useEffect, useMemo} from 'react';
import {paneEventsRequest, paneWanted, storedEventOf, type Answer, type MinerHistory, type SparkData} from '../../history/stores.js';
import type {MinerEvent, MonitorState} from '../../monitor/types.js';
import type {Store} from '../../store.js';
import type {TimedEvent} from '../event-lines.js';
import {syncClocks} from './use-now.js';
import {useStore} from './use-store.js';

const NO_ANSWERS: readonly Answer<never>[] = [];
const NO_STORE: Store<readonly Answer<never>[]> = {subscribe: () => () => {}, getState: () => NO_ANSWERS};

/** The sparkline's values: the history's (`points` buckets up to the last poll), else the monitor's recent samples. */
export function useSparkline(history: MinerHistory | undefined, state: MonitorState, points: number, now: number): SparkData {
	const store = history?.sparkline;
	// syncClocks: the "… ago" labels move with the poll the line is read for, in the same frame (use-now.ts).
	const answers = useStore(store ?? NO_STORE, syncClocks);
	const latest = state.lastAttemptAt ?? 0;
	const asked = points > 0;
	// Asked again when the answers change too: a screen held still (f) keeps its answer while the store follows the polls.
	useEffect(() => {
		if (asked) store?.request({points, now, latest});
	}, [store, asked, points, now, latest, answers]);
	const answer = store && asked ? store.answerFor(answers, {points, now, latest}) : undefined;
	return answer ?? {values: state.recentRates, since: null};
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
