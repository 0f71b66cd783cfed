/**
 * What a rig's part of a batch from the live fleet (pause or resume on marked rigs, the fleet config view's set and
 * undo) leaves in the rig's events log, which the recorder stores and the alert center reads: a part that failed or
 * did not reach the rig is a trouble of the rig ('batch-failed': alerted, so notified), a later part that took on it
 * ends it ('batch-ok'); anything else is the action's news, as a single rig's pause is.
 */
import type {EventKind, Severity} from '../monitor/event-kinds.js';
import type {RigResult, RigStatus} from './types.js';

/** The event a rig's part of a batch makes. */
export type RigOutcome = {readonly kind: EventKind; readonly severity: Severity; readonly message: string};

/** A rig's part that should have taken and did not: it failed, or the rig was not reached (the change is not on it). */
const FAILED: ReadonlySet<RigStatus> = new Set(['failed', 'unreachable']);
const TOOK: ReadonlySet<RigStatus> = new Set(['applied', 'already']);

/**
 * Which rigs have a batch failure open, by their monitor (or any object standing for the rig): one for the session,
 * shared by the fleet's batches and its config view, so that a set that failed is ended by a pause that took.
 */
export class BatchFailures {
	readonly #open = new WeakSet<object>();

	/**
	 * The event for one rig's result of the batch `what` ("pause", "config set cpu.yield") written by `by`; null for a
	 * rig neither reached nor failed (cancelled before it was tried, skipped without an answer).
	 */
	outcome(rig: object, result: RigResult, what: string, by: string): RigOutcome | null {
		const took = TOOK.has(result.status);
		const said = result.status === 'applied' && result.lines.length > 0 ? result.lines.join('; ') : result.reason;
		const message = `batch ${what} (${by}): ${took ? said : `${result.status}: ${said}`}`;
		if (FAILED.has(result.status)) {
			this.#open.add(rig);
			return {kind: 'batch-failed', severity: 'warn', message};
		}

		if (took && this.#open.delete(rig)) return {kind: 'batch-ok', severity: 'info', message};
		if (!result.answered) return null;
		return {kind: 'action', severity: took ? 'info' : 'warn', message};
	}
}
