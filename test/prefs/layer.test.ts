/**
 * What rigtop remembers sits below the screens: nothing in `source/prefs/` imports `source/ui/` (the fleet's sort is
 * kept by its column's id, and the fleet checks it).
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {expect, test} from 'vitest';

test('source/prefs imports nothing from source/ui', () => {
	const folder = path.resolve('source/prefs');
	const files = readdirSync(folder).filter((file) => /\.tsx?$/u.test(file));
	expect(files).toContain('prefs.ts');
	const upward = files.flatMap((file) =>
		ts
			.preProcessFile(readFileSync(path.join(folder, file), 'utf8'), true, true)
			.importedFiles.map((imported) => path.posix.normalize(path.posix.join('prefs', imported.fileName)))
			.filter((target) => target.startsWith('ui/'))
			.map((target) => `prefs/${file} → ${target}`),
	);
	expect(upward).toEqual([]);
});
