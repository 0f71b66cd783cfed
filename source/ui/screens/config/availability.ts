/**
 * Which keys of the config view work now, and why each of the others does not: the one source of the footer
 * (`footerOf`), the `?` help (`configHelp`) and the key handler (the reducer asks `commandOf`). A key the footer
 * shows works; a key that does nothing says why here, in one line, or is not offered at all.
 */
import {applying, BUSY_MESSAGE, READ_ONLY_MESSAGE, STALE_EDITS_MESSAGE, type ConfigSessionState} from '../../../config/session.js';
import {wordsFor, type ConfigSubject} from '../../../config/words.js';
import {CONFIG_KEYMAP, type ConfigCommandName, type ConfigMode} from '../../keys/bindings.js';
import type {Capability, HelpEntry} from '../../keys/matcher.js';
import {decide, helpOf, type Availability} from '../contract.js';
import type {ConfigUiState, Tone} from './state.js';
import {cursorIndex, isContainer, visibleEntries} from '../../widgets/config-rows.js';

/** What the config view reads but does not own, passed with every action (screens/contract.ts). */
export type ConfigEnv = {
	/** The miner's config session as it is now (read only: a change goes out as an effect). */
	readonly session: ConfigSessionState;
	/** --read-only (the prop; the session's own flag counts too). */
	readonly readOnly: boolean;
	/** Tree rows that fit on screen now. */
	readonly pageSize: number;
	/** How far the help can scroll (helpMaxOffset of the help's entries in the frame). */
	readonly helpMax: number;
	/** The terminal is below the view's smallest size: it shows only that, so only the way out works. */
	readonly tooSmall: boolean;
};

export type ConfigAvailability = Availability<ConfigCommandName, ConfigMode>;

/** Why `u` does nothing after an apply that turned restricted mode on. */
export const NO_UNDO_MESSAGE = 'no undo through the API: the miner is in restricted mode now (set it back to false in its config file)';

/** The refusals that warn (a write or an edit that cannot happen); the others inform (nothing to do yet). */
const WARNINGS: ReadonlySet<string> = new Set([READ_ONLY_MESSAGE, BUSY_MESSAGE, NO_UNDO_MESSAGE, STALE_EDITS_MESSAGE]);

/** How a refusal is shown under the tree. */
export function refusalTone(reason: string): Tone {
	return WARNINGS.has(reason) ? 'warn' : 'info';
}

/** Whether the result panel of the last apply/undo is up (derived: the user has not closed it yet). */
export function showsResult(state: ConfigUiState, session: ConfigSessionState): boolean {
	return session.lastResult !== null && session.busy === null && session.resultSeq > state.resultSeen;
}

/** The mode the keys work in now. */
/**
 * The last key's notice as it shows now: "wait: a change is being applied" only while one is (a key pressed during an
 * apply no longer says "wait" under the result once it is done); every other notice until the next key.
 */
export function shownNotice(state: ConfigUiState, session: ConfigSessionState): ConfigUiState['notice'] {
	if (state.notice?.text === BUSY_MESSAGE && !applying(session)) return null;
	return state.notice;
}

export function modeOf(state: ConfigUiState, session: ConfigSessionState): ConfigMode {
	if (state.prompt) return 'prompt';
	if (state.help) return 'help';
	if (state.dialog?.kind === 'diff') return 'panel';
	if (state.dialog) return 'confirm';
	if (showsResult(state, session)) return 'panel';
	return 'browse';
}

export function pendingCount(session: ConfigSessionState): number {
	return session.edits?.size ?? 0;
}

/** Writes are off: --read-only, given to the view or to the session. */
export function writesOff(env: Pick<ConfigEnv, 'readOnly' | 'session'>): boolean {
	return env.readOnly || env.session.readOnly;
}

const WRITE: ReadonlySet<Capability> = new Set<Capability>(['write']);
const NOTHING: ReadonlySet<Capability> = new Set<Capability>();
const offered = (off: boolean): ReadonlySet<Capability> => (off ? NOTHING : WRITE);

/** The key for a command while browsing, as the footer writes it (for hints in messages). */
export const keyFor = (command: ConfigCommandName): string => CONFIG_KEYMAP.keyOf(command, 'browse');

