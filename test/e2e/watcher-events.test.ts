/**
 * Two rigtops on one rig and one history store, as a tester ran them: A with the right token, B with a wrong one, both
 * the built CLI in tmux. B's refused token is B's own trouble: A's events pane and `rigtop history` never show it, the
 * rig's outage (the simulator stopped and started again on its port) is told from the rig's own down, and B still
 * shows its own error.
 */
import path from 'node:path';
import {describe, expect, it, vi} from 'vitest';
import {runCli} from './helpers/cli.js';
import {sceneForEachTest} from './helpers/scene.js';
import {CLI} from './helpers/tmux.js';

const scene = sceneForEachTest('rigtop-watcher-e2e-');
const RIGHT = 'e2e-watcher-right-7f';
const FORBIDDEN = 'error: forbidden (HTTP 403)';

describe("another rigtop's wrong token is not the rig's trouble, in real terminals", () => {
	it("A never shows B's 403, its outage spans from the rig's down, and B shows its own error", async () => {
		const [sim] = await scene.simulate([{dialect: '6', warm: true, workerId: 'w-rig', token: RIGHT, restricted: false}]);
		if (!sim) throw new Error('no simulator');
		const state = path.join(scene.dir, 'state');
		const env = (token: string) => ({XDG_STATE_HOME: state, XDG_CONFIG_HOME: path.join(scene.dir, 'config'), RIGTOP_TOKEN: token});
		const a = await scene.start(['node', CLI, sim.url, '-i', '0.5'], {cols: 100, rows: 30, env: env(RIGHT)});
		await a.waitFor(/w-rig/, 10_000);
		const b = await scene.start(['node', CLI, sim.url, '-i', '0.5'], {cols: 100, rows: 30, env: env('a-wrong-token-99')});
		await b.waitFor(/forbidden \(HTTP 403\)/, 10_000);
		// B's event view (it never read the rig: its events are all it has) lists its own error.
		await b.send('e', true);
		await b.waitFor((screen) => screen.includes(FORBIDDEN), 10_000);

		await sim.stop();
		// A itself down (its title bar), not only B's stored down in A's pane: only then does A log the 'up' it ends with.
		await a.waitFor(/● down/, 15_000);
		await sim.start();
		await a.waitFor(/● live/, 15_000);
		// What another process reads later: the rig's outage, no sign of B.
		await vi.waitFor(
			async () => {
				const history = await runCli(['history', sim.url, '--since', '10m'], {env: env(RIGHT)});
				expect(history.code).toBe(0);
				expect(history.stdout).toMatch(/down: connection refused/);
				expect(history.stdout).toMatch(/back up after \d+s/);
				expect(history.stdout).not.toContain('forbidden');
			},
			{timeout: 15_000, interval: 1000},
		);
		// A's event view: the rig's outage from its own down, no sign of B.
		await a.send('e', true);
		const view = await a.waitFor(/back up · down \S+, \d+s/, 15_000);
		expect(view).toMatch(/down: connection refused/);
		expect(view).not.toContain('forbidden');
		// B saw the rig's outage too (stored once), is refused again once the rig is back, and keeps showing its own error.
		await b.waitFor((screen) => screen.split(FORBIDDEN).length === 3 && /down: /.test(screen), 15_000);
		expect(await a.screen()).not.toContain('forbidden');
	}, 90_000);
});
