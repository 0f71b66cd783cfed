#!/usr/bin/env node
// Builds the shipped bundle, dist/cli.js and its chunks in dist/chunks/ (and the simulator entry dist/xmrig-sim.js,
// used by tests and benchmarks, not shipped). See readme "Build" for why each setting is here.
import {build} from 'esbuild';
import {readFileSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
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
// Text in which every character is a grapheme cluster of its own, whatever surrounds it: ASCII
// but CR (CR LF is one cluster), Latin-1 to spacing modifiers, and the punctuation, arrows, math,
// box-drawing, block and symbol ranges the screens draw with; no combining mark, joiner, variation
// selector, Hangul jamo or astral character (checked with Intl.Segmenter for all 13.8 million
// ordered pairs of these characters). For such text, splitting into graphemes is splitting into
// characters, which needs no Intl.Segmenter.
const SINGLE_CHARACTER_GRAPHEMES = String.raw`/^[\x00-\x0C\x0E-\x7E\u00A0-\u02FF\u2010-\u2027\u2030-\u205E\u2070-\u20CF\u2100-\u2BFF]*$/`;

// Intl.Segmenter's first construction loads ICU's break rules, about 15 ms; Ink's text packages
// each build one when they load. Built on first use instead, it is never built for a screen of
// single-character graphemes (above), which the packages below then split without it.
const LAZY_SEGMENTER = '{segmenter: undefined, segment(text) { this.segmenter ??= new Intl.Segmenter(); return this.segmenter.segment(text); }}';

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
		// yoga-layout (Ink's layout engine) carries its wasm as a base64 data: URL and, because Node 20
		// has a global fetch, reads it with fetch(): that loads Node's own internal copy of undici (about
		// 28 ms of rigtop's start). Decode it directly instead: the same bytes, no fetch.
		b.onLoad({filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/}, (args) => ({
			loader: 'js',
			contents: patchSource(readFileSync(args.path, 'utf8'), args.path, [
				['function ya(){return w||"function"!=typeof fetch?', 'function ya(){return !0?'],
				[
					'var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c}',
					'var d=new Uint8Array(Buffer.from(a.slice(37),"base64"))}',
				],
			]),
			resolveDir: path.dirname(args.path),
		}));
		// string-width 8 (Ink's text measure) builds /^\p{RGI_Emoji}$/v when it loads and tests every
		// non-ASCII cluster with it: building that regex costs about 20 ms and its first test as much
		// again, on the first frame of every start (the dashboard's borders are non-ASCII). A single
		// code point is an RGI emoji only if it has Emoji_Presentation (checked over all of Unicode:
		// the 1,193 single-code-point RGI emoji all do), a cheap test; the RGI regex is built only
		// when a cluster can still be one. Same results, without the cost for ordinary text.
		b.onLoad({filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/}, (args) => {
			const source = readFileSync(args.path, 'utf8');
			const lazySegmenter = ['const segmenter = new Intl.Segmenter();', `const segmenter = ${LAZY_SEGMENTER};`];
			// Only string-width 8 has the regex; an older copy (wrap-ansi's) only gets the lazy segmenter.
			if (!source.includes('const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;')) return {loader: 'js', contents: patchSource(source, args.path, [lazySegmenter]), resolveDir: path.dirname(args.path)};
			return {
				loader: 'js',
				contents: patchSource(source, args.path, [
					lazySegmenter,
					[
						'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
						`const emojiPresentationRegex = /\\p{Emoji_Presentation}/u;
let rgiEmojiRegex;
const isRgiEmoji = (segment) => {
	if (segment.length === (segment.codePointAt(0) > 0xFFFF ? 2 : 1) && !emojiPresentationRegex.test(segment)) return false;
	rgiEmojiRegex ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v');
	return rgiEmojiRegex.test(segment);
};`,
					],
					['if (rgiEmojiRegex.test(segment) ||', 'if (isRgiEmoji(segment) ||'],
					[
						'for (const {segment} of segmenter.segment(string)) {',
						`for (const {segment} of (${SINGLE_CHARACTER_GRAPHEMES}.test(string) ? Array.from(string, (segment) => ({segment})) : segmenter.segment(string))) {`,
					],
				]),
				resolveDir: path.dirname(args.path),
			};
		});
		// slice-ansi 8 (Ink clips every line of a box with overflow hidden through it) asks
		// Intl.Segmenter for the grapheme at every character (Segments.containing), the largest cost
		// of the first frame after layout. For text of single-character graphemes (above) the
		// answer is the character itself: same tokens, no segmenter.
		b.onLoad({filter: /[\\/]node_modules[\\/]slice-ansi[\\/]tokenize-ansi\.js$/}, (args) => ({
			loader: 'js',
			contents: patchSource(readFileSync(args.path, 'utf8'), args.path, [
				["const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});", `const GRAPHEME_SEGMENTER = ${LAZY_SEGMENTER};`],
				[
					'const graphemeSegments = GRAPHEME_SEGMENTER.segment(string);',
					`const graphemeSegments = ${SINGLE_CHARACTER_GRAPHEMES}.test(string) ? undefined : GRAPHEME_SEGMENTER.segment(string);`,
				],
				[
					'const segment = graphemeSegments.containing(index);',
					'const segment = graphemeSegments === undefined ? (index < string.length ? {index, segment: string[index]} : undefined) : graphemeSegments.containing(index);',
				],
				[
					'function areValuesInSameGrapheme(leftValue, rightValue) {',
					`function areValuesInSameGrapheme(leftValue, rightValue) {\n\tif (${SINGLE_CHARACTER_GRAPHEMES}.test(leftValue + rightValue)) return false;`,
				],
			]),
			resolveDir: path.dirname(args.path),
		}));
		// @alcalzone/ansi-tokenize splits every line Ink draws into styled characters, by grapheme.
		b.onLoad({filter: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/}, (args) => ({
			loader: 'js',
			contents: patchSource(readFileSync(args.path, 'utf8'), args.path, [
				['const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });', `const segmenter = ${LAZY_SEGMENTER};`],
				[
					'for (const { segment, index } of segmenter.segment(str)) {',
					// Single-character graphemes are all in the BMP: a character's position is its index.
					`for (const { segment, index } of (${SINGLE_CHARACTER_GRAPHEMES}.test(str) ? Array.from(str, (segment, index) => ({ segment, index })) : segmenter.segment(str))) {`,
				],
			]),
			resolveDir: path.dirname(args.path),
		}));
		// meow sets up normalize-package-data (with its spdx and semver tables) when it loads, about
		// 12 ms of every start, though it only runs when a program reads `cli.pkg` (rigtop never
		// does): set it up on first use instead.
		b.onLoad({filter: /[\\/]meow[\\/]build[\\/]dependencies\.js$/}, (args) => ({
			loader: 'js',
			contents: patchSource(readFileSync(args.path, 'utf8'), args.path, [
				[
					'var normalizeExports = requireNormalize();\nconst normalizePackageData = getDefaultExportFromCjs(normalizeExports);',
					'const normalizePackageData = (...parameters) => getDefaultExportFromCjs(requireNormalize())(...parameters);',
				],
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

// undici's main entry loads all of undici (fetch, WebSocket, EventSource, caches, mocks, proxy
// agents: about 520 kB minified, 20 ms of module set-up at every start). rigtop uses only
// `Pool` (one per miner; the benchmarks also use `request` and `Agent`), so its bundles import an
// entry that loads just those, built from undici's own index.js (the same `request` wrapper, so
// behaviour is unchanged).
const undiciIndex = createRequire(import.meta.url).resolve('undici');
function slimUndici() {
	const index = readFileSync(undiciIndex, 'utf8');
	const start = index.indexOf('function makeDispatcher (fn) {');
	const end = index.indexOf('module.exports.setGlobalDispatcher', start);
	if (start === -1 || end === -1) throw new Error(`cannot find makeDispatcher in ${undiciIndex}: update the slim undici entry in scripts/build.mjs`);
	return `'use strict'
const Dispatcher = require('./lib/dispatcher/dispatcher')
const Agent = require('./lib/dispatcher/agent')
const Pool = require('./lib/dispatcher/pool')
const errors = require('./lib/core/errors')
const util = require('./lib/core/util')
const { InvalidArgumentError } = errors
const api = require('./lib/api')
const { getGlobalDispatcher } = require('./lib/global')
Object.assign(Dispatcher.prototype, api)
${index.slice(start, end)}
module.exports.Dispatcher = Dispatcher
module.exports.Agent = Agent
module.exports.Pool = Pool
module.exports.errors = errors
module.exports.request = makeDispatcher(api.request)
`;
}
const slimUndiciPlugin = {
	name: 'rigtop-slim-undici',
	setup(b) {
		b.onResolve({filter: /^undici$/}, () => ({path: 'undici', namespace: 'rigtop-undici'}));
		b.onLoad({filter: /^undici$/, namespace: 'rigtop-undici'}, () => ({contents: slimUndici(), loader: 'js', resolveDir: path.dirname(undiciIndex)}));
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
	plugins: [inkPatches, slimUndiciPlugin],
};

/**
 * The shipped CLI: one file, dist/cli.js. cli.tsx imports the heavy parts with import() where they
 * are needed; esbuild keeps them in the same file (not split into chunks: the package is one file,
 * and splitting measured only about 0.2× of `node -e 0` faster to the first frame — see readme).
 */
export const cliBuild = {
	...common,
	entryPoints: {cli: 'source/cli.tsx'},
	outdir: 'dist',
};

/** Builds dist/cli.js (shipped) and dist/xmrig-sim.js (tests and benchmarks only). */
export async function buildAll() {
	// An older split build left chunks here; the package is one file now.
	rmSync(new URL('../dist/chunks', import.meta.url), {recursive: true, force: true});
	await build(cliBuild);
	await build({...common, entryPoints: ['source/sim/main.ts'], outfile: 'dist/xmrig-sim.js'});
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildAll();
