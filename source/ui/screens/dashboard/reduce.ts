/**
 * All dashboard key handling, as a pure reducer (screens/contract.ts): `useKeys` only dispatches the raw
 * `{input, key}`, and this reads it through the keys that work now (availability.ts) for the env of the frame on
 * screen. Commands that reach outside the screen (quit, pause, …) are the step's effects; the view hands them to the
 * app's callbacks.
 */
import {formatInterval, nextInterval} from '../../../monitor/poll-interval.js';
import {stateOnly, type Step} from '../../hooks/use-step-reducer.js';
import {scrollHelp, toggleHelp} from '../help-toggle.js';
import {type KeyLike} from '../../keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {BY_INDEX, nextThreadSort} from '../../panes/thread-order.js';
import {commandOf, keyAction, type KeyOutcome, type ScreenDefinition} from '../contract.js';
import {availability, dashboardHelp, dashboardKeys} from './availability.js';
import type {DashboardEnv, DashboardState, KeyFacts} from './state.js';

/** Commands carried out by the app through a callback. */
export type ActionCommand = 'quit' | 'config' | 'pause' | 'resume' | 'refresh' | 'toFleet' | 'slower' | 'faster' | 'chart' | 'events';

export type DashboardStep = Step<DashboardState, ActionCommand>;

export type DashboardAction = {readonly type: 'key'; readonly input: string; readonly key: KeyLike} | {readonly type: 'clearMessage'};

export function initialState(): DashboardState {
	return {help: false, helpOffset: 0, threadsOffset: 0, threadSort: BY_INDEX, message: null, asking: null, frozen: null};
}

function maxOffset(env: Pick<DashboardEnv, 'threadCount' | 'pageSize'>): number {
	return Math.max(0, env.threadCount - Math.max(0, env.pageSize));
}

/** The first thread row shown: the one scrolled to, pulled back where a larger pane (or fewer threads) leaves room. */
export function threadsOffsetOf(state: DashboardState, env: Pick<DashboardEnv, 'threadCount' | 'pageSize'>): number {
	return Math.min(state.threadsOffset, maxOffset(env));
}

/** The first help entry shown: the one scrolled to, pulled back where the help now fits better. */
export function helpOffsetOf(state: DashboardState, env: DashboardEnv): number {
	return Math.min(state.helpOffset, Math.max(0, env.helpMax));
}

function scrollTo(state: DashboardState, env: DashboardEnv, offset: number): DashboardState {
	const clamped = Math.min(Math.max(0, offset), maxOffset(env));
	return clamped === state.threadsOffset ? state : {...state, threadsOffset: clamped};
}

export function reduce(state: DashboardState, action: DashboardAction, env: DashboardEnv): DashboardStep {
	switch (action.type) {
		case 'clearMessage':
			// A message's time is up, or a question's: unanswered, it is a no.
			return stateOnly(state.message === null && state.asking === null ? state : {...state, message: null, asking: null});

		case 'key':
			return keyStep(state, env, action.input, action.key);
	}
}

/** The dashboard's pure half and its keys, for useScreen: its help is made from what decides its keys. */
export const dashboardLogic: ScreenDefinition<DashboardState, DashboardAction, DashboardEnv, ActionCommand, CommandName, Screen, KeyFacts> =
	{
		reduce,
		availability,
		keymap: SCREEN_KEYMAP,
		help: dashboardHelp,
		key: keyAction,
	};

