/**
 * The arrows between rigtop's layers run one way: `cli.tsx` → `cli/` (argv, flags, options) → `commands/` (one module
 * per command) → everything else (the session, the miner, the monitor, the history store, the exporter, the screens…).
 * This reads every import in `source/` (static, `export … from` and `import()`, with TypeScript's own scanner) and
 * fails on any that runs back up: a file outside `cli.tsx` and `cli/` importing `cli/`, or a file outside `cli.tsx`,
 * `cli/` and `commands/` importing `commands/`. `bin.ts`, the shipped entry, stands above `cli.tsx`.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';

const SOURCE = path.resolve('source');

/** Every .ts and .tsx file under `source/`, relative to it, with '/' separators. */
function sourceFiles(): string[] {
	return readdirSync(SOURCE, {recursive: true, encoding: 'utf8'})
		.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
		.map((file) => file.split(path.sep).join('/'))
		.sort();
}

/** The files under `source/` that `file` imports (relative specifiers only), relative to `source/`. */
function importsOf(file: string): string[] {
	const text = readFileSync(path.join(SOURCE, file), 'utf8');
	const {importedFiles} = ts.preProcessFile(text, true, true);
	return importedFiles
		.map((imported) => imported.fileName)
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, ''));
}

const under = (file: string, folder: string) => file.startsWith(`${folder}/`);
/** Where a layer's modules are, as an import names them (no extension): `cli/options`, `commands/once/once`. */
const inLayer = (target: string, folder: string) => under(target, folder);

/** Who may import the layer in `folder`: the layers above it. */
const ALLOWED: ReadonlyArray<{folder: string; from: (file: string) => boolean}> = [
	{folder: 'cli', from: (file) => file === 'bin.ts' || file === 'cli.tsx' || under(file, 'cli')},
	{folder: 'commands', from: (file) => file === 'bin.ts' || file === 'cli.tsx' || under(file, 'cli') || under(file, 'commands')},
];

/** Every import in `source/` that runs back up, as "importer → imported". */
function upwardArrows(): string[] {
	const arrows: string[] = [];
	for (const file of sourceFiles()) {
		for (const target of importsOf(file)) {
			for (const layer of ALLOWED) {
				if (inLayer(target, layer.folder) && !layer.from(file)) arrows.push(`${file} → ${target}`);
			}
		}
	}

	return arrows;
}

describe("source/'s layers", () => {
	it('reads the imports of every file, dynamic ones too', () => {
		const files = sourceFiles();
		expect(files).toContain('cli.tsx');
		expect(files.length).toBeGreaterThan(100);
		// cli.tsx reaches the flags statically and the commands through import().
		const fromCli = importsOf('cli.tsx');
		expect(fromCli).toContain('cli/flags');
		expect(fromCli.some((target) => inLayer(target, 'commands'))).toBe(true);
	});

	it('has no arrow running back up to cli/ or commands/', () => {
		expect(upwardArrows()).toEqual([]);
	});
});
