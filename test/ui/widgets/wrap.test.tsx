import {stripVTControlCharacters} from 'node:util';
import fc from 'fast-check';
import {Box, Text} from 'ink';
import {describe, expect, test} from 'vitest';
import {cutLines, cutText, trimBreak, wordLines, Wrapped, wrapLines, wrappedHeight} from '../../../source/ui/widgets/wrap.js';
import {inkChalk} from '../helpers/colour.js';
import {linesOf, renderTerminal} from '../helpers/terminal.js';

/** Runs `body` with Ink's own chalk (ink/node_modules/chalk) in truecolor: the test setup pins it to none (FORCE_COLOR=0). */
async function withColour(body: () => Promise<void>): Promise<void> {
	const chalk = await inkChalk();
	const previous = chalk.level;
	chalk.level = 3;
	try {
		await body();
	} finally {
		chalk.level = previous;
	}
}

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

describe('Wrapped', () => {
	test("a line after a break does not start with the break's space, and takes the lines wrappedHeight counts", async () => {
		// At 14 columns "terminal too" fills a line exactly: Ink's own wrap starts the next with " small".
		const text = 'terminal too small — need 60×20';
		expect(wrapLines(text, 12)[1]).toBe(' small — ');
		const terminal = await renderTerminal(
			<Box width={12} flexDirection="column">
				<Wrapped bold>{text}</Wrapped>
				<Text>end</Text>
			</Box>,
			{columns: 20, rows: 10},
		);
		const lines = linesOf(terminal.frame()).map((line) => line.trimEnd());
		expect(lines).toEqual(['terminal too', 'small —', 'need 60×20', 'end']);
		expect(lines.length - 1).toBe(wrappedHeight(text, 12));
	});

	test('nested styled text keeps its styles, and the space goes after the codes that open the line', async () => {
		await withColour(async () => {
			const terminal = await renderTerminal(
				<Box width={7}>
					<Wrapped>
						<Text color="red">{'fix: '}</Text>
						<Text bold>{'restart it now'}</Text>
					</Wrapped>
				</Box>,
				{columns: 20, rows: 10},
			);
			const raw = linesOf(terminal.rawFrame());
			// "fix: restart it now" at 7: "restart" fills the second line, so Ink's wrap opens the third with its bold
			// code and then the space: "\u001B[1m it now".
			expect(linesOf(terminal.frame()).map((line) => line.trimEnd())).toEqual(['fix:', 'restart', 'it now']);
			expect(raw[0]).toContain('\u001B[31m');
			expect(stripVTControlCharacters(raw[1] ?? '')).toBe('restart');
			expect(raw[2]?.startsWith('\u001B[1mit now')).toBe(true);
		});
	});

	test('its own style reaches every line, the space taken off after the codes', async () => {
		await withColour(async () => {
			const terminal = await renderTerminal(
				<Box width={12}>
					<Wrapped bold color="yellow">
						terminal too small — need 60×20
					</Wrapped>
				</Box>,
				{columns: 20, rows: 10},
			);
			const raw = linesOf(terminal.rawFrame());
			for (const line of raw.slice(0, 3)) {
				expect(line).toContain('\u001B[1m');
				expect(line).toContain('\u001B[33m');
			}
			expect(stripVTControlCharacters(raw[1] ?? '').trimEnd()).toBe('small —');
		});
	});

	test('trimBreak leaves the first line and any text after the spaces alone', () => {
		expect(trimBreak('  indented', 0)).toBe('  indented');
		expect(trimBreak('  next', 1)).toBe('next');
		expect(trimBreak('\u001B[1m\u001B[33m small\u001B[39m', 1)).toBe('\u001B[1m\u001B[33msmall\u001B[39m');
		expect(trimBreak('a b', 2)).toBe('a b');
	});

	test("for any text and width, it draws wrapLines' lines with only leading spaces taken off", async () => {
		const word = fc.stringMatching(/^[a-z]{1,9}$/u);
		await fc.assert(
			fc.asyncProperty(fc.array(word, {minLength: 1, maxLength: 12}), fc.integer({min: 1, max: 16}), async (words, width) => {
				const text = words.join(' ');
				const terminal = await renderTerminal(
					<Box width={width}>
						<Wrapped>{text}</Wrapped>
					</Box>,
					{columns: 20, rows: 40},
				);
				const drawn = linesOf(terminal.frame()).map((line) => line.trimEnd());
				const measured = wrapLines(text, width).map((line, index) => (index === 0 ? line : line.trimStart()).trimEnd());
				expect(drawn).toEqual(measured);
				for (const line of drawn.slice(1)) expect(line.startsWith(' ')).toBe(false);
				terminal.unmount();
			}),
			{numRuns: 60},
		);
	});
});

