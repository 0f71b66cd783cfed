#!/usr/bin/env node
// Runs every bench/*.bench.mjs in turn, each in a process of its own (node --expose-gc), and
// writes what they measured to bench/RESULTS.md (the readme's Performance section is copied from
// it). `npm run bench` builds first. `node bench/run.mjs soak output` runs only the benchmarks
// whose file names contain one of the words, and then RESULTS.md is left as it is.
//
// A benchmark prints its figures for people, and one line `RESULT {json}` per result for this
// runner (see report() in bench/lib.mjs); a benchmark that prints none still has its output kept.
import {spawn} from 'node:child_process';
import {readdirSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {root} from './lib.mjs';

const filters = process.argv.slice(2);
const benchDir = path.join(root, 'bench');
const files = readdirSync(benchDir)
	.filter((file) => file.endsWith('.bench.mjs'))
	.filter((file) => filters.length === 0 || filters.some((word) => file.includes(word)))
	.sort();

function runBench(file) {
	return new Promise((resolve) => {
		const started = Date.now();
		const child = spawn(process.execPath, ['--expose-gc', path.join(benchDir, file)], {
			cwd: root,
			stdio: ['ignore', 'pipe', 'inherit'],
			env: {...process.env, CI: ''},
		});
		let out = '';
		child.stdout.on('data', (chunk) => {
			out += chunk;
			process.stdout.write(chunk);
		});
		child.on('exit', (code) => resolve({file, code, out, seconds: (Date.now() - started) / 1000}));
	});
}

console.log(`rigtop benchmarks on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}: ${files.join(', ')}`);
const loadBefore = os.loadavg();
const runs = [];
for (const file of files) {
	console.log(`\n=== ${file} ===`);
	runs.push(await runBench(file));
}

const results = runs.flatMap((run) =>
	run.out
		.split('\n')
		.filter((line) => line.startsWith('RESULT '))
		.map((line) => ({file: run.file, ...JSON.parse(line.slice('RESULT '.length))})),
);
const failed = runs.filter((run) => run.code !== 0);

if (filters.length === 0) {
	const cell = (value) => (value === undefined || value === null ? '–' : String(value));
	const lines = [
		'# rigtop performance',
		'',
		`Measured by \`npm run bench\` (build, then \`node bench/run.mjs\`) on ${new Date().toISOString().slice(0, 10)}:`,
		`${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()}, Node ${process.version}.`,
		`Load average when the run started: ${loadBefore.map((load) => load.toFixed(2)).join(', ')} (1, 5, 15 min); at the end: ${os
			.loadavg()
			.map((load) => load.toFixed(2))
			.join(', ')}. Other work on the machine shows up in every timing.`,
		'Every figure is compared with a baseline measured in the same run, on the same machine.',
		'',
		'| benchmark | rigtop | baseline | ratio | goal | met |',
		'|---|---|---|---|---|---|',
		...results.map(
			(result) =>
				`| ${result.name} | ${cell(result.figure)} ${result.unit} | ${result.baselineText ? `${cell(result.baseline)} ${result.unit} (${result.baselineText})` : '–'} | ${result.ratio === undefined ? '–' : `${result.ratio}×`} | ${result.goal.text} | ${result.meets ? 'yes' : '**no**'} |`,
		),
		'',
		...results.filter((result) => result.note).map((result) => `- **${result.name}**: ${result.note}`),
		'',
		`Reproduce: \`npm run bench\` (this run took ${Math.round(runs.reduce((sum, run) => sum + run.seconds, 0) / 60)} minutes, most of it the soak), or one benchmark: \`npm run build && node bench/run.mjs soak\`.`,
		'',
		'## Output of each benchmark',
		'',
		...runs.flatMap((run) => [
			`### ${run.file} (${Math.round(run.seconds)} s${run.code === 0 ? '' : `, exit ${run.code}`})`,
			'',
			'```',
			...run.out
				.trimEnd()
				.split('\n')
				.filter((line) => !line.startsWith('RESULT ')),
			'```',
			'',
		]),
	];
	writeFileSync(path.join(benchDir, 'RESULTS.md'), `${lines.join('\n').trimEnd()}\n`);
	console.log('\nwrote bench/RESULTS.md');
}

if (failed.length > 0) {
	console.log(`exited non-zero: ${failed.map((run) => run.file).join(', ')}`);
	process.exitCode = 1;
}
