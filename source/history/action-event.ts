/**
 * One event of the user's doing written straight into the history store, from a rigtop that watches nothing
 * (`rigtop config set`): the same kind, severity and text a live session's action has, under the miner's identity,
 * with this process as its writer — so `rigtop history`, and the event view and chart marks of any rigtop watching
 * that miner (which read the store), show it as they show the config view's applies.
 */
import type {MinerSnapshot} from '../miner/model.js';
import {hostPort, rigName, withoutCredentials} from '../monitor/name.js';
import {HistoryStore} from './store.js';
import {HistoryWriter} from './writer.js';

export type ActionEventOptions = {
	/** The store's file. */
	readonly file: string;
	/** The miner's URL (credentials are removed). */
	readonly url: string;
	/** The rigs file's name of the rig, if it has one (the store names it so; else host:port: monitor/name.ts, rigName). */
	readonly name?: string | undefined;
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
	return recordActionEvents({...options, events: [options]});
}

/** One event of several miners (a batch: `source/batch/`), written in one transaction. */
export type MinerActionEvent = Pick<ActionEventOptions, 'url' | 'name' | 'snapshot' | 'at' | 'severity' | 'text'>;

/** Writes each miner's event, all at once; false when they could not be written. */
export function recordActionEvents(
	options: Pick<ActionEventOptions, 'file' | 'secrets' | 'notify' | 'now'> & {readonly events: readonly MinerActionEvent[]},
): boolean {
	if (options.events.length === 0) return true;
	const store = HistoryStore.open({file: options.file, notify: options.notify});
	try {
		if (!store.enabled) return false;
		const writer = new HistoryWriter(store, {secrets: options.secrets, ...(options.now ? {now: options.now} : {})});
		// A slot per miner: the writer keeps a slot's miner for the rest of the write.
		const events = options.events.map((item, slot) => {
			const url = withoutCredentials(item.url);
			const {snapshot} = item;
			const name = rigName(item.name, url);
			return {
				slot,
				url,
				name,
				named: name !== hostPort(url),
				t: item.at,
				kind: 'action',
				severity: item.severity,
				text: item.text,
				facts: snapshot ? {apiId: snapshot.id, workerId: snapshot.workerId, kind: snapshot.kind, uptimeS: snapshot.uptime} : null,
			};
		});
		// Another rigtop holding the store makes a write wait 250 ms at most: one more try.
		return writer.write([], events) || writer.write([], events);
	} finally {
		store.close();
	}
}
