/**
 * keepHeapSmall, in a node process of its own (V8 flags are process-wide): a workload that keeps every object alive
 * for a while (as monitors keep each poll's snapshot) grows V8's young generation to its maximum by default; with
 * keepHeapSmall it stays at the limit given. Node started with a heap setting of its own is left alone.
 */
import {execFile} from 'node:child_process';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {promisify} from 'node:util';
import {build} from 'esbuild';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';

const run = promisify(execFile);
let dir = '';
let script = '';

beforeAll(async () => {
	dir = await mkdtemp(path.join(os.tmpdir(), 'rigtop-heap-'));
	const entry = path.join(dir, 'entry.ts');
	script = path.join(dir, 'workload.mjs');
	await writeFile(
		entry,
		`import v8 from 'node:v8';
import {keepHeapSmall} from ${JSON.stringify(path.join(import.meta.dirname, '..', '..', 'source', 'cli', 'heap-limits.ts'))};
if (process.argv[2] === 'keep') keepHeapSmall({maxSemiSpaceMb: 1, heapGrowingPercent: 50}, 1);
const youngMb = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 2 ** 20;
const initial = youngMb();
let largest = 0;
const live = new Array(20000);
let i = 0;
const step = () => {
	for (const end = i + 5000; i < end; i++) live[i % live.length] = {index: i, text: 'x' + i};
	largest = Math.max(largest, youngMb());
	if (i < 4e6) setImmediate(step); else console.log(JSON.stringify({initial, largest}));
};
step();
`,
	);
	await build({entryPoints: [entry], outfile: script, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent'});
});

afterAll(async () => {
	await rm(dir, {recursive: true, force: true});
});

/** The young generation's size (MB) when the workload started, and the largest it reached. */
async function youngGeneration(args: readonly string[], nodeOptions: readonly string[] = []): Promise<{initial: number; largest: number}> {
	const {stdout} = await run(process.execPath, [...nodeOptions, script, ...args], {timeout: 60_000});
	return JSON.parse(stdout.trim()) as {initial: number; largest: number};
}

describe('keepHeapSmall', () => {
	it('stops the young generation growing at the limit (V8 alone grows it to its maximum)', async () => {
		const free = await youngGeneration([]);
		const kept = await youngGeneration(['keep']);
		expect(free.largest).toBeGreaterThanOrEqual(16);
		// The limit is 1 MB per semi-space (2 MB in all): Node 20 stops there; Node 24's V8 first grows it to 4 MB at once
		// and then still adds a page now and then, staying far below its 64 MB.
		expect(kept.largest).toBeLessThanOrEqual(Math.max(4, free.largest / 4));
	}, 120_000);

	it('leaves node alone when it was started with a heap setting of its own', async () => {
		const own = await youngGeneration(['keep'], ['--max-semi-space-size=8']);
		expect(own.largest).toBe(16);
	}, 120_000);
});
