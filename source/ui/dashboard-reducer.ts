/**
 * All dashboard key handling, as a reducer: `useInput` only dispatches the raw `{input, key}`,
 * and this maps it through the keymap. Keys pressed back to back therefore never act on stale
 * state. Commands that reach outside the UI (quit, pause, …) are queued in
 * `outbox`; the component hands them to the app's callbacks after the render.
 */
import {commandFor, type CommandName, type KeyLike, type Screen} from './keymap.js';

/** Commands carried out by the app through a callback. */
export type ActionCommand = 'quit' | 'config' | 'pause' | 'resume' | 'refresh' | 'toFleet';

export type Outgoing = {readonly seq: number; readonly command: ActionCommand};

export type DashboardUiState = {
	readonly help: boolean;
	/** Index of the first thread row shown. */
	readonly threadsOffset: number;
	/** How many thread rows fit in the pane now. */
	readonly pageSize: number;
	readonly threadCount: number;
	/** Which app actions exist (their callbacks were given). */
	readonly actions: ReadonlySet<ActionCommand>;
	/** Recent app commands, oldest first, each numbered; bounded. */
	readonly outbox: readonly Outgoing[];
	readonly nextSeq: number;
};

export type DashboardUiAction =
	| {readonly type: 'key'; readonly input: string; readonly key: KeyLike}
	| {readonly type: 'viewport'; readonly pageSize: number; readonly threadCount: number}
	| {readonly type: 'actions'; readonly actions: ReadonlySet<ActionCommand>};

const OUTBOX_LIMIT = 16;

const ALWAYS: readonly CommandName[] = [
	'quit',
	'help',
	'back',
	'threadsUp',
	'threadsDown',
	'pageUp',
	'pageDown',
	'threadsTop',
	'threadsBottom',
];

export function initialUiState(options: {
	readonly actions: ReadonlySet<ActionCommand>;
	readonly pageSize?: number;
	readonly threadCount?: number;
}): DashboardUiState {
	return {
		help: false,
		threadsOffset: 0,
		pageSize: Math.max(0, options.pageSize ?? 0),
		threadCount: Math.max(0, options.threadCount ?? 0),
		actions: options.actions,
		outbox: [],
		nextSeq: 1,
	};
}

/** Every command the keys can trigger in this state. */
export function availableCommands(actions: ReadonlySet<ActionCommand>): ReadonlySet<CommandName> {
	return new Set<CommandName>([...ALWAYS, ...actions]);
}

function maxOffset(state: DashboardUiState): number {
	return Math.max(0, state.threadCount - state.pageSize);
}

function scrollTo(state: DashboardUiState, offset: number): DashboardUiState {
	const clamped = Math.min(Math.max(0, offset), maxOffset(state));
	return clamped === state.threadsOffset ? state : {...state, threadsOffset: clamped};
}

function send(state: DashboardUiState, command: ActionCommand): DashboardUiState {
	const outbox = [...state.outbox, {seq: state.nextSeq, command}].slice(-OUTBOX_LIMIT);
	return {...state, outbox, nextSeq: state.nextSeq + 1};
}

function screenOf(state: DashboardUiState): Screen {
	return state.help ? 'help' : 'dashboard';
}

export function dashboardReducer(state: DashboardUiState, action: DashboardUiAction): DashboardUiState {
	switch (action.type) {
		case 'viewport': {
			const pageSize = Math.max(0, action.pageSize);
			const threadCount = Math.max(0, action.threadCount);
			if (pageSize === state.pageSize && threadCount === state.threadCount) return state;
			const next = {...state, pageSize, threadCount};
			const clamped = Math.min(next.threadsOffset, maxOffset(next));
			return clamped === next.threadsOffset ? next : {...next, threadsOffset: clamped};
		}

		case 'actions': {
			return action.actions === state.actions ? state : {...state, actions: action.actions};
		}

		case 'key': {
			const command = commandFor(action.input, action.key, screenOf(state), availableCommands(state.actions));
			switch (command) {
				case null:
					return state;
				case 'help':
					return {...state, help: !state.help};
				case 'back':
					return state.help ? {...state, help: false} : state;
				case 'threadsUp':
					return scrollTo(state, state.threadsOffset - 1);
				case 'threadsDown':
					return scrollTo(state, state.threadsOffset + 1);
				case 'pageUp':
					return scrollTo(state, state.threadsOffset - Math.max(1, state.pageSize));
				case 'pageDown':
					return scrollTo(state, state.threadsOffset + Math.max(1, state.pageSize));
				case 'threadsTop':
					return scrollTo(state, 0);
				case 'threadsBottom':
					return scrollTo(state, maxOffset(state));
				case 'quit':
				case 'config':
				case 'pause':
				case 'resume':
				case 'refresh':
				case 'toFleet':
					return send(state, command);
				case 'fleetUp':
				case 'fleetDown':
				case 'fleetPageUp':
				case 'fleetPageDown':
				case 'fleetTop':
				case 'fleetBottom':
				case 'open':
					// Fleet-screen commands never reach the dashboard (not in its screen's bindings).
					return state;
			}
		}
	}
}
