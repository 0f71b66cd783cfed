/** The config view's framed panels (a question, the diff, a result): as tall as what they hold, up to the room given. */
import {describe, expect, test} from 'vitest';
import {ConfigPanel} from '../../../../source/ui/screens/config/config-panel.js';
import {linesOf, renderTerminal} from '../../helpers/terminal.js';

const content = {
	title: 'Applied',
	lines: [{text: 'donate-level 1 → 3'}, {text: 'backup config.json.rigtop-1', data: true as const}],
	prompt: 'Esc close',
};

describe('a config panel', () => {
	for (const [columns, rows] of [
		[80, 24],
		[200, 50],
	] as const) {
		test(`at ${columns}×${rows}: a two-line result is four framed lines and a prompt, not a screen of empty ones`, async () => {
			const terminal = await renderTerminal(<ConfigPanel content={content} width={columns} height={rows - 2} />, {columns, rows});
			const lines = linesOf(terminal.frame());
			expect(lines[0]).toMatch(/^╭ Applied/);
			const bottom = lines.findIndex((line) => /^╰─+╯$/.test(line));
			expect(bottom).toBe(4);
			expect(lines.slice(1, bottom).map((line) => line.slice(2).replace(/ *│$/, ''))).toEqual([
				'donate-level 1 → 3',
				'backup config.json.rigtop-1',
				'Esc close',
			]);
			expect(lines.filter((line) => /^│ +│$/.test(line))).toEqual([]);
		});
	}

	test('what does not fit still ends in "… N more" inside a frame as tall as the room', async () => {
		const many = {title: 'Diff', lines: Array.from({length: 40}, (_, index) => ({text: `key-${index}`})), prompt: null};
		const terminal = await renderTerminal(<ConfigPanel content={many} width={40} height={10} />, {columns: 40, rows: 12});
		const lines = linesOf(terminal.frame());
		expect(lines[9]).toMatch(/^╰─+╯$/);
		expect(lines[8]).toContain('… 33 more');
	});
});
