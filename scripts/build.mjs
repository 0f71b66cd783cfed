#!/usr/bin/env node
// Builds the shipped single-file bundle dist/cli.js (and the simulator entry dist/xmrig-sim.js,
// used by tests and benchmarks, not shipped). See readme "Build" for why each setting is here.
import {build} from 'esbuild';
import {readFileSync} from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Ink 6.8 keeps every distinct string it ever measured or wrapped in two unbounded module-level
// caches (fixed in Ink 8 with an LRU). A monitor open for days must not grow, so the bundle swaps
// both modules for versions whose caches are cleared when they reach a cap.
const CACHE_CAP = 4096;
const boundedInkCaches = {
	name: 'bounded-ink-caches',
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

const common = {
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
	plugins: [boundedInkCaches],
};

await build({...common, entryPoints: ['source/cli.tsx'], outfile: 'dist/cli.js'});
await build({...common, entryPoints: ['source/sim/main.ts'], outfile: 'dist/xmrig-sim.js'});
