import {Box, Text} from 'ink';
import {describe, expect, test} from 'vitest';
import {wrapLines, wrappedHeight} from '../../source/ui/wrap.js';
import {linesOf, renderTerminal} from './helpers/terminal.js';

describe('wrapped text', () => {
	test('breaks between words, and a word longer than the line inside it', () => {
		expect(wrapLines('fix: set http.restricted to false in the config', 20).map((line) => line.trimEnd())).toEqual([
			'fix: set',
			'http.restricted to',
			'false in the config',
		]);
		expect(wrappedHeight('short', 20)).toBe(1);
		expect(wrapLines('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
	});

	test('measures as Ink draws it', async () => {
		const text = 'the miner is in restricted mode: it shows its status but does not let anyone read its config through the API (403)';
		const terminal = await renderTerminal(
			<Box width={30}>
				<Text wrap="wrap">{text}</Text>
			</Box>,
			{columns: 40, rows: 20},
		);
		expect(linesOf(terminal.frame()).map((line) => line.trimEnd())).toEqual(wrapLines(text, 30).map((line) => line.trimEnd()));
	});
});
