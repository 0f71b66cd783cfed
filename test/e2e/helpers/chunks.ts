/** The built bundle's chunks and what each imports (dist/chunks/, esbuild's names `<name>-<hash>.js`). */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {CLI} from './tmux.js';

export const CHUNKS = path.join(path.dirname(CLI), 'chunks');

/**
 * The imports of a built file as absolute paths: static ones (`import…from"./x.js"`, `import"./x.js"`), and with
 * `dynamic` the `import("./x.js")` ones too.
 */
export function chunkImports(file: string, dynamic = false): string[] {
	const text = readFileSync(file, 'utf8');
	const pattern = dynamic ? /import(?:[\w${},\s*]+from)?\s*\(?\s*"(\.{1,2}\/[^"]+)"/g : /import(?:[\w${},\s*]+from)?\s*"(\.{1,2}\/[^"]+)"/g;
	return [...text.matchAll(pattern)].map((match) => path.resolve(path.dirname(file), match[1]!));
}

/** Every file the entries import, transitively (with `dynamic`, through import() too). */
export function chunkClosure(entries: readonly string[], dynamic = false): Set<string> {
	const seen = new Set<string>();
	const stack = [...entries];
	while (stack.length > 0) {
		const file = stack.pop()!;
		if (seen.has(file)) continue;
		seen.add(file);
		stack.push(...chunkImports(file, dynamic));
	}

	return seen;
}

/** The entry chunk of a dynamically imported module, by its name. */
export function chunkEntry(name: string): string {
	const found = readdirSync(CHUNKS).filter((file) => new RegExp(`^${name}-[A-Z0-9]+\\.js$`).test(file));
	if (found.length !== 1) throw new Error(`expected one chunk named ${name}-*.js in dist/chunks, found ${found.join(', ') || 'none'}`);
	return path.join(CHUNKS, found[0]!);
}
