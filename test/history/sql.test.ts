/**
 * The store's SQL keeps to plain `?` placeholders. Node 22.19 and 22.20's node:sqlite cannot bind `?NNN`
 * by position ("column index out of range"), which turned history off on those Nodes while the suite
 * passed on newer ones; CI runs the floor exactly, and this keeps the form out of every file that talks
 * SQL, whatever Node the suite runs on.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, it} from 'vitest';

const sqlWords = /\b(?:SELECT|INSERT|UPDATE|DELETE)\b/;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return /\.tsx?$/.test(entry.name) ? [full] : [];
	});
}

it('no SQL in source/ uses numbered (?NNN), named (:x, @x, $x) or anonymous-numbered placeholders', () => {
	const withSql = sourceFiles('source').filter((file) => sqlWords.test(readFileSync(file, 'utf8')));
	expect(withSql.length).toBeGreaterThanOrEqual(3);
	const offending: string[] = [];
	for (const file of withSql) {
		const lines = readFileSync(file, 'utf8').split('\n');
		for (const [index, line] of lines.entries()) {
			// Inside a string or template literal that holds SQL: `?` followed by digits, or `:name`/`@name`/`$name` after `=`, `(` or `,`.
			if (/\?\d/.test(line) || /(?:=|\(|,)\s*[:@$][a-z_]\w*/i.test(line.replaceAll(/\$\{[^}]*\}/g, ''))) {
				if (/['"`]/.test(line) || !/^\s*(?:\/\/|\*)/.test(line)) offending.push(`${file}:${index + 1}: ${line.trim()}`);
			}
		}
	}

	expect(offending).toEqual([]);
});
