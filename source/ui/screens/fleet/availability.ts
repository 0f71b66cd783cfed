/**
 * Which of the fleet's keys work now (screens/contract.ts): the one source of its footer, its `?` help and its key
 * handler. What works follows what the app gave (poll every rig, the chart, the events) and the fleet's own state:
 * the help, the filter being typed, a filter in force for Esc to clear. The fleet refuses nothing: a key it was not
 * given is not offered (not in its footer or help, and it does nothing).
 */
import {type Capability, type HelpEntry} from '../../keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import type {BatchState} from '../../../batch/types.js';
import {READ_ONLY_MESSAGE} from '../../../config/session.js';
import {decide, helpOf, type Availability} from '../contract.js';
import {batchScrollMax} from '../../widgets/batch-lines.js';
import {fleetBodyHeight} from './layout.js';
import type {FleetAction} from './batch-plan.js';
import {FLEET_SORTS} from './columns.js';

const READ_ONLY_REFUSALS: ReadonlyMap<Capability, string> = new Map<Capability, string>([
	['pause', READ_ONLY_MESSAGE],
	['resume', READ_ONLY_MESSAGE],
]);

/** What the app gave the fleet besides opening a rig and quitting; without one, its key is not offered. */
export type FleetGiven = {
	/** `R`: poll every rig now. */
	readonly refreshAll: boolean;
	/** `g`: the selected rig's chart. */
	readonly chart: boolean;
	/** `e`: every rig's events. */
	readonly events: boolean;
	/** `p`, `r`: pause or resume the marked rigs (a batch, source/batch/); without it the keys are not offered. */
	readonly pause?: boolean;
	/** `c` with rigs marked: one config key on all of them (the fleet config view); without it the key is not offered. */
	readonly fleetConfig?: boolean;
};

export type FleetAvailability = Availability<CommandName, Screen>;

/** The state availability reads: the help, the filter being typed and the one in force, the marks, a question, a batch. */
type FleetModes = {
	readonly help: boolean;
	readonly prompt: unknown;
	readonly filter: string;
	readonly marked?: ReadonlySet<number>;
	readonly asking?: unknown;
	/** The batch pane is open: what it does, its first line shown. */
	readonly batch?: {readonly action: FleetAction; readonly offset: number} | null;
};

/** What the fleet's availability reads of its env besides what the app gave. */
type FleetFacts = {
	readonly given: FleetGiven;
	readonly readOnly?: boolean;
	readonly batch?: BatchState | null;
	/** The terminal's size (the batch pane's lines wrap in its width, and it is as tall as the body; without it the pane is not scrolled). */
	readonly size?: {readonly columns: number; readonly rows: number};
};

/** The capabilities the given actions stand for (the help scrolls on any terminal too small for it). */
function offered(given: FleetGiven): ReadonlySet<Capability> {
	const capabilities = new Set<Capability>(['scrollHelp']);
	if (given.refreshAll) capabilities.add('refresh');
	if (given.chart) capabilities.add('chart');
	if (given.events) capabilities.add('events');
	if (given.pause === true) {
		capabilities.add('pause');
		capabilities.add('resume');
	}

	return capabilities;
}

/** The context the keys are read in: the help over the table, the filter being typed, or the table. */
export function fleetContext(state: FleetModes, batch: BatchState | null = null): Screen {
	if (state.batch) return batch === null || batch.finished ? 'fleetResults' : 'fleetBatch';
	if (state.asking) return 'question';
	if (state.help) return 'help';
	return state.prompt ? 'fleetFilter' : 'fleet';
}

export function availability(state: FleetModes, env: FleetFacts): FleetAvailability {
	const context = fleetContext(state, env.batch ?? null);
	const capabilities = new Set(offered(env.given));
	if ((state.marked?.size ?? 0) > 0) {
		capabilities.add('marks');
		if (env.given.fleetConfig === true) capabilities.add('fleetConfig');
	}

	// The batch pane scrolls when its lines (a rig's result wraps) do not all fit.
	if (
		state.batch &&
		env.batch &&
		env.size &&
		batchScrollMax(env.batch, state.batch.action, env.size.columns, fleetBodyHeight(env.size.rows)) > 0
	)
		capabilities.add('scrollBatch');

	// --read-only: pause and resume are refused, and say why (as on the dashboard).
	const refused = new Map(env.readOnly === true && env.given.pause === true ? READ_ONLY_REFUSALS : []);
	// c with rigs marked, under --read-only: says why (with none marked it is not the fleet's key at all).
	if (env.readOnly === true && capabilities.has('fleetConfig')) refused.set('fleetConfig', READ_ONLY_MESSAGE);
	const decided = decide(SCREEN_KEYMAP, context, capabilities, refused);
	// Esc clears a filter in force; with none it does nothing, and says nothing.
	if (context !== 'fleet' || state.filter !== '') return decided;
	const works = new Set(decided.works);
	works.delete('clearFilter');
	return {...decided, works};
}

/** The contexts the help lists. */
const HELP_CONTEXTS: readonly Screen[] = ['fleet', 'fleetFilter'];

/**
 * The help's availability: the keys of the table and of the filter being typed that the app gave, whatever the
 * mode now (Esc that clears a filter too, when none is in force).
 */
export function helpAvailability(given: FleetGiven): FleetAvailability {
	const capabilities = new Set(offered(given));
	capabilities.add('marks');
	if (given.fleetConfig === true) capabilities.add('fleetConfig');
	const table = decide(SCREEN_KEYMAP, 'fleet', capabilities);
	const typing = decide(SCREEN_KEYMAP, 'fleetFilter', capabilities);
	return {context: 'fleet', works: new Set([...table.works, ...typing.works]), refused: new Map()};
}

/**
 * The marks before a rig's name, said after the keys as one entry (they are no keys, but nowhere else says what they
 * mean): under a word, not under `*`, which is a key too (mark every rig shown).
 */
export const ROW_MARKS: readonly HelpEntry[] = [
	{
		keys: 'marks',
		description:
			'before a name: ▸ the selected rig · * a marked rig (Space; the keys for marked rigs act on these) · ! a warning or error still open on it (the alert column says which)',
		available: true,
	},
];

/**
 * The help's entries: the fleet's keys (the help's own, Esc and ↑↓, are on its frame: listing them would give them two
 * meanings), then what the marks before a name mean.
 */
export function fleetHelp(given: FleetGiven): readonly HelpEntry[] {
	const keys = helpOf(SCREEN_KEYMAP, HELP_CONTEXTS, helpAvailability(given), {sort: FLEET_SORTS.help}).filter((entry) => entry.available);
	return [...keys, ...ROW_MARKS];
}
