#!/usr/bin/env node
// Builds the shipped bundle, dist/cli.js (and the simulator entry dist/xmrig-sim.js, used by tests and
// benchmarks, not shipped). docs/build.md says why each setting is here.
import {rmSync} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import inkOutputPatch from './patches/ink-output.mjs';
import meowPatch from './patches/meow.mjs';
import stringWidthPatch from './patches/string-width.mjs';
import yogaLayoutPatch from './patches/yoga-layout.mjs';

/**
 * The versioned patches of dependencies (scripts/patches/, docs/build.md): each edits files of one exact
 * package version and fails the build on any other. At most 3 (issue 11), and a fourth that saves at least 10 % of
 * the steady CPU (issue 25); each pays for itself in a benchmark.
 */
export const patches = [inkOutputPatch, meowPatch, stringWidthPatch, yogaLayoutPatch];

/** The esbuild settings of every rigtop bundle (benchmarks bundle their own entries with them). */
export const common = {
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node22',
	// Prefer ESM builds: jsonc-parser's UMD main uses dynamic require()s esbuild cannot follow.
	mainFields: ['module', 'main'],
	jsx: 'automatic',
	minify: true,
	legalComments: 'none',
	logLevel: 'warning',
	define: {
		// Production React: the development build fills the performance timeline on every render.
		'process.env.NODE_ENV': '"production"',
	},
	// Ink loads React DevTools only when DEV=true and the package is installed; it is never bundled.
	external: ['react-devtools-core'],
	// CommonJS dependencies inside an ESM bundle need a real require().
	banner: {js: "import {createRequire as __rigtopCreateRequire} from 'node:module';const require=__rigtopCreateRequire(import.meta.url);"},
	plugins: patches.map((patch) => patch.plugin),
};

/**
 * The shipped CLI: dist/cli.js and the chunks it loads with import() as a mode needs them
 * (dist/chunks/): --version, --help, --once and config never load Ink or React.
 */
export const cliBuild = {
	...common,
	entryPoints: {cli: 'source/bin.ts'},
	outdir: 'dist',
	splitting: true,
	chunkNames: 'chunks/[name]-[hash]',
};

/** Builds dist/cli.js (shipped) and dist/xmrig-sim.js (tests and benchmarks only). */
export async function buildAll() {
	rmSync(new URL('../dist', import.meta.url), {recursive: true, force: true});
	await build(cliBuild);
	// Each patch is for a package the shipped CLI bundles: one that edited fewer files than it names is out of date.
	for (const patch of patches) {
		if (patch.applied !== patch.files)
			throw new Error(
				`${patch.patchFile}: ${patch.packageName} edited ${patch.applied} of its ${patch.files} files; is it still in the bundle?`,
			);
	}

	await build({...common, entryPoints: ['source/sim/main.ts'], outfile: 'dist/xmrig-sim.js'});
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildAll();
