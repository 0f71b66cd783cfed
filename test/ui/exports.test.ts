/**
 * Nothing under `source/ui/` re-exports a name no module (of source/ or test/) imports through it. Reads every import
 * and export with TypeScript's own parser (names only: `import {a, type B}`, `export {a} from`; `import * as` and
 * `export * from` count every name).
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {describe, expect, test} from 'vitest';

const ROOT = path.resolve('.');

/** Every .ts and .tsx file under `source/` and `test/`, relative to the root, with '/' separators. */
const files = ['source', 'test'].flatMap((folder) =>
	readdirSync(path.join(ROOT, folder), {recursive: true, encoding: 'utf8'})
		.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
		.map((file) => `${folder}/${file.split(path.sep).join('/')}`),
);

const parse = (file: string) => ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);

/** A relative specifier of `from` as a file of `files` (its .ts or .tsx). */
function resolve(from: string, specifier: string): string | undefined {
	const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '');
	return files.find((file) => file === `${base}.ts` || file === `${base}.tsx`);
}

/** What each file re-exports by name (`export {…} from`). */
function reexportsOf(file: string): string[] {
	return parse(file).statements.flatMap((statement) =>
		ts.isExportDeclaration(statement) && statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)
			? statement.exportClause.elements.map((element) => element.name.text)
			: [],
	);
}

/** "file#name" for every name a module of `by` imports or re-exports from another ("file#*" for `export * from`). */
function usedBy(by: readonly string[]): Set<string> {
	const seen = new Set<string>();
	for (const file of by) {
		for (const statement of parse(file).statements) {
			const specifier =
				(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
				statement.moduleSpecifier &&
				ts.isStringLiteral(statement.moduleSpecifier)
					? statement.moduleSpecifier.text
					: undefined;
			if (specifier === undefined || !specifier.startsWith('.')) continue;
			const target = resolve(file, specifier);
			if (target === undefined) continue;
			if (ts.isImportDeclaration(statement)) {
				const bindings = statement.importClause?.namedBindings;
				if (bindings === undefined) continue;
				if (ts.isNamespaceImport(bindings)) seen.add(`${target}#*`);
				else for (const element of bindings.elements) seen.add(`${target}#${(element.propertyName ?? element.name).text}`);
			} else if (ts.isExportDeclaration(statement)) {
				const clause = statement.exportClause;
				if (clause === undefined) seen.add(`${target}#*`);
				else if (ts.isNamedExports(clause))
					for (const element of clause.elements) seen.add(`${target}#${(element.propertyName ?? element.name).text}`);
			}
		}
	}

	return seen;
}

/** Exports known to be unused and kept on purpose (none today). */
const KNOWN = new Set<string>();

const unusedIn = (exported: (file: string) => string[], seen: ReadonlySet<string>) =>
	files
		.filter((file) => file.startsWith('source/ui/'))
		.flatMap((file) => exported(file).map((name) => `${file}#${name}`))
		.filter((entry) => !KNOWN.has(entry) && !seen.has(entry) && !seen.has(`${entry.split('#')[0]}#*`));

describe('source/ui exports', () => {
	test('every name a module under source/ui re-exports is imported through it by some module', () => {
		expect(unusedIn(reexportsOf, usedBy(files))).toEqual([]);
	});
});
