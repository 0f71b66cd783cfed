/**
 * All key handling of the config view, as a pure reducer (screens/contract.ts): a key, read through the
 * view's availability (availability.ts: which keys work now, and why the others do not), and its env (the
 * session's state, the size) give the next view state plus the session calls to make (effects). The view
 * runs the effects at once, so keys pressed back to back always act on the latest state. An edit is made
 * here (PendingEdits is immutable, so trying one costs nothing): a refused value keeps the editor open with
 * the reason, and the effect carries the new edits, which the session takes as they are (never computed
 * again). The inline editor's and the search prompt's text lives in this state too (line-editor.ts edits
 * it; no component holds its own copy of the text), so fast typing loses no key.
 */
import type {ConfigEntry} from '../../../config/document.js';
import {jsonEqual, showPath} from '../../../config/json-values.js';
import type {PendingEdits} from '../../../config/edits.js';
import type {ConfigSessionState} from '../../../config/session.js';
import {stateOnly, type Step} from '../../hooks/use-step-reducer.js';
import {type KeyLike} from '../../keys/matcher.js';
import {CONFIG_KEYMAP, type ConfigCommandName, type ConfigMode} from '../../keys/bindings.js';
import {scrollHelp} from '../help-toggle.js';
import {scrollToShow} from '../scroll.js';
import {commandOf, keyAction, pasteAction, type ScreenDefinition} from '../contract.js';
import {
	availability,
	configHelpIn,
	keyFor,
	modeOf,
	pendingCount,
	refusalTone,
	type ConfigEnv,
	type ConfigHelpFrom,
} from './availability.js';
import {pastedLine, typeKey} from '../../widgets/line-editor.js';
import type {ConfigUiState, Prompt, Tone} from './state.js';
import {ancestorIds, cursorIndex, isContainer, searchMatches, visibleEntries} from '../../widgets/config-rows.js';
import {editorStartText, typedValue} from '../../widgets/typed-value.js';

/**
 * An edit's effect (named for the key that made it) carries only the pending edits it made: the session takes them
 * as they are (`adopt`), never computing the edit again.
 */
export type ConfigEffect =
	| {readonly type: 'toggle' | 'step' | 'set'; readonly edits: PendingEdits}
	| {readonly type: 'discard'}
	| {readonly type: 'apply'}
	| {readonly type: 'undo'}
	| {readonly type: 'reload'}
	| {readonly type: 'back'}
	| {readonly type: 'quit'};

export type ConfigUiAction =
	| {readonly type: 'key'; readonly input: string; readonly key: KeyLike}
	| {readonly type: 'paste'; readonly text: string}
	/** The session refused an effect (an edit made on a read it no longer holds…): shown as a refused key is. */
	| {readonly type: 'refused'; readonly message: string};

export type ConfigStep = Step<ConfigUiState, ConfigEffect>;

/**
 * The view's state when it opens. `resultSeen`: the session's resultSeq then, so the result of an apply
 * made in an earlier visit is never shown again.
 */
export function initialConfigUi(resultSeen = 0): ConfigUiState {
	return {
		cursor: null,
		expanded: new Set(),
		top: 0,
		prompt: null,
		dialog: null,
		query: null,
		notice: null,
		resultSeen,
		help: false,
		helpOffset: 0,
	};
}

export {modeOf} from './availability.js';

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

const same = (state: ConfigUiState): ConfigStep => stateOnly(state);
const say = (state: ConfigUiState, text: string, tone: Tone = 'info', effects: readonly ConfigEffect[] = []): ConfigStep => ({
	state: {...state, notice: {text, tone}},
	effects,
});

/** Moves the cursor to a row and scrolls so it shows. */
function moveTo(state: ConfigUiState, rows: readonly ConfigEntry[], index: number, pageSize: number): ConfigUiState {
	if (rows.length === 0) return state;
	const at = Math.min(Math.max(0, index), rows.length - 1);
	const row = rows[at];
	return {...state, cursor: row ? row.id : state.cursor, top: scrollToShow(state.top, at, rows.length, pageSize)};
}

/** Opens every section around a key and puts the cursor on it. */
function reveal(state: ConfigUiState, session: ConfigSessionState, entry: ConfigEntry, pageSize: number): ConfigUiState {
	const expanded = new Set(state.expanded);
	for (const id of ancestorIds(entry.path)) expanded.add(id);
	const next = {...state, expanded};
	const rows = session.document ? visibleEntries(session.document, expanded) : [];
	return moveTo(
		next,
		rows,
		rows.findIndex((row) => row.id === entry.id),
		pageSize,
	);
}

