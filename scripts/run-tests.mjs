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
// `node dist/cli.js` runs on it too. With no Vitest arguments (the whole suite, as CI runs it), each Node's
// unit and e2e projects are two runs, each e2e run in a lane of its own and the unit runs in one more (see
// the queue below); with arguments (a folder, a file, --project), each Node gets one run with them, one Node
// after the other.
import {execFile, spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {stripVTControlCharacters} from 'node:util';

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
/** Every failed test of every run, said again just above the closing line (CI may keep only the tail of the output). */
const failures = [];
/** Each file's duration per run, for RIGTOP_TEST_TIMES=FILE (where CI's minutes go). */
const times = [];

/**
 * Runs `command args… vitest run [extra…]` once; returns its counts. With `capture`, its output is kept and printed
 * in one block, under its label, when it ends (two runs at once must not interleave their lines).
 */
function runSuite(label, command, args, extra = [], capture = false) {
	const jsonFile = path.join(dir, `results-${label.replaceAll(/\W/g, '_')}.json`);
	const env = {...process.env};
	delete env.CI;
	// The e2e tests spawn `node`: in the run on this script's Node, that must be this Node.
	if (command === process.execPath) env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
	const started = Date.now();
	const child = spawn(
		command,
		[...args, vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonFile}`, ...extra, ...vitestArgs],
		{stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', env},
	);
	const output = [];
	if (capture) {
		child.stdout.on('data', (chunk) => output.push(chunk));
		child.stderr.on('data', (chunk) => output.push(chunk));
	}

	return new Promise((resolve) => {
		const done = (counts) => {
			if (capture) {
				const seconds = Math.round((Date.now() - started) / 1000);
				process.stdout.write(`\n── ${label} (${seconds} s) ──\n\n${Buffer.concat(output).toString('utf8')}`);
			}

			resolve(counts);
		};

		child.on('error', () => done({passed: 0, failed: 1, skipped: 0}));
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
					const name = path.relative(process.cwd(), file.name ?? '');
					times.push({run: label, file: name, ms: (file.endTime ?? 0) - (file.startTime ?? 0)});
					if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) {
						failed += 1;
						failures.push(`${label.replace(/ \(npx[^)]*\)/, '')}: ${name}: ${firstLine(file.message) || 'did not load'}`);
					}

					for (const test of file.assertionResults ?? []) {
						if (test.status === 'failed') {
							failures.push(`${label.replace(/ \(npx[^)]*\)/, '')}: ${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
						}
					}
				}
			} catch {
				failed = Math.max(failed, 1);
			}

			const exitCode = code ?? (signal ? 1 : 0);
			if (exitCode !== 0 && failed === 0) failed = 1;
			if (passed === 0 && failed === 0) failed = 1;
			done({passed, failed, skipped});
		});
	});
}

/** A failure message's first line, without colour codes, cut to 300 characters. */
function firstLine(text) {
	const line =
		stripVTControlCharacters(String(text ?? ''))
			.split('\n')
			.find((part) => part.trim() !== '') ?? '';
	return line.trim().slice(0, 300);
}

/** Each Node to run the suite on: its label and how to start it (fetched by npx unless it is this one). */
const nodes = [];
for (const spec of specs) {
	if (isCurrent(spec)) {
		nodes.push({label: `Node ${process.version}`, key: 'current', command: process.execPath, args: []});
		continue;
	}

	const version = await new Promise((resolve) => {
		execFile('npx', ['-y', '-p', `node@${spec}`, 'node', '--version'], (error, stdout) =>
			resolve(error ? `${spec} (npx could not fetch it)` : stdout.trim()),
		);
	});
	// `node` here is the one npx put first on PATH: the vitest workers and the CLIs the e2e tests spawn use it.
	nodes.push({
		label: `Node ${version} (npx -y -p node@${spec})`,
		key: `node${spec}`,
		command: 'npx',
		args: ['-y', '-p', `node@${spec}`, 'node'],
	});
}

const runs = [];
if (vitestArgs.length === 0) {
	// The whole suite: each Node's unit and e2e projects are separate runs. The e2e tests mostly wait for real
	// seconds (polls, tmux screens: about 90 s of CPU in 350 s), the unit tests keep the cores busy. So every
	// Node's e2e run has a lane of its own from the start, and one more lane takes the unit runs one after the
	// other: on CI (two Nodes) three runs at a time, each e2e run one file at a time as before. In the queue's
	// order: the first Node's unit run, every e2e run, the other unit runs. RIGTOP_TEST_LANES=N sets the lanes
	// (2 was the rule until the e2e runs, one after the other, were most of CI's 13 minutes). Each run is still
	// the whole project on that Node; the counts are summed.
	const units = nodes.map((node) => ({node, project: 'unit'}));
	const queue = [...units.slice(0, 1), ...nodes.map((node) => ({node, project: 'e2e'})), ...units.slice(1)];
	const lanes = Math.max(1, Number.parseInt(process.env.RIGTOP_TEST_LANES ?? '', 10) || nodes.length + 1);
	const lane = async () => {
		for (let next = queue.shift(); next; next = queue.shift()) {
			const {node, project} = next;
			const counts = await runSuite(`${node.label}, ${project}`, node.command, node.args, ['--project', project], true);
			runs.push({label: node.label.replace(/ \(npx.*$/, ''), ...counts});
		}
	};

	await Promise.all(Array.from({length: lanes}, async () => lane()));
} else {
	for (const node of nodes) {
		if (nodes.length > 1) console.log(`\n── the suite on ${node.label} ──\n`);
		runs.push({label: node.label.replace(/ \(npx.*$/, ''), ...(await runSuite(node.key, node.command, node.args))});
	}
}

rmSync(dir, {recursive: true, force: true});
if (process.env.RIGTOP_TEST_TIMES) writeFileSync(process.env.RIGTOP_TEST_TIMES, `${JSON.stringify(times, null, '\t')}\n`);
let passed = 0;
let failed = 0;
let skipped = 0;
/** The counts per Node, its projects' runs summed. */
const perNode = new Map();
for (const run of runs) {
	passed += run.passed;
	failed += run.failed;
	skipped += run.skipped;
	const sum = perNode.get(run.label) ?? {passed: 0, failed: 0, skipped: 0};
	perNode.set(run.label, {passed: sum.passed + run.passed, failed: sum.failed + run.failed, skipped: sum.skipped + run.skipped});
}

console.log('');
if (failures.length > 0) {
	console.log(`Failed (${failures.length}):`);
	for (const failure of failures) console.log(`  ${failure}`);
	console.log('');
}

if (perNode.size > 1) {
	for (const node of nodes) {
		const label = node.label.replace(/ \(npx.*$/, '');
		const sum = perNode.get(label) ?? {passed: 0, failed: 1, skipped: 0};
		console.log(`${label}: ${sum.passed} passed, ${sum.failed} failed${sum.skipped ? `, ${sum.skipped} skipped` : ''}`);
	}
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
