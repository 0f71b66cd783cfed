/**
 * Which of the fleet config view's keys work now (screens/contract.ts): the one source of its footer and its key
 * handler. The context follows the view's mode: the keys' list, a search or a value being typed, each rig's diff, the
 * second question for http.* / api.* (or the undo's), and the batch's pane (running, then its results).
 */
import type {FleetConfigRun, FleetConfigState} from '../../../batch/fleet-config.js';
import type {Capability, HelpEntry} from '../../keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {decide, helpOf, type Availability} from '../contract.js';
import type {Assignment} from '../../../config/edits.js';
import {diffPlan, type DiffPlan, type KeyRow, type RigRead} from './rigs.js';
import {diffMaxOffset, diffRigLines} from './diff-lines.js';
import {batchLines, type PaneWords} from '../../widgets/batch-lines.js';

/** What the view reads but does not own, passed with every key (screens/contract.ts). */
export type FleetConfigEnv = {
	readonly session: FleetConfigState;
	/** The rigs as read (null while they are read). */
	readonly reads: readonly RigRead[] | null;
	readonly rows: readonly KeyRow[];
	/** Key rows that fit on screen. */
	readonly pageSize: number;
	/** Rig lines that fit the diff's or the results' pane. */
	readonly paneRows: number;
	/** The pane's width (a rig's reason wraps in the diff: diff-lines.ts). */
	readonly paneWidth: number;
	/** "a adds it": what a refusal for a lacking key says (the key's own name). */
	readonly addHint: string;
	/** How far the help scrolls in this frame (helpMaxOffset); 0 when it fits. */
	readonly helpMax: number;
};

/** How far each rig's diff scrolls in this pane (a reason wrapped takes more than a line). */
export function diffScrollMax(plan: DiffPlan, env: Pick<FleetConfigEnv, 'paneRows' | 'paneWidth'>): number {
	return diffMaxOffset(diffRigLines(plan, env.paneWidth, env.paneRows), env.paneRows);
}

/** What the results pane says of a run: "cpu.huge-pages-jit → true on 5 rigs", each rig "applying…", then "applied". */
export function runWords(run: FleetConfigRun, shown: string | undefined): PaneWords {
	return run.kind === 'set'
		? {title: `${run.what.replace(/^config set /, '')} → ${shown ?? ''} on`, doing: 'applying…', applied: 'applied'}
		: {title: 'undo on', doing: 'putting the backup back…', applied: 'put back'};
}

/** How far the results pane scrolls (its first screen line: a rig's result wraps over several); 0 when all fit. */
export function resultsScrollMax(
	state: {readonly diff: {readonly shown: string} | null},
	env: Pick<FleetConfigEnv, 'session' | 'paneRows' | 'paneWidth'>,
): number {
	const run = env.session.run;
	if (!run) return 0;
	return Math.max(0, batchLines(run.batch, runWords(run, state.diff?.shown), env.paneWidth).length - env.paneRows);
}

/** The modes availability reads. */
export type FleetConfigModes = {
	readonly help?: boolean;
	readonly prompt: unknown;
	readonly diff: {readonly add: boolean; readonly assignment: Assignment; readonly shown: string} | null;
	readonly asking: unknown;
	readonly results: unknown;
};

export type FleetConfigAvailability = Availability<CommandName, Screen>;

export function fleetConfigContext(state: FleetConfigModes, session: FleetConfigState): Screen {
	if (state.help === true) return 'fleetConfigHelp';
	if (state.asking) return 'question';
	if (state.results) return session.run?.done === true ? 'fleetResults' : 'fleetBatch';
	if (state.diff) return 'fleetConfigDiff';
	return state.prompt ? 'fleetConfigTyping' : 'fleetConfig';
}

export function availability(state: FleetConfigModes, env: FleetConfigEnv): FleetConfigAvailability {
	const context = fleetConfigContext(state, env.session);
	const offered = new Set<Capability>();
	if (context === 'fleetConfigHelp' && env.helpMax > 0) offered.add('scrollHelp');
	if (context === 'fleetResults' && env.session.undoable > 0) offered.add('batchUndo');
	if ((context === 'fleetBatch' || context === 'fleetResults') && resultsScrollMax(state, env) > 0) offered.add('scrollBatch');
	const {diff} = state;
	if (context === 'fleetConfigDiff' && diff) {
		// a only where some rig lacks the key (or to take it back).
		if (diff.add || diffPlan(env.reads ?? [], diff.assignment, false, env.addHint).counts.lacks > 0) offered.add('addKeys');
		if (diffScrollMax(diffPlan(env.reads ?? [], diff.assignment, diff.add, env.addHint), env) > 0) offered.add('scrollBatch');
	}

	const refused = new Map<CommandName, string>();
	if (context === 'fleetConfig') {
		if (env.reads === null) {
			refused.set('setValue', "wait: the rigs' configs are being read");
			refused.set('search', "wait: the rigs' configs are being read");
		} else if (env.rows.length === 0) {
			refused.set('setValue', 'no rig could be read: nothing to set');
			refused.set('search', 'no rig could be read: nothing to search');
		}
	}

	return decide(SCREEN_KEYMAP, context, offered, refused);
}

/** The help (`?` on the keys' list): the keys of the list, of typing, of the diff, then of the results (their undo). */
export function fleetConfigHelp(): readonly HelpEntry[] {
	const contexts: readonly Screen[] = ['fleetConfig', 'fleetConfigTyping', 'fleetConfigDiff', 'fleetResults'];
	const all = new Set<Capability>(['addKeys', 'batchUndo', 'scrollBatch']);
	const entries = contexts.flatMap((context) => helpOf(SCREEN_KEYMAP, [context], decide(SCREEN_KEYMAP, context, all)));
	// quit and help once (they are the list's); each key of each mode once.
	return entries.filter(
		(entry, index) =>
			entry.available && entries.findIndex((other) => other.keys === entry.keys && other.description === entry.description) === index,
	);
}
