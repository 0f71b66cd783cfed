/** The help overlay's layout: descriptions beside the keys, under them in a narrow frame, wrapped lines aligned. */
import {describe, expect, test} from 'vitest';
import {HelpOverlay} from '../../../source/ui/panes/help-overlay.js';
import {linesOf, renderTerminal} from '../helpers/terminal.js';

const entries = [
	{keys: 'q, F10, Ctrl+C', description: 'quit rigtop', available: true},
	{keys: '?, F1', description: 'show or hide this help', available: true},
	{keys: 'e', description: 'every event, with the stored ones before this session', available: true},
	{keys: 'x', description: 'not offered here', available: false},
];

async function overlay(width: number, height: number) {
	const terminal = await renderTerminal(<HelpOverlay entries={entries} width={width} height={height} />, {
		columns: width,
		rows: height + 1,
	});
	return linesOf(terminal.frame());
}

describe('the help overlay', () => {
	test('a description wraps beside its keys, each of its lines starting at the same column', async () => {
		// 12 columns for descriptions: "show or hide" fills its line, and the break leaves a space before "this".
		const lines = await overlay(32, 12);
		expect(lines.slice(1, 5)).toEqual([
			'│ q, F10, Ctrl+C  quit rigtop  │',
			'│ ?, F1           show or hide │',
			'│                 this help    │',
			'│ e               every event, │',
		]);
		expect(lines.join('\n')).not.toContain('not offered');
	});

	test('in a frame too narrow for the keys column, each description goes under its keys, inside the frame', async () => {
		const lines = await overlay(20, 10);
		expect(lines[1]).toBe('│ q, F10, Ctrl+C   │');
		expect(lines[2]).toBe('│   quit rigtop    │');
		expect(lines[3]).toBe('│ ?, F1            │');
		expect(lines[4]).toBe('│   show or hide   │');
		expect(lines[5]).toBe('│   this help      │');
		for (const line of lines) expect([...line].length).toBeLessThanOrEqual(20);
	});

	test('a description has no line holding only the space a break left', async () => {
		// 10 columns for it under its keys: "over" fills a line with the break's space, and "everything" (as long as
		// the line) cannot join it: Ink's wrap gives that space a line of its own.
		const terminal = await renderTerminal(
			<HelpOverlay entries={[{keys: 'z', description: 'draws over everything else', available: true}]} width={16} height={8} />,
			{columns: 16, rows: 9},
		);
		expect(linesOf(terminal.frame()).slice(1, 5)).toEqual(['│ z            │', '│   draws over │', '│   everything │', '│   else       │']);
	});

	test('as tall as what it holds, the rest of the room left blank below its frame (no empty framed lines)', async () => {
		const lines = await overlay(60, 30);
		// Title, three entries (the last on two lines), bottom border: six lines; then nothing.
		expect(lines[0]).toMatch(/^╭ Keys/);
		const bottom = lines.findIndex((line) => /^╰─+╯$/.test(line));
		expect(bottom).toBe(5);
		expect(lines.slice(bottom + 1).every((line) => line.trim() === '')).toBe(true);
		expect(lines.filter((line) => /^│ +│$/.test(line))).toEqual([]);
	});
});
