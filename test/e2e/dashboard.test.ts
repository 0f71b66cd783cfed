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

	it('p asks before pausing: n leaves the miner mining, y pauses it; r resumes without asking', async () => {
		simulator = await startSimulator({dialect: '6', warm: true, workerId: 'e2e-pause', token: 'e2e-pause-token', restricted: false});
		terminal = await TmuxTerminal.start(['node', CLI, simulator.url, '-i', '0.5', '--no-history'], {
			cols: 80,
			rows: 24,
			env: {RIGTOP_TOKEN: 'e2e-pause-token'},
		});
		await terminal.waitFor((screen) => screen.includes('e2e-pause') && /● live/.test(screen), 5000);
		await terminal.send('p', true);
		// The rig is named by its address (its worker id, e2e-pause, beside it in the title).
		await terminal.waitFor(`Pause mining on 127.0.0.1:${simulator.port}? y pause · n or any other key: no`);
		await terminal.send('n', true);
		await terminal.waitFor('not paused: mining goes on');
		await new Promise((resolve) => setTimeout(resolve, 1200));
		expect(await terminal.screen()).not.toContain('PAUSED');
		await terminal.send('p', true);
		await terminal.waitFor(`Pause mining on 127.0.0.1:${simulator.port}?`);
		await terminal.send('y', true);
		await terminal.waitFor('● PAUSED', 5000);
		await terminal.send('r', true);
		await terminal.waitFor((screen) => /● live/.test(screen) && !screen.includes('PAUSED'), 5000);
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});

	it('s sorts the threads by 10s, slowest on top, the column marked; I reverses it', async () => {
		simulator = await startSimulator({dialect: '6', warm: true, workerId: 'e2e-sort', threads: 8});
		terminal = await TmuxTerminal.start(['node', CLI, simulator.url, '-i', '0.5', '--no-history'], {cols: 80, rows: 30});
		await terminal.waitFor((screen) => screen.includes('e2e-sort') && screen.includes('Threads 8'), 5000);
		/** The 10s column of the threads table, top to bottom, and the thread numbers. */
		const rows = (screen: string) => {
			const lines = screen.split('\n');
			const header = lines.findIndex((line) => /#\s+10s/u.test(line));
			return lines
				.slice(header + 1)
				.map((line) => /^│\s+(\d+)\s+([\d.]+)\s/u.exec(line))
				.filter((match) => match !== null)
				.map((match) => ({thread: Number(match[1]), rate: Number(match[2])}));
		};

		await terminal.send('s', true);
		const ascending = await terminal.waitFor((screen) => screen.includes('10s▲') && rows(screen).length === 8, 5000);
		expect(ascending).toContain('by 10s, lowest first');
		const up = rows(ascending).map((row) => row.rate);
		expect(up).toEqual(up.toSorted((a, b) => a - b));
		await terminal.send('I', true);
		const descending = await terminal.waitFor((screen) => screen.includes('10s▼') && rows(screen).length === 8, 5000);
		const down = rows(descending).map((row) => row.rate);
		expect(down).toEqual(down.toSorted((a, b) => b - a));
		expect(new Set(rows(descending).map((row) => row.thread))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7]));
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});

	it('+ makes the poll interval longer and - shorter, shown in the header; F10 quits', async () => {
		simulator = await startSimulator({dialect: '6', warm: true, workerId: 'e2e-interval'});
		// Wide enough for the title whole (127.0.0.1:PORT (e2e-interval) · XMRig …): the default interval gives way to it.
		terminal = await TmuxTerminal.start(['node', CLI, simulator.url, '-i', '2', '--no-history'], {cols: 120, rows: 30});
		await terminal.waitFor((screen) => screen.includes('(e2e-interval)') && screen.includes('every 2s'), 5000);
		await terminal.send('+', true);
		await terminal.waitFor('every 3s');
		// Two steps typed fast: one read.
		await terminal.send('--', true);
		await terminal.waitFor('every 1s');
		await terminal.send('F10');
		await terminal.waitFor('[exit 0]', 5000);
	});

	it('too small a terminal says so and what it needs; made larger, the dashboard is there', async () => {
		simulator = await startSimulator({dialect: '6', warm: true, workerId: 'e2e-small'});
		terminal = await TmuxTerminal.start(['node', CLI, simulator.url, '-i', '0.5', '--no-history'], {cols: 40, rows: 12});
		const small = await terminal.waitFor('terminal too small — need 50×10', 5000);
		expect(small).toContain('this one is 40×12');
		expect(small).not.toContain('Hashrate');
		await terminal.resize(60, 20);
		const stacked = await terminal.waitFor((screen) => screen.includes('╭ Hashrate') && screen.includes('╭ Pool'), 5000);
		// Stacked in one column: the Pool pane is under the Hashrate pane, each the full width.
		const lines = stacked.split('\n');
		const hashrate = lines.findIndex((line) => line.startsWith('╭ Hashrate'));
		const pool = lines.findIndex((line) => line.startsWith('╭ Pool'));
		expect(pool).toBeGreaterThan(hashrate);
		expect(lines[hashrate]?.trimEnd()).toHaveLength(60);
		await terminal.resize(40, 12);
		await terminal.waitFor('terminal too small', 5000);
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});
});
