/**
 * What `rigtop config set` and `rigtop pause` do from the shell shows in a running fleet's events pane (issue 35,
 * polish): the built CLI watches two simulated miners in tmux while another rigtop process changes one and pauses the
 * other; each change is in the fleet's feed once, named by its rig, without opening the event view.
 */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {runCli} from './helpers/cli.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const TOKEN = 'fleet-feed-token-3d';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

describe('the fleet’s events pane', () => {
	it('shows the changes rigtop config set and rigtop pause make from another process', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-fleet-feed-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		const sims: Simulator[] = await Promise.all(
			['feed-one', 'feed-two'].map(async (workerId) =>
				startSimulator({dialect: '6', workerId, warm: true, token: TOKEN, restricted: false, applyDelayMs: 50}),
			),
		);
		cleanups.push(async () => {
			await Promise.all(sims.map(async (sim) => sim.stop()));
		});
		const [one, two] = sims as [Simulator, Simulator];
		// Each rig is named by its address, its worker id beside it (the fleet's row) and the address alone in the events.
		const nameOf = (sim: Simulator) => new URL(sim.url).host.replaceAll('.', '\\.');
		const env = {XDG_STATE_HOME: path.join(dir, 'state'), RIGTOP_TOKEN: TOKEN};
		const terminal = await TmuxTerminal.start(['node', CLI, one.url, two.url, '--interval', '0.5'], {cols: 120, rows: 30, env});
		cleanups.push(async () => terminal.kill());
		await terminal.waitFor((screen) => /\(feed-one\) +live/.test(screen) && /\(feed-two\) +live/.test(screen), 15_000);

		const set = await runCli(['config', 'set', 'colors=false', one.url], {env});
		expect(set.code).toBe(0);
		const changed = await terminal.waitFor(new RegExp(`${nameOf(one)} +config apply: applied 1 change: colors: true → false`), 10_000);
		expect(changed.match(/config apply: applied 1 change/g)).toHaveLength(1);

		const paused = await runCli(['pause', two.url], {env});
		expect(paused.code).toBe(0);
		const both = await terminal.waitFor(
			new RegExp(`${nameOf(two)} +batch pause \\(rigtop pid \\d+ on [^,]+, 1 rig\\): applied: paused \\(read back\\)`),
			10_000,
		);
		expect(both.match(/batch pause/g)).toHaveLength(1);
		expect(both).toMatch(/config apply: applied 1 change/);
		expect(both).not.toContain(TOKEN);
	});
});