/**
 * A paste (bracketed: the terminal marks it, hooks/use-keys.ts keeps it away from the keys) goes into the prompt
 * being typed, whole, at the caret; anywhere else it is dropped: pasted text is not commands. A paste of several
 * lines does not fit one value: the editor says so and types nothing.
 */
function pasteStep(state: ConfigUiState, text: string, env: ConfigEnv): ConfigStep {
	const {prompt} = state;
	if (env.tooSmall || !prompt || modeOf(state, env.session) !== 'prompt') return same(state);
	const line = pastedLine(text);
	if (line === null) return prompt.kind === 'edit' ? same({...state, prompt: {...prompt, error: MULTILINE_PASTE}}) : same(state);
	const typed = typeKey(prompt, line, {});
	if (typed === prompt) return same(state);
	return same({...state, prompt: prompt.kind === 'edit' ? {...prompt, ...typed, error: null} : {...prompt, ...typed}});
}

const MULTILINE_PASTE = 'the paste holds more than one line: nothing was typed in (paste one line)';

export function configReducer(state: ConfigUiState, action: ConfigUiAction, env: ConfigEnv): ConfigStep {
	if (action.type === 'paste') return pasteStep(state, action.text, env);
	if (action.type === 'refused') return say(state, action.message, refusalTone(action.message));
	const {input, key} = action;
	// Every key clears the last notice; a key that says something sets a new one.
	const base: ConfigUiState = state.notice ? {...state, notice: null} : state;
	const now = availability(state, env);
	const outcome = commandOf(CONFIG_KEYMAP, now, input, key);
	if (outcome !== null && 'refused' in outcome) {
		// A panel's keys act on the tree under it (u, R, q): one that cannot closes the panel and says why there.
		const shown = now.context === 'panel' ? closePanel(base, env) : base;
		return say(shown, outcome.refused, refusalTone(outcome.refused));
	}

	const command = outcome?.command ?? null;
	// Too small to be seen, only q and F10 work (availability), and only with nothing pending: a key that acted out
	// of sight would be typed into a value, or answer a question nobody saw.
	if (env.tooSmall) return command === null ? same(base) : leaveStep(base, command === 'quit' ? 'quit' : 'back', env);
	if (now.context === 'prompt' && state.prompt) return promptKey(base, state.prompt, command, input, key, env);
	if (command === null) return same(base);
	if (now.context === 'help') return helpKey(base, command, env);
	if (now.context === 'confirm') return confirmKey(base, command, env);
	if (now.context === 'panel') return panelKey(base, command, env);
	return browseKey(base, command, env);
}

/**
 * q (back to the dashboard) and F10 (quit rigtop), from any mode: at once when nothing is pending, after
 * a question when changes are (they would be lost); never while a change is being applied (availability).
 */
function leaveStep(state: ConfigUiState, then: 'back' | 'quit', env: ConfigEnv): ConfigStep {
	const {session} = env;
	const closed: ConfigUiState = {...state, prompt: null, help: false, resultSeen: session.resultSeq};
	if (pendingCount(session) > 0) return same({...closed, dialog: {kind: 'leave', then}});
	return {state: {...closed, dialog: null}, effects: [{type: then}]};
}

function helpKey(state: ConfigUiState, command: ConfigCommandName, env: ConfigEnv): ConfigStep {
	switch (command) {
		case 'help':
		case 'closeHelp':
			return same({...state, help: false});
		case 'helpUp':
			return same(scrollHelp(state, -1, env.helpMax));
		case 'helpDown':
			return same(scrollHelp(state, 1, env.helpMax));
		case 'leave':
			return leaveStep(state, 'back', env);
		case 'quit':
			return leaveStep(state, 'quit', env);
		default:
			return same(state);
	}
}

function promptKey(
	state: ConfigUiState,
	prompt: Prompt,
	command: ConfigCommandName | null,
	input: string,
	key: KeyLike,
	env: ConfigEnv,
): ConfigStep {
	if (command === 'quit') return leaveStep(state, 'quit', env);
	if (command === 'cancel') return same({...state, prompt: null});
	if (command === 'submit') {
		if (prompt.kind === 'edit') return submitEdit(state, prompt, env);
		return runSearch({...state, prompt: null, query: prompt.text}, prompt.text, 'first', env);
	}

	const typed = typeKey(prompt, input, key);
	if (typed === prompt) return same(state);
	return same({...state, prompt: prompt.kind === 'edit' ? {...prompt, ...typed, error: null} : {...prompt, ...typed}});
}

