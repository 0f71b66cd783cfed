import {ConfigDocument} from '../../../source/config/document.js';
import {PendingEdits} from '../../../source/config/edits.js';
import type {ConfigSessionState} from '../../../source/config/session.js';
import {v6Config} from './fixtures.js';

/**
 * A config session's state as the view sees it once the config is read: ready, nothing applied, `edits` on its
 * document (the recorded 6.26 config when none is given), with `patch` over it.
 */
export function readySessionState(edits?: PendingEdits, patch: Partial<ConfigSessionState> = {}): ConfigSessionState {
	const document = edits?.base ?? new ConfigDocument(v6Config());
	return {
		phase: 'ready',
		busy: null,
		document,
		edits: edits ?? new PendingEdits(document),
		lastResult: null,
		lastAction: null,
		resultSeq: 0,
		problem: null,
		lastApplied: null,
		undoBlocked: false,
		readOnly: false,
		readAt: 0,
		...patch,
	};
}
