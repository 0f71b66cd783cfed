/**
 * Which of the dashboard's actions can work now, and for each one that cannot, why — in one line, for
 * the user who presses its key anyway. The footer and the `?` help offer only what works (keymap
 * `needs` + `available`); everything else is refused here before anything is sent.
 */
import {READ_ONLY_MESSAGE} from '../config/session.js';
import {configRefusal, controlRefusal} from '../miner/abilities.js';
import type {MonitorState} from '../monitor/types.js';
import {type Capability} from './keys/matcher.js';
import {SCREEN_KEYMAP} from './keys/bindings.js';

/** Why each refused capability cannot work (capabilities not in the map are not refused). */
export type Refusals = ReadonlyMap<Capability, string>;

export type OfferContext = {
	/** --read-only: no pause, resume or config change is sent. */
	readonly readOnly: boolean;
	/** Whether rigtop sends this miner an access token. */
	readonly tokenGiven: boolean;
};

export const NO_REFUSALS: Refusals = new Map();

/** The actions a screen was given (a refusal matters only for those). */
export type Given = {readonly config: boolean; readonly pause: boolean; readonly resume: boolean};

const ALL: Given = {config: true, pause: true, resume: true};

/** The refusals for a miner's state, of the actions given; the same map (NO_REFUSALS) when nothing is refused. */
export function dashboardRefusals(state: MonitorState, context: OfferContext, given: Given = ALL): Refusals {
	const all = allRefusals(state, context);
	for (const capability of [...all.keys()]) if (!given[capability as keyof Given]) all.delete(capability);
	return all.size === 0 ? NO_REFUSALS : all;
}

function allRefusals(state: MonitorState, context: OfferContext): Map<Capability, string> {
	const {snapshot, status} = state;
	const refusals = new Map<Capability, string>();
	if (snapshot) {
		const config = configRefusal(snapshot, context);
		if (config) refusals.set('config', config);
	}

	const control = controlFor(state, context);
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

	return refusals;
}

function controlFor(state: MonitorState, context: OfferContext): string | null {
	if (context.readOnly) return READ_ONLY_MESSAGE;
	const {snapshot, status} = state;
	if (!snapshot) return 'wait: the miner has not answered yet';
	const refused = controlRefusal(snapshot, context);
	if (refused) return refused;
	if (status !== 'live') return `the miner is not answering (${status}): nothing can be sent to it now`;
	return null;
}

/** Whether two refusal maps say the same (so a poll that changes nothing here keeps the old map). */
export function sameRefusals(a: Refusals, b: Refusals): boolean {
	if (a === b) return true;
	if (a.size !== b.size) return false;
	for (const [capability, why] of a) if (b.get(capability) !== why) return false;
	return true;
}
