/** `?` opens and closes the help overlay, Esc closes it: the same on every screen that has one. */
export function toggleHelp<State extends {readonly help: boolean}>(state: State, command: 'help' | 'back'): State {
	if (command === 'help') return {...state, help: !state.help};
	return state.help ? {...state, help: false} : state;
}
