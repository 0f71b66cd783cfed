import type {MinerError} from '../miner/errors.js';
import type {MinerSnapshot} from '../miner/model.js';
import type {EventKind, Severity} from './event-kinds.js';
import type {LastShare} from './last-share.js';

/**
 * How rigtop's link to the miner stands (not the miner's own state, which is in the snapshot):
 * - connecting: no answer yet;
 * - live: the last poll succeeded;
 * - stale: the last poll(s) failed but the failure may pass; the panes keep the last values;
 * - down: the miner has not answered for a while (or refuses connections); polling backs off;
 * - error: the miner answers but rigtop cannot use it (auth, wrong server): needs the user.
 */
export type LinkStatus = 'connecting' | 'live' | 'stale' | 'down' | 'error';

/** A kind of event, and how bad one is: one row each in the catalogue (event-kinds.ts), where every union of kinds comes from. */
export type {EventKind, Severity} from './event-kinds.js';

export type MinerEvent = {
	/** Unique and increasing within one monitor (stable React key). */
	readonly seq: number;
	/** Epoch ms. */
	readonly at: number;
	readonly kind: EventKind;
	readonly severity: Severity;
	/** One short line, e.g. "share rejected (3 of 1 207)" or "down: connection refused". */
	readonly message: string;
	/** A proxy's worker the event is about (its name; the message names it too); absent for the miner's own events. */
	readonly worker?: string;
	/**
	 * About this rigtop's own access, not the rig (watcherEvent in link.ts): its token refused or missing (HTTP 401 / 403),
	 * and the link back after it. Shown by this session, never stored as the rig's (docs/history.md).
	 */
	readonly watcher?: true;
};

export type MonitorState = {
	/**
	 * The rig's name, one rule everywhere (monitor/name.ts, rigName): the rigs file's name, else host:port. Never the
	 * worker id, which the screens show beside it (nameWithWorker).
	 */
	readonly name: string;
	/** Base URL polled, without credentials. */
	readonly url: string;
	readonly status: LinkStatus;
	/** Last good snapshot (kept, marked stale, when the miner goes away). */
	readonly snapshot: MinerSnapshot | null;
	/** Epoch ms of the last good poll. */
	readonly lastSuccessAt: number | null;
	/** Epoch ms of the last finished poll, good or bad. */
	readonly lastAttemptAt: number | null;
	/** Epoch ms since when the miner has been down / failing; null while live. */
	readonly failingSince: number | null;
	readonly consecutiveFailures: number;
	/** The error of the last poll, if it failed. */
	readonly error: MinerError | null;
	/** Recent 10 s hashrate samples (a proxy's 1 min; H/s; null where the window had not filled), oldest first, bounded. */
	readonly recentRates: readonly (number | null)[];
	/** Mean of all non-null 10 s samples seen since rigtop started watching this miner session; null if none. */
	readonly sessionAverage: number | null;
	/** The last accepted share (last-share.ts): when the count moved, or since when it has not; null when unknown. */
	readonly lastShare: LastShare | null;
	/** Bounded, newest last. */
	readonly events: readonly MinerEvent[];
	/** Epoch ms when the next poll is due (for "retrying in 8 s"). */
	readonly nextPollAt: number | null;
	/** Polls completed (good or bad); changes on every poll so subscribers can tell. */
	readonly polls: number;
};
