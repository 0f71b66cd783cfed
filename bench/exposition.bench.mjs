// Exposition benchmark: writing one scrape of 1000 miners' series (about 80 each: a warm 6.x CPU+GPU rig) with
// rigtop's writer (source/exporter/exposition.ts) against prom-client, the well-kept library (the baseline), in the
// same process, alternating, from the same monitor states. Why rigtop writes its own: docs/prometheus/README.md.
//
//   node bench/exposition.bench.mjs            RIGTOP_BENCH_EXPOSITION_MINERS=1000 RIGTOP_BENCH_EXPOSITION_ROUNDS=30
import {execFileSync} from 'node:child_process';
import process from 'node:process';
import {bundleEntry, report, round, root, setting} from './lib.mjs';

const miners = setting('EXPOSITION_MINERS', 1000);
const rounds = setting('EXPOSITION_ROUNDS', 30);
const driver = await bundleEntry('bench/exposition-driver.ts');
const line = execFileSync(process.execPath, [driver, String(miners), String(rounds)], {encoding: 'utf8', cwd: root});
const result = JSON.parse(line.trim().split('\n').at(-1));
const ms = (value) => `${round(value, 1)} ms`;
report({
	name: `exposition of ${miners} miners (one scrape, text format)`,
	figure: result.writer.text.median,
	unit: 'ms',
	baseline: result.promClient.text.median,
	baselineText: 'prom-client 15, registry.metrics()',
	ratio: result.writer.text.median / result.promClient.text.median,
	goal: {of: 'figure', max: 100, text: 'median < 100 ms (the scrape goal at 1000 miners)'},
	details: [
		`${result.series} series, ${round(result.bytes.writer / 2 ** 20, 1)} MB of text (prom-client: ${round(result.bytes.promClient / 2 ** 20, 1)} MB)`,
		`90th percentile: writer ${ms(result.writer.text.p90)}, prom-client ${ms(result.promClient.text.p90)}`,
		`OpenMetrics, median: writer ${ms(result.writer.openMetrics.median)}, prom-client ${ms(result.promClient.openMetrics.median)}`,
		`taking in one miner's poll, median: writer ${round(result.writer.pollMs * 1000, 0)} µs (its lines written again), prom-client ${round(result.promClient.pollMs * 1000, 0)} µs (each series set again)`,
		`median of ${rounds} scrapes each, a tenth of the miners polled between two`,
	],
});