export function availability(state: ConfigUiState, env: ConfigEnv): ConfigAvailability {
	const {session} = env;
	const pending = pendingCount(session);
	if (env.tooSmall) {
		// Only the way out (q, F10), and only when nothing is pending: a question about it could not be seen.
		const works = new Set<ConfigCommandName>(pending === 0 && !applying(session) ? ['leave', 'quit'] : []);
		return {context: 'browse', works, refused: new Map()};
	}

	const mode = modeOf(state, session);
	const refused = new Map<Capability | ConfigCommandName, string>();
	if (writesOff(env)) refused.set('write', READ_ONLY_MESSAGE);
	else if (applying(session)) refused.set('write', BUSY_MESSAGE);
	if (applying(session)) for (const command of ['back', 'leave', 'quit'] as const) refused.set(command, BUSY_MESSAGE);
	const writes = refused.get('write');

	if (mode === 'browse' || mode === 'panel') {
		// u and R work the same from the tree and from a result panel.
		if (writes === undefined && !session.lastApplied)
			refused.set('undo', session.undoBlocked ? NO_UNDO_MESSAGE : 'nothing to undo: no change was applied in this rigtop session yet');
		if (session.busy !== null) refused.set('reload', 'wait: the miner is being talked to');
	}

	let onSection = true;
	if (mode === 'browse') {
		const {document} = session;
		const rows = document ? visibleEntries(document, state.expanded) : [];
		const at = cursorIndex(rows, state.cursor, document);
		const entry = at === -1 ? undefined : rows[at];
		onSection = entry !== undefined && isContainer(entry);
		if (document === null) {
			refused.set('search', `nothing to search: the config has not been read (${keyFor('reload')} tries again)`);
			// No tree: nothing to toggle, edit, step, apply or find again (the footer offered them, and they did nothing).
			const why = `nothing to edit: the config has not been read (${keyFor('reload')} tries again)`;
			for (const command of ['toggle', 'activate', 'increment', 'decrement', 'apply', 'nextMatch'] as const) refused.set(command, why);
		}

		if (pending === 0) {
			refused.set('diff', 'no pending changes');
			refused.set('discard', 'no pending changes');
		}

		// Enter opens a section whatever writes allow; on a value it is an edit.
		if (writes !== undefined && entry !== undefined && !onSection) refused.set('activate', writes);
	}

	const decided = decide(CONFIG_KEYMAP, mode, offered(writesOff(env)), refused);
	// w applies from the diff's panel (it shows what w applies); a result's panel has nothing pending to apply.
	if (mode === 'panel' && state.dialog?.kind !== 'diff') {
		const works = new Set(decided.works);
		works.delete('apply');
		const why = new Map(decided.refused);
		why.delete('apply');
		return {...decided, works, refused: why, unlisted: unlistedIn(mode, env)};
	}

	const unlisted = unlistedIn(mode, env);
	if (mode !== 'browse' || !onSection || !decided.refused.has('toggle')) return {...decided, unlisted};
	// Space opens and closes a section too: only a value's toggle is a write.
	const works = new Set(decided.works).add('toggle');
	const why = new Map(decided.refused);
	why.delete('toggle');
	return {context: mode, works, refused: why, unlisted};
}

/**
 * What works but the footer leaves to the help now (the availability's `unlisted`): the footer has room for what
 * matters at the moment (R after a conflict or a failed read, u when nothing is pending, the edit keys only when
 * writes are on).
 */
function unlistedIn(context: ConfigMode, env: ConfigEnv): ReadonlySet<ConfigCommandName> {
	const {session} = env;
	const left = new Set<ConfigCommandName>();
	if (session.document !== null && session.lastResult?.status !== 'conflict') left.add('reload');
	if (context === 'browse') {
		if (pendingCount(session) > 0) left.add('undo');
		if (writesOff(env)) for (const command of ['toggle', 'activate'] as const) left.add(command);
	}

	if (context === 'panel') {
		// A result panel's footer: closing it, and the undo of what it reports or the reload after a conflict.
		if (session.lastResult?.status !== 'done') left.add('undo');
		left.add('help');
	}

	return left;
}

/**
 * The help: the tree's keys this session has (without writes, --read-only, no toggling, stepping or applying), the
 * same whatever is pending; which of them work now is the footer's, and the others say why when pressed. Its own
 * keys (Esc, ↑↓) are on its frame: listing them here would give Esc and ↑ two meanings in one list.
 */
export function configHelp(writesAreOff: boolean): readonly HelpEntry[] {
	return helpOf(CONFIG_KEYMAP, ['browse'], decide(CONFIG_KEYMAP, 'browse', offered(writesAreOff))).filter((entry) => entry.available);
}

/** What the config view's help is made from: whether writes are off, and what is configured (its words). */
export type ConfigHelpFrom = {readonly writesAreOff: boolean; readonly subject: ConfigSubject};

/** configHelp in the words of what is configured (a miner's, an xmrig-proxy's). */
export function configHelpIn({writesAreOff, subject}: ConfigHelpFrom): readonly HelpEntry[] {
	return configHelp(writesAreOff).map((entry) => ({...entry, description: wordsFor(subject, entry.description)}));
}