function submitEdit(state: ConfigUiState, prompt: Extract<Prompt, {kind: 'edit'}>, env: ConfigEnv): ConfigStep {
	const {edits} = env.session;
	if (!edits) return same({...state, prompt: null});
	const typed = typedValue(prompt.path, prompt.text, edits.valueOf(prompt.path), prompt.secret);
	if (typed.kind === 'unchanged') return say({...state, prompt: null}, `${showPath(prompt.id)} unchanged`);
	const outcome = edits.set(prompt.path, typed.value);
	if (!outcome.ok) return same({...state, prompt: {...prompt, error: outcome.message}});
	return {state: {...state, prompt: null}, effects: [{type: 'set', edits: outcome.edits}]};
}

function runSearch(state: ConfigUiState, query: string, which: 'first' | 'next', env: ConfigEnv): ConfigStep {
	const {document} = env.session;
	if (!document || query.trim() === '') return same(state);
	const matches = searchMatches(document, query);
	if (matches.length === 0) return say(state, `no key matches "${query}"`, 'warn');
	let target = matches[0];
	if (which === 'next' && state.cursor !== null) {
		const order = document.entries();
		const here = order.findIndex((entry) => entry.id === state.cursor);
		target = matches.find((entry) => order.indexOf(entry) > here) ?? matches[0];
	}

	if (!target) return same(state);
	const position = matches.indexOf(target) + 1;
	const next = reveal(state, env.session, target, env.pageSize);
	return say(
		next,
		`${showPath(target.id)} — match ${position} of ${matches.length}${matches.length > 1 ? ` (${keyFor('nextMatch')}: next)` : ''}`,
	);
}

function confirmKey(state: ConfigUiState, command: ConfigCommandName, env: ConfigEnv): ConfigStep {
	const {dialog} = state;
	const {session} = env;
	if (!dialog) return same(state);
	if (command === 'no') return same({...state, dialog: null});
	if (command === 'quit') return leaveStep(state, 'quit', env);
	// q at another question: leaving is the question now (at the leave question itself it changes nothing).
	if (command === 'leave') return dialog.kind === 'leave' ? same(state) : leaveStep(state, 'back', env);
	if (command !== 'yes') return same(state);
	switch (dialog.kind) {
		case 'confirm': {
			if (dialog.step === 1 && session.edits?.hasGuarded === true) return same({...state, dialog: {kind: 'confirm', step: 2}});
			return {state: {...state, dialog: null, resultSeen: session.resultSeq}, effects: [{type: 'apply'}]};
		}

		case 'undo':
			return {state: {...state, dialog: null, resultSeen: session.resultSeq}, effects: [{type: 'undo'}]};
		case 'leave':
			return {state: {...state, dialog: null}, effects: [{type: 'discard'}, {type: dialog.then}]};
		case 'reload':
			return {state: {...state, dialog: null}, effects: [{type: 'reload'}]};
		case 'discard':
			return discardStep({...state, dialog: null}, session);
		case 'diff':
			return same(state);
	}
}

/** The tree again: the diff closed, the last result seen. */
function closePanel(state: ConfigUiState, env: ConfigEnv): ConfigUiState {
	return {...state, dialog: state.dialog?.kind === 'diff' ? null : state.dialog, resultSeen: env.session.resultSeq};
}

function panelKey(state: ConfigUiState, command: ConfigCommandName, env: ConfigEnv): ConfigStep {
	const closed = closePanel(state, env);
	switch (command) {
		case 'dismiss':
			return same(closed);
		case 'undo':
		case 'reload':
		case 'apply':
			return browseKey(closed, command, env);
		case 'help':
			// Over the panel: closing the help shows the panel again.
			return same({...state, help: true, helpOffset: 0});
		case 'leave':
			return leaveStep(closed, 'back', env);
		case 'quit':
			return leaveStep(closed, 'quit', env);
		default:
			return same(state);
	}
}

