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
		'build/output.js': (source, replace) =>
			replace(
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
    constructor() {
        lastCaches = this;
    }`,
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
