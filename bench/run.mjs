#!/usr/bin/env node
// Runs the benchmarks (bench/*.bench.mjs), each in a process of its own, on one or more Node lines, and writes what
// they measured where people read it: `npm run bench` builds first, then runs this.
//
//   node bench/run.mjs                      every benchmark but the soaks, on the Node running this
//   node bench/run.mjs --node 22,26         the same on Node 22 and 26 (one that is not this Node is fetched from
//                                           the npm registry with `npx -y -p node@MAJOR`, as scripts/run-tests.mjs does)
//   node bench/run.mjs once start           only the benchmarks whose file names contain one of the words
//   node bench/run.mjs soak                 the soaks run only when named (the 200k-render soak takes 10+ minutes;
//                                           soak-flap and soak-rss 30 minutes each, and only with RIGTOP_SOAK=1)
//
// A benchmark prints its figures for people, and one line `RESULT {json}` per figure for this runner (report() in
// bench/lib.mjs). The last run's results of each benchmark on each Node line are kept in bench/results.json (a run
// replaces all of that benchmark's on that line), so a run of some benchmarks updates only theirs; from that file
// this runner rewrites
//   - docs/performance.md, between <!-- bench:begin --> and <!-- bench:end -->: every figure with its baseline,
//     when and under what load it was measured, and each benchmark's whole output;
//   - readme.md, between <!-- performance:begin … --> and <!-- performance:end -->: the judged figures of readmeFiles
//     (not the ones printed for reference), which are met.
// Nothing outside those markers is touched.
import {spawn} from 'node:child_process';
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import {root} from './lib.mjs';

const args = process.argv.slice(2);
const nodeAt = args.indexOf('--node');
const majors = nodeAt === -1 ? [Number(process.versions.node.split('.')[0])] : args[nodeAt + 1].split(',').map(Number);
// `--rewrite`: run nothing, write the readme's and docs/performance.md's blocks again from bench/results.json.
const rewriteOnly = args.includes('--rewrite');
const words = args.filter((arg, index) => arg !== '--rewrite' && (nodeAt === -1 || (index !== nodeAt && index !== nodeAt + 1)));
const optIn = (file) => file.startsWith('soak');
const benchDir = path.join(root, 'bench');
const files = readdirSync(benchDir)
	.filter((file) => file.endsWith('.bench.mjs'))
	.filter((file) => (words.length === 0 ? !optIn(file) : words.some((word) => file.includes(word))))
	.sort();
if (files.length === 0) throw new Error(`no benchmark matches ${words.join(', ')}`);

/** The command that runs `node` of a major: this process's Node when it is that major, else npx's. */
function nodeCommand(major) {
	return Number(process.versions.node.split('.')[0]) === major
		? {command: process.execPath, prefix: []}
		: {command: 'npx', prefix: ['-y', '-p', `node@${major}`, 'node']};
}

// CI unset, not empty: Ink takes any CI variable, even an empty one, for a CI run and draws no live frames.
const benchEnv = {...process.env, RIGTOP_BENCH_RUNNER: '1'};
delete benchEnv.CI;

function runBench(file, major) {
	const {command, prefix} = nodeCommand(major);
	return new Promise((resolve) => {
		const started = Date.now();
		const load = os.loadavg()[0];
		const child = spawn(command, [...prefix, '--expose-gc', path.join(benchDir, file)], {
			cwd: root,
			stdio: ['ignore', 'pipe', 'inherit'],
			env: benchEnv,
		});
		let out = '';
		child.stdout.on('data', (chunk) => {
			out += chunk;
			process.stdout.write(chunk);
		});
		child.on('exit', (code) => resolve({file, major, code, out, seconds: (Date.now() - started) / 1000, load: [load, os.loadavg()[0]]}));
	});
}

const nodeVersion = (major) =>
	new Promise((resolve) => {
		const {command, prefix} = nodeCommand(major);
		const child = spawn(command, [...prefix, '--version'], {stdio: ['ignore', 'pipe', 'ignore']});
		let out = '';
		child.stdout.on('data', (chunk) => {
			out += chunk;
		});
		child.on('exit', () => resolve(out.trim() || `v${major}`));
	});

