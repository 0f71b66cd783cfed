#!/usr/bin/env node
// Runs the whole Vitest suite (unit + e2e) and prints one plain closing line,
// "N passed, N failed", which CI reads (Vitest's own summary is not read).
import {spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-tests-'));
const jsonFile = path.join(dir, 'results.json');
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`, ...process.argv.slice(2)];
const env = {...process.env};
delete env.CI;
const child = spawn('npx', args, {stdio: 'inherit', env});
child.on('exit', (code, signal) => {
	let passed = 0;
	let failed = 0;
	let skipped = 0;
	try {
		const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
		passed = report.numPassedTests ?? 0;
		failed = report.numFailedTests ?? 0;
		skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
		// A file that fails to load has no tests but must still count as a failure.
		for (const file of report.testResults ?? []) {
			if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed += 1;
		}
	} catch {
		failed = Math.max(failed, 1);
	}
	rmSync(dir, {recursive: true, force: true});
	const exitCode = code ?? (signal ? 1 : 0);
	if (exitCode !== 0 && failed === 0) failed = 1;
	console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
	process.exit(exitCode === 0 && failed === 0 && passed > 0 ? 0 : 1);
});
