// Render: Ink's own frame time (onRender renderTime) for the real dashboard in the production
// bundle, with every figure changing on every update, at 80×24 and 200×60. Goal: median < 5 ms.
import {execFileSync} from 'node:child_process';
import process from 'node:process';
import {binNodeOptions, bundleEntry, median, percentile, report, round, setting, startMiner} from './lib.mjs';

const updates = setting('RENDER_UPDATES', 3000);
const driver = await bundleEntry('bench/dashboard-driver.tsx');
const miner = await startMiner();
try {
	for (const [columns, rows] of [
		[80, 24],
		[200, 60],
	]) {
		const result = JSON.parse(
			execFileSync(process.execPath, [...binNodeOptions(), driver, 'render', miner.url, String(columns), String(rows), String(updates)], {
				encoding: 'utf8',
			}).trim(),
		);
		report({
			name: `render ${columns}×${rows} (frame time)`,
			figure: median(result.renderTimes),
			unit: 'ms',
			goal: {of: 'figure', max: 5, strict: true, text: 'median < 5 ms'},
			command: 'node bench/run.mjs render',
			details: [
				`${result.renderTimes.length} frames, each after an update that changes every figure; p90 ${round(percentile(result.renderTimes, 90))} ms, p99 ${round(percentile(result.renderTimes, 99))} ms`,
				`whole update (store change → React → layout → frame → terminal write): median ${round(median(result.updateTimes))} ms`,
				`terminal bytes per update (incremental): ${Math.round(result.bytesPerUpdate)}`,
			],
		});
	}
} finally {
	await miner.stop();
}