const cpu = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}`;
const runs = [];
for (const major of rewriteOnly ? [] : majors) {
	const version = await nodeVersion(major);
	console.log(`rigtop benchmarks on ${cpu}, Node ${version}: ${files.join(', ')}`);
	for (const file of files) {
		console.log(`\n=== ${file} (Node ${version}) ===`);
		runs.push({...(await runBench(file, major)), version});
	}
}

// Keep the newest run's results of each benchmark on each Node line: a run replaces every result the benchmark had
// there (a figure it no longer prints goes).
const resultsFile = path.join(benchDir, 'results.json');
const store = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : {results: {}, outputs: {}};
// The machine the figures were measured on: this one when this run measured some, else the one recorded (a file
// from before the record, the one docs/performance.md names), never this one's for figures another measured.
const docsFile = path.join(root, 'docs', 'performance.md');
const machineHere = `${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()}`;
if (runs.length > 0) store.machine = machineHere;
const machine = store.machine ?? /^Machine: (.*?)\. Every ratio/m.exec(readFileSync(docsFile, 'utf8'))?.[1] ?? machineHere;
const date = new Date().toISOString().slice(0, 10);
for (const run of runs) {
	const lines = run.out.split('\n');
	const results = lines.filter((line) => line.startsWith('RESULT ')).map((line) => JSON.parse(line.slice('RESULT '.length)));
	// A run that printed no figure (a soak skipped without RIGTOP_SOAK=1, or one that failed) leaves the last ones.
	if (results.length > 0) {
		for (const key of Object.keys(store.results)) {
			if (key.startsWith(`${run.file}#`) && key.endsWith(`|${run.major}`)) delete store.results[key];
		}
	}

	// Names may carry run-specific numbers (windows, counts): key by file and position.
	for (const [index, result] of results.entries()) {
		store.results[`${run.file}#${index}|${run.major}`] = {
			...result,
			file: run.file,
			major: run.major,
			node: run.version,
			date,
			load: run.load.map((value) => Math.round(value * 100) / 100),
		};
	}

	store.outputs[`${run.file}|${run.major}`] = {
		node: run.version,
		date,
		seconds: Math.round(run.seconds),
		code: run.code,
		load: run.load.map((value) => Math.round(value * 100) / 100),
		text: lines
			.filter((line) => !line.startsWith('RESULT '))
			.join('\n')
			.trim(),
	};
}

// Formatted as the repository formats JSON (npm test checks it).
const prettier = await import('prettier');
const prettierOptions = (await prettier.resolveConfig(resultsFile)) ?? {};
writeFileSync(resultsFile, await prettier.format(JSON.stringify(store), {...prettierOptions, filepath: resultsFile}));

// Issue 11's figures first, in its order; then the others; each on Node 22 before 26.
const fileOrder = ['once', 'start', 'steady', 'soak-rss', 'fleet', 'soak-flap', 'soak', 'per-poll', 'http-client', 'render', 'output'];
const rank = (key) => {
	const file = key.split('.bench.mjs')[0];
	const index = fileOrder.indexOf(file);
	return `${String(index === -1 ? fileOrder.length : index).padStart(2, '0')} ${key.replace(/\|(\d+)$/, (_, major) => `|${major.padStart(3, '0')}`)}`;
};
const ordered = Object.entries(store.results)
	.sort(([a], [b]) => rank(a).localeCompare(rank(b), 'en', {numeric: true}))
	.map(([, result]) => result);
const cell = (value) => (value === undefined || value === null ? '–' : String(value));
const figureText = (result) => `${cell(result.figure)} ${result.unit}`;
const baselineText = (result) => (result.baselineText ? `${cell(result.baseline)} ${result.unit} (${result.baselineText})` : '–');
const ratioText = (result) => (result.ratio === undefined || result.ratio === null ? '–' : `${result.ratio}×`);
/** A figure printed for reference (goal.of 'none') is never judged; a goal whose baseline was missing is not judged. */
const isReference = (result) => result.goal.of === 'none';
const met = (result) => (isReference(result) ? 'reference' : result.meets === null ? 'not judged' : result.meets ? 'yes' : '**no**');
const commandText = (result) => `\`${result.command ?? `node bench/run.mjs ${result.file.replace('.bench.mjs', '')}`}\``;

/**
 * Replaces what is between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in `file` (both markers must be there; the
 * begin marker may carry a note after its name, `<!-- NAME:begin — written by … -->`, kept as it is).
 */
function rewriteBlock(file, name, body) {
	const text = readFileSync(file, 'utf8');
	const begin = new RegExp(`<!-- ${name}:begin(?: [^\\n]*?)? -->`).exec(text);
	const end = `<!-- ${name}:end -->`;
	const to = text.indexOf(end);
	if (begin === null || to < begin.index) throw new Error(`${path.relative(root, file)} has no <!-- ${name}:begin --> … ${end} block`);
	writeFileSync(file, `${text.slice(0, begin.index + begin[0].length)}\n${body.trimEnd()}\n${text.slice(to)}`);
}

