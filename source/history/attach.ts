/**
 * Attaches history to a session: opens the store (or not, with --no-history), records every monitor of
 * the session, and closes the recorder after the session. A store that cannot be used turns history off
 * with one notice; the session runs either way.
 */
import path from 'node:path';
import type {Monitor} from '../monitor/monitor.js';
import type {NoticeLog} from '../monitor/notices.js';
import {pastRates, workerPastRates} from './last-hour.js';
import {pastShares} from './last-share.js';
import {HistoryRecorder} from './recorder.js';
import {HistoryStore} from './store.js';
import {rigtopStateDir} from '../config/state-dir.js';
import {STORE_FILE_NAME} from './trouble.js';

export type HistoryPlan = {
	readonly mode: 'live' | 'once' | 'where' | 'exporter';
	readonly intervalMs: number;
};

export type AttachOptions = {
	/** The store's file (default $XDG_STATE_HOME/rigtop/history.sqlite). */
	readonly file?: string;
	readonly maxBytes?: number;
};

/** The store's default file. */
export function defaultStoreFile(env: NodeJS.ProcessEnv = process.env): string {
	return path.join(rigtopStateDir(env), STORE_FILE_NAME);
}

/**
 * What history needs of a session (source/session/session.ts, which stands above history and meets this shape): its
 * miners' tokens (never stored) and monitors, its notices, the folder it keeps its state in, and its close.
 */
export type RecordedSession = {
	readonly miners: ReadonlyArray<{readonly target: {readonly token: string | null}; readonly monitor: Monitor}>;
	readonly notices: NoticeLog;
	readonly recorder?: HistoryRecorder | null;
	readonly stateDir: string | undefined;
	close(): Promise<void>;
};

/**
 * The session with a recorder watching its miners (`session.recorder`). Notices (a damaged file set aside, history
 * off) go to `warn` while the session is being built (stderr, and the session's notices once the dashboard is up),
 * and afterwards, in a live session, into the session's notices (stderr is hidden behind the dashboard): they are
 * about no miner in particular, so they are neither shown under nor stored as the events of any one.
 */
export function attachHistory<S extends RecordedSession>(
	session: S,
	plan: HistoryPlan,
	warn: (line: string) => void,
	options: AttachOptions = {},
): S {
	let building = true;
	const notify = (line: string) => {
		if (!building && plan.mode === 'live') session.notices.add('warn', line);
		else warn(line);
	};

	// The demo keeps its state in a folder of its own (session.stateDir), its history too.
	const file = options.file ?? (session.stateDir === undefined ? defaultStoreFile() : path.join(session.stateDir, STORE_FILE_NAME));
	const store = HistoryStore.open({
		file,
		notify,
		...(options.maxBytes === undefined ? {} : {maxBytes: options.maxBytes}),
	});
	if (!store.enabled) return {...session, recorder: null};
	const secrets = session.miners.map((miner) => miner.target.token).filter((token): token is string => token !== null);
	const recorder = new HistoryRecorder(store, {intervalMs: plan.intervalMs, secrets});
	// --once reads outside the monitors (commands/once/ records them); the live screens poll through them.
	if (plan.mode === 'live') {
		recorder.watch(session.miners.map((miner) => miner.monitor));
		// The drop detector's reference starts from the miner's stored last hour (source/monitor/reference.ts).
		session.miners.forEach((miner, slot) => {
			miner.monitor.setPastRates(pastRates(recorder, slot));
			// The last share: since when the store has seen the count the miner has now (source/monitor/last-share.ts).
			miner.monitor.setPastShares(pastShares(recorder, slot));
			// A proxy's workers: each one's own stored hour.
			miner.monitor.setWorkerPastRates((worker) => workerPastRates(recorder, slot, worker));
		});
	}

	building = false;
	return {
		...session,
		recorder,
		async close() {
			// The recorder first: it writes what it holds into the store, which the session's close may remove (the
			// demo's folder). Closing the recorder stops it listening, so at most a poll still in flight goes unstored.
			try {
				recorder.close();
			} finally {
				await session.close();
			}
		},
	};
}
