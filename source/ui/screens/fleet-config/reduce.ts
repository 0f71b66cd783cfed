/**
 * The fleet config view's keys as a pure reducer (screens/contract.ts): pick a key of the marked rigs (moving, or the
 * config view's search: `/`, Enter, `n`), type its value (the config view's line editor and typed values), see each
 * rig's diff (`a` adds the key where it lacks), apply (`y`; asked twice for http.* / api.*, as the config view and
 * `config set` do), follow the batch (Esc cancels), close its results or undo it (`u`, asked first). What reaches the
 * session (apply, undo, cancel, read again) and the app (back, quit) are the step's effects.
 */
import {displayValue, type Assignment} from '../../../config/edits.js';
import {showPath} from '../../../config/json-values.js';
import {isApiGuarded, validate} from '../../../config/schema.js';
import {SECRET_MASK, type ConfigPath} from '../../../config/types.js';
import {stateOnly, type Step} from '../../hooks/use-step-reducer.js';
import {type KeyLike} from '../../keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName} from '../../keys/bindings.js';
import {helpKey} from '../help-toggle.js';
import {scrollToShow} from '../scroll.js';
import {pastedLine, typeKey, type TypedText} from '../../widgets/line-editor.js';
import {matchingKeys} from '../../widgets/config-rows.js';
import {editorStartText, typedValue} from '../../widgets/typed-value.js';
import {commandOf, keyAction, pasteAction, type ScreenDefinition} from '../contract.js';
import {
	availability,
	diffScrollMax,
	fleetConfigHelp,
	resultsScrollMax,
	type FleetConfigAvailability,
	type FleetConfigEnv,
} from './availability.js';
import {diffPlan, type KeyRow} from './rigs.js';
import type {Screen} from '../../keys/bindings.js';

export type FleetConfigNotice = {readonly text: string; readonly tone: 'info' | 'warn' | 'error'};

export type FleetConfigPrompt =
	| ({readonly kind: 'search'} & TypedText)
	| ({
			readonly kind: 'value';
			readonly id: string;
			readonly path: ConfigPath;
			readonly secret: boolean;
			readonly error: string | null;
	  } & TypedText);

export type FleetConfigUiState = {
	/** The selected key's id; null: the first. */
	readonly cursor: string | null;
	/** The first key row shown. */
	readonly top: number;
	readonly prompt: FleetConfigPrompt | null;
	/** The last search, for `n`. */
	readonly query: string | null;
	readonly notice: FleetConfigNotice | null;
	/** Each rig's diff for a value typed: the assignment, whether a lacking key is added, the first rig shown. */
	readonly diff: {
		readonly assignment: Assignment;
		/** The value as shown (a secret masked). */
		readonly shown: string;
		readonly add: boolean;
		readonly offset: number;
	} | null;
	/**
	 * The second question: http.* / api.* (apply anyway?), or the undo's; or leaving with a diff not applied, back to
	 * the fleet (q) or out of rigtop (F10), as the config view asks before dropping pending changes.
	 */
	readonly asking: 'guarded' | 'undo' | 'back' | 'quit' | null;
	/** The batch's pane is open (the apply or the undo as it goes, then its results): its first screen line shown. */
	readonly results: {readonly offset: number} | null;
	/** The help (`?`) is up, and its first entry shown. */
	readonly help: boolean;
	readonly helpOffset: number;
};

export type FleetConfigEffect =
	| {readonly type: 'apply'; readonly assignment: Assignment; readonly addKeys: boolean; readonly confirmApiChanges: boolean}
	| {readonly type: 'undo'}
	| {readonly type: 'cancel'}
	/** The results closed: every rig's config is read again (the values after the batch). */
	| {readonly type: 'reread'}
	| {readonly type: 'back'}
	| {readonly type: 'quit'};

export type FleetConfigAction =
	{readonly type: 'key'; readonly input: string; readonly key: KeyLike} | {readonly type: 'paste'; readonly text: string};

export type FleetConfigStep = Step<FleetConfigUiState, FleetConfigEffect>;

export function initialFleetConfigUi(): FleetConfigUiState {
	return {
		cursor: null,
		top: 0,
		prompt: null,
		query: null,
		notice: null,
		diff: null,
		asking: null,
		results: null,
		help: false,
		helpOffset: 0,
	};
}

const same = (state: FleetConfigUiState): FleetConfigStep => stateOnly(state);
const say = (state: FleetConfigUiState, text: string, tone: FleetConfigNotice['tone'] = 'info'): FleetConfigStep =>
	stateOnly({...state, notice: {text, tone}});

/** The selected key's row index (the first when none is chosen or it is gone). */
export function cursorAt(state: Pick<FleetConfigUiState, 'cursor'>, rows: readonly KeyRow[]): number {
	if (rows.length === 0) return -1;
	const at = state.cursor === null ? -1 : rows.findIndex((row) => row.id === state.cursor);
	return Math.max(0, at);
}

