// meow 14.1.0 (the flag parser) sets up normalize-package-data, with its SPDX licence tables (sorted with
// localeCompare) and semver, when its dependencies.js loads: about 8 ms of every start, --once and --version
// included (docs/performance.md). meow 14 only runs it when a program reads `cli.pkg` (rigtop never does, and passes
// `pkg` itself so meow reads no package.json). The patch sets it up on the first call instead: the same function,
// called the same way. test/e2e/patches.test.ts parses the same command lines with both builds, and normalizes the
// same package data through both.
import {versionedPatch} from './versioned-patch.mjs';

export default versionedPatch({
	name: 'meow',
	version: '14.1.0',
	file: 'build/dependencies.js',
	patchFile: 'scripts/patches/meow.mjs',
	edit(source, replace) {
		return replace(
			source,
			'var normalizeExports = requireNormalize();\nconst normalizePackageData = getDefaultExportFromCjs(normalizeExports);',
			'// rigtop patch (scripts/patches/meow.mjs): normalize-package-data set up on first use.\nconst normalizePackageData = (...parameters) => getDefaultExportFromCjs(requireNormalize())(...parameters);',
		);
	},
});
