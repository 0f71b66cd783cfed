/**
 * An xmrig-proxy's history with the built CLI: a live rigtop on a simulated proxy sees a worker go (its event on the
 * event view), and `rigtop history --worker` prints that worker's own polls and event from the store.
 */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator} from '../../source/sim/simulator.js';
import {runCli} from './helpers/cli.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

async function cli(args: readonly string[], env: Record<string, string>): Promise<{code: number; stdout: string; stderr: string}> {
	return runCli(args, {env, unset: []});
}

describe("a proxy's workers with the built CLI", () => {
	it('a worker gone is on the event view and in rigtop history --worker, text and JSON', async () => {
		const state = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-proxy-history-'));
		cleanups.push(() => rmSync(state, {recursive: true, force: true}));
		const env = {XDG_STATE_HOME: state};
		const sim = await startSimulator({kind: 'proxy', warm: true, workers: 3, lifeEvents: false, seed: 5});
		cleanups.push(async () => sim.stop());
		const term = await TmuxTerminal.start(['node', CLI, sim.url, '--interval', '0.5'], {cols: 80, rows: 24, env});
		cleanups.push(async () => term.kill());
		await term.waitFor('sim-proxy', 10_000);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		sim.dropWorker('rig-02');
		await term.send('e');
		await term.waitFor('worker rig-02 gone: no connection left', 10_000);
		await term.send('q');
		await term.waitFor('[exit 0]', 5000);

		const text = await cli(['history', sim.url, '--worker', 'rig-02', '--since', '10m'], env);
		expect(text.code).toBe(0);
		expect(text.stdout).toMatch(/^worker rig-02 of 127\.0\.0\.1:\d+ \(worker sim-proxy, http:\/\/127\.0\.0\.1:\d+\), /);
		expect(text.stdout).toMatch(/hashrate {2}\(1m\) avg \d/);
		expect(text.stdout).toMatch(/shares {4}[\d ]+ accepted · [\d ]+ rejected · [\d ]+ invalid/);
		expect(text.stdout).toContain('worker rig-02 gone: no connection left');
		expect(text.stdout).not.toContain('watching');

		const json = JSON.parse((await cli(['history', sim.url, '--worker', 'rig-02', '--json'], env)).stdout) as {
			worker: string;
			series: {shares: {accepted: number}}[];
			events: {kind: string; worker: string}[];
		};
		expect(json.worker).toBe('rig-02');
		expect(json.series.length).toBeGreaterThanOrEqual(1);
		expect(json.events).toEqual([expect.objectContaining({kind: 'worker-gone', worker: 'rig-02'})]);

		const proxy = await cli(['history', sim.url], env);
		expect(proxy.stdout).toContain('workers   3 stored: rig-01, rig-02, rig-03');
		const unknown = await cli(['history', sim.url, '--worker', 'rig-09'], env);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toContain('stored: rig-01, rig-02, rig-03');
	}, 60_000);
});