function moveTo(state: FleetConfigUiState, env: FleetConfigEnv, index: number): FleetConfigUiState {
	const {rows, pageSize} = env;
	if (rows.length === 0) return state;
	const at = Math.min(Math.max(0, index), rows.length - 1);
	return {...state, cursor: rows[at]?.id ?? state.cursor, top: scrollToShow(state.top, at, rows.length, pageSize)};
}

export function reduce(state: FleetConfigUiState, action: FleetConfigAction, env: FleetConfigEnv): FleetConfigStep {
	if (action.type === 'paste') {
		const line = state.prompt && !state.diff && !state.results ? pastedLine(action.text) : null;
		if (!state.prompt || line === null) return same(state);
		return same({...state, prompt: typed(state.prompt, typeKey(state.prompt, line, {}))});
	}

	const base = state.notice ? {...state, notice: null} : state;
	const keys = availability(state, env);
	const outcome = commandOf(SCREEN_KEYMAP, keys, action.input, action.key);
	if (outcome !== null && 'refused' in outcome) return say(base, outcome.refused, 'warn');
	const command = outcome?.command ?? null;
	switch (keys.context as Screen) {
		case 'fleetConfigHelp': {
			if (command === 'quit') return {state: base, effects: [{type: 'quit'}]};
			// q: back to the fleet, as from the keys' list under the help (nothing is pending there).
			if (command === 'closeView') return {state: {...base, help: false}, effects: [{type: 'back'}]};
			return same(command === null ? base : (helpKey(base, command, () => env.helpMax) ?? base));
		}

		case 'question':
			return answer(base, command);
		case 'fleetBatch':
		case 'fleetResults':
			return resultsKey(base, command, env, keys);
		case 'fleetConfigDiff':
			return diffKey(base, command, env);
		case 'fleetConfigTyping':
			return base.prompt ? promptKey(base, base.prompt, command, action.input, action.key, env) : same(base);
		default:
			return listKey(base, command, env);
	}
}

function typed(prompt: FleetConfigPrompt, text: TypedText): FleetConfigPrompt {
	return prompt.kind === 'value' ? {...prompt, ...text, error: null} : {...prompt, ...text};
}

function listKey(state: FleetConfigUiState, command: CommandName | null, env: FleetConfigEnv): FleetConfigStep {
	const at = cursorAt(state, env.rows);
	const page = Math.max(1, env.pageSize);
	switch (command) {
		case 'fleetUp':
			return same(moveTo(state, env, at - 1));
		case 'fleetDown':
			return same(moveTo(state, env, at + 1));
		case 'fleetPageUp':
			return same(moveTo(state, env, at - page));
		case 'fleetPageDown':
			return same(moveTo(state, env, at + page));
		case 'fleetTop':
			return same(moveTo(state, env, 0));
		case 'fleetBottom':
			return same(moveTo(state, env, env.rows.length - 1));
		case 'search':
			return same({...state, prompt: {kind: 'search', text: '', caret: 0}});
		case 'nextMatch':
			if (state.query === null) return say(state, `press ${SCREEN_KEYMAP.keyOf('search', 'fleetConfig')} to search first`);
			return search(state, state.query, 'next', env);
		case 'setValue': {
			const row = env.rows[at];
			if (!row) return same(state);
			const text = editorStartText(row.common, row.commonText, row.secret);
			return same({
				...state,
				cursor: row.id,
				prompt: {kind: 'value', id: row.id, path: row.path, secret: row.secret, error: null, text, caret: text.length},
			});
		}

		case 'help':
			return same({...state, help: true, helpOffset: 0});
		case 'closeView':
			return {state, effects: [{type: 'back'}]};
		case 'quit':
			return {state, effects: [{type: 'quit'}]};
		default:
			return same(state);
	}
}

/** The config view's search on the keys' list: the first match (or the next after the selected key), "match 2 of 3". */
function search(state: FleetConfigUiState, query: string, which: 'first' | 'next', env: FleetConfigEnv): FleetConfigStep {
	const matches = matchingKeys(env.rows, query);
	if (query.trim() === '') return same(state);
	if (matches.length === 0) return say(state, `no key matches "${query}"`, 'warn');
	const here = cursorAt(state, env.rows);
	const target = which === 'next' ? (matches.find((row) => env.rows.indexOf(row) > here) ?? matches[0]) : matches[0];
	if (!target) return same(state);
	const moved = moveTo(state, env, env.rows.indexOf(target));
	const next = matches.length > 1 ? ` (${SCREEN_KEYMAP.keyOf('nextMatch', 'fleetConfig')}: next)` : '';
	return say(moved, `${showPath(target.id)} — match ${matches.indexOf(target) + 1} of ${matches.length}${next}`);
}

function promptKey(
	state: FleetConfigUiState,
	prompt: FleetConfigPrompt,
	command: CommandName | null,
	input: string,
	key: KeyLike,
	env: FleetConfigEnv,
): FleetConfigStep {
	if (command === 'filterClear') return same({...state, prompt: null});
	if (command === 'filterKeep') {
		if (prompt.kind === 'search') return search({...state, prompt: null, query: prompt.text}, prompt.text, 'first', env);
		return submitValue(state, prompt, env);
	}

	const next = typeKey(prompt, input, key);
	return next === prompt ? same(state) : same({...state, prompt: typed(prompt, next)});
}

