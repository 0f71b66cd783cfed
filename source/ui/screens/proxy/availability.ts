/**
 * Which of the proxy screen's keys work now (screens/contract.ts): the one source of its footer, its `?` help and its
 * key handler. What works follows what the app gave (poll now, the config view, the chart, the events, a fleet to go
 * back to) and the screen's own state: the help, the filter being typed, a worker's detail. There is no pause: the
 * proxy has none, so `p` is in no context of this screen. Nothing is refused: a key not given is not offered.
 */
import {type Capability, type HelpEntry} from '../../keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {isTooSmall} from '../layout.js';
import {decide, helpOf, onlyWaysOut, type Availability} from '../contract.js';
import {WORKER_SORTS} from './columns.js';

/** What the app gave the proxy screen besides quitting; without one, its key is not offered. */
export type ProxyGiven = {
	readonly refresh: boolean;
	readonly config: boolean;
	readonly chart: boolean;
	readonly events: boolean;
	/** Esc with no filter: back to the fleet. */
	readonly back: boolean;
};

export type ProxyAvailability = Availability<CommandName, Screen>;

type ProxyModes = {readonly help: boolean; readonly prompt: unknown; readonly filter: string; readonly detail: string | null};

function offered(given: ProxyGiven): ReadonlySet<Capability> {
	const capabilities = new Set<Capability>(['scrollHelp']);
	if (given.refresh) capabilities.add('refresh');
	if (given.config) capabilities.add('config');
	if (given.chart) capabilities.add('chart');
	if (given.events) capabilities.add('events');
	if (given.back) capabilities.add('fleet');
	return capabilities;
}

/**
 * The context the keys are read in: the help, the filter being typed, a worker's detail, or the workers' table (with a
 * filter in force, where Esc clears it, or without, where Esc goes back to the fleet, when there is one).
 */
export function proxyContext(state: ProxyModes): Screen {
	if (state.help) return 'help';
	if (state.prompt) return 'fleetFilter';
	if (state.detail !== null) return 'worker';
	return state.filter === '' ? 'proxy' : 'proxyFiltered';
}

export function availability(
	state: ProxyModes,
	env: {readonly given: ProxyGiven; readonly size?: {readonly columns: number; readonly rows: number}},
): ProxyAvailability {
	if (env.size && isTooSmall(env.size.columns, env.size.rows)) {
		return onlyWaysOut(decide(SCREEN_KEYMAP, 'proxy', offered(env.given)));
	}

	return decide(SCREEN_KEYMAP, proxyContext(state), offered(env.given));
}

/** The help's entries: the table's keys and the filter's, or a worker's detail's (the help's own keys are on its frame). */
export function proxyHelp(given: ProxyGiven, detail: boolean): readonly HelpEntry[] {
	const capabilities = offered(given);
	const contexts: readonly Screen[] = detail ? ['worker'] : ['proxy', 'proxyFiltered', 'fleetFilter'];
	const works = new Set(contexts.flatMap((context) => [...decide(SCREEN_KEYMAP, context, capabilities).works]));
	return helpOf(
		SCREEN_KEYMAP,
		contexts,
		{context: detail ? 'worker' : 'proxy', works, refused: new Map()},
		{sort: WORKER_SORTS.help},
	).filter((entry) => entry.available);
}
