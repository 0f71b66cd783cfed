/**
 * All dashboard key handling, as a reducer: `useInput` only dispatches the raw `{input, key}`,
 * and this maps it through the keymap (useStepReducer). Commands that reach outside the UI (quit,
 * pause, …) are the step's effects; the view hands them to the app's callbacks.
 */
import {formatInterval, nextInterval} from '../monitor/poll-interval.js';
import {stateOnly, type Step} from './hooks/use-step-reducer.js';
import {helpCommand} from './help-toggle.js';
import {type Capability, type KeyLike} from './keys/matcher.js';
import {SCREEN_KEYMAP, type Screen} from './keys/bindings.js';
import {NO_REFUSALS, type Refusals} from './offers.js';
import {BY_INDEX, nextThreadSort, type ThreadSort} from './panes/thread-order.js';

/** One line in the footer's place: why a key did nothing (warn), or a question. */
export type DashboardMessage = {readonly text: string; readonly tone: 'warn' | 'info'};

/** Commands carried out by the app through a callback. */
export type ActionCommand =
	'quit' | 'config' | 'pause' | 'resume' | 'refresh' | 'toFleet' | 'slower' | 'faster' | 'freeze' | 'chart' | 'events';

export type DashboardStep = Step<DashboardUiState, ActionCommand>;

export type DashboardUiState = {
	readonly help: boolean;
	/** The first help entry shown, and how far the help can scroll in its frame. */
	readonly helpOffset: number;
	readonly helpMax: number;
	/** Index of the first thread row shown. */
	readonly threadsOffset: number;
	/** The column the threads are sorted by (s cycles it, I reverses it). */
	readonly threadSort: ThreadSort;
	/** How many thread rows fit in the pane now. */
	readonly pageSize: number;
	readonly threadCount: number;
	/** What the app offers (the callbacks it gave, less what the miner refuses): keys that need anything else do nothing. */
	readonly offered: ReadonlySet<Capability>;
	/** Why each refused capability cannot work: its key says so instead of doing nothing. */
	readonly refusals: Refusals;
	/** What the last key said; cleared by the next key (or after a few seconds, by the view). */
	readonly message: DashboardMessage | null;
	/** A question waiting for its answer: p asks before pausing (y pauses, any other key does not). */
	readonly asking: 'pause' | null;
	/** The session's poll interval (ms), where it can be changed: + and - stop at the ends of its steps. */
	readonly intervalMs: number | null;
};

export type DashboardUiAction =
	| {readonly type: 'key'; readonly input: string; readonly key: KeyLike}
	| {readonly type: 'viewport'; readonly pageSize: number; readonly threadCount: number; readonly helpMax?: number}
	| {readonly type: 'offered'; readonly offered: ReadonlySet<Capability>; readonly refusals?: Refusals}
	| {readonly type: 'clearMessage'}
	| {readonly type: 'interval'; readonly ms: number | null};

export function initialUiState(options: {
	readonly offered: ReadonlySet<Capability>;
	readonly refusals?: Refusals;
	readonly pageSize?: number;
	readonly threadCount?: number;
}): DashboardUiState {
	return {
		help: false,
		helpOffset: 0,
		helpMax: 0,
		threadsOffset: 0,
		threadSort: BY_INDEX,
		pageSize: Math.max(0, options.pageSize ?? 0),
		threadCount: Math.max(0, options.threadCount ?? 0),
		offered: options.offered,
		refusals: options.refusals ?? NO_REFUSALS,
		message: null,
		asking: null,
		intervalMs: null,
	};
}

function maxOffset(state: DashboardUiState): number {
	return Math.max(0, state.threadCount - state.pageSize);
}

function scrollTo(state: DashboardUiState, offset: number): DashboardUiState {
	const clamped = Math.min(Math.max(0, offset), maxOffset(state));
	return clamped === state.threadsOffset ? state : {...state, threadsOffset: clamped};
}

function screenOf(state: DashboardUiState): Screen {
	if (state.asking !== null) return 'question';
	return state.help ? 'help' : 'dashboard';
}

export function dashboardReducer(state: DashboardUiState, action: DashboardUiAction): DashboardStep {
	switch (action.type) {
		case 'viewport': {
			const pageSize = Math.max(0, action.pageSize);
			const threadCount = Math.max(0, action.threadCount);
			const helpMax = Math.max(0, action.helpMax ?? state.helpMax);
			if (pageSize === state.pageSize && threadCount === state.threadCount && helpMax === state.helpMax) return stateOnly(state);
			const next = {...state, pageSize, threadCount, helpMax, helpOffset: Math.min(state.helpOffset, helpMax)};
			const clamped = Math.min(next.threadsOffset, maxOffset(next));
			return stateOnly(clamped === next.threadsOffset ? next : {...next, threadsOffset: clamped});
		}

		case 'offered': {
			const refusals = action.refusals ?? state.refusals;
			if (action.offered === state.offered && refusals === state.refusals) return stateOnly(state);
			return stateOnly({...state, offered: action.offered, refusals});
		}

		case 'interval':
			return stateOnly(action.ms === state.intervalMs ? state : {...state, intervalMs: action.ms});

		case 'clearMessage':
			// A message's time is up, or a question's: unanswered, it is a no.
			return stateOnly(state.message === null && state.asking === null ? state : {...state, message: null, asking: null});

		case 'key':
			return keyStep(state, action.input, action.key);
	}
}

