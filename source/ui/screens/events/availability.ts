/**
 * Which of the event view's keys work now (screens/contract.ts): the one source of its footer, its `?` help and its
 * key handler. Every key of the list works (scrolling an empty or a short list does nothing); over the help, the
 * help's own keys. The view refuses nothing.
 */
import {type HelpEntry} from '../../keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {decide, helpOf, type Availability} from '../contract.js';

export type EventsAvailability = Availability<CommandName, Screen>;

const NOTHING_NEEDED = new Set<never>();

export function availability(state: {readonly help: boolean}, _env?: unknown): EventsAvailability {
	return decide(SCREEN_KEYMAP, state.help ? 'help' : 'events', NOTHING_NEEDED);
}

/** The help's entries: every key of the list. */
export function eventsHelp(): readonly HelpEntry[] {
	return helpOf(SCREEN_KEYMAP, ['events'], availability({help: false}));
}