/** Words wrapped at 118 columns, as the readme's prose is. */
const wrapWords = (text) => {
	const lines = [''];
	for (const word of text.split(' ')) {
		const last = lines.at(-1);
		if (last !== '' && last.length + 1 + word.length > 118) lines.push(word);
		else lines[lines.length - 1] = last === '' ? word : `${last} ${word}`;
	}

	return lines;
};

// The readme: the judged figures of issues 11 and 25 (the benchmarks of readmeFiles), one row each with every Node
// measured, the goal and the command; the others, the figures printed for reference, the baselines and every run's
// output are in docs/performance.md. The readme is held under 200 lines: the block's note is on its begin marker, its
// words on one line.
const readmeFiles = new Set(['once', 'start', 'steady', 'soak-rss', 'fleet', 'soak-flap', 'soak']);
const byFigure = new Map();
for (const result of ordered) {
	if (!readmeFiles.has(result.file.replace('.bench.mjs', '')) || isReference(result)) continue;
	byFigure.set(result.name, [...(byFigure.get(result.name) ?? []), result]);
}

const majorsShown = [...new Set(ordered.map((result) => result.major))].sort((a, b) => a - b);
// A goal in ×: the ratio; a goal in units (MB, %, ms): the figure.
const valueOf = (result) =>
	result.ratio === undefined || result.ratio === null || !result.goal.text.includes('×') ? figureText(result) : `${result.ratio}×`;
const unmetCount = [...byFigure.values()].flat().filter((result) => result.meets === false).length;
const readmeTable = [
	...wrapWords(
		`Ratios are against baselines measured in the same run ([docs/performance.md](docs/performance.md)). ${unmetCount === 0 ? 'Every judged goal is met.' : `✗: not met (${unmetCount}).`}`,
	),
	'',
	`| figure | ${majorsShown.map((major) => `Node ${major}`).join(' | ')} | goal | reproduce |`,
	`| --- | ${majorsShown.map(() => '---').join(' | ')} | --- | --- |`,
	...[...byFigure].map(([name, results]) => {
		const cells = majorsShown.map((major) => {
			const result = results.find((entry) => entry.major === major);
			if (result === undefined) return '–';
			return result.meets === null ? 'not judged' : `${valueOf(result)} ${result.meets ? '✓' : '✗'}`;
		});
		// One goal, or one a Node ("≤ 2.56× / ≤ 1.86× (the pre-move build, same run)").
		const texts = [...new Set(results.map((result) => result.goal.text))];
		const why = /\s\(.*\)$/.exec(texts[0])?.[0] ?? '';
		const goals = texts.length === 1 ? texts[0] : `${texts.map((text) => text.replace(/\s\(.*\)$/, '')).join(' / ')}${why}`;
		return `| ${name} | ${cells.join(' | ')} | ${goals} | ${commandText(results[0])} |`;
	}),
];
rewriteBlock(path.join(root, 'readme.md'), 'performance', readmeTable.join('\n'));

const record = [
	'<!-- Written by bench/run.mjs from bench/results.json; the text outside this block is not. -->',
	'',
	`Machine: ${machine}. Every ratio is against a baseline measured in the same run; the load average (1 min) at the start and the end of each benchmark is shown, because other work on the machine shows up in every timing.`,
	'',
	'| figure | Node | rigtop | baseline (same run) | ratio | goal | met | measured (load) | reproduce |',
	'| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
	...ordered.map(
		(result) =>
			`| ${result.name} | ${result.node} | ${figureText(result)} | ${baselineText(result)} | ${ratioText(result)} | ${result.goal.text} | ${met(result)} | ${result.date} (${result.load.join(' → ')}) | ${commandText(result)} |`,
	),
	'',
	'### Output of each benchmark',
	'',
	...Object.entries(store.outputs)
		.sort(([a], [b]) => rank(a).localeCompare(rank(b), 'en', {numeric: true}))
		.flatMap(([key, output]) => [
			`#### ${key.split('|')[0]} on Node ${output.node} (${output.date}, ${output.seconds} s, load ${output.load.join(' → ')}${output.code === 0 ? '' : `, exit ${output.code}`})`,
			'',
			'```',
			output.text,
			'```',
			'',
		]),
];
rewriteBlock(docsFile, 'bench', record.join('\n'));
console.log('\nwrote bench/results.json, docs/performance.md (bench block) and readme.md (performance block)');

const failed = runs.filter((run) => run.code !== 0);
if (failed.length > 0) {
	console.log(`exited non-zero: ${failed.map((run) => `${run.file} on Node ${run.version}`).join(', ')}`);
	process.exitCode = 1;
}
