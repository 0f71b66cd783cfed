// Terminal output at steady state: bytes per second that rigtop writes to a real 80×24 pty while
// watching one miner at a 2 s interval (incremental rendering; unchanged frames are not written),
// against the same CLI built with Ink's full redraw (incrementalRendering: false). Goal: < 1 KB/s.
import process from 'node:process';
import path from 'node:path';
import {readFileSync} from 'node:fs';
import {build} from 'esbuild';
import {common} from '../scripts/build.mjs';
import {binEnv, binNodeOptions, CLI, inPty, report, root, round, setting, sleep, startMiner, waitUntil} from './lib.mjs';

const seconds = setting('OUTPUT_SECONDS', 30);

// The same CLI with incremental rendering off: the baseline.
// Split into chunks like the shipped CLI (Ink imports React DevTools, left external, only from a chunk of its own).
const fullFramesDir = path.join(root, '.bench-out', 'cli-full-frames');
const fullFrames = path.join(fullFramesDir, 'cli.js');
await build({
	...common,
	entryPoints: {cli: path.join(root, 'source/bin.ts')},
	outdir: fullFramesDir,
	splitting: true,
	chunkNames: 'chunks/[name]-[hash]',
	plugins: [
		...common.plugins,
		{
			name: 'full-frames',
			setup(b) {
				b.onLoad({filter: /[\\/]source[\\/]commands[\\/]live[\\/]live\.ts$/}, (args) => {
					const source = readFileSync(args.path, 'utf8');
					if (!source.includes('incrementalRendering: true'))
						throw new Error('source/commands/live/live.ts no longer says incrementalRendering: true');
					return {contents: source.replace('incrementalRendering: true', 'incrementalRendering: false'), loader: 'tsx'};
				});
			},
		},
	],
});

async function bytesPerSecond(cli, url) {
	let total = 0;
	let seen = '';
	const session = inPty(process.execPath, [...binNodeOptions(), cli, url, '--interval', '2'], {
		env: binEnv(),
		onOutput(chunk) {
			total += chunk.length;
			if (seen.length < 200_000) seen += chunk;
		},
	});
	try {
		await waitUntil(() => seen.includes('bench-rig'), 10_000, 'the first frame');
		await sleep(5000); // steady state: history and events filled in
		const before = total;
		await sleep(seconds * 1000);
		return (total - before) / seconds;
	} finally {
		await session.stop();
	}
}

const miner = await startMiner();
try {
	const incremental = await bytesPerSecond(CLI, miner.url);
	const full = await bytesPerSecond(fullFrames, miner.url);
	report({
		name: 'terminal output (steady state, 2 s interval)',
		figure: incremental,
		unit: 'B/s',
		baseline: full,
		baselineText: 'the same CLI redrawing whole frames',
		ratio: incremental / full,
		goal: {of: 'figure', max: 1024, strict: true, text: '< 1 KB/s'},
		command: 'node bench/run.mjs output',
		details: [
			`bytes written to an 80×24 pty over ${seconds} s after 5 s of warm-up, per second`,
			`${round(incremental * 2)} bytes per poll`,
		],
	});
} finally {
	await miner.stop();
}
