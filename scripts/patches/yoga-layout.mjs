// yoga-layout 3.2.1 (Ink's layout engine) carries its wasm as a base64 data: URL, and its Emscripten loader reads it
// with fetch() whenever a global fetch exists, as it does on every Node rigtop supports: that first fetch() loads
// Node's internal copy of undici, about 20 ms of every live start before the first frame (docs/performance.md). The
// loader's own fallback, taken when there is no fetch, decodes the same data: URL with atob and instantiates the
// same bytes. The patch declares a module-scope `fetch` that is undefined, so the loader takes that fallback;
// nothing else in the file changes. test/e2e/patches.test.ts lays out the same trees with both builds and checks
// that the patched one never calls fetch.
import {versionedPatch} from './versioned-patch.mjs';

export default versionedPatch({
	name: 'yoga-layout',
	version: '3.2.1',
	file: 'dist/binaries/yoga-wasm-base64-esm.js',
	patchFile: 'scripts/patches/yoga-layout.mjs',
	edit(source, replace) {
		// The file's first statement; the declaration goes before it.
		const first = 'var loadYoga = (() => {';
		return replace(
			source,
			first,
			`// rigtop patch (scripts/patches/yoga-layout.mjs): no fetch() for the wasm data: URL.\nconst fetch = undefined;\n${first}`,
		);
	},
});
