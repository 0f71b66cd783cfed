/**
 * What a fleet batch will do, said before it runs (the one question `p`/`r` asks): the rigs it will pause or resume by
 * name, then those that cannot (miner/abilities.ts: why, grouped), those down, those already so. Every rig asked
 * about goes to the batch (source/batch/): those that cannot or are down are reported skipped by it, rig by rig.
 * When none would change, nothing is asked: one line says why there is nothing to do.
 */
import {controlRefusal} from '../../../miner/abilities.js';
import type {MonitorState} from '../../../monitor/types.js';

export type FleetAction = 'pause' | 'resume';

export type FleetPlan = {
	readonly action: FleetAction;
	/** The rigs the batch runs on (session indexes), in the session's order. */
	readonly rigs: readonly number[];
	/** How many of them should change (not down, able, not already so). */
	readonly changing: number;
	/** The question, in one line: "pause 2 rigs: rig-01, rig-02; 1 cannot: …; 1 down". */
	readonly text: string;
	/** When no rig would change, what is said instead of asking (one line, no question): "nothing to pause: 1 cannot: …". */
	readonly nothing: string | null;
};

/** The names listed in full before "…". */
const NAMES_LISTED = 5;

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The plan of `action` on these rigs, from what each rig last said (labels: each rig's name as its row shows it). */
export function planFleetBatch(
	action: FleetAction,
	rigs: readonly number[],
	states: readonly MonitorState[],
	labels: readonly string[],
	tokens: readonly boolean[] | undefined,
	tokenFrom?: readonly (string | null)[],
): FleetPlan {
	// A rig it will change with a token the user did not give: said before the change (issue 35, item 5).
	const borrowed: string[] = [];
	const changing: string[] = [];
	const cannot = new Map<string, number>();
	let down = 0;
	let already = 0;
	for (const rig of rigs) {
		const state = states[rig];
		const snapshot = state?.snapshot ?? null;
		if (!state || snapshot === null || state.status === 'down' || state.status === 'error' || state.status === 'connecting') {
			down++;
			continue;
		}

		const refusal = controlRefusal(snapshot, {tokenGiven: tokens?.[rig] ?? true});
		if (refusal !== null) {
			cannot.set(refusal, (cannot.get(refusal) ?? 0) + 1);
			continue;
		}

		if (snapshot.paused === (action === 'pause')) already++;
		else {
			changing.push(labels[rig] ?? state.name);
			const whose = tokenFrom?.[rig] ?? null;
			if (whose !== null) borrowed.push(`${labels[rig] ?? state.name} the one from ${whose}`);
		}
	}

	const names = changing.length > NAMES_LISTED ? `${changing.slice(0, NAMES_LISTED).join(', ')}, …` : changing.join(', ');
	const why: string[] = [];
	for (const [reason, n] of cannot) why.push(`${n} cannot: ${reason}`);
	if (already > 0) why.push(`${already} already ${action === 'pause' ? 'paused' : 'mining'}`);
	if (down > 0) why.push(`${down} down`);
	const lent = borrowed.length > 0 ? [`no token given: ${borrowed.join(', ')}`] : [];
	const text = [changing.length === 0 ? `${action} no rig` : `${action} ${count(changing.length, 'rig')}: ${names}`, ...why, ...lent].join(
		'; ',
	);
	const nothing = changing.length === 0 ? `nothing to ${action}${why.length === 0 ? '' : `: ${why.join('; ')}`}` : null;
	return {action, rigs, changing: changing.length, text, nothing};
}
