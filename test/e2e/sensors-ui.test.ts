/**
 * Issue 28 in a real terminal: the built CLI watching simulated miners on loopback (so on this machine) with
 * RIGTOP_SYSFS set to a test tree shows the readings in the dashboard's System pane and in the fleet's columns, at
 * 80×24 and 200×50.
 */
import path from 'node:path';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const TREES = path.resolve('test/fixtures/sysfs');
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

/** The System pane's lines: the right half of the rows under its top edge, down to its bottom edge. */
function systemLines(screen: string): string[] {
	const lines = screen.split('\n');
	const top = lines.findIndex((line) => line.includes('╭ System'));
	const left = lines[top]?.indexOf('╭ System') ?? 0;
	const out: string[] = [];
	for (const line of lines.slice(top + 1)) {
		const part = line.slice(left);
		if (part.startsWith('╰')) break;
		out.push(part.replace(/^│ ?|\s*│$/gu, '').trimEnd());
	}

	return out;
}

describe('the rig readings on screen', () => {
	it('the dashboard of a two-package coretemp rig: the hottest package at 80×24, both and the clock at 200×50', async () => {
		const sim = await startSimulator({warm: true, threads: 4, workerId: 'sensor-rig'});
		simulators.push(sim);
		terminal = await TmuxTerminal.start(['node', CLI, sim.url], {
			cols: 80,
			rows: 24,
			env: {RIGTOP_SYSFS: path.join(TREES, 'coretemp-2pkg'), NO_COLOR: '1'},
		});
		const narrow = await terminal.waitFor((screen) => /°C/u.test(screen) && screen.includes('╭ System'), 10_000);
		const lines = systemLines(narrow);
		expect(lines[1]).toMatch(/^pkg1 58°C \/ max 84°C( · — W · — H\/W)?$/u);
		expect(lines[2]).toMatch(/^hugepages /u);
		// The frame still fits: the header on the first row, the threads pane under the System pane.
		expect(narrow.split('\n')[0]).toMatch(/^ rigtop {2}127\.0\.0\.1:\d+ \(sensor-rig\) /u);
		expect(narrow).toMatch(/╭ Threads 4/u);

		await terminal.resize(200, 50);
		const wide = await terminal.waitFor((screen) => /GHz/u.test(screen), 10_000);
		const wideLines = systemLines(wide);
		expect(wideLines[1]).toMatch(/^pkg0 55°C \/ max 84°C · Core \d+ \d+°C · pkg1 58°C \/ max 84°C · Core \d+ \d+°C$/u);
		expect(wideLines[2]).toMatch(/^\d\.\d\d \/ 3\.70 GHz/u);
	});

	it('the fleet of two local miners: °C, H/W and W columns at 200×50, °C kept at 80×24, and s sorts by °C', async () => {
		simulators = await Promise.all([
			startSimulator({warm: true, threads: 2, workerId: 'local-a', seed: 31}),
			startSimulator({warm: true, threads: 2, workerId: 'local-b', seed: 32}),
		]);
		const [a, b] = simulators;
		terminal = await TmuxTerminal.start(['node', CLI, a!.url, b!.url], {
			cols: 200,
			rows: 50,
			env: {RIGTOP_SYSFS: path.join(TREES, 'k10temp-tccd'), NO_COLOR: '1'},
		});
		const wide = await terminal.waitFor(
			(screen) => /:\d+ \(local-a\) .*71°C/u.test(screen) && /:\d+ \(local-b\) .*71°C/u.test(screen),
			10_000,
		);
		const headings = wide.split('\n')[1] ?? '';
		expect(headings).toMatch(/°C +H\/W +W /u);

		await terminal.resize(80, 24);
		const narrow = await terminal.waitFor(
			(screen) => (screen.split('\n')[1] ?? '').length <= 80 && /°C/u.test(screen.split('\n')[1] ?? ''),
			10_000,
		);
		expect(narrow.split('\n')[1]).toMatch(/°C/u);
		// s past state, 10s, 15m, rejects and uptime: by °C, hottest first, said in the title and the heading.
		await terminal.send('ssssss', true);
		const sorted = await terminal.waitFor((screen) => screen.includes('°C▼'), 10_000);
		expect(sorted.split('\n')[0]).toContain('by °C');
	});
});
