// meow 14.1.0 (the flag parser) sets up normalize-package-data, with its SPDX licence tables (sorted with
// localeCompare) and semver, when its dependencies.js loads: about 8 ms of every start, --once and --version
// included (docs/performance.md). meow 14 only runs it when a program reads `cli.pkg` (rigtop never does, and passes
// `pkg` itself so meow reads no package.json). The patch sets it up on the first call instead: the same function,
// called the same way. The same file also imports node:child_process for a `promisify(execFile)` whose result is
// thrown away (what is left of a bundled helper rigtop's meow never calls): loading child_process (with dgram and the
// child-process internals) is about 2 ms of `--once` and `--version` on Node 22 (5–6 ms with a V8 option on node's
// command line; the live dashboard loads it anyway, for Ink and alert commands; docs/build.md); the patch drops the
// import and the call. test/e2e/patches.test.ts parses the same command lines with both builds,
// normalizes the same package data through both, and checks that the patched build has no child_process import.
import {versionedPatch} from './versioned-patch.mjs';

export default versionedPatch({
	name: 'meow',
	version: '14.1.0',
	file: 'build/dependencies.js',
	patchFile: 'scripts/patches/meow.mjs',
	edit(source, replace) {
		const lazy = replace(
			source,
			'var normalizeExports = requireNormalize();\nconst normalizePackageData = getDefaultExportFromCjs(normalizeExports);',
			'// rigtop patch (scripts/patches/meow.mjs): normalize-package-data set up on first use.\nconst normalizePackageData = (...parameters) => getDefaultExportFromCjs(requireNormalize())(...parameters);',
		);
		const noCall = replace(
			lazy,
			'\npromisify(execFile);\n',
			'\n// rigtop patch (scripts/patches/meow.mjs): an unused promisify(execFile) dropped.\n',
		);
		return replace(noCall, "import { promisify } from 'node:util';\nimport { execFile } from 'node:child_process';\n", '');
	},
});
