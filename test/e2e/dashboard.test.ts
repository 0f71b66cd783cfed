import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

let terminal: TmuxTerminal | null = null;
let simulator: Simulator | null = null;

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
	await simulator?.stop();
	simulator = null;
});

describe('the live dashboard in a real terminal', () => {
	it('shows the simulated 6.x worker within 3 s, rides out the miner stopping and restarting, and q exits cleanly', async () => {
		simulator = await startSimulator({dialect: '6', warm: true, workerId: 'e2e-rig-six', threads: 4});
		terminal = await TmuxTerminal.start(['node', CLI, simulator.url, '--interval', '0.5'], {cols: 80, rows: 24});

		const first = await terminal.waitFor(
			(screen) => screen.includes('e2e-rig-six') && screen.includes('6.26.0') && /kH\/s|H\/s/.test(screen),
			3000,
		);
		expect(first).toMatch(/live/);
		// Never taller than the terminal: the first row is the header, not scrolled away.
		expect(first.split('\n')[0]).toContain('rigtop');

		await simulator.stop();
		const down = await terminal.waitFor(/stale|down/, 8000);
		expect(down).toContain('e2e-rig-six'); // the last values stay on screen

		await simulator.start();
		await terminal.waitFor((screen) => /live/.test(screen) && !/down since/.test(screen), 15_000);

		await terminal.send('q', true);
		const after = await terminal.waitFor('[exit 0]', 5000);
		expect(after).toContain('[exit 0]');
	});

	it('shows a 2.x miner (/1/summary + /1/threads) with its per-thread rates', async () => {
		simulator = await startSimulator({dialect: '2', warm: true, workerId: 'e2e-rig-two', threads: 3});
		terminal = await TmuxTerminal.start(['node', CLI, simulator.url, '-i', '0.5'], {cols: 100, rows: 30});
		const screen = await terminal.waitFor((text) => text.includes('e2e-rig-two') && text.includes('2.16.0'), 3000);
		expect(screen).toMatch(/Threads/i);
		await terminal.send('C-c');
		await terminal.waitFor(/\[exit \d+\]/, 5000);
	});

	it('--demo starts the simulated miner and shows it live', async () => {
		terminal = await TmuxTerminal.start(['node', CLI, '--demo', '-i', '0.5'], {cols: 80, rows: 24});
		const screen = await terminal.waitFor((text) => text.includes('demo-rig') && /live/.test(text), 5000);
		expect(screen).toMatch(/kH\/s/);
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});
});
