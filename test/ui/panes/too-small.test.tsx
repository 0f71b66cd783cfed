/**
 * The "terminal too small" notice: what it needs first, then the size and the way out, on the lines there are; a
 * sentence cut at them ends in "…".
 */
import {describe, expect, test} from 'vitest';
import {TooSmall} from '../../../source/ui/panes/too-small.js';
import {expectFits, linesOf, renderTerminal} from '../helpers/terminal.js';

describe('the too-small notice', () => {
	test('at 20×4 the need is whole and the way out, cut at the last line, ends in "…"', async () => {
		const terminal = await renderTerminal(<TooSmall columns={20} rows={4} hint="q quits" />, {columns: 20, rows: 4});
		expect(linesOf(terminal.frame()).map((line) => line.trimEnd())).toEqual([' terminal too small', ' — need 50×10', ' this one is 20×4…']);
		expectFits(terminal, 20, 4);
	});

	test('with the room for it, nothing is cut and nothing says so', async () => {
		const terminal = await renderTerminal(<TooSmall columns={30} rows={6} hint="q quits" />, {columns: 30, rows: 6});
		expect(terminal.frame()).toContain('this one is 30×6 · q quits');
		expect(terminal.frame()).not.toContain('…');
	});
});
