/**
 * Esc and the key after it in one read (issue 35, item 4): a terminal sends `Escape c` typed fast — or tmux's
 * `send-keys Escape c`, one write — as ESC c, which Ink reads as Alt+c. rigtop binds no Alt+key: it is Esc, then c,
 * in order, on every screen, as htop and k9s users expect. Written here as one literal write (`send-keys -l`), the
 * same two bytes in one read.
 */
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

let terminal: TmuxTerminal | null = null;
let simulators: Simulator[] = [];

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
	await Promise.all(simulators.map(async (sim) => sim.stop()));
	simulators = [];
});

const ESC = '\u001B';
/** The config view's tree is on screen (its first section). */
const CONFIG = /› ▸ api/;
/** The dashboard is on screen. */
const DASHBOARD = /╭ Threads/;

describe('Esc then a key, in one read', () => {
	for (const [cols, rows] of [
		[80, 24],
		[200, 50],
	] as const) {
		it(`at ${cols}×${rows}: Esc Esc in the config view's help closes it and leaves; Esc c from the chart opens the config view; Esc g from the events opens the chart`, async () => {
			const sim = await startSimulator({dialect: '6', warm: true, token: 'esc-token', restricted: false, workerId: 'esc-rig'});
			simulators = [sim];
			terminal = await TmuxTerminal.start(['node', CLI, sim.url, '-i', '1', '--no-history'], {
				cols,
				rows,
				env: {RIGTOP_TOKEN: 'esc-token'},
			});
			await terminal.waitFor((screen) => screen.includes('esc-rig') && /live/.test(screen) && DASHBOARD.test(screen), 8000);

			// The config view, its help over it: Esc closes the help, the second Esc leaves the view.
			await terminal.send('c', true);
			await terminal.waitFor(CONFIG, 5000);
			await terminal.send('?', true);
			await terminal.waitFor('Config view keys', 3000);
			await terminal.send(`${ESC}${ESC}`, true);
			const dashboard = await terminal.waitFor((screen) => DASHBOARD.test(screen) && !screen.includes('Config view keys'), 3000);
			expect(dashboard).not.toMatch(CONFIG);

			// The chart: Esc goes back to the dashboard, c opens the config view.
			await terminal.send('g', true);
			await terminal.waitFor(`${new URL(sim.url).host} · last`, 3000);
			await terminal.send(`${ESC}c`, true);
			const config = await terminal.waitFor(CONFIG, 3000);
			expect(config).not.toContain(`${new URL(sim.url).host} · last`);
			await terminal.send('q', true);
			await terminal.waitFor(DASHBOARD, 3000);

			// The events: Esc goes back to the dashboard, g opens the chart.
			await terminal.send('e', true);
			await terminal.waitFor(`${new URL(sim.url).host} (esc-rig) · events`, 3000);
			await terminal.send(`${ESC}g`, true);
			await terminal.waitFor(`${new URL(sim.url).host} · last`, 3000);
			// Esc then an arrow in one read: back to the dashboard, the arrow scrolls its threads; rigtop still runs.
			await terminal.send(`${ESC}${ESC}[B`, true);
			await terminal.waitFor(DASHBOARD, 3000);
			await terminal.send('qq', true);
			await terminal.waitFor('[exit 0]', 5000);
		});
	}
});
