// Soak: a long run compressed. The real dashboard in the production bundle draws ≥ 200,000
// updates that change every figure (new strings for Ink's text caches each time); heap and RSS
// are read (after two full GCs) once warmed up, 20 times along the way and at the end. The driver
// runs with the node options of the bin's shebang line, as rigtop does.
// Goal: growth < 5 MB.
//
// Growth is the TREND: the least-squares line through every reading after warm-up (the warm-up
// one included), its rise over the measured renders, for the heap and for RSS; the figure is the
// larger. A leak lifts the line; the sawtooth of bounded caches filling and clearing, and RSS
// moving as V8 commits and releases heap pages (young-generation space sized by the render loop's
// allocation rate, which a 1 s monitor never reaches), scatter readings around it without lifting
// it. The highest reading above the warm-up one (what the first version of this bench reported)
// is printed too: it measures that scatter, not growth.
import {execFileSync} from 'node:child_process';
import process from 'node:process';
import {binNodeOptions, bundleEntry, report, round, setting, startMiner} from './lib.mjs';

const warmup = setting('SOAK_WARMUP', 10_000);
const renders = setting('SOAK_RENDERS', 200_000);
const driver = await bundleEntry('bench/dashboard-driver.tsx');
const miner = await startMiner();
const mb = (bytes) => round(bytes / 1e6, 1);
const signed = (bytes) => `${bytes >= 0 ? '+' : ''}${mb(bytes)}`;

/** The rise (bytes) of the least-squares line through the readings, from the first reading's render count to the last's. */
function trend(points, field) {
	const n = points.length;
	const meanX = points.reduce((sum, point) => sum + point.renders, 0) / n;
	const meanY = points.reduce((sum, point) => sum + point[field], 0) / n;
	let covariance = 0;
	let variance = 0;
	for (const point of points) {
		covariance += (point.renders - meanX) * (point[field] - meanY);
		variance += (point.renders - meanX) ** 2;
	}

	const slope = variance === 0 ? 0 : covariance / variance;
	return slope * (points[n - 1].renders - points[0].renders);
}
try {
	const result = JSON.parse(
		execFileSync(
			process.execPath,
			['--expose-gc', ...binNodeOptions(), driver, 'soak', miner.url, '80', '24', String(warmup), String(renders)],
			{
				encoding: 'utf8',
				maxBuffer: 1 << 24,
			},
		).trim(),
	);
	// Growth is the highest reading after warm-up (any sample or the end) above the warm-up one:
	// bounded caches fill and clear in a sawtooth, and the top of the teeth is what a user pays.
	const readings = [...result.samples, result.end];
	const heapPeak = Math.max(...readings.map((reading) => reading.heapUsed));
	const rssPeak = Math.max(...readings.map((reading) => reading.rss));
	const heapGrowth = heapPeak - result.afterWarmup.heapUsed;
	const rssGrowth = rssPeak - result.afterWarmup.rss;
	const points = [{renders: result.warmup, ...result.afterWarmup}, ...result.samples, {renders: result.renders, ...result.end}];
	const heapTrend = trend(points, 'heapUsed');
	const rssTrend = trend(points, 'rss');
	const rssLow = Math.min(...points.map((point) => point.rss));
	report({
		name: 'soak (memory growth over 200k renders)',
		figure: Math.max(heapTrend, rssTrend) / 1e6,
		unit: 'MB',
		goal: {of: 'figure', max: 5, strict: true, text: 'trend < 5 MB (heap and RSS, least squares)'},
		command: 'node bench/run.mjs soak',
		details: [
			`${result.renders} renders at 80×24 in ${Math.round(result.seconds)} s (${result.warmup} of them warm-up)`,
			`trend over the ${result.renders - result.warmup} renders after warm-up (least-squares line through ${points.length} readings): heap ${signed(heapTrend)} MB, RSS ${signed(rssTrend)} MB`,
			`scatter: RSS between ${mb(rssLow)} and ${mb(rssPeak)} MB; highest reading above the warm-up one: heap ${signed(heapGrowth)} MB, RSS ${signed(rssGrowth)} MB`,
			`heap: ${mb(result.afterWarmup.heapUsed)} MB after warm-up → ${mb(result.end.heapUsed)} MB at the end, highest ${mb(heapPeak)} MB (${heapGrowth >= 0 ? '+' : ''}${mb(heapGrowth)} MB)`,
			`RSS:  ${mb(result.afterWarmup.rss)} MB after warm-up → ${mb(result.end.rss)} MB at the end, highest ${mb(rssPeak)} MB (${rssGrowth >= 0 ? '+' : ''}${mb(rssGrowth)} MB)`,
			`along the way (renders: heap / RSS MB): ${result.samples.map((sample) => `${Math.round(sample.renders / 1000)}k ${mb(sample.heapUsed)}/${mb(sample.rss)}`).join(', ')}`,
		],
		note: `trend heap ${signed(heapTrend)} MB, RSS ${signed(rssTrend)} MB over the run; heap ${mb(result.afterWarmup.heapUsed)} MB after warm-up, highest ${mb(heapPeak)}, ${mb(result.end.heapUsed)} at the end; RSS ${mb(result.afterWarmup.rss)} → highest ${mb(rssPeak)} → ${mb(result.end.rss)} MB, over ${result.renders - result.warmup} renders after warm-up; the figure is the larger of the two trends`,
	});
} finally {
	await miner.stop();
}
