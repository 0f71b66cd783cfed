/**
 * Which of the dashboard's keys work now, and for each one that cannot, why — in one line, for the user who presses
 * its key anyway. The one source of the footer (`footerOf`), the `?` help (`helpOf`) and the key handler
 * (`commandOf`, in reduce.ts): what the app gave (its callbacks), what the miner refuses (an old version, a
 * restricted API, no token, --read-only, a miner that is down), whether the threads pane is on screen and scrolls, a
 * terminal too small to draw (only the ways out then), and the mode the keys are read in (the help, the pause
 * question).
 */
import {READ_ONLY_MESSAGE} from '../../../config/session.js';
import {configRefusal, controlRefusal} from '../../../miner/abilities.js';
import type {MonitorState} from '../../../monitor/types.js';
import {type Capability, type HelpEntry} from '../../keys/matcher.js';
import {SCREEN_KEYMAP, type CommandName, type Screen} from '../../keys/bindings.js';
import {decide, helpOf, onlyWaysOut, type Availability} from '../contract.js';
import type {DashboardEnv, DashboardState, KeyFacts, MinerFacts} from './state.js';

export type DashboardAvailability = Availability<CommandName, Screen>;

/**
 * The facts of a miner's state (or of the facts alone). The view keeps one object while they stay the same: a poll does
 * not change them.
 */
export function minerFacts(state: Pick<MonitorState, 'status'> & {readonly snapshot: MinerFacts['snapshot']}): MinerFacts {
	const {status, snapshot} = state;
	if (snapshot === null) return {status, snapshot: null};
	const {kind, version, dialect, restricted, paused} = snapshot;
	return {status, snapshot: {kind, version, dialect, restricted, paused}};
}

export const THREADS_HIDDEN = 'the threads pane is not shown at this size: make the terminal taller';

/** The threads' scroll keys: offered only while there is something to scroll. */
const SCROLL_KEYS: ReadonlySet<CommandName> = new Set<CommandName>([
	'threadsUp',
	'threadsDown',
	'pageUp',
	'pageDown',
	'threadsTop',
	'threadsBottom',
]);

/** Why each of the miner's actions the app gave cannot work now (pause, resume, the config view). */
export function minerRefusals(miner: MinerFacts, facts: Pick<KeyFacts, 'readOnly' | 'tokenGiven' | 'given'>): Map<Capability, string> {
	const {snapshot, status} = miner;
	const refusals = new Map<Capability, string>();
	if (facts.given.config) {
		// A miner that does not answer (a wrong token, down): its config cannot be read; said, not offered in the footer.
		const config = snapshot ? configRefusal(snapshot, facts) : null;
		const unreachable =
			status === 'down' || status === 'error'
				? `the miner is not answering (${status}): its config cannot be read now`
				: snapshot === null
					? 'wait: the miner has not answered yet'
					: null;
		const reason = unreachable ?? config;
		if (reason) refusals.set('config', reason);
	}

	const control = controlFor(miner, facts);
	if (control) {
		refusals.set('pause', control);
		refusals.set('resume', control);
	} else if (snapshot && status === 'live') {
		// The miner says whether it is paused (4.4+): offer the one that changes something.
		if (snapshot.paused === true)
			refusals.set('pause', `the miner is paused already (${SCREEN_KEYMAP.keyOf('resume', 'dashboard')} resumes it)`);
		if (snapshot.paused === false)
			refusals.set('resume', `the miner is mining, not paused (${SCREEN_KEYMAP.keyOf('pause', 'dashboard')} pauses it)`);
	}

	if (!facts.given.pause) refusals.delete('pause');
	if (!facts.given.resume) refusals.delete('resume');
	return refusals;
}

function controlFor(miner: MinerFacts, facts: Pick<KeyFacts, 'readOnly' | 'tokenGiven'>): string | null {
	if (facts.readOnly) return READ_ONLY_MESSAGE;
	const {snapshot, status} = miner;
	if (!snapshot) return 'wait: the miner has not answered yet';
	const refused = controlRefusal(snapshot, facts);
	if (refused) return refused;
	if (status !== 'live') return `the miner is not answering (${status}): nothing can be sent to it now`;
	return null;
}

/** The dashboard's own keys (its 'dashboard' context), whatever mode it is in: its footer, and the list its help shows. */
export function dashboardKeys(facts: KeyFacts): DashboardAvailability {
	const {given} = facts;
	const offered = new Set<Capability>(['threads']);
	if (given.config) offered.add('config');
	if (given.pause) offered.add('pause');
	if (given.resume) offered.add('resume');
	if (given.refresh) offered.add('refresh');
	if (given.back) offered.add('fleet');
	if (given.interval) offered.add('interval');
	if (given.chart) offered.add('chart');
	if (given.events) offered.add('events');
	const refused = minerRefusals(facts.miner, facts);
	if (facts.threads === 'hidden') refused.set('threads', THREADS_HIDDEN);
	const keys = decide(SCREEN_KEYMAP, 'dashboard', offered, refused);
	if (facts.threads !== 'fits') return keys;
	// Every row is on screen: nothing to scroll (s and I still sort them).
	return {...keys, works: new Set([...keys.works].filter((command) => !SCROLL_KEYS.has(command)))};
}

/** The help overlay's keys: it scrolls where it is taller than the screen (helpMax), and closes. */
const HELP_KEYS = decide(SCREEN_KEYMAP, 'help', new Set<Capability>(['scrollHelp']));
/** The pause question's answers (any other key is a no: reduce.ts). */
const QUESTION_KEYS = decide(SCREEN_KEYMAP, 'question', new Set());

/**
 * The keys that work now, in the mode the dashboard is in: too small to draw, only its ways out (any other key would
 * act out of sight: p and then y paused the miner with no question on screen); else the pause question's answers, the
 * help's keys, or the dashboard's own.
 */
export function availability(state: DashboardState, env: DashboardEnv): DashboardAvailability {
	if (env.tooSmall) return onlyWaysOut(dashboardKeys(env));

	if (state.asking !== null) return QUESTION_KEYS;
	if (state.help) return HELP_KEYS;
	return dashboardKeys(env);
}

/**
 * The dashboard's help: its own keys that work (the help's own, Esc and ↑↓, are on its frame: listing them here would
 * give ↑ two meanings).
 */
export function dashboardHelp(facts: KeyFacts): readonly HelpEntry[] {
	return helpOf(SCREEN_KEYMAP, ['dashboard'], dashboardKeys(facts)).filter((entry) => entry.available);
}
