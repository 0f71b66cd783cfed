// ink 8.0.0 (its frame buffer, build/output.js): each frame's text caches start with what the frame before used.
// As published, each frame's Output starts with empty caches, so every line of every frame is tokenized again
// (@alcalzone/ansi-tokenize) and measured again (string-width), though a poll changes a few values on a screen of
// unchanged text: in a CPU profile of the steady loop (one miner at -i 1, Node 22) that was about a quarter of
// rigtop's busy time (docs/performance.md, issue 25). Each cache maps a string to a value computed from it alone, so
// carrying entries over changes no output. A frame keeps only what it used, with the last frame's entries to draw
// from: the caches hold at most two frames' strings, as the original holds one.
// test/e2e/patches.test.ts draws the same frames with both modules and checks what is carried over and what is not.
import {versionedPatch} from './versioned-patch.mjs';

export default versionedPatch({
	name: 'ink',
	version: '8.0.0',
	patchFile: 'scripts/patches/ink-output.mjs',
	files: {
		'build/output.js'(source, replace) {
			let patched = replace(
				source,
				`class OutputCaches {
    widths = new Map();
    blockWidths = new Map();
    styledChars = new Map();`,
				`// rigtop patch (scripts/patches/ink-output.mjs): a frame's caches draw on the last frame's.
class CarriedMap {
    map = new Map();
    last;
    constructor(last) {
        this.last = last?.map;
    }
    get size() {
        return this.map.size;
    }
    has(key) {
        return this.get(key) !== undefined;
    }
    get(key) {
        let value = this.map.get(key);
        if (value === undefined && this.last !== undefined) {
            value = this.last.get(key);
            if (value !== undefined) {
                this.map.set(key, value);
            }
        }
        return value;
    }
    set(key, value) {
        this.map.set(key, value);
        return this;
    }
}
let lastCaches;
class OutputCaches {
    widths = new CarriedMap(lastCaches?.widths);
    blockWidths = new CarriedMap(lastCaches?.blockWidths);
    styledChars = new CarriedMap(lastCaches?.styledChars);
    lines = new CarriedMap(lastCaches?.lines);
    constructor() {
        lastCaches = this;
    }
    // A written text's lines, each with its styles (nothing changes the array: writes map and slice it).
    getLines(text) {
        let cached = this.lines.get(text);
        if (cached === undefined) {
            const characterLines = [[]];
            for (const character of this.getStyledChars(text)) {
                if (character.value === '\\n') {
                    characterLines.push([]);
                }
                else {
                    characterLines.at(-1).push(character);
                }
            }
            cached = characterLines.map(line => styledCharsToString(line));
            this.lines.set(text, cached);
        }
        return cached;
    }`,
			);
			// Each write split its text into lines and turned each into a string again at every frame.
			patched = replace(
				patched,
				`        const characterLines = [[]];
        for (const character of this.caches.getStyledChars(text)) {
            if (character.value === '\\n') {
                characterLines.push([]);
            }
            else {
                characterLines.at(-1).push(character);
            }
        }
        let lines = characterLines.map(line => styledCharsToString(line));`,
				`        let lines = this.caches.getLines(text);`,
			);
			// The grid: every cell of every row was a new blank object at each frame, and every row was turned into a
			// string again (styledCharsToString), though most rows hold the same cells as the frame before (the cells
			// are the cached styled characters above). Blank cells are one shared object (no cell is ever changed in
			// place: writes replace cells), and a row whose cells are the very ones of the last frame's row at the same
			// place keeps that row's string. It holds one frame's rows.
			patched = replace(
				patched,
				`export default class Output {`,
				`// rigtop patch (scripts/patches/ink-output.mjs): one blank cell; rows that did not change keep their string.
const blankGridCell = Object.freeze({
    type: 'char',
    value: ' ',
    fullWidth: false,
    styles: Object.freeze([]),
});
// The cell after a wide character: one object per character (and per kind), so that its row's cells stay the same.
const wideCellTails = new WeakMap();
const wideCellTail = (character, outside) => {
    let tails = wideCellTails.get(character);
    if (tails === undefined) {
        tails = [];
        wideCellTails.set(character, tails);
    }
    const kind = outside ? 1 : 0;
    tails[kind] ??= Object.freeze({
        type: 'char',
        // Preserve visible cells when the leading cell is outside the output.
        value: outside ? ' ' : '',
        fullWidth: false,
        styles: character.styles,
    });
    return tails[kind];
};
let lastRows = [];
const sameCells = (a, b) => {
    if (a === undefined || a.length !== b.length) {
        return false;
    }
    for (let index = 0; index < a.length; index++) {
        if (a[index] !== b[index]) {
            return false;
        }
    }
    return true;
};
export default class Output {`,
			);
			patched = replace(
				patched,
				`                        currentLine[offsetX + offset] = {
                            type: 'char',
                            // Preserve visible cells when the leading cell is outside the output.
                            value: offsetX < 0 ? ' ' : '',
                            fullWidth: false,
                            styles: character.styles,
                        };`,
				`                        currentLine[offsetX + offset] = wideCellTail(character, offsetX < 0);`,
			);
			patched = replace(
				patched,
				`            const row = [];
            for (let x = 0; x < this.width; x++) {
                row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });
            }
            output.push(row);`,
				`            output.push(Array.from({ length: this.width }, () => blankGridCell));`,
			);
			return replace(
				patched,
				`        const generatedOutput = output
            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })
            .join('\\n');`,
				`        const rows = [];
        const generatedOutput = output
            .map((line, index) => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            const last = lastRows[index];
            const text = last !== undefined && sameCells(last.cells, lineWithoutEmptyItems)
                ? last.text
                : styledCharsToString(lineWithoutEmptyItems).trimEnd();
            rows.push({ cells: lineWithoutEmptyItems, text });
            return text;
        })
            .join('\\n');
        lastRows = rows;`,
			);
		},
		// Ink's line diff measured the unchanged prefix and both suffixes of each changed line with string-width at each
		// frame; from one frame to the next they are mostly the same strings (a value changed in the middle of a row).
		// Widths are kept for the strings of about the last 1,024 measures (two generations of Maps).
		'build/line-update.js': (source, replace) =>
			replace(
				source,
				`import stringWidth from 'string-width';`,
				`import measureWidth from 'string-width';
// rigtop patch (scripts/patches/ink-output.mjs): widths measured lately are kept.
let widths = new Map();
let lastWidths = new Map();
const stringWidth = (text) => {
    let width = widths.get(text);
    if (width === undefined) {
        width = lastWidths.get(text) ?? measureWidth(text);
        if (widths.size >= 1024) {
            lastWidths = widths;
            widths = new Map();
        }
        widths.set(text, width);
    }
    return width;
};`,
			),
		// Each text node's width was measured at every frame (widest-line: string-width of each of its lines), unchanged
		// text too; the frame's Output measures it the same way (getWidestLine) through the caches above.
		'build/render-node-to-output.js': (source, replace) =>
			replace(
				source,
				'const currentWidth = widestLine(text);',
				'const currentWidth = output.caches.getWidestLine(text); // rigtop patch (scripts/patches/ink-output.mjs)',
			),
	},
});
