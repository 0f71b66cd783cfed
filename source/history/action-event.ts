/**
 * One event of the user's doing written straight into the history store, from a rigtop that watches nothing
 * (`rigtop config set`): the same kind, severity and text a live session's action has, under the miner's identity,
 * with this process as its writer — so `rigtop history`, and the event view and chart marks of any rigtop watching
 * that miner (which read the store), show it as they show the config view's applies.
 */
import type {MinerSnapshot} from '../miner/model.js';
import {displayName, withoutCredentials} from '../monitor/name.js';
import {HistoryStore} from './store.js';
import {HistoryWriter} from './writer.js';

export type ActionEventOptions = {
	/** The store's file. */
	readonly file: string;
	/** The miner's URL (credentials are removed). */
	readonly url: string;
	/** What the miner answered just now (its identity); null when it could not be read. */
	readonly snapshot: MinerSnapshot | null;
	readonly at: number;
	readonly severity: string;
	readonly text: string;
	/** Never stored (the access token): replaced by "***". */
	readonly secrets: readonly string[];
	/** A store set aside or turned off (one line). */
	readonly notify: (line: string) => void;
	/** The clock the store's bounds are applied by (default Date.now; tests of a past night give theirs). */
	readonly now?: () => number;
};

/** Writes the event; false when it could not be (history off, the store busy for longer than two waits). */
export function recordActionEvent(options: ActionEventOptions): boolean {
	const store = HistoryStore.open({file: options.file, notify: options.notify});
	try {
		if (!store.enabled) return false;
		const url = withoutCredentials(options.url);
		const {snapshot} = options;
		const writer = new HistoryWriter(store, {secrets: options.secrets, ...(options.now ? {now: options.now} : {})});
		const event = {
			slot: 0,
			url,
			name: displayName(undefined, snapshot, url),
			t: options.at,
			kind: 'action',
			severity: options.severity,
			text: options.text,
			facts: snapshot ? {apiId: snapshot.id, workerId: snapshot.workerId, kind: snapshot.kind, uptimeS: snapshot.uptime} : null,
		};
		// Another rigtop holding the store makes a write wait 250 ms at most: one more try.
		return writer.write([], [event]) || writer.write([], [event]);
	} finally {
		store.close();
	}
}