function browseKey(state: ConfigUiState, command: ConfigCommandName, env: ConfigEnv): ConfigStep {
	const {session, pageSize} = env;
	const {document, edits} = session;
	const rows = document ? visibleEntries(document, state.expanded) : [];
	const at = cursorIndex(rows, state.cursor, document);
	const entry = at === -1 ? undefined : rows[at];
	const page = Math.max(1, pageSize);

	switch (command) {
		case 'up':
			return same(moveTo(state, rows, at - 1, pageSize));
		case 'down':
			return same(moveTo(state, rows, at + 1, pageSize));
		case 'pageUp':
			return same(moveTo(state, rows, at - page, pageSize));
		case 'pageDown':
			return same(moveTo(state, rows, at + page, pageSize));
		case 'top':
			return same(moveTo(state, rows, 0, pageSize));
		case 'bottom':
			return same(moveTo(state, rows, rows.length - 1, pageSize));
		case 'open': {
			if (!entry || !isContainer(entry)) return same(state);
			if (!state.expanded.has(entry.id)) return same(expand(state, entry.id, true));
			return same(moveTo(state, rows, at + 1, pageSize));
		}

		case 'close': {
			if (!entry) return same(state);
			if (isContainer(entry) && state.expanded.has(entry.id)) return same(expand(state, entry.id, false));
			const parent = ancestorIds(entry.path).at(-1);
			if (parent === undefined) return same(state);
			return same(
				moveTo(
					state,
					rows,
					rows.findIndex((row) => row.id === parent),
					pageSize,
				),
			);
		}

		case 'activate': {
			if (!entry) return same(state);
			if (isContainer(entry)) return same(expand(state, entry.id, !state.expanded.has(entry.id)));
			if (!edits) return same(state);
			const current = edits.valueOf(entry.path);
			const raw = edits.get(entry.path) ? JSON.stringify(current) : entry.display;
			const text = editorStartText(current, raw, entry.secret);
			return same({
				...state,
				cursor: entry.id,
				prompt: {kind: 'edit', path: entry.path, id: entry.id, text, caret: text.length, secret: entry.secret, error: null},
			});
		}

		case 'toggle': {
			if (!entry) return same(state);
			if (isContainer(entry)) return same(expand(state, entry.id, !state.expanded.has(entry.id)));
			return toggleKey(state, entry, env);
		}

		case 'increment':
		case 'decrement': {
			if (!entry || isContainer(entry) || !edits) return same(state);
			const delta = command === 'increment' ? 1 : -1;
			const outcome = edits.step(entry.path, delta);
			if (!outcome.ok) return say(state, outcome.message, 'warn');
			if (jsonEqual(outcome.edits.valueOf(entry.path), edits.valueOf(entry.path))) {
				return say(state, `${showPath(entry.id)} cannot go ${delta > 0 ? 'higher' : 'lower'}`, 'warn');
			}

			return {state, effects: [{type: 'step', edits: outcome.edits}]};
		}

		case 'search':
			return same({...state, prompt: {kind: 'search', text: '', caret: 0}});
		case 'nextMatch':
			if (state.query === null) return say(state, `press ${keyFor('search')} to search first`);
			return runSearch(state, state.query, 'next', env);
		case 'diff':
			return same({...state, dialog: {kind: 'diff'}});
		case 'discard': {
			if (pendingCount(session) > 1) return same({...state, dialog: {kind: 'discard'}});
			return discardStep(state, session);
		}

		case 'apply': {
			if (pendingCount(session) === 0)
				return say(
					state,
					`nothing to apply: change a key first (${keyFor('toggle')}, ${keyFor('activate')}, ${keyFor('increment')} or ${keyFor('decrement')})`,
				);
			return same({...state, dialog: {kind: 'confirm', step: 1}});
		}

		case 'undo':
			return same({...state, dialog: {kind: 'undo'}});

		case 'reload':
			if (pendingCount(session) > 0) return same({...state, dialog: {kind: 'reload'}});
			return say(state, "reading the miner's config again", 'info', [{type: 'reload'}]);
		case 'back':
		case 'leave':
			return leaveStep(state, 'back', env);
		case 'quit':
			return leaveStep(state, 'quit', env);
		case 'help':
			return same({...state, help: true, helpOffset: 0});
		default:
			return same(state);
	}
}

function discardStep(state: ConfigUiState, session: ConfigSessionState): ConfigStep {
	return say(state, `discarded ${plural(pendingCount(session), 'pending change')}`, 'info', [{type: 'discard'}]);
}

function toggleKey(state: ConfigUiState, entry: ConfigEntry, env: ConfigEnv): ConfigStep {
	const {edits} = env.session;
	if (!edits) return same(state);
	if (entry.secret) return say(state, `${showPath(entry.id)} is a secret: press ${keyFor('activate')} to type a new one`, 'warn');
	const outcome = edits.toggle(entry.path);
	if (!outcome.ok) return say(state, `${outcome.message} (${keyFor('activate')})`, 'warn');
	return {state, effects: [{type: 'toggle', edits: outcome.edits}]};
}

function expand(state: ConfigUiState, id: string, open: boolean): ConfigUiState {
	if (state.expanded.has(id) === open) return state;
	const expanded = new Set(state.expanded);
	if (open) expanded.add(id);
	else expanded.delete(id);
	return {...state, expanded, cursor: id};
}

/** The config view's pure half and its keys, for useScreen. */
export const configLogic: ScreenDefinition<
	ConfigUiState,
	ConfigUiAction,
	ConfigEnv,
	ConfigEffect,
	ConfigCommandName,
	ConfigMode,
	ConfigHelpFrom
> = {
	reduce: configReducer,
	availability,
	keymap: CONFIG_KEYMAP,
	help: configHelpIn,
	key: keyAction,
	paste: pasteAction,
};
