/**
 * An edit made the one way the config view makes it: on the session's pending edits (PendingEdits is immutable, so
 * the edit is the outcome), then taken by the session with `adopt`, refused as any edit is (read-only, a change
 * being applied, made on another read).
 */
import type {EditOutcome, PendingEdits} from '../../../source/config/edits.js';
import type {ConfigStore} from '../../../source/config/session.js';

export function edit(session: Pick<ConfigStore, 'getState' | 'adopt'>, change: (edits: PendingEdits) => EditOutcome): EditOutcome {
	const {edits} = session.getState();
	if (!edits) throw new Error("the miner's config has not been read yet");
	const made = change(edits);
	return made.ok ? session.adopt(made.edits) : made;
}
