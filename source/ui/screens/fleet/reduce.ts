/**
 * The fleet's keys as a pure reducer (screens/contract.ts): `reduce(state, action, env)`. The state is what the fleet
 * owns (the selected rig, the first line shown, the sort, the filter and its typing, the help); everything else it
 * reads is its `FleetEnv` (frame.ts), given at each dispatch: every rig's row as drawn, the terminal's size (so the
 * page size and how far the help scrolls are the frame's on screen), what the app gave. The rows are shown sorted
 * and filtered (order.ts); the selection is a rig, not a line: when the sort moves rows (a hashrate changed), the
 * selection stays on the same rig, and a filter that hides it moves it to the first rig shown. The visible window of
 * rows follows the selection. Until a key picks a rig (a fresh start), the selection is the first line and the table
 * shows the top, however the rigs that come up reorder a sort. What reaches the app (quit, open a rig, poll every
 * rig, the chart, the events, and the selection, sort and filter it keeps for the next time the fleet shows) are the
 * step's effects.
 */
import {stateOnly, type Step} from '../../hooks/use-step-reducer.js';
import {helpKey} from '../help-toggle.js';
import {type KeyLike} from '../../keys/matcher.js';
import {SCREEN_KEYMAP} from '../../keys/bindings.js';
import {pastedLine, type TypedText} from '../../widgets/line-editor.js';
import {commandOf} from '../contract.js';
import {activeFilterOf, isListMove, moveKey, placeIn, selectedIn, settleIn, startFilter, typeFilter, type ListPlace} from '../list.js';
import {availability} from './availability.js';
import {fleetFrame, helpMax as helpMaxOf, type FleetEnv} from './frame.js';
import {fleetOrder, LISTED, nextSort, shownSort, SORT_CYCLE, type FleetSort} from './order.js';
import {planFleetBatch, type FleetAction, type FleetPlan} from './batch-plan.js';
import {batchRows, batchScrollMax} from '../../widgets/batch-lines.js';
import {fleetBodyHeight} from './layout.js';
import {rigLabel} from './columns.js';

/** What the fleet keeps while a rig's dashboard is open (and, with prefs, between runs), so Esc comes back to the same table. */
export type FleetSaved = {readonly sort: FleetSort; readonly filter: string};

/**
 * What is the fleet's, not its screen's: the marked rigs and the first line shown. The app keeps them while any
 * screen opened from the fleet shows (a rig's dashboard, the chart, the events, the fleet config view), so the fleet
 * comes back as it was left.
 */
export type FleetKept = {readonly marked: ReadonlySet<number>; readonly offset: number};

export type FleetCommand =
	| {readonly command: 'quit'}
	| {readonly command: 'open'; readonly index: number}
	| {readonly command: 'refreshAll'}
	/** The selected rig's chart; every rig's events. */
	| {readonly command: 'chart'; readonly index: number}
	| {readonly command: 'events'}
	/** The selection moved to another rig (once one is picked): the app opens the fleet on it next time. */
	| {readonly command: 'select'; readonly index: number}
	/** The sort or the filter in force changed: the app opens the fleet with them next time (and remembers them). */
	| {readonly command: 'save'; readonly saved: FleetSaved}
	/** The marks or the first line shown changed: the app opens the fleet with them next time. */
	| {readonly command: 'keep'; readonly kept: FleetKept}
	/** The question was answered yes: run the batch on these rigs; Esc while it runs cancels it; closing its results. */
	| {readonly command: 'batch'; readonly action: FleetAction; readonly rigs: readonly number[]}
	| {readonly command: 'cancelBatch'}
	| {readonly command: 'closeBatch'}
	/** `c` with rigs marked: the fleet config view on them (session indexes, in the session's order). */
	| {readonly command: 'fleetConfig'; readonly rigs: readonly number[]};

export type FleetStep = Step<FleetUiState, FleetCommand>;

export type {FleetEnv} from './frame.js';

