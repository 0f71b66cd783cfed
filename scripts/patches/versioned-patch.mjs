// The one way rigtop's build changes a dependency's code: a versioned patch (issue 11). Each patch is a file of its
// own in this folder (scripts/patches/<package>.mjs) that names the exact version of the package it was written
// for; scripts/build.mjs applies it as an esbuild plugin. On any other version the build fails with a message that
// says so (the patch must then be measured again on the new version, and rewritten or dropped), and so does an edit
// whose text is not found exactly once. docs/build.md lists the patches and what each saves;
// test/e2e/patches.test.ts runs each patched module beside the original on the same inputs.
import {readFileSync} from 'node:fs';
import path from 'node:path';

const escape = (text) => text.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `source` with `from` replaced by `to`; throws unless `from` occurs exactly once. */
export function replaceOnce(source, from, to, where) {
	const count = source.split(from).length - 1;
	if (count !== 1) throw new Error(`${where}: expected the text ${JSON.stringify(from.slice(0, 80))} once, found it ${count} times`);
	return source.replace(from, () => to);
}

/**
 * A patch of files of one package at one exact version: `{packageName, version, patchFile, files, applied, plugin}`,
 * where `plugin` is the esbuild plugin that applies it.
 *
 * - `name`: the package; `version`: the exact version the patch was written for; `file`: the file inside it.
 * - `patchFile`: this patch's own file (for the messages); `edit(source, replace)` returns the new source, where
 *   `replace(source, from, to)` is replaceOnce with the right message.
 * - or, for one change that spans files of the package, `files`: `{[file]: edit}` in place of `file` and `edit`.
 *
 * `applied` counts the files the plugin edited in the last build, `files` how many it edits (a bundle without the package leaves
 * it at 0; scripts/build.mjs checks the shipped CLI's).
 */
export function versionedPatch({name, version, file, patchFile, edit, files = {[file]: edit}}) {
	const fileAlternatives = Object.keys(files).map((one) => one.split('/').map(escape).join('[\\\\/]'));
	const filter = new RegExp(`[\\\\/]node_modules[\\\\/]${escape(name)}[\\\\/](?:${fileAlternatives.join('|')})$`);
	const patch = {packageName: name, version, patchFile, files: Object.keys(files).length, applied: 0, plugin: null};
	patch.plugin = {
		name: `rigtop-patch-${name}`,
		setup(build) {
			build.onStart(() => {
				patch.applied = 0;
			});
			build.onLoad({filter}, (args) => {
				const normalized = args.path.replaceAll('\\', '/');
				const file = Object.keys(files).find((one) => normalized.endsWith(`/${name}/${one}`));
				const where = `${patchFile} (${name} ${version}, ${file})`;
				const packageDir = args.path.slice(0, args.path.length - file.length - 1);
				const found = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;
				if (found !== version) {
					throw new Error(
						`${patchFile} was written for ${name} ${version}, but ${name} ${found} is installed (${packageDir}). Measure again whether the patch still pays on ${found} (docs/build.md), then update its version and edits, or remove it.`,
					);
				}

				const source = readFileSync(args.path, 'utf8');
				const contents = files[file](source, (text, from, to) => replaceOnce(text, from, to, where));
				patch.applied += 1;
				return {contents, loader: 'js', resolveDir: path.dirname(args.path)};
			});
		},
	};
	return patch;
}
