/**
 * The screens that read the history, with the built CLI in tmux: watch the simulator through an outage, quit, start
 * rigtop again, and the chart (`g`) already shows the earlier samples and the outage, the event view (`e`) the earlier
 * events, the dashboard's sparkline is filled from the store at once.
 */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
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

const BRAILLE = /[\u2801-\u28FF]/;

describe('the chart and the event view after a restart', () => {
	it('a rigtop started again shows the earlier samples, the outage and the earlier events', async () => {
		const sim = await startSimulator({dialect: '6', warm: true, workerId: 'night-rig'});
		cleanups.push(async () => sim.stop());
		const state = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-screens-'));
		cleanups.push(() => rmSync(state, {recursive: true, force: true}));
		const env = {XDG_STATE_HOME: state};

		// The first rigtop: a few seconds of polls, the miner goes away and comes back, then q.
		const first = await TmuxTerminal.start(['node', CLI, sim.url, '--interval', '0.5'], {cols: 80, rows: 24, env});
		cleanups.push(async () => first.kill());
		await first.waitFor('night-rig', 10_000);
		// 12 s of polls: at least two cells of the 10-minute chart at 120 columns (5.7 s a cell), left of the outage's.
		await new Promise((resolve) => setTimeout(resolve, 12_000));
		await sim.stop();
		await first.waitFor(/down: /, 15_000);
		await new Promise((resolve) => setTimeout(resolve, 3000));
		await sim.start();
		await first.waitFor('back up · down', 15_000);
		await new Promise((resolve) => setTimeout(resolve, 2000));
		await first.send('q');
		await first.waitFor('[exit 0]', 5000);

		// The second one, on a larger terminal: before its own polls add much, the screens show the first one's.
		const second = await TmuxTerminal.start(['node', CLI, sim.url, '--interval', '0.5'], {cols: 120, rows: 40, env});
		cleanups.push(async () => second.kill());
		// The sparkline's stored line comes with the second frame (the first one does not wait for the store).
		const dashboard = await second.waitFor((screen) => screen.includes('night-rig') && /Hashrate since (\d+s|\dm)/.test(screen), 10_000);
		// The events pane: the earlier rigtop's events, the outage with its span.
		expect(dashboard).toMatch(/back up · down \d\d:\d\d–\d\d:\d\d, \d+s/);
		// Since the first rigtop began (a minute or more when the miner took long to come back), not since this one.
		expect(dashboard).toMatch(/Hashrate since (\d+s|\dm)/);

		await second.send('g');
		// Under ten minutes known (no span chosen): the chart opens on the 10 minutes that hold them.
		await second.waitFor(/127\.0\.0\.1:\d+ · last 10 min/);
		const chart = await second.waitFor((screen) => /127\.0\.0\.1:\d+ · last 10 min/.test(screen) && screen.includes('░'));
		const lines = chart.split('\n');
		expect(lines[1]).toContain('░ down');
		// The earlier rigtop's samples: the line left of the outage (the second rigtop only polled after it).
		const plot = lines.filter((line) => /^ {0,4}[\d.]* [┤│]/.test(line));
		const shaded = Math.min(...plot.map((line) => line.indexOf('░')).filter((index) => index >= 0));
		expect(
			plot.some((line) => BRAILLE.test(line.slice(6, shaded))),
			chart,
		).toBe(true);

		await second.send('Escape');
		await second.waitFor('Hashrate since');
		await second.send('e');
		// The list comes with the view's second frame (its store reads when the view asks).
		const events = await second.waitFor((screen) => screen.includes('(night-rig) · events') && / events? since /.test(screen));
		// Named by its address, its worker id beside it, in both runs.
		expect(events.match(/watching 127\.0\.0\.1:\d+ \(night-rig\)/g)).toHaveLength(2);
		expect(events).toMatch(/down: /);
		expect(events).toMatch(/back up · down \d\d:\d\d–\d\d:\d\d/);
		await second.send('q');
		await second.waitFor('[exit 0]', 5000);
	});
});
