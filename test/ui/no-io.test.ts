/**
 * Nothing in `source/ui/` does I/O (docs/design.md): the screens read stores. No file there imports SQLite, the
 * history store or its recorder, and none reads a miner's history itself (its stores do, history/stores.ts).
 */
import {readdirSync, readFileSync} from 'node:fs';
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

const FORBIDDEN_IMPORTS = [/^node:sqlite$/, /\/history\/recorder\.js$/, /\/history\/store\.js$/, /\/history\/sqlite\.js$/];

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

	test.each(all.map((file) => [path.relative(UI, file), file]))('%s never reads or writes the history itself', (_name, file) => {
		const lines = readFileSync(file, 'utf8')
			.split('\n')
			.filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line));
		expect(lines.filter((line) => FORBIDDEN_CALLS.test(line))).toEqual([]);
	});
});