/** The value typed, as the config view takes it (typed-value.ts) and the schema checks it; then each rig's diff. */
function submitValue(state: FleetConfigUiState, prompt: Extract<FleetConfigPrompt, {kind: 'value'}>, env: FleetConfigEnv): FleetConfigStep {
	const row = env.rows.find((item) => item.id === prompt.id);
	const value = typedValue(prompt.path, prompt.text, row?.common, prompt.secret);
	if (value.kind === 'unchanged') return say({...state, prompt: null}, `${showPath(prompt.id)} unchanged`);
	const problem = validate(prompt.path, value.value, row?.common);
	if (problem !== null) return same({...state, prompt: {...prompt, error: problem}});
	const assignment: Assignment = {path: prompt.id, value: value.value, raw: prompt.text};
	const shown = prompt.secret ? SECRET_MASK : displayValue(prompt.path, value.value);
	return same({...state, prompt: null, diff: {assignment, shown, add: false, offset: 0}});
}

function diffKey(state: FleetConfigUiState, command: CommandName | null, env: FleetConfigEnv): FleetConfigStep {
	const {diff} = state;
	if (!diff) return same(state);
	switch (command) {
		case 'no':
			return same({...state, diff: null});
		case 'closeView':
			return same({...state, asking: 'back'});
		case 'quit':
			return same({...state, asking: 'quit'});
		case 'addKeys':
			return same({...state, diff: {...diff, add: !diff.add}});
		case 'batchUp':
		case 'batchDown': {
			const plan = diffPlan(env.reads ?? [], diff.assignment, diff.add, env.addHint);
			const most = diffScrollMax(plan, env);
			return same({...state, diff: {...diff, offset: Math.max(0, Math.min(most, diff.offset + (command === 'batchUp' ? -1 : 1)))}});
		}
		case 'yes': {
			const plan = diffPlan(env.reads ?? [], diff.assignment, diff.add, env.addHint);
			if (plan.counts.change === 0) return say(state, 'nothing to apply: no rig would change', 'warn');
			const path = env.rows.find((row) => row.id === diff.assignment.path)?.path;
			if (path && isApiGuarded(path)) return same({...state, asking: 'guarded'});
			return apply(state, diff, false);
		}

		default:
			return same(state);
	}
}

function apply(state: FleetConfigUiState, diff: NonNullable<FleetConfigUiState['diff']>, confirmApiChanges: boolean): FleetConfigStep {
	return {
		state: {...state, asking: null, results: {offset: 0}},
		effects: [{type: 'apply', assignment: diff.assignment, addKeys: diff.add, confirmApiChanges}],
	};
}

/** The second question: y goes on, any other key asks no more. */
function answer(state: FleetConfigUiState, command: CommandName | null): FleetConfigStep {
	const asked = state.asking;
	const answered = {...state, asking: null};
	if (command !== 'yes') return same(answered);
	if (asked === 'undo') return {state: {...answered, results: {offset: 0}}, effects: [{type: 'undo'}]};
	if (asked === 'back' || asked === 'quit') return {state: {...answered, diff: null}, effects: [{type: asked}]};
	if (asked === 'guarded' && state.diff) return apply(answered, state.diff, true);
	return same(answered);
}

function resultsKey(
	state: FleetConfigUiState,
	command: CommandName | null,
	env: FleetConfigEnv,
	keys: FleetConfigAvailability,
): FleetConfigStep {
	const results = state.results ?? {offset: 0};
	// By screen lines: a rig's result wraps (batch-lines.ts); a page is the lines the pane shows.
	const step = {batchUp: -1, batchDown: 1, batchPageUp: -env.paneRows, batchPageDown: env.paneRows}[command as string];
	if (step !== undefined) {
		const most = resultsScrollMax(state, env);
		return same({...state, results: {offset: Math.max(0, Math.min(most, Math.min(most, results.offset) + step))}});
	}

	switch (command) {
		case 'batchCancel':
			return {state, effects: [{type: 'cancel'}]};
		case 'batchClose':
			return {state: {...state, results: null, diff: null}, effects: [{type: 'reread'}]};
		case 'batchUndo':
			return keys.works.has('batchUndo') ? same({...state, asking: 'undo'}) : same(state);
		default:
			return same(state);
	}
}

/** The fleet config view's pure half and its keys, for useScreen. */
export const fleetConfigLogic: ScreenDefinition<
	FleetConfigUiState,
	FleetConfigAction,
	FleetConfigEnv,
	FleetConfigEffect,
	CommandName,
	Screen
> = {
	reduce,
	availability,
	keymap: SCREEN_KEYMAP,
	help: fleetConfigHelp,
	key: keyAction,
	paste: pasteAction,
};