export type FleetUiState = {
	readonly help: boolean;
	/** The help's first entry shown. */
	readonly helpOffset: number;
	/** The selected rig (its index in the session), whatever line it is on. */
	readonly selected: number;
	/**
	 * Nothing chosen yet (a fresh start): the selection is the first line, whichever rig is on it, and the table shows
	 * the top, while rigs that come up move about in a sort. The first key that moves or opens a rig ends it.
	 */
	readonly pinned: boolean;
	/** The first line shown (a position in the sorted, filtered order). */
	readonly offset: number;
	readonly sort: FleetSort;
	/** The filter in force ("" for none). */
	readonly filter: string;
	/** The filter being typed after `/` (it applies as it is typed), else null. */
	readonly prompt: TypedText | null;
	/** The marked rigs, by their index in the session (a rig's stable key): sorting, filtering, going down keep them. */
	readonly marked: ReadonlySet<number>;
	/** The question `p` or `r` asks (what will happen), else null. */
	readonly asking: FleetPlan | null;
	/** A line in the footer's place: why a key does nothing (--read-only, nothing to pause), until the next key. */
	readonly message: string | null;
	/**
	 * The filter in force is the one remembered from the last run (prefs), untouched: the view says what it hides in the
	 * footer's place until the first key.
	 */
	readonly restored: boolean;
	/**
	 * The batch's pane (progress, then each rig's result): what it does, and its first screen line shown (a rig's
	 * result wraps over several: batch-lines.ts).
	 */
	readonly batch: FleetBatchPane | null;
};

/** The batch pane's part of the state. */
export type FleetBatchPane = {readonly action: FleetAction; readonly offset: number};

export type FleetUiAction =
	| {readonly type: 'key'; readonly input: string; readonly key: KeyLike}
	/** A paste: text for the filter being typed, else nothing (pasted text is no command). */
	| {readonly type: 'paste'; readonly text: string};

const NO_MARKS: ReadonlySet<number> = new Set();

export function initialFleetUiState(
	options: {
		/** The rig to select (coming back from its dashboard); without it the selection is the first line. */
		readonly selected?: number;
		readonly saved?: FleetSaved;
		/** The rigs marked and the first line shown (coming back from any screen opened from the fleet). */
		readonly kept?: FleetKept;
		/** `saved` is what the last run left (prefs), shown for the first time in this one. */
		readonly restored?: boolean;
	} = {},
): FleetUiState {
	// A sort remembered by name (prefs) that this fleet has no column for: nothing of it is restored.
	const saved = options.saved && SORT_CYCLE.includes(options.saved.sort.key) ? options.saved : undefined;
	return {
		help: false,
		helpOffset: 0,
		selected: Math.max(0, options.selected ?? 0),
		pinned: options.selected === undefined,
		offset: options.selected === undefined ? 0 : (options.kept?.offset ?? 0),
		sort: saved?.sort ?? LISTED,
		filter: saved?.filter ?? '',
		prompt: null,
		marked: options.kept?.marked ?? NO_MARKS,
		asking: null,
		message: null,
		restored: options.restored === true && (saved?.filter ?? '') !== '',
		batch: null,
	};
}

/** The filter the table shows now: the one being typed, else the one in force. */
export function activeFilter(state: FleetUiState): string {
	return activeFilterOf(state);
}

/** The lines in order, the selected rig's line and the first line shown, for these rows. */
export type FleetView = ListPlace<number>;

/**
 * Where things are in the frame of this env: the order (sorted, filtered), the selected rig's line (the first line
 * when the filter hides it), and the first line shown so that the selection is in view, for the frame's page size.
 * The view draws this; keys move from it.
 */
export function fleetView(state: FleetUiState, env: FleetEnv): FleetView {
	const frame = fleetFrame(state.sort, activeFilter(state), env, state.marked.size > 0);
	return place(state, frame.order, frame.layout.rigRows);
}

/** fleetView for an order already made (the view sorts once per render). */
export function place(state: FleetUiState, order: readonly number[], pageSize: number): FleetView {
	return placeIn(state, order, pageSize);
}

/** The selected rig now: the one the state names while it is shown, else the first shown; null when none is. */
export function selectedRig(state: FleetUiState, env: Pick<FleetEnv, 'rows' | 'wants'>): number | null {
	return selectedIn(state, fleetOrder(env.rows, shownSort(state.sort, env.wants.sensors === true), activeFilter(state)));
}

/** After the sort or the filter changed: the same rig selected when it is still shown (else the first), in view. */
function settle(state: FleetUiState, env: FleetEnv): FleetUiState {
	return settleIn(state, fleetView(state, env));
}

export function reduce(state: FleetUiState, action: FleetUiAction, env: FleetEnv): FleetStep {
	return told(state, stepOf(state, action, env), env);
}

