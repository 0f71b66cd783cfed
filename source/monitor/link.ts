import type {MinerError} from '../miner/errors.js';
import type {EventDraft} from './events.js';
import {formatDuration} from '../text/format.js';
import type {LinkStatus} from './types.js';

/** How rigtop's link to a miner stands after a failed poll, and the events for changes of it. */

export type FailureFacts = {
	readonly error: MinerError;
	/** The link status before this poll. */
	readonly previous: LinkStatus;
	/** Consecutive failed polls, this one included. */
	readonly failures: number;
	/** Epoch ms the failing began (start of the first failed poll). */
	readonly failingSince: number;
	readonly now: number;
	readonly intervalMs: number;
	/** Whether a good snapshot has ever been read. */
	readonly hasSnapshot: boolean;
};

/**
 * - a non-transient error (auth, wrong server) → 'error': the user has to act;
 * - 'down' once failing for 3 polls or 2 intervals, or unreachable twice in a row, at once when
 *   nothing ever answered and the connection is refused, and it stays down until a poll succeeds;
 * - otherwise 'stale' (the last values stay shown), or still 'connecting' when there are none.
 */
export function statusAfterFailure(facts: FailureFacts): LinkStatus {
	const {error} = facts;
	if (!error.transient) return 'error';
	if (
		facts.previous === 'down' ||
		facts.failures >= 3 ||
		// Refused twice in a row: nothing listens there, not a passing blip.
		(error.kind === 'unreachable' && facts.failures >= 2) ||
		facts.now - facts.failingSince >= 2 * facts.intervalMs ||
		(error.kind === 'unreachable' && !facts.hasSnapshot)
	) {
		return 'down';
	}

	return facts.hasSnapshot ? 'stale' : 'connecting';
}

export function downEvent(error: MinerError): EventDraft {
	return {kind: 'down', severity: 'error', message: `down: ${error.message}`};
}

/** `watcher`: the link comes back from a watcher's error (isWatcherError), not from the rig's outage. */
export function upEvent(downForMs: number, watcher = false): EventDraft {
	const event: EventDraft = {kind: 'up', severity: 'info', message: `back up after ${formatDuration(downForMs / 1000)}`};
	return watcher ? {...event, watcher: true} : event;
}

/**
 * Whether a failure is about this rigtop rather than the rig: the miner answered and refused this client — a wrong
 * token (403), none given where one is needed, or one given to a miner without any (401), a restricted API refusing
 * it. Another rigtop with the right token reads the same rig fine at that moment.
 */
export function isWatcherError(error: MinerError | null): boolean {
	return error !== null && (error.kind === 'unauthorized' || error.kind === 'forbidden');
}

export function errorEvent(error: MinerError): EventDraft {
	const event: EventDraft = {kind: 'error', severity: 'error', message: `error: ${error.message}`};
	return isWatcherError(error) ? {...event, watcher: true} : event;
}

/**
 * The delay before retrying after `failures` failed polls in a row: the interval, doubled for each
 * further failure, capped at `maxBackoffMs` (never below the interval itself), then shortened by up
 * to 10 % at random so that many monitors of one dead host do not retry in lockstep.
 */
export function backoffDelay(intervalMs: number, failures: number, maxBackoffMs: number, random: () => number): number {
	if (failures <= 0) return intervalMs;
	const cap = Math.max(intervalMs, maxBackoffMs);
	const base = Math.min(cap, intervalMs * 2 ** Math.min(failures - 1, 30));
	const jitter = Math.min(Math.max(random(), 0), 1) * 0.1;
	return Math.round(base * (1 - jitter));
}
