/**
 * What the fleet's keys do to several rigs at once: `p` and `r` (a batch, source/batch/) and `c` with rigs marked (the
 * fleet config view, one session per visit). Each rig a batch touched gets the event in its events log, which the
 * session's recorder writes to the history, and is polled now.
 */
import path from 'node:path';
import {Batch, batchWriter} from '../../batch/batch.js';
import {FleetConfigSession} from '../../batch/fleet-config.js';
import {BatchFailures} from '../../batch/outcome.js';
import type {RigResult} from '../../batch/types.js';
import {defaultBackupDir} from '../../config/backups.js';
import type {Session, WatchedMiner} from '../../session/session.js';
import {rigLabel} from '../../ui/screens/fleet/columns.js';
import {rigTags} from '../../ui/screens/fleet/rows.js';
import {ADD_HINT, FleetConfigView} from '../../ui/screens/fleet-config/view.js';

/**
 * The rigs of a batch from the fleet, each named as its row names it ("sim-rig :18462" for one of two sim-rigs on one
 * host), so its results pane tells them apart as the question before it did.
 */
function batchRigs(session: Session, rigs: readonly number[]) {
	const states = session.miners.map((miner) => miner.monitor.getState());
	const tags = rigTags(states);
	return rigs.flatMap((index) => {
		const miner = session.miners[index];
		const state = states[index];
		if (!miner || !state) return [];
		const {tokenFrom} = miner.target;
		return [
			{
				url: miner.target.url,
				token: miner.target.token,
				name: rigLabel({name: state.name, tag: tags[index] ?? null}),
				...(tokenFrom === undefined ? {} : {tokenFrom}),
			},
		];
	});
}

const watchedOf = (session: Session, rigs: readonly number[]) =>
	rigs.flatMap((index) => (session.miners[index] ? [session.miners[index]] : []));

/** The fleet's p and r: a batch on the rigs asked for. */
export function fleetBatch(session: Session) {
	return (action: 'pause' | 'resume', rigs: readonly number[], signal: AbortSignal) => {
		const watched = watchedOf(session, rigs);
		const batch = new Batch({
			rigs: batchRigs(session, rigs),
			action: {kind: action},
			signal,
			dryRun: false,
			addKeys: false,
			confirmApiChanges: false,
		});
		void batch.run().then((results) => {
			told(session, watched, action, results);
		});
		return batch;
	};
}

/** Which rigs of a session have a batch failure open (batch/outcome.ts): the fleet's batches and its config view's. */
const failures = new WeakMap<Session, BatchFailures>();

/**
 * Each touched rig's event in its events log (the recorder writes it to the history; a part that failed is an alert,
 * a later one that took its all-clear), and a poll now.
 */
function told(session: Session, watched: readonly WatchedMiner[], what: string, results: readonly RigResult[]) {
	const by = batchWriter(results.length);
	let open = failures.get(session);
	if (open === undefined) {
		open = new BatchFailures();
		failures.set(session, open);
	}

	for (const result of results) {
		const miner = watched.find((item) => item.target.url === result.rig.url);
		if (!miner) continue;
		const event = open.outcome(miner.monitor, result, what, by);
		if (event !== null) miner.monitor.addEvent(event.kind, event.severity, event.message);
		miner.monitor.pollNow();
	}
}

/** The fleet's c with rigs marked: one session per visit (its reads, its batch, its undo), disposed when it is left. */
export function fleetConfigSlot(session: Session) {
	let fleetConfig: {readonly key: string; readonly session: FleetConfigSession} | null = null;
	return (rigs: readonly number[], onBack: () => void, onQuit: () => void) => {
		const key = rigs.join(',');
		if (fleetConfig?.key !== key) {
			fleetConfig?.session.dispose();
			const watched = watchedOf(session, rigs);
			const config = new FleetConfigSession({
				rigs: batchRigs(session, rigs),
				backupDir: session.stateDir === undefined ? defaultBackupDir() : path.join(session.stateDir, 'backups'),
				addHint: ADD_HINT,
				onResults(results, what) {
					told(session, watched, what, results);
				},
			});
			fleetConfig = {key, session: config};
			void config.open();
		}

		const leave = (then: () => void) => () => {
			fleetConfig?.session.dispose();
			fleetConfig = null;
			then();
		};

		return <FleetConfigView session={fleetConfig.session} caps={{back: leave(onBack), quit: leave(onQuit)}} />;
	};
}
