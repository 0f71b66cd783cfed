/**
 * The chart after a pause (issue 35, item 3): a short pause pulls the miner's 10 s rate down for a few polls, inside a
 * bucket whose average stays high. The title says the span's lowest poll (`min 1.13 … kH/s`); the y-axis must reach
 * it, so the dip is drawn to its foot, not clipped at a bottom drawn from the averages.
 */
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

const sleep = async (ms: number) =>
	new Promise((resolve) => {
		setTimeout(resolve, ms);
	});

/** The chart's title min/max and its y-axis labels, all in the title's unit. */
function readChart(screen: string): {min: number; max: number; unit: string; axisUnit: string; labels: number[]} {
	const lines = screen.split('\n');
	const title = /min ([\d.]+) avg [\d.]+ max ([\d.]+) (\S+)/.exec(lines[0] ?? '');
	const labels = lines.map((line) => /^ *([\d.]+) ┤/.exec(line)?.[1]).filter((label): label is string => label !== undefined);
	return {
		min: Number(title?.[1]),
		max: Number(title?.[2]),
		unit: title?.[3] ?? '',
		axisUnit: /^(\S+)/.exec(lines[1] ?? '')?.[1] ?? '',
		labels: labels.map(Number),
	};
}

describe('the chart after a pause', () => {
	for (const [cols, rows] of [
		[80, 24],
		[200, 50],
	] as const) {
		it(`at ${cols}×${rows}: the y-axis holds the title's min and max, in the span the data fits and in the hour`, async () => {
			const sim = await startSimulator({dialect: '6', warm: true, workerId: 'dip-rig', seed: 7});
			cleanups.push(async () => sim.stop());
			const terminal = await TmuxTerminal.start(['node', CLI, sim.url, '-i', '1', '--no-history'], {cols, rows});
			cleanups.push(async () => terminal.kill());
			await terminal.waitFor((screen) => screen.includes('dip-rig') && /live/.test(screen), 10_000);
			// Polls at full rate, a four-second pause (the 10 s rate drops to about half for a few polls), full rate again.
			await sleep(6000);
			sim.pause();
			await sleep(4000);
			sim.resume();
			await sleep(8000);

			await terminal.send('g');
			// Seconds known, no span chosen: the chart opens on the 10 minutes that hold them.
			for (const span of ['10 min', '1 h']) {
				if (span === '1 h') await terminal.send('2');
				const screen = await terminal.waitFor(
					(text) =>
						text.includes(`${new URL(sim.url).host} · last ${span}`) && /min [\d.]+ avg/.test(text) && readChart(text).labels.length > 1,
					10_000,
				);
				const chart = readChart(screen);
				// The pause is in the title: its lowest poll well under its highest.
				expect(chart.min).toBeLessThan(chart.max * 0.8);
				expect(chart.axisUnit).toBe(chart.unit);
				expect(Math.min(...chart.labels)).toBeLessThanOrEqual(chart.min);
				expect(Math.max(...chart.labels)).toBeGreaterThanOrEqual(chart.max);
			}

			await terminal.send('q');
			await terminal.waitFor('[exit 0]', 5000);
		});
	}
});
