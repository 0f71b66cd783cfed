#!/usr/bin/env node
// `npm test` (through scripts/supported-node.mjs, so on a supported Node): type-check, lint, build, then
// the whole suite (scripts/run-tests.mjs). A check that fails stops the run and still ends with the
// closing line "N passed, N failed" that CI reads, the check counted as a failure.
import {spawnSync} from 'node:child_process';
import process from 'node:process';

const checks = [
	['type-check (TypeScript 7)', ['node_modules/typescript-7/bin/tsc', '--noEmit']],
	['lint', ['node_modules/eslint/bin/eslint.js', '.']],
	['format (Prettier)', ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.']],
	['build', ['scripts/build.mjs']],
];

for (const [label, args] of checks) {
	console.log(`\n── ${label} ──`);
	const result = spawnSync(process.execPath, args, {stdio: 'inherit'});
	if (result.status !== 0) {
		console.log(`\n${label} failed: the suite did not run`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	}
}

await import('./run-tests.mjs');