/** A key whose command needs a refused capability: why, in one line. */
function refusalFor(state: DashboardUiState, screen: Screen, input: string, key: KeyLike): string | null {
	const everything = SCREEN_KEYMAP.available(screen, new Set(state.refusals.keys()));
	const wanted = SCREEN_KEYMAP.commandFor(input, key, screen, everything);
	const needs = SCREEN_KEYMAP.bindings.find((binding) => binding.command === wanted && binding.contexts.includes(screen))?.needs;
	return needs === undefined ? null : (state.refusals.get(needs) ?? null);
}

function keyStep(current: DashboardUiState, input: string, key: KeyLike): DashboardStep {
	// Every key clears the last message; a key that says something sets a new one.
	const state = current.message === null ? current : {...current, message: null};
	const screen = screenOf(state);
	if (screen === 'question') return answerStep(state, input, key);
	const command = SCREEN_KEYMAP.commandFor(input, key, screen, SCREEN_KEYMAP.available(screen, state.offered));
	switch (command) {
		case null: {
			const refused = refusalFor(state, screen, input, key);
			return stateOnly(refused === null ? state : {...state, message: {text: refused, tone: 'warn'}});
		}
		case 'help':
		case 'back':
		case 'helpUp':
		case 'helpDown':
			return stateOnly(helpCommand(state, command));
		case 'threadsUp':
			return stateOnly(scrollTo(state, state.threadsOffset - 1));
		case 'threadsDown':
			return stateOnly(scrollTo(state, state.threadsOffset + 1));
		case 'pageUp':
			return stateOnly(scrollTo(state, state.threadsOffset - Math.max(1, state.pageSize)));
		case 'pageDown':
			return stateOnly(scrollTo(state, state.threadsOffset + Math.max(1, state.pageSize)));
		case 'threadsTop':
			return stateOnly(scrollTo(state, 0));
		case 'threadsBottom':
			return stateOnly(scrollTo(state, maxOffset(state)));
		case 'sort':
			// The first row is the one the sort puts on top (the slow thread): show it.
			return stateOnly({...state, threadSort: nextThreadSort(state.threadSort), threadsOffset: 0});
		case 'sortReverse':
			return stateOnly({...state, threadSort: {...state.threadSort, reversed: !state.threadSort.reversed}, threadsOffset: 0});
		case 'pause':
			// One stray key in the wrong tmux pane must not stop mining: ask first.
			return stateOnly({...state, asking: 'pause'});
		case 'slower':
		case 'faster': {
			const direction = command === 'slower' ? 1 : -1;
			if (state.intervalMs !== null && nextInterval(state.intervalMs, direction) === state.intervalMs) {
				const end = direction > 0 ? 'the longest step' : 'the shortest step';
				return stateOnly({...state, message: {text: `polling every ${formatInterval(state.intervalMs)} already: ${end}`, tone: 'info'}});
			}

			return {state, effects: [command]};
		}

		case 'quit':
		case 'config':
		case 'resume':
		case 'freeze':
		case 'refresh':
		case 'toFleet':
		case 'chart':
		case 'events':
			return {state, effects: [command]};
		case 'fleetUp':
		case 'fleetDown':
		case 'fleetPageUp':
		case 'fleetPageDown':
		case 'fleetTop':
		case 'fleetBottom':
		case 'open':
		case 'filter':
		case 'clearFilter':
		case 'refreshAll':
		case 'filterKeep':
		case 'filterClear':
		case 'yes':
		case 'no':
		case 'closeView':
		case 'zoomIn':
		case 'zoomOut':
		case 'span':
		case 'older':
		case 'newer':
		case 'latest':
		case 'eventsUp':
		case 'eventsDown':
		case 'eventsPageUp':
		case 'eventsPageDown':
		case 'eventsNewest':
		case 'eventsOldest':
		case 'suspend':
			// Other screens' commands never reach the dashboard (not in its screen's bindings), nor answers outside a question;
			// nor does Ctrl+Z (hooks/use-keys.ts suspends rigtop).
			return stateOnly(state);
	}
}

/** The answer to a question: y does it (if it can still work), any other key leaves it undone. */
function answerStep(state: DashboardUiState, input: string, key: KeyLike): DashboardStep {
	const asked = state.asking;
	const answered: DashboardUiState = {...state, asking: null};
	const command = SCREEN_KEYMAP.commandFor(input, key, 'question', SCREEN_KEYMAP.available('question'));
	if (command !== 'yes' || asked === null) return stateOnly({...answered, message: {text: 'not paused: mining goes on', tone: 'info'}});
	if (!state.offered.has(asked)) {
		const refused = state.refusals.get(asked);
		return stateOnly(refused === undefined ? answered : {...answered, message: {text: refused, tone: 'warn'}});
	}

	return {state: answered, effects: [asked]};
}
