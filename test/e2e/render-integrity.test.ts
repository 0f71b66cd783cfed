import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {stripVTControlCharacters} from 'node:util';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

// Ink 6.8's incremental writer started every update one row too low (duplicated rows, Ink #910), and
// rigtop used to swap in a writer of its own at bundle time. Ink 8 fixed it; rigtop now draws with
// Ink's own writer, and these tests watch it in a real terminal: the exact frames, then the built
// dashboard. A writer with the 6.8 bug (below) shows that the frame check can fail.

let terminal: TmuxTerminal | null = null;
const work = mkdtempSync(path.join(tmpdir(), 'rigtop-render-'));

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
});

afterAll(() => {
	rmSync(work, {recursive: true, force: true});
});

const INK_WRITER = pathToFileURL(path.resolve('node_modules/ink/build/log-update.js')).href;
// Ink 6.8's mistake, reduced: before each redraw it moved up (and erased) `lines - 1` rows of the
// previous frame, which is one too few for a frame that ends in a newline.
const BUGGY_WRITER = (() => {
	const file = path.join(work, 'buggy-writer.mjs');
	writeFileSync(
		file,
		`export default {create(stream) {
	let previous = 0;
	return (text) => {
		const lines = text.split('\\n');
		stream.write((previous > 1 ? '\\u001B[' + (previous - 1) + 'A' : '') + '\\r\\u001B[J' + text);
		previous = lines.length - 1;
	};
}};
`,
	);
	return pathToFileURL(file).href;
})();
const COLS = 40;
const ROWS = 12;

// A program that prints a line, then shows FRAMES[0] with the writer, and the next frame on each key.
const PLAYER = `
const {default: logUpdate} = await import(process.env.WRITER);
const frames = JSON.parse(process.env.FRAMES);
const log = logUpdate.create(process.stdout, {incremental: true});
process.stdout.write('above\\n');
let index = 0;
log(frames[0]);
process.stdin.setRawMode(true);
process.stdin.on('data', () => {
	index += 1;
	if (index < frames.length) log(frames[index]);
	else process.exit(0);
});
`;

const red = (text: string) => `\u001B[31m${text}\u001B[39m`;
const full = (char: string) => char.repeat(COLS);
const lines = (...rows: string[]) => `${rows.join('\n')}\n`;
// Frames that exercise every path: unchanged rows, changed rows, growth, shrinking, a one-line
// frame, full-width lines, colour, a frame that reaches the last row, and frames without a
// trailing newline (Ink's form for a frame as tall as the terminal).
const FRAMES = [
	lines('a', 'b', 'c'),
	lines('a', 'B', 'c'),
	lines('a', 'B', 'c', 'd', 'e'),
	lines('a', 'B', 'c', 'd', 'e', '', 'g'),
	lines('x'),
	lines('x', 'y', 'z'),
	lines(full('#'), 'y', full('=')),
	lines(full('#'), red('red'), full('-')),
	lines('1', '2', '3', '4', '5', '6', '7', '8', '9', '10'),
	lines('1', '2', '3', '4', '5', '6', '7', '8', '9', 'ten'),
	lines('1', '2', 'three', '4', '5', '6', '7', '8', '9', 'ten', '11'),
	lines('1', '2', 'three', '4', '5', '6', '7', '8', '9', 'ten', 'eleven'),
	'1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12',
	'1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12',
	'p\nq',
	'p\nQ',
	lines('p', 'Q', 'r'),
	lines('k'),
];

/**
 * The screen each frame must leave: the "above" line (until a frame scrolls it away), the frame's
 * lines from the frame's top row, blank rows below.
 */
function expectedScreens(frames: readonly string[]): string[] {
	let top = 1;
	return frames.map((frame) => {
		const split = frame.split('\n');
		const bottom = top + split.length - 1;
		if (bottom > ROWS - 1) top -= bottom - (ROWS - 1);
		const visible = frame.endsWith('\n') ? split.slice(0, -1) : split;
		const screen = Array.from({length: ROWS}, () => '');
		if (top === 1) screen[0] = 'above';
		visible.forEach((line, index) => {
			screen[top + index] = stripVTControlCharacters(line);
		});
		return screen.join('\n');
	});
}

function normalize(screen: string): string {
	const rows = screen.split('\n').map((row) => row.trimEnd());
	return rows.slice(0, ROWS).join('\n');
}