describe('wordLines', () => {
	test("drops a line that held only a break's space, and the spaces at line starts", () => {
		// wrap-ansi gives the space its own line when "def" fills the line and "ghi" is as long as it.
		expect(wrapLines('abc def ghi', 3)).toEqual(['abc', ' ', 'def', ' ', 'ghi']);
		expect(wordLines('abc def ghi', 3)).toEqual(['abc', 'def', 'ghi']);
		expect(wordLines('show or hide this help', 12)).toEqual(['show or hide', 'this help']);
		expect(wordLines('', 5)).toEqual(['']);
	});
});

describe('text cut at a number of columns or lines ends in "…", and only then', () => {
	test('cutText: whole when it fits; cut, its last column "…"; from the start, its first', () => {
		expect(cutText('rig-01', 6)).toBe('rig-01');
		expect(cutText('garage-rig-01', 8)).toBe('garage-…');
		expect(cutText('down: connection refused', 17)).toBe('down: connection…');
		expect(cutText('127.0.0.1:18081', 10, 'start')).toBe('…0.1:18081');
		expect(cutText('abc', 1)).toBe('…');
		expect(cutText('abc', 0)).toBe('');
	});

	test('cutLines: at 40×8 the fleet config’s "not read:" reason on its one line says it was cut', () => {
		const reason = 'not read: gone-05 (down: connection refused)';
		expect(cutLines(reason, 38, 1)).toEqual(['not read: gone-05 (down: connection…']);
		expect(cutLines(reason, 38, 2)).toEqual(wordLines(reason, 38));
		expect(cutLines(reason, 38, 2).join('')).not.toContain('…');
		// A line that fills its width gives its last column to the mark.
		expect(cutLines('abcd efgh ijkl', 4, 2)).toEqual(['abcd', 'efg…']);
	});

	test('for any words, width and lines: at most that many lines, none wider; "…" ends the last exactly when some were left out', () => {
		const word = fc.stringMatching(/^[a-z]{1,9}$/u);
		fc.assert(
			fc.property(
				fc.array(word, {minLength: 1, maxLength: 14}),
				fc.integer({min: 1, max: 16}),
				fc.integer({min: 1, max: 5}),
				(words, width, lines) => {
					const text = words.join(' ');
					const whole = wordLines(text, width);
					const cut = cutLines(text, width, lines);
					expect(cut.length).toBe(Math.min(lines, whole.length));
					for (const line of cut) expect([...line].length).toBeLessThanOrEqual(width);
					if (whole.length <= lines) expect(cut).toEqual(whole);
					else {
						expect(cut.at(-1)?.endsWith('…')).toBe(true);
						expect(cut.slice(0, -1)).toEqual(whole.slice(0, lines - 1));
					}
				},
			),
			{numRuns: 300},
		);
	});

	test('Wrapped given lines and a width draws the cut lines, "…" on the last', async () => {
		const terminal = await renderTerminal(
			<Box width={20} height={2}>
				<Wrapped lines={2} width={20}>
					the miner refused to let rigtop read its config (403)
				</Wrapped>
			</Box>,
			{columns: 30, rows: 6},
		);
		expect(linesOf(terminal.frame()).map((line) => line.trimEnd())).toEqual(['the miner refused to', 'let rigtop read its…']);
	});
});
