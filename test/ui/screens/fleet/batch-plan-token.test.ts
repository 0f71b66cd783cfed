/**
 * The fleet's `p`/`r` question says, before the batch, which rigs it would write to with a token the user did not give
 * and whose (issue 35, item 5): a running process's, as the shell says it on stderr.
 */
import {describe, expect, it} from 'vitest';
import {planFleetBatch} from '../../../../source/ui/screens/fleet/batch-plan.js';
import {makeSnapshot, makeState} from '../../helpers/state.js';

describe('the fleet batch question', () => {
	const states = ['rig-01', 'rig-02', 'rig-03'].map((name) => makeState({name, snapshot: makeSnapshot({paused: false})}));
	const labels = ['rig-01', 'rig-02', 'rig-03'];

	it('names the rigs it would change with a borrowed token, and whose', () => {
		const plan = planFleetBatch('pause', [0, 1, 2], states, labels, [true, true, true], [null, 'the command line of process 4242', null]);
		expect(plan.text).toBe('pause 3 rigs: rig-01, rig-02, rig-03; no token given: rig-02 the one from the command line of process 4242');
	});

	it('says nothing of a rig it would not change, nor when every token was given', () => {
		const plan = planFleetBatch('resume', [0, 1], states, labels, [true, true], [null, 'the command line of process 4242']);
		expect(plan.text).toBe('resume no rig; 2 already mining');
		expect(planFleetBatch('pause', [0, 1], states, labels, [true, true], [null, null]).text).toBe('pause 2 rigs: rig-01, rig-02');
	});
});
