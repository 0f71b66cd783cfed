/** The inline editor keeps its caret on screen, whatever the value's length and the room. */
import fc from 'fast-check';
import {describe, expect, test} from 'vitest';
import {EditorText, editorWindow} from '../../../../source/ui/widgets/config-tree.js';
import {createTheme, ThemeContext} from '../../../../source/ui/text/theme.js';
import {linesOf, renderTerminal} from '../../helpers/terminal.js';

/** Without colour the caret is drawn as "▏", so the frame's text shows where it is. */
const plain = createTheme({color: false});

describe('the inline editor', () => {
	test('for any length, caret and room: the caret is in the window, which fits the room, "…" on each cut side', () => {
		fc.assert(
			fc.property(
				fc.integer({min: 0, max: 300}),
				fc.integer({min: 3, max: 120}),
				fc.double({min: 0, max: 1, noNaN: true}),
				(length, room, where) => {
					const caret = Math.round(where * length);
					const {from, to, lead, tail} = editorWindow(length, caret, room);
					const cells = (lead ? 1 : 0) + (to - from) + (caret === length ? 1 : 0) + (tail ? 1 : 0);
					expect(cells).toBeLessThanOrEqual(room);
					expect(caret).toBeGreaterThanOrEqual(from);
					expect(caret <= to).toBe(true);
					if (caret === to) expect(caret).toBe(length);
					expect(lead).toBe(from > 0);
					expect(tail).toBe(to < length);
					// Nothing is cut that would have fitted.
					if (length + 1 <= room) expect([from, to]).toEqual([0, length]);
				},
			),
			{numRuns: 500},
		);
	});

	test('typing past the edge: the end of the value and the caret stay on screen', async () => {
		const value = 'stratum+ssl://a-very-long-pool-host-name.example.org:443';
		const terminal = await renderTerminal(
			<ThemeContext.Provider value={plain}>
				<EditorText text={value} caret={value.length} secret={false} room={30} />
			</ThemeContext.Provider>,
			{
				columns: 30,
				rows: 3,
			},
		);
		const line = linesOf(terminal.frame())[0] ?? '';
		expect(line).toBe(`…${value.slice(-28)}▏`);
		expect([...line].length).toBeLessThanOrEqual(30);
	});

	test('the caret in the middle of a long value: cut on both sides, the caret between', async () => {
		const value = 'a'.repeat(40) + 'CARET' + 'b'.repeat(40);
		const terminal = await renderTerminal(
			<ThemeContext.Provider value={plain}>
				<EditorText text={value} caret={42} secret={false} room={20} />
			</ThemeContext.Provider>,
			{columns: 20, rows: 3},
		);
		const line = linesOf(terminal.frame())[0] ?? '';
		expect(line.startsWith('…')).toBe(true);
		expect(line.endsWith('…')).toBe(true);
		expect(line).toContain('CA▏R');
		expect([...line].length).toBeLessThanOrEqual(20);
	});
});
