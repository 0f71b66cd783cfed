// Soak: a long run compressed. The real dashboard in the production bundle draws ≥ 200,000
// updates that change every figure (new strings for Ink's text caches each time); heap and RSS
// are read (after a full GC) once warmed up and at the end. Goal: growth < 5 MB.
import {execFileSync} from 'node:child_process';
import process from 'node:process';
import {bundleEntry, report, round, setting, startMiner} from './lib.mjs';

const warmup = setting('SOAK_WARMUP', 10_000);
const renders = setting('SOAK_RENDERS', 200_000);
const driver = await bundleEntry('bench/dashboard-driver.tsx');
const miner = await startMiner();
const mb = (bytes) => round(bytes / 1e6, 1);
try {
	const result = JSON.parse(execFileSync(process.execPath, ['--expose-gc', driver, 'soak', miner.url, '80', '24', String(warmup), String(renders)], {encoding: 'utf8', maxBuffer: 1 << 24}).trim());
	// Growth is the highest reading after warm-up (any sample or the end) above the warm-up one:
	// bounded caches fill and clear in a sawtooth, and the top of the teeth is what a user pays.
	const readings = [...result.samples, result.end];
	const heapPeak = Math.max(...readings.map((reading) => reading.heapUsed));
	const rssPeak = Math.max(...readings.map((reading) => reading.rss));
	const heapGrowth = heapPeak - result.afterWarmup.heapUsed;
	const rssGrowth = rssPeak - result.afterWarmup.rss;
	report({
		name: 'soak (memory growth over 200k renders)',
		figure: Math.max(heapGrowth, rssGrowth) / 1e6,
		unit: 'MB',
		goal: {of: 'figure', max: 5, text: 'growth < 5 MB (heap and RSS)'},
		details: [
			`${result.renders} renders at 80×24 in ${Math.round(result.seconds)} s (${result.warmup} of them warm-up)`,
			`heap: ${mb(result.afterWarmup.heapUsed)} MB after warm-up → ${mb(result.end.heapUsed)} MB at the end, highest ${mb(heapPeak)} MB (${heapGrowth >= 0 ? '+' : ''}${mb(heapGrowth)} MB)`,
			`RSS:  ${mb(result.afterWarmup.rss)} MB after warm-up → ${mb(result.end.rss)} MB at the end, highest ${mb(rssPeak)} MB (${rssGrowth >= 0 ? '+' : ''}${mb(rssGrowth)} MB)`,
			`along the way (renders: heap / RSS MB): ${result.samples.map((sample) => `${Math.round(sample.renders / 1000)}k ${mb(sample.heapUsed)}/${mb(sample.rss)}`).join(', ')}`,
		],
		note: `heap ${mb(result.afterWarmup.heapUsed)} MB after warm-up, highest ${mb(heapPeak)}, ${mb(result.end.heapUsed)} at the end; RSS ${mb(result.afterWarmup.rss)} → highest ${mb(rssPeak)} → ${mb(result.end.rss)} MB, over ${result.renders - result.warmup} renders after warm-up; the figure is the larger of the two peak growths`,
	});
} finally {
	await miner.stop();
}