function stepOf(state: FleetUiState, action: FleetUiAction, env: FleetEnv): FleetStep {
	switch (action.type) {
		case 'key': {
			// Any key clears a message (the key that made it said it), and the notice of a filter from the last run.
			const shown = state.message === null && !state.restored ? state : {...state, message: null, restored: false};
			if (shown.batch) return batchStep(shown, shown.batch, action.input, action.key, env);
			if (shown.asking) return questionStep(shown, shown.asking, action.input, action.key, env);
			return shown.prompt ? promptStep(shown, action.input, action.key, env) : keyStep(shown, action, env);
		}

		case 'paste': {
			const line = state.prompt ? pastedLine(action.text) : null;
			if (!state.prompt || line === null) return stateOnly(state);
			return promptStep(state, line, {}, env);
		}
	}
}

/**
 * The step, with what the app keeps told first: the rig now selected when the step moved the selection to another
 * one (or the user leaves for every rig's events, which carries no rig), and the sort and filter in force when the
 * step changed them, and the marks and the first line shown when they changed. The app hears of a change from the key
 * that made it, never from a render.
 */
function told(before: FleetUiState, step: FleetStep, env: FleetEnv): FleetStep {
	const after = step.state;
	const tell: FleetCommand[] = [];
	if (!after.pinned) {
		const was = before.pinned ? null : selectedRig(before, env);
		const now = selectedRig(after, env);
		const leaving = step.effects.some((effect) => effect.command === 'events');
		if (now !== null && (now !== was || leaving)) tell.push({command: 'select', index: now});
	}

	if (after.sort !== before.sort || after.filter !== before.filter)
		tell.push({command: 'save', saved: {sort: after.sort, filter: after.filter}});
	if (after.marked !== before.marked || after.offset !== before.offset)
		tell.push({command: 'keep', kept: {marked: after.marked, offset: after.offset}});
	return tell.length === 0 ? step : {state: after, effects: [...tell, ...step.effects]};
}

/** The rigs `p` and `r` act on: the marked ones (in the session's order), else the selected one. */
function batchRigs(state: FleetUiState, view: FleetView): readonly number[] {
	if (state.marked.size > 0) return [...state.marked].sort((a, b) => a - b);
	const rig = view.position < 0 ? undefined : view.order[view.position];
	return rig === undefined ? [] : [rig];
}

/** The question: y runs the batch (its pane opens), anything else asks no more. */
function questionStep(state: FleetUiState, plan: FleetPlan, input: string, key: KeyLike, env: FleetEnv): FleetStep {
	const outcome = commandOf(SCREEN_KEYMAP, availability(state, env), input, key);
	if (outcome === null || !('command' in outcome) || outcome.command !== 'yes') return stateOnly({...state, asking: null});
	return {
		state: {...state, asking: null, batch: {action: plan.action, offset: 0}},
		effects: [{command: 'batch', action: plan.action, rigs: plan.rigs}],
	};
}

/** The steps ↑↓ and PgUp/PgDn take through the batch pane's lines (a page: the lines it shows). */
function batchScrollStep(command: string, rows: number): number | null {
	if (command === 'batchUp') return -1;
	if (command === 'batchDown') return 1;
	if (command === 'batchPageUp') return -rows;
	return command === 'batchPageDown' ? rows : null;
}

/** The batch's pane: Esc cancels while it runs; once done, Esc or Enter close it; ↑↓ PgUp PgDn scroll its lines. */
function batchStep(state: FleetUiState, batch: FleetBatchPane, input: string, key: KeyLike, env: FleetEnv): FleetStep {
	const outcome = commandOf(SCREEN_KEYMAP, availability(state, env), input, key);
	if (outcome === null || !('command' in outcome)) return stateOnly(state);
	// The pane takes the table's and the events' place: the body.
	const height = fleetBodyHeight(env.size.rows);
	const rows = batchRows(height);
	const most = env.batch ? batchScrollMax(env.batch, batch.action, env.size.columns, height) : 0;
	const step = batchScrollStep(outcome.command, rows);
	if (step !== null)
		return stateOnly({...state, batch: {...batch, offset: Math.max(0, Math.min(most, Math.min(most, batch.offset) + step))}});
	switch (outcome.command) {
		case 'batchCancel':
			return {state, effects: [{command: 'cancelBatch'}]};
		case 'batchClose':
			return {state: {...state, batch: null}, effects: [{command: 'closeBatch'}]};
		default:
			return stateOnly(state);
	}
}

