/**
 * All dashboard key handling, as a reducer: `useInput` only dispatches the raw `{input, key}`,
 * and this maps it through the keymap (useStepReducer). Commands that reach outside the UI (quit,
 * pause, …) are the step's effects; the view hands them to the app's callbacks.
 */
import {stateOnly, type Step} from './hooks/use-step-reducer.js';
import {toggleHelp} from './help-toggle.js';
import {SCREEN_KEYMAP, type Capability, type KeyLike, type Screen} from './keymap.js';

/** Commands carried out by the app through a callback. */
export type ActionCommand = 'quit' | 'config' | 'pause' | 'resume' | 'refresh' | 'toFleet' | 'chart' | 'events';

export type DashboardStep = Step<DashboardUiState, ActionCommand>;

export type DashboardUiState = {
	readonly help: boolean;
	/** Index of the first thread row shown. */
	readonly threadsOffset: number;
	/** How many thread rows fit in the pane now. */
	readonly pageSize: number;
	readonly threadCount: number;
	/** What the app offers (the callbacks it gave): keys that need anything else do nothing. */
	readonly offered: ReadonlySet<Capability>;
};

export type DashboardUiAction =
	| {readonly type: 'key'; readonly input: string; readonly key: KeyLike}
	| {readonly type: 'viewport'; readonly pageSize: number; readonly threadCount: number}
	| {readonly type: 'offered'; readonly offered: ReadonlySet<Capability>};

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
	return state.help ? 'help' : 'dashboard';
}

export function dashboardReducer(state: DashboardUiState, action: DashboardUiAction): DashboardStep {
	switch (action.type) {
		case 'viewport': {
			const pageSize = Math.max(0, action.pageSize);
			const threadCount = Math.max(0, action.threadCount);
			if (pageSize === state.pageSize && threadCount === state.threadCount) return stateOnly(state);
			const next = {...state, pageSize, threadCount};
			const clamped = Math.min(next.threadsOffset, maxOffset(next));
			return stateOnly(clamped === next.threadsOffset ? next : {...next, threadsOffset: clamped});
		}

		case 'offered': {
			return stateOnly(action.offered === state.offered ? state : {...state, offered: action.offered});
		}

		case 'key':
			return keyStep(state, action.input, action.key);
	}
}

function keyStep(state: DashboardUiState, input: string, key: KeyLike): DashboardStep {
	const screen = screenOf(state);
	const command = SCREEN_KEYMAP.commandFor(input, key, screen, SCREEN_KEYMAP.available(screen, state.offered));
	switch (command) {
		case null:
			return stateOnly(state);
		case 'help':
		case 'back':
			return stateOnly(toggleHelp(state, command));
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
		case 'quit':
		case 'config':
		case 'pause':
		case 'resume':
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
			// Other screens' commands never reach the dashboard (not in its screen's bindings).
			return stateOnly(state);
	}
}
