/**
 * The session's miners as the App sees them (ui/app.tsx's AppMiner): each with its history's stores, the fleet's feed
 * and its pause and resume.
 */
import {memoryCapacity, SessionHistory, WorkerHistory} from '../../history/source.js';
import {StoredByOthers, WithStoredEvents} from '../../history/stored-events.js';
import {HistoryStores} from '../../history/stores.js';
import type {PollInterval} from '../../monitor/poll-interval.js';
import type {Session} from '../../session/session.js';
import type {AppMiner} from '../../ui/app.js';
import type {RunPlan} from '../command.js';
import {minerActions} from './actions.js';

/**
 * What the chart, the event view, the sparkline and the events panes read: the store, or with history off this
 * session's memory (history/source.ts). The screens read them through each miner's stores (history/stores.ts), made
 * before any screen subscribes to the monitor: on a poll they read first, and the screen draws the poll and what was
 * read for it in one frame.
 */
export function appMiners(session: Session, plan: RunPlan, interval: PollInterval): {readonly miners: AppMiner[]; close(): void} {
	const histories: HistoryStores[] = [];
	// The fleet's feed: one look per poll interval for the whole fleet at what other processes stored (stored-events.ts).
	const recorder = session.recorder ?? null;
	const others = recorder && session.miners.length > 1 ? new StoredByOthers(recorder, interval.getState) : null;
	others?.start();
	const miners = session.miners.map((watched, slot) => {
		const source = new SessionHistory({
			monitor: watched.monitor,
			slot,
			recorder: session.recorder ?? null,
			intervalMs: interval.getState,
			capacity: memoryCapacity(session.miners.length),
		});
		const capacity = memoryCapacity(session.miners.length);
		// A proxy's worker opened on the chart or the event view: a history of its own (history/source.ts).
		const workerSource = (worker: string) =>
			new WorkerHistory(source, {monitor: watched.monitor, slot, recorder: session.recorder ?? null, capacity, worker});
		const history = new HistoryStores(source, watched.monitor, workerSource);
		histories.push(history);
		return {
			store: watched.monitor,
			// The fleet's feed: what `rigtop config set`, `rigtop pause` or another rigtop stored for this rig, too.
			...(others && recorder ? {feed: new WithStoredEvents(watched.monitor, others, () => recorder.writtenMinerOf(slot))} : {}),
			history,
			tokenGiven: watched.target.token !== null,
			...(watched.target.tokenFrom === undefined ? {} : {tokenFrom: watched.target.tokenFrom}),
			...(watched.target.kind === undefined ? {} : {kind: watched.target.kind}),
			...minerActions(watched, plan.readOnly),
		};
	});
	return {
		miners,
		close() {
			for (const history of histories) history.close();
			others?.stop();
		},
	};
}
