/**
 * A real drop the miner's own windows hide (issue 22): `rigtop config set 'cpu.rx=[0]'` from a shell cuts the
 * simulated miner from four threads to one and XMRig starts its hashrate windows again; the dashboards watching it —
 * one with history, one with --no-history — show the drop in their events.
 */
import {execFile} from 'node:child_process';
import {promisify} from 'node:util';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const run = promisify(execFile);
const TOKEN = 'e2e-drop-token';
const terminals: TmuxTerminal[] = [];
let simulator: Simulator | null = null;

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	for (const terminal of terminals.splice(0)) await terminal.kill();
	await simulator?.stop();
	simulator = null;
});

const dropLine = /hashrate down to \d\.\d\d kH\/s, 2\d\.\d% of the 1h average \(\d\.\d\d kH\/s\)/;

describe('a drop after a config change', () => {
	it('cpu.rx=[0] set from the shell: both dashboards (history, --no-history) show the drop within 30 s', async () => {
		simulator = await startSimulator({dialect: '6', warm: true, token: TOKEN, restricted: false, workerId: 'e2e-drop', threads: 4});
		const sim = simulator;
		for (const extra of [[], ['--no-history']]) {
			terminals.push(
				await TmuxTerminal.start(['node', CLI, sim.url, '--interval', '0.5', ...extra], {cols: 100, rows: 30, env: {RIGTOP_TOKEN: TOKEN}}),
			);
		}

		for (const terminal of terminals) await terminal.waitFor((screen) => screen.includes('e2e-drop') && /● live/.test(screen), 5000);
		// Past the first seconds of the sessions (15 s are never judged), with some polls of the rate before.
		await new Promise((resolve) => setTimeout(resolve, 19_000));
		for (const terminal of terminals) expect(await terminal.screen()).not.toContain('hashrate down');

		const {stdout} = await run(process.execPath, [CLI, 'config', 'set', 'cpu.rx=[0]', sim.url], {
			env: {...process.env, RIGTOP_TOKEN: TOKEN},
		});
		expect(stdout).toContain('cpu.rx: [0,1,2,3] → [0]  applied');
		const cutAt = Date.now();
		for (const terminal of terminals) {
			const screen = await terminal.waitFor(dropLine, Math.max(1000, cutAt + 30_000 - Date.now()));
			expect(screen).toContain('e2e-drop');
		}
	}, 70_000);
});
