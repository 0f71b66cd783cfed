/** `?` opens and closes the help overlay, Esc closes it: the same on every screen that has one. */
export function toggleHelp<State extends {readonly help: boolean}>(state: State, command: 'help' | 'back'): State {
	if (command === 'help') return {...state, help: !state.help};
	return state.help ? {...state, help: false} : state;
}

/** ↑↓ in a help overlay that does not fit: one entry up or down, within 0…max (helpMaxOffset). */
export function scrollHelp<State extends {readonly helpOffset: number}>(state: State, delta: number, max: number): State {
	const next = Math.min(Math.max(0, state.helpOffset + delta), Math.max(0, max));
	return next === state.helpOffset ? state : {...state, helpOffset: next};
}

/** ↑↓ from the entry shown: a larger terminal may scroll less far than the state says (max: helpMaxOffset now). */
export function scrollHelpKey<State extends {readonly helpOffset: number}>(
	state: State,
	command: 'helpUp' | 'helpDown',
	max: number,
): State {
	const shown = {...state, helpOffset: Math.min(state.helpOffset, max)};
	return scrollHelp(shown, command === 'helpUp' ? -1 : 1, max);
}

/**
 * The help's keys on a screen that scrolls its help: `?` and Esc open and close it (at its top), ↑↓ scroll it within
 * `max()` (helpMaxOffset of the frame on screen); null for any other command.
 */
export function helpKey<State extends {readonly help: boolean; readonly helpOffset: number}>(
	state: State,
	command: string,
	max: () => number,
): State | null {
	if (command === 'help' || command === 'back') return toggleHelp({...state, helpOffset: 0}, command);
	if (command === 'helpUp' || command === 'helpDown') return scrollHelpKey(state, command, max());
	return null;
}

/** The help overlay's scroll keys as its frame names them ("↑↓"), from a screen's keymap. */
export function helpScrollKeys(keymap: {keyOf(command: 'helpUp' | 'helpDown', context: 'help'): string}): string {
	return `${keymap.keyOf('helpUp', 'help')}${keymap.keyOf('helpDown', 'help')}`;
}
