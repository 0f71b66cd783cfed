/**
 * The config view's apply and undo questions say whose token the write uses when the user gave none (issue 35, item
 * 5: a running miner's, borrowed by discovery), never the token; with a token given they say nothing of it.
 */
import {describe, expect, test} from 'vitest';
import {ConfigDocument} from '../../../../source/config/document.js';
import {PendingEdits} from '../../../../source/config/edits.js';
import {dialogContent} from '../../../../source/ui/screens/config/panel-content.js';
import {v6Config} from '../../../config/helpers/fixtures.js';
import {readySessionState} from '../../../config/helpers/session-state.js';

const document = new ConfigDocument(v6Config());
const toggled = (() => {
	const outcome = new PendingEdits(document).toggle(['colors']);
	if (!outcome.ok) throw new Error(outcome.message);
	return outcome.edits;
})();
const said = 'No token was given: this uses the one from the command line of process 4242.';
const lent = readySessionState(toggled, {tokenFrom: 'the command line of process 4242'});
const applied = {backupPath: '/tmp/b.json', at: 1, keys: ['colors'], wasUndo: false};

describe('a write with a borrowed token, in the config view', () => {
	test('the apply question and the undo question say whose token it is', () => {
		expect(dialogContent({kind: 'confirm', step: 1}, lent, 'rig').lines.map((line) => line.text)).toContain(said);
		const undo = readySessionState(undefined, {tokenFrom: 'the command line of process 4242', lastApplied: applied});
		expect(dialogContent({kind: 'undo'}, undo, 'rig').lines.map((line) => line.text)).toContain(said);
	});

	test('with the token given, nothing is said of it', () => {
		const given = readySessionState(toggled);
		expect(dialogContent({kind: 'confirm', step: 1}, given, 'rig').lines.some((line) => line.text.includes('token'))).toBe(false);
	});
});
