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

/** The help overlay's scroll keys as its frame names them ("↑↓"), from a screen's keymap. */
export function helpScrollKeys(keymap: {keyOf(command: 'helpUp' | 'helpDown', context: 'help'): string}): string {
	return `${keymap.keyOf('helpUp', 'help')}${keymap.keyOf('helpDown', 'help')}`;
}
