/**
 * Nothing in `source/ui/` does I/O (docs/design.md): the screens read stores. No file there imports SQLite, the
 * history store or its recorder, and none reads a miner's history itself (its stores do, history/stores.ts).
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, expect, test} from 'vitest';

const UI = path.join(import.meta.dirname, '../../source/ui');

function files(dir: string): string[] {
	return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) return files(file);
		return /\.tsx?$/.test(entry.name) ? [file] : [];
	});
}

/** Every module a file imports (static, dynamic and re-exports), as written. */
function importsOf(text: string): string[] {
	const found: string[] = [];
	for (const match of text.matchAll(/(?:import|export)\s[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|import\s+'([^']+)'/g)) {
		found.push(match[1] ?? match[2] ?? match[3] ?? '');
	}

	return found;
}

/** The modules a file loads at run time: its imports less the type-only ones (erased by the build). */
function runtimeImportsOf(text: string): string[] {
	const found: string[] = [];
	for (const match of text.matchAll(
		/(import|export)\s+(type\s+)?([^;]*?)\s*from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|import\s+'([^']+)'/g,
	)) {
		const [, , typeOnly, names, from, dynamic, bare] = match;
		if (dynamic ?? bare) {
			found.push((dynamic ?? bare)!);
			continue;
		}

		if (typeOnly) continue;
		// `{type A, type B}`: every name a type, nothing loaded.
		const list = /^\{([^}]*)\}$/.exec(names?.trim() ?? '')?.[1];
		if (list !== undefined && list.split(',').every((name) => name.trim() === '' || name.trim().startsWith('type '))) continue;
		found.push(from!);
	}

	return found;
}

/** Every source module a file loads, following relative imports through `source/`. */
function reachable(start: string): Map<string, string> {
	const seen = new Map<string, string>([[start, start]]);
	const queue = [start];
	while (queue.length > 0) {
		const file = queue.shift()!;
		for (const name of runtimeImportsOf(readFileSync(file, 'utf8'))) {
			if (!name.startsWith('.')) {
				if (!seen.has(name)) seen.set(name, file);
				continue;
			}

			const base = path.resolve(path.dirname(file), name).replace(/\.js$/, '');
			const target = [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate));
			if (target === undefined || seen.has(target)) continue;
			seen.set(target, file);
			queue.push(target);
		}
	}

	return seen;
}

const FORBIDDEN_IMPORTS = [/^node:sqlite$/, /\/history\/recorder\.js$/, /\/history\/store\.js$/, /\/history\/sqlite\.js$/];

/** What loads SQLite or writes the history, as reached through imports (resolved paths, or a package's name). */
const FORBIDDEN_LOADS = [/^node:sqlite$/, /\/history\/(recorder|store|sqlite|writer)\.ts$/];

/** Reading a miner's history, or writing it: the history source's and the recorder's methods. */
const FORBIDDEN_CALLS = /\.(series|span|events|eventsStamp|flush|minerOf|readMinerOf|lastEvent)\(|\bSeriesCache\b|\bDatabaseSync\b/;

describe('source/ui does no I/O', () => {
	const all = files(UI);

	test('it has files to check', () => {
		expect(all.length).toBeGreaterThan(20);
		expect(importsOf("import {a} from './a.js';\nexport {b} from '../b.js';\nconst c = await import('../c.js');")).toEqual([
			'./a.js',
			'../b.js',
			'../c.js',
		]);
	});

	test.each(all.map((file) => [path.relative(UI, file), file]))('%s imports no SQLite, history store or recorder', (_name, file) => {
		const imports = importsOf(readFileSync(file, 'utf8'));
		expect(imports.filter((name) => FORBIDDEN_IMPORTS.some((pattern) => pattern.test(name)))).toEqual([]);
	});

	test.each(all.map((file) => [path.relative(UI, file), file]))(
		'%s loads no SQLite, history store or recorder through any import',
		(_name, file) => {
			const loaded = reachable(file);
			const forbidden = [...loaded.entries()]
				.filter(([name]) => FORBIDDEN_LOADS.some((pattern) => pattern.test(name)))
				.map(([name, by]) => `${path.relative(UI, name)} (imported by ${path.relative(UI, by)})`);
			expect(forbidden).toEqual([]);
		},
	);

	test.each(all.map((file) => [path.relative(UI, file), file]))('%s never reads or writes the history itself', (_name, file) => {
		const lines = readFileSync(file, 'utf8')
			.split('\n')
			.filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line));
		expect(lines.filter((line) => FORBIDDEN_CALLS.test(line))).toEqual([]);
	});
});
