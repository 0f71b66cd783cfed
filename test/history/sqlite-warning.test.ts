import {execFile} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {promisify} from 'node:util';
import {build} from 'esbuild';
import {afterEach, expect, it} from 'vitest';
import {isSqliteExperimentalWarning} from '../../source/history/sqlite.js';
import {tempDir} from './helpers.js';

const run = promisify(execFile);
const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

const major = Number(process.versions.node.split('.')[0]);

it('loads node:sqlite without its ExperimentalWarning, and every other warning still prints', async () => {
	const temp = tempDir();
	cleanups.push(temp.cleanup);
	const entry = path.join(temp.dir, 'entry.ts');
	writeFileSync(
		entry,
		`import {loadSqlite} from ${JSON.stringify(path.resolve('source/history/sqlite.ts'))};
const {DatabaseSync} = loadSqlite();
const db = new DatabaseSync(':memory:');
console.log(JSON.stringify(db.prepare('SELECT 41 + 1 AS answer').get()));
process.emitWarning('another experiment', 'ExperimentalWarning');
process.emitWarning('something old', 'DeprecationWarning');
`,
	);
	const bundle = path.join(temp.dir, 'bundle.mjs');
	await build({entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent'});
	const {stdout, stderr} = await run(process.execPath, [bundle]);
	expect(stdout.trim()).toBe('{"answer":42}');
	expect(stderr).not.toMatch(/SQLite/);
	expect(stderr).toMatch(/ExperimentalWarning: another experiment/);
	expect(stderr).toMatch(/DeprecationWarning: something old/);

	// Without the filter this Node prints it (Node 22 does; Node 26 has none to print).
	const plain = await run(process.execPath, ['-e', "process.getBuiltinModule('node:sqlite')"]);
	if (major === 22) expect(plain.stderr).toMatch(/ExperimentalWarning: SQLite is an experimental feature/);
	else expect(plain.stderr).not.toMatch(/SQLite/);
});

it('recognizes only that warning', () => {
	expect(isSqliteExperimentalWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning')).toBe(true);
	const error = Object.assign(new Error('SQLite is an experimental feature and might change at any time'), {name: 'ExperimentalWarning'});
	expect(isSqliteExperimentalWarning(error, undefined)).toBe(true);
	expect(isSqliteExperimentalWarning('SQLite is an experimental feature', {type: 'ExperimentalWarning'})).toBe(true);
	expect(isSqliteExperimentalWarning('SQLite is an experimental feature', 'DeprecationWarning')).toBe(false);
	expect(isSqliteExperimentalWarning('WebStorage is an experimental feature', 'ExperimentalWarning')).toBe(false);
});
