/**
 * What the config view's reducer and its availability both read: the state the view owns (the cursor, what is open,
 * the prompt and its text, a question or panel over the tree, the last key's feedback, the help).
 */
import type {Prompt} from '../../widgets/config-tree.js';

export type {Prompt};

export type Tone = 'info' | 'warn' | 'error' | 'ok';
export type Notice = {readonly text: string; readonly tone: Tone};

/** A question or a panel over the tree. */
export type Dialog =
	| {readonly kind: 'diff'}
	/** Apply: step 2 is the second question for a change that can cut rigtop off. */
	| {readonly kind: 'confirm'; readonly step: 1 | 2}
	| {readonly kind: 'undo'}
	/** Leaving with pending changes: back to the dashboard (q, Esc) or out of rigtop (F10). */
	| {readonly kind: 'leave'; readonly then: 'back' | 'quit'}
	| {readonly kind: 'reload'}
	/** Discarding more than one pending change (one goes at once: it is quickly made again). */
	| {readonly kind: 'discard'};

export type ConfigUiState = {
	/** The id (dotted path) of the key under the cursor; null: the first row. */
	readonly cursor: string | null;
	/** Ids of the open sections. */
	readonly expanded: ReadonlySet<string>;
	/** Index of the first row shown. */
	readonly top: number;
	readonly prompt: Prompt | null;
	readonly dialog: Dialog | null;
	/** The last search, for `n`. */
	readonly query: string | null;
	/** One line of feedback for the last key; cleared by the next one. */
	readonly notice: Notice | null;
	/** The session's resultSeq the user has closed the result panel for. */
	readonly resultSeen: number;
	/** The view's help (?) is up, and its first entry shown. */
	readonly help: boolean;
	readonly helpOffset: number;
};
