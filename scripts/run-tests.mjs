#!/usr/bin/env node
// Runs the whole Vitest suite (unit + e2e) and prints one plain closing line,
// "N passed, N failed", which CI reads (Vitest's own summary is not read).
//
// Which Nodes: locally, the Node running this script (scripts/supported-node.mjs has made sure it is a
// supported one). Under CI (CI set, as .ci/run is run), the oldest supported Node exactly (package.json's
// engines, 22.13.0: minor versions of 22 differ, node:sqlite's binding did) and the newest LTS, 26, each
// fetched from the npm registry with `npx -y -p node@VERSION` unless it is the Node running this script.
// `--also-node=VERSION` (repeatable) or RIGTOP_ALSO_NODE=VERSION,VERSION adds runs (22, 22.19.0, …).
// The closing line sums every run. Within a run, `node` on PATH is that run's Node, so the e2e tests'
// `node dist/cli.js` runs on it too.
import {execFile, spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';

/** The floor, exactly as package.json's engines names it (">=22.13.0" → "22.13.0"). */
const floor = JSON.parse(readFileSync('package.json', 'utf8')).engines.node.replace(/^>=\s*/, '');
/** Nodes CI tests on: the floor and the newest LTS. */
export const CI_NODES = [floor, '26'];

const current = process.versions.node;
/** Whether a version spec ("26", "22.13.0") names the Node running this script. */
const isCurrent = (spec) => spec === current || spec === current.split('.')[0];
const specs = process.env.CI ? [...CI_NODES] : [current];
const vitestArgs = [];
const argv = process.argv.slice(2);
const addNode = (value) => {
	const spec = String(value).trim();
	if (/^\d+(\.\d+\.\d+)?$/.test(spec) && !specs.includes(spec)) specs.push(spec);
};

for (const value of (process.env.RIGTOP_ALSO_NODE ?? '').split(',').filter(Boolean)) addNode(value);
for (let index = 0; index < argv.length; index++) {
	const arg = argv[index];
	if (arg.startsWith('--also-node=')) addNode(arg.slice('--also-node='.length));
	else if (arg === '--also-node' && index + 1 < argv.length) addNode(argv[++index]);
	else vitestArgs.push(arg);
}

const vitest = path.resolve('node_modules/vitest/vitest.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-tests-'));

/** Runs `command args… vitest run` once; returns its counts. */
function runSuite(label, command, args) {
	const jsonFile = path.join(dir, `results-${label.replaceAll(/\W/g, '_')}.json`);
	const env = {...process.env};
	delete env.CI;
	// The e2e tests spawn `node`: in the run on this script's Node, that must be this Node.
	if (command === process.execPath) env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
	const child = spawn(
		command,
		[...args, vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`, ...vitestArgs],
		{stdio: 'inherit', env},
	);
	return new Promise((resolve) => {
		child.on('error', () => resolve({passed: 0, failed: 1, skipped: 0}));
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

			const exitCode = code ?? (signal ? 1 : 0);
			if (exitCode !== 0 && failed === 0) failed = 1;
			if (passed === 0 && failed === 0) failed = 1;
			resolve({passed, failed, skipped});
		});
	});
}

const runs = [];
for (const spec of specs) {
	if (isCurrent(spec)) {
		if (runs.length > 0) console.log(`\n── the suite on Node ${process.version} ──\n`);
		runs.push({label: `Node ${process.version}`, ...(await runSuite('current', process.execPath, []))});
		continue;
	}

	const version = await new Promise((resolve) => {
		execFile('npx', ['-y', '-p', `node@${spec}`, 'node', '--version'], (error, stdout) =>
			resolve(error ? `${spec} (npx could not fetch it)` : stdout.trim()),
		);
	});
	console.log(`\n── the suite on Node ${version} (npx -y -p node@${spec}) ──\n`);
	// `node` here is the one npx put first on PATH: the vitest workers and the CLIs the e2e tests spawn use it.
	runs.push({label: `Node ${version}`, ...(await runSuite(`node${spec}`, 'npx', ['-y', '-p', `node@${spec}`, 'node']))});
}

rmSync(dir, {recursive: true, force: true});
let passed = 0;
let failed = 0;
let skipped = 0;
for (const run of runs) {
	passed += run.passed;
	failed += run.failed;
	skipped += run.skipped;
	if (runs.length > 1)
		console.log(`${run.label}: ${run.passed} passed, ${run.failed} failed${run.skipped ? `, ${run.skipped} skipped` : ''}`);
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