/** Typing the filter: it applies as it is typed; Enter keeps it, Esc clears it. */
function promptStep(state: FleetUiState, input: string, key: KeyLike, env: FleetEnv): FleetStep {
	const outcome = commandOf(SCREEN_KEYMAP, availability(state, env), input, key);
	const command = outcome && 'command' in outcome ? outcome.command : null;
	const typed = typeFilter(state, command === 'filterKeep' || command === 'filterClear' ? command : null, input, key);
	return stateOnly(typed === state ? state : settle(typed, env));
}

/** Enter and g: the rig on the selected line, picked (no longer the first line by default), and told; none shown: nothing. */
function onSelected(state: FleetUiState, view: FleetView, effect: (index: number) => FleetCommand): FleetStep {
	const rig = view.position < 0 ? undefined : view.order[view.position];
	return rig === undefined ? stateOnly(state) : {state: {...state, selected: rig, pinned: false}, effects: [effect(rig)]};
}

function keyStep(state: FleetUiState, action: Extract<FleetUiAction, {type: 'key'}>, env: FleetEnv): FleetStep {
	const outcome = commandOf(SCREEN_KEYMAP, availability(state, env), action.input, action.key);
	// A key it does not offer does nothing; one refused (pause under --read-only) says why.
	if (outcome === null) return stateOnly(state);
	if (!('command' in outcome)) return stateOnly({...state, message: outcome.refused});
	// The frame on screen: its page size, and how far its help scrolls.
	const frame = fleetFrame(state.sort, activeFilter(state), env, state.marked.size > 0);
	const pageSize = frame.layout.rigRows;
	const view = place(state, frame.order, pageSize);
	if (isListMove(outcome.command)) return stateOnly(moveKey(state, view, outcome.command, pageSize));
	const help = helpKey(state, outcome.command, () => helpMaxOf(env, frame.layout));
	if (help !== null) return stateOnly(help);
	switch (outcome.command) {
		case 'sort':
			return stateOnly(
				settle({...state, sort: nextSort(shownSort(state.sort, env.wants.sensors === true), env.wants.sensors === true)}, env),
			);
		case 'sortReverse':
			return stateOnly(settle({...state, sort: {...state.sort, reversed: !state.sort.reversed}}, env));
		case 'filter':
			return stateOnly(startFilter(state));
		case 'clearFilter':
			return stateOnly(settle({...state, filter: ''}, env));
		case 'refreshAll':
			return {state, effects: [{command: 'refreshAll'}]};
		case 'open':
			return onSelected(state, view, (index) => ({command: 'open', index}));

		case 'quit':
			return {state, effects: [{command: 'quit'}]};
		case 'chart':
			return onSelected(state, view, (index) => ({command: 'chart', index}));

		case 'events':
			return {state, effects: [{command: 'events'}]};
		case 'mark': {
			const rig = view.position < 0 ? undefined : view.order[view.position];
			if (rig === undefined) return stateOnly(state);
			const marked = new Set(state.marked);
			if (marked.has(rig)) marked.delete(rig);
			else marked.add(rig);
			const moved = moveKey(state, view, 'fleetDown', pageSize);
			return stateOnly({...moved, selected: moved.pinned ? rig : moved.selected, pinned: false, marked});
		}

		case 'markShown': {
			if (view.order.length === 0) return stateOnly(state);
			const all = view.order.every((rig) => state.marked.has(rig));
			const marked = new Set(state.marked);
			for (const rig of view.order) {
				if (all) marked.delete(rig);
				else marked.add(rig);
			}

			return stateOnly({...state, marked});
		}

		case 'clearMarks':
			return stateOnly({...state, marked: NO_MARKS});
		case 'config':
			return state.marked.size === 0 ? stateOnly(state) : {state, effects: [{command: 'fleetConfig', rigs: batchRigs(state, view)}]};
		case 'pause':
		case 'resume': {
			const rigs = batchRigs(state, view);
			if (rigs.length === 0) return stateOnly(state);
			const labels = env.rows.map((row) => rigLabel(row));
			const plan = planFleetBatch(outcome.command, rigs, env.states, labels, env.tokens, env.tokenFrom);
			// Nothing to do is said in the footer's place, not asked.
			return stateOnly(plan.nothing === null ? {...state, asking: plan} : {...state, message: plan.nothing});
		}

		default:
			return stateOnly(state);
	}
}
