/**
 * What the full-screen views opened from the dashboard or the fleet (the chart `g`, the event view `e`) do alike
 * with a key: `?` and Esc for their help overlay, `q` quits, Esc (help closed) goes back where they were opened from.
 */
import {toggleHelp} from './help-toggle.js';
import {stateOnly, type Step} from './hooks/use-step-reducer.js';
import {type KeyLike} from './keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName} from './keys/bindings.js';

export type ViewEffect = 'quit' | 'close';

/** A keypress on a view: its command there (the help overlay's while it shows), and the step when it is a shared one. */
export function viewKey<State extends {readonly help: boolean}>(
	state: State,
	view: 'chart' | 'events',
	input: string,
	key: KeyLike,
): {readonly command: CommandName | null; readonly step: Step<State, ViewEffect> | null} {
	const screen = state.help ? 'help' : view;
	const command = SCREEN_KEYMAP.commandFor(input, key, screen, SCREEN_KEYMAP.available(screen));
	switch (command) {
		case 'help':
		case 'back':
			return {command, step: stateOnly(toggleHelp(state, command))};
		case 'quit':
			return {command, step: {state, effects: ['quit']}};
		case 'closeView':
			return {command, step: {state, effects: ['close']}};
		default:
			return {command, step: null};
	}
}