/**
 * Plays the frames with a writer; returns the index of the first frame whose screen is wrong. A patience of
 * `exact` ms is kept as it is (the buggy writer's wrong frame must show within it); without it the wait is
 * the e2e tests' usual, at least PATIENCE_MS.
 */
async function play(
	writer: string,
	patienceMs: number,
	{exact = false} = {},
): Promise<{wrongAt: number; got: string; wanted: string} | null> {
	const expected = expectedScreens(FRAMES);
	terminal = await TmuxTerminal.start([process.execPath, '--input-type=module', '-e', PLAYER], {
		cols: COLS,
		rows: ROWS,
		env: {WRITER: writer, FRAMES: JSON.stringify(FRAMES)},
	});
	for (const [index, wanted] of expected.entries()) {
		if (index > 0) await terminal.send('n', true);
		try {
			await terminal.waitFor((screen) => normalize(screen) === wanted, patienceMs, {exact});
		} catch {
			return {wrongAt: index, got: normalize(await terminal.screen()), wanted};
		}
	}

	return null;
}

describe('incremental rendering in a real terminal', () => {
	it("Ink's incremental writer leaves exactly each frame on screen: growing, shrinking, full-width, colour, scrolling, no trailing newline", async () => {
		const wrong = await play(INK_WRITER, 3000);
		expect(wrong).toBeNull();
	});

	it("the same frames through a writer with Ink 6.8's bug go wrong (the check can fail)", async () => {
		const wrong = await play(BUGGY_WRITER, 600, {exact: true});
		expect(wrong).not.toBeNull();
		expect(wrong?.wrongAt).toBeLessThan(3);
	});

	it('the built dashboard at 80×24, updating 5 times a second, never duplicates a row or breaks a pane', async () => {
		terminal = await TmuxTerminal.start([process.execPath, CLI, '--demo', '--interval', '0.25'], {cols: 80, rows: 24});
		await terminal.waitFor((screen) => screen.includes('demo-rig') && /Threads/.test(screen), 8000);
		const distinct = new Set<string>();
		const deadline = Date.now() + 6000;
		let captures = 0;
		while (Date.now() < deadline) {
			const screen = await terminal.screen();
			captures += 1;
			distinct.add(screen);
			const problems = integrityProblems(screen, 24);
			if (problems.length > 0) throw new Error(`capture ${captures}: ${problems.join('; ')}\n${screen}`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}

		expect(captures).toBeGreaterThan(20);
		// The screen really changed while it was being watched (values update at each poll).
		expect(distinct.size).toBeGreaterThan(5);
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});
});

/** What is wrong with a dashboard screen: duplicated rows, pane borders that do not close, … */
function integrityProblems(screen: string, rows: number): string[] {
	const lines = screen
		.split('\n')
		.slice(0, rows)
		.map((line) => [...line]);
	const problems: string[] = [];
	const text = lines.map((line) => line.join(''));
	if (!text[0]?.startsWith(' rigtop ')) problems.push('row 1 is not the header');
	if (text.filter((line) => line.startsWith(' rigtop ')).length !== 1) problems.push('the header appears more than once');
	if (!text[rows - 2]?.startsWith(' q quit')) problems.push('the footer is not on the second-to-last row');
	if ((text[rows - 1] ?? '').trim() !== '') problems.push('the last row is not empty');

	// Every top corner has the matching bottom corner below it in the same column, with side
	// borders in between and no other top corner.
	let tops = 0;
	lines.forEach((line, row) => {
		line.forEach((char, column) => {
			if (char !== '╭' && char !== '╮') return;
			tops += 1;
			const bottom = char === '╭' ? '╰' : '╯';
			let below = row + 1;
			while (below < lines.length && lines[below]?.[column] === '│') below += 1;
			if (lines[below]?.[column] !== bottom)
				problems.push(
					`the pane at row ${row + 1}, column ${column + 1} does not close (found ${JSON.stringify(lines[below]?.[column] ?? 'nothing')} at row ${below + 1})`,
				);
		});
	});
	if (tops < 10) problems.push(`only ${tops} pane corners`);

	// Thread rows: indices ascending by one, none repeated.
	const indices = text
		.map((line) => /^│\s{2,}(\d+)\s{2,}[\d.—-]+\s/.exec(line)?.[1])
		.filter((index) => index !== undefined)
		.map(Number);
	if (indices.length === 0) problems.push('no thread rows');
	indices.forEach((index, position) => {
		if (position > 0 && index !== (indices[position - 1] ?? 0) + 1) problems.push(`thread rows out of order: ${indices.join(',')}`);
	});
	return problems;
}
