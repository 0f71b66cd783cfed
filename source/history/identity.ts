/**
 * Who a stored miner is: the facts a good poll gives (its API id, worker id, kind, uptime) and `identify`, the rules
 * that find the stored miner they belong to (writer.ts's header tells them). Only reads: the writer uses it to write
 * a poll as the right miner, and the read path (`rigtop history`, the screens' first reads) to find one without
 * writing.
 */
import {hostOf} from '../monitor/name.js';
import {cleanText} from '../text/clean.js';
import type {HistoryStore} from './store.js';

/** What a good poll says about who the miner is. */
export type IdentityFacts = {
	readonly apiId: string | null;
	readonly workerId: string | null;
	/** XMRig's `kind` ('miner', 'cpu', 'nvidia', 'amd'). */
	readonly kind: string | null;
	/** Seconds since the miner process started, when it says. */
	readonly uptimeS: number | null;
};

type MinerRow = {miner: number; api_id: string | null; worker: string | null; kind: string | null; url: string; last_seen: number};

export type IdentifyInput = {
	readonly url: string;
	readonly name: string;
	readonly facts: IdentityFacts;
	readonly at: number;
	/**
	 * The miner this session already writes as: kept while the worker id and host still match — but, when the id
	 * changed, only if `sameProcess` (another id at the address is another miner, with a history of its own).
	 */
	readonly preferred?: number | null;
	/** The answer comes from the process the session read before (its uptime went on). */
	readonly sameProcess?: boolean;
	/** Miners that other slots of this session write as (other addresses, answering now): never this one. */
	readonly claimed?: ReadonlySet<number>;
};

/** Slack on "last seen before the process started" (uptime is whole seconds, clocks differ a little). */
const START_SLACK_MS = 10_000;

/**
 * The stored miner these facts belong to, or null when none does (the rules at the top of this file). Only reads:
 * `rigtop history` uses it to find a miner without writing.
 */
export function identify(store: HistoryStore, input: IdentifyInput): number | null {
	const {facts, at} = input;
	if (facts.apiId !== null) {
		const byId = store.get<{miner: number}>('SELECT miner FROM miner WHERE api_id = ?', facts.apiId);
		if (byId) return byId.miner;
	}

	const host = hostOf(input.url);
	if (facts.workerId !== null) {
		let candidates = store.all<MinerRow>(
			'SELECT miner, api_id, worker, kind, url, last_seen FROM miner WHERE worker = ? AND host = ? ORDER BY (url = ?) DESC, last_seen DESC',
			facts.workerId,
			host,
			input.url,
		);
		// A worker id stored raw before text was cleaned where it enters (text/clean.ts) is the same worker id now:
		// matched by its cleaned form, so an upgrade splits no history.
		if (candidates.length === 0) candidates = storedRaw(store, host, input.url, facts.workerId);
		const startedAt = facts.uptimeS === null ? null : at - facts.uptimeS * 1000;
		for (const candidate of candidates) {
			if (facts.kind !== null && candidate.kind !== null && facts.kind !== candidate.kind) continue;
			// Another address of this session answers as that miner now: two rigs of one worker id (XMRig's default is
			// the host name, so every miner of one machine has it), not one.
			if (input.claimed?.has(candidate.miner)) continue;
			const noIds = facts.apiId === null || candidate.api_id === null;
			if (candidate.miner === input.preferred && (noIds || input.sameProcess === true)) return candidate.miner;
			// Gone before this process started: the same miner back (on a new port, or with a new id), not one beside it.
			const gone = startedAt === null ? candidate.last_seen < at - 120_000 : candidate.last_seen <= startedAt + START_SLACK_MS;
			// Without an id, the worker id at the same address is all there is to go by; at another address, only a
			// miner that was gone before this one started can be the same one.
			if (noIds && candidate.url === input.url) return candidate.miner;
			if (gone) return candidate.miner;
		}
	}

	if (facts.apiId === null && facts.workerId === null) {
		const byUrl = store.get<{miner: number}>(
			'SELECT miner FROM miner WHERE url = ? AND api_id IS NULL AND worker IS NULL ORDER BY last_seen DESC LIMIT 1',
			input.url,
		);
		if (byUrl) return byUrl.miner;
	}

	return null;
}

/** The miners at `host` whose stored worker id, cleaned, is `workerId` (rows written before the text boundary). */
function storedRaw(store: HistoryStore, host: string, url: string, workerId: string): MinerRow[] {
	return store
		.all<MinerRow>(
			'SELECT miner, api_id, worker, kind, url, last_seen FROM miner WHERE host = ? AND worker IS NOT NULL AND worker <> ? ORDER BY (url = ?) DESC, last_seen DESC',
			host,
			workerId,
			url,
		)
		.filter((row) => row.worker !== null && cleanText(row.worker) === workerId);
}
