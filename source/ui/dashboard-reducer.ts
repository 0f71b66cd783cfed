/**
 * All dashboard key handling, as a reducer: `useInput` only dispatches the raw `{input, key}`,
 * and this maps it through the keymap. Keys pressed back to back therefore never act on stale
 * state. Commands that reach outside the UI (quit, pause, …) are queued in
 * `outbox`; the component hands them to the app's callbacks after the render.
 */
import {SCREEN_KEYMAP, type Capability, type KeyLike, type Screen} from './keymap.js';

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
	/** What the app offers (the callbacks it gave): keys that need anything else do nothing. */
	readonly offered: ReadonlySet<Capability>;
	/** Recent app commands, oldest first, each numbered; bounded. */
	readonly outbox: readonly Outgoing[];
	readonly nextSeq: number;
};

export type DashboardUiAction =
	| {readonly type: 'key'; readonly input: string; readonly key: KeyLike}
	| {readonly type: 'viewport'; readonly pageSize: number; readonly threadCount: number}
	| {readonly type: 'offered'; readonly offered: ReadonlySet<Capability>};

const OUTBOX_LIMIT = 16;

export function initialUiState(options: {
	readonly offered: ReadonlySet<Capability>;
	readonly pageSize?: number;
	readonly threadCount?: number;
}): DashboardUiState {
	return {
		help: false,
		threadsOffset: 0,
		pageSize: Math.max(0, options.pageSize ?? 0),
		threadCount: Math.max(0, options.threadCount ?? 0),
		offered: options.offered,
		outbox: [],
		nextSeq: 1,
	};
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

		case 'offered': {
			return action.offered === state.offered ? state : {...state, offered: action.offered};
		}

		case 'key': {
			const screen = screenOf(state);
			const command = SCREEN_KEYMAP.commandFor(action.input, action.key, screen, SCREEN_KEYMAP.available(screen, state.offered));
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
