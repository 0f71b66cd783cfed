#!/usr/bin/env node
// Builds the shipped single-file bundle dist/cli.js (and the simulator entry dist/xmrig-sim.js,
// used by tests and benchmarks, not shipped). See readme "Build" for why each setting is here.
import {build} from 'esbuild';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import process from 'node:process';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Ink 6.8 keeps every distinct string it ever measured or wrapped in two unbounded module-level
// caches (fixed in Ink 8 with an LRU). A monitor open for days must not grow, so the bundle swaps
// both modules for versions whose caches are cleared when they reach a cap.
const CACHE_CAP = 1024;
// Cached styled lines hold one object per character: fewer of them.
const STYLED_CACHE_CAP = 256;

/** Applies exact text replacements to a dependency's source; fails the build if one does not match once. */
function patchSource(source, file, replacements) {
	let patched = source;
	for (const [from, to] of replacements) {
		const count = patched.split(from).length - 1;
		if (count !== 1) throw new Error(`cannot patch ${file}: expected one ${JSON.stringify(from.slice(0, 60))}, found ${count}`);
		patched = patched.replace(from, () => to);
	}

	return patched;
}
const inkPatches = {
	name: 'rigtop-ink-patches',
	setup(b) {
		b.onLoad({filter: /[\\/]ink[\\/]build[\\/]measure-text\.js$/}, () => ({
			loader: 'js',
			contents: `import widestLine from 'widest-line';
const cache = new Map();
const measureText = (text) => {
	if (text.length === 0) return {width: 0, height: 0};
	const cached = cache.get(text);
	if (cached) return cached;
	const dimensions = {width: widestLine(text), height: text.split('\\n').length};
	if (cache.size >= ${CACHE_CAP}) cache.clear();
	cache.set(text, dimensions);
	return dimensions;
};
export default measureText;`,
		}));
		b.onLoad({filter: /[\\/]ink[\\/]build[\\/]wrap-text\.js$/}, () => ({
			loader: 'js',
			contents: `import wrapAnsi from 'wrap-ansi';
import cliTruncate from 'cli-truncate';
const cache = new Map();
const wrapText = (text, maxWidth, wrapType) => {
	const key = text + String(maxWidth) + String(wrapType);
	const cached = cache.get(key);
	if (cached !== undefined) return cached;
	let wrapped = text;
	if (wrapType === 'wrap') wrapped = wrapAnsi(text, maxWidth, {trim: false, hard: true});
	if (wrapType.startsWith('truncate')) {
		const position = wrapType === 'truncate-middle' ? 'middle' : wrapType === 'truncate-start' ? 'start' : 'end';
		wrapped = cliTruncate(text, maxWidth, {position});
	}
	if (cache.size >= ${CACHE_CAP}) cache.clear();
	cache.set(key, wrapped);
	return wrapped;
};
export default wrapText;`,
		}));
		// Ink 6.8's incremental writer starts every update one row too low (Ink #910) and duplicates
		// rows on screen; scripts/ink-log-update.mjs is a corrected writer with the same interface.
		b.onLoad({filter: /[\\/]ink[\\/]build[\\/]log-update\.js$/}, (args) => ({
			loader: 'js',
			contents: readFileSync(new URL('ink-log-update.mjs', import.meta.url), 'utf8'),
			resolveDir: path.dirname(args.path),
		}));
		// Ink 6.8 builds a fresh set of text caches for every frame (output.js), so each frame
		// re-tokenizes and re-measures (with Intl.Segmenter, for any non-ASCII text such as borders)
		// every line it draws, and allocates a new blank cell for every cell of the screen. The
		// caches become one shared, bounded set (plus one for the lines cut at a clipping box's edge,
		// which the dashboard's overflow="hidden" frame applies to every line), and the blank cell one
		// shared object: the cached cells are only ever placed in the grid by reference, never changed,
		// so a row made of the same cells as last frame's has the same text.
		b.onLoad({filter: /[\\/]ink[\\/]build[\\/]output\.js$/}, (args) => ({
			loader: 'js',
			contents: patchSource(readFileSync(args.path, 'utf8'), args.path, [
				['this.styledChars.set(line, cached);', `if (this.styledChars.size >= ${STYLED_CACHE_CAP}) this.styledChars.clear(); this.styledChars.set(line, cached);`],
				['this.widths.set(text, cached);', `if (this.widths.size >= ${CACHE_CAP}) this.widths.clear(); this.widths.set(text, cached);`],
				['this.blockWidths.set(text, cached);', `if (this.blockWidths.size >= ${CACHE_CAP}) this.blockWidths.clear(); this.blockWidths.set(text, cached);`],
				['caches = new OutputCaches();', 'caches = sharedOutputCaches;'],
				['return sliceAnsi(line, from, to);', 'return sliceClipped(line, from, to);'],
				[
					'export default class Output {',
					`const sharedOutputCaches = new OutputCaches();
const blankCell = Object.freeze({type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([])});
const slices = new Map();
const sliceClipped = (line, from, to) => {
	const key = from + ':' + to + ':' + line;
	let sliced = slices.get(key);
	if (sliced === undefined) {
		sliced = sliceAnsi(line, from, to);
		if (slices.size >= ${CACHE_CAP}) slices.clear();
		slices.set(key, sliced);
	}
	return sliced;
};
// A row whose cells are the very same objects as the last frame's row at that height has the
// same text: reuse it instead of rebuilding the row's escape codes.
const previousRows = [];
const rowText = (cells, y) => {
	const previous = previousRows[y];
	if (previous !== undefined && previous.cells.length === cells.length && previous.cells.every((cell, x) => cell === cells[x])) return previous.text;
	const text = styledCharsToString(cells).trimEnd();
	previousRows[y] = {cells, text};
	return text;
};
export default class Output {`,
				],
				[
					`row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });`,
					'row.push(blankCell);',
				],
				[
					`const generatedOutput = output
            .map(line => {`,
					`const generatedOutput = output
            .map((line, rowIndex) => {`,
				],
				['return styledCharsToString(lineWithoutEmptyItems).trimEnd();', 'return rowText(lineWithoutEmptyItems, rowIndex);'],
			]),
			resolveDir: path.dirname(args.path),
		}));
		// …and measures the width of every text node again on every frame: use the (bounded)
		// measured-text cache above instead.
		b.onLoad({filter: /[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/}, (args) => ({
			loader: 'js',
			contents: patchSource(readFileSync(args.path, 'utf8'), args.path, [
				["import widestLine from 'widest-line';", "import measureText from './measure-text.js';\nconst widestLine = (text) => measureText(text).width;"],
			]),
			resolveDir: path.dirname(args.path),
		}));
		// Ink only imports react-devtools-core when DEV=true; a single-file bundle would turn that
		// optional import into a static one that fails at start, so it becomes an empty module.
		b.onResolve({filter: /^react-devtools-core$/}, () => ({path: 'react-devtools-core', namespace: 'stub'}));
		// Ink draws nothing live when CI is set. rigtop decides itself (non-TTY → --once), so a user
		// whose shell happens to export CI still gets the live dashboard in a terminal.
		b.onResolve({filter: /^is-in-ci$/}, () => ({path: 'is-in-ci', namespace: 'stub'}));
		b.onLoad({filter: /^react-devtools-core$/, namespace: 'stub'}, () => ({contents: 'export default {connectToDevTools() {}};', loader: 'js'}));
		b.onLoad({filter: /^is-in-ci$/, namespace: 'stub'}, () => ({contents: 'export default false;', loader: 'js'}));
	},
};

/** The esbuild settings of every rigtop bundle (benchmarks bundle their own entries with them). */
export const common = {
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	// Prefer ESM builds: jsonc-parser's UMD main uses dynamic require()s esbuild cannot follow.
	mainFields: ['module', 'main'],
	jsx: 'automatic',
	minify: true,
	legalComments: 'none',
	logLevel: 'warning',
	define: {
		'process.env.NODE_ENV': '"production"',
		'process.env.DEV': '"false"',
		RIGTOP_VERSION: JSON.stringify(pkg.version),
	},
	// CommonJS dependencies inside an ESM bundle need a real require().
	banner: {js: "import {createRequire as __rigtopCreateRequire} from 'node:module';const require=__rigtopCreateRequire(import.meta.url);"},
	plugins: [inkPatches],
};

/** Builds dist/cli.js (shipped) and dist/xmrig-sim.js (tests and benchmarks only). */
export async function buildAll() {
	await build({...common, entryPoints: ['source/cli.tsx'], outfile: 'dist/cli.js'});
	await build({...common, entryPoints: ['source/sim/main.ts'], outfile: 'dist/xmrig-sim.js'});
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildAll();