function keyStep(current: DashboardState, env: DashboardEnv, input: string, key: KeyLike): DashboardStep {
	const keys = availability(current, env);
	const outcome = commandOf(SCREEN_KEYMAP, keys, input, key);
	// Too small to draw, a key that is not a way out does nothing at all (what it would say could not be read).
	if (env.tooSmall && outcome === null) return stateOnly(current);
	// Every key clears the last message; a key that says something sets a new one.
	const state = current.message === null ? current : {...current, message: null};
	if (keys.context === 'question') return answerStep(state, env, outcome);
	if (outcome === null) return stateOnly(state);
	if ('refused' in outcome) return stateOnly({...state, message: {text: outcome.refused, tone: 'warn'}});
	const {command} = outcome;
	const offset = threadsOffsetOf(state, env);
	switch (command) {
		case 'help':
		case 'back':
			// ?/Esc open and close the help, at its top.
			return stateOnly(toggleHelp({...state, helpOffset: 0}, command));
		case 'helpUp':
		case 'helpDown': {
			// From the entry shown (a taller terminal may have pulled it back).
			const shown = helpOffsetOf(state, env);
			const from = shown === state.helpOffset ? state : {...state, helpOffset: shown};
			return stateOnly(scrollHelp(from, command === 'helpUp' ? -1 : 1, env.helpMax));
		}
		case 'threadsUp':
			return stateOnly(scrollTo(state, env, offset - 1));
		case 'threadsDown':
			return stateOnly(scrollTo(state, env, offset + 1));
		case 'pageUp':
			return stateOnly(scrollTo(state, env, offset - Math.max(1, env.pageSize)));
		case 'pageDown':
			return stateOnly(scrollTo(state, env, offset + Math.max(1, env.pageSize)));
		case 'threadsTop':
			return stateOnly(scrollTo(state, env, 0));
		case 'threadsBottom':
			return stateOnly(scrollTo(state, env, maxOffset(env)));
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
			if (env.intervalMs !== null && nextInterval(env.intervalMs, direction) === env.intervalMs) {
				const end = direction > 0 ? 'the longest step' : 'the shortest step';
				return stateOnly({...state, message: {text: `polling every ${formatInterval(env.intervalMs)} already: ${end}`, tone: 'info'}});
			}

			return {state, effects: [command]};
		}

		case 'resume':
			// With a token the user did not give, whose it is is said before the write: a question (issue 35, item 5).
			if (env.tokenFrom !== undefined && env.tokenFrom !== null) return stateOnly({...state, asking: 'resume'});
			return {state, effects: [command]};
		case 'freeze':
			return stateOnly({...state, frozen: state.frozen === null ? env.moment() : null});
		case 'quit':
		case 'config':
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
		case 'series':
		case 'eventsUp':
		case 'eventsDown':
		case 'eventsPageUp':
		case 'eventsPageDown':
		case 'eventsNewest':
		case 'eventsOldest':
		case 'mark':
		case 'markShown':
		case 'clearMarks':
		case 'batchCancel':
		case 'batchUp':
		case 'batchDown':
		case 'batchPageUp':
		case 'batchPageDown':
		case 'batchClose':
		case 'batchUndo':
		case 'search':
		case 'nextMatch':
		case 'setValue':
		case 'addKeys':
		case 'suspend':
			// Other screens' commands never reach the dashboard (not in its screen's bindings), nor answers outside a question;
			// nor does Ctrl+Z (hooks/use-keys.ts suspends rigtop).
			return stateOnly(state);
	}
}

/** The answer to a question: y does it (if it can still work: the miner may have stopped allowing it), any other key leaves it undone. */
function answerStep(state: DashboardState, env: DashboardEnv, outcome: KeyOutcome<CommandName>): DashboardStep {
	const asked = state.asking;
	const answered: DashboardState = {...state, asking: null};
	if (outcome === null || !('command' in outcome) || outcome.command !== 'yes' || asked === null) {
		const text = asked === 'resume' ? 'not resumed: still paused' : 'not paused: mining goes on';
		return stateOnly({...answered, message: {text, tone: 'info'}});
	}

	const now = dashboardKeys(env);
	if (!now.works.has(asked)) {
		const refused = now.refused.get(asked);
		return stateOnly(refused === undefined ? answered : {...answered, message: {text: refused, tone: 'warn'}});
	}

	return {state: answered, effects: [asked]};
}
