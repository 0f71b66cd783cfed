/**
 * The config view in a real terminal: the built CLI against the simulated 6.x miner (token via
 * RIGTOP_TOKEN, restricted off, the miner applies a PUT ~0.5 s after answering it). Open the config,
 * search `colors`, Space, `w`, `y`: the simulator's document differs in exactly that key and the
 * screen says applied; `u`, `y` puts the exact original text back. The token never shows.
 */
import {existsSync, mkdirSync, readdirSync, statSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {tempDir} from '../config/helpers/fixtures.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const TOKEN = 'e2e-config-token-5d1e';

let terminal: TmuxTerminal | null = null;
let simulator: Simulator | null = null;
let state: ReturnType<typeof tempDir> | null = null;

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
	await simulator?.stop();
	simulator = null;
	state?.remove();
	state = null;
});

/** The lines of two texts that differ (same line count expected). */
function changedLines(before: string, after: string): string[] {
	const old = before.split('\n');
	return after.split('\n').filter((line, index) => line !== old[index]);
}

describe('the config view in a real terminal', () => {
	it('c, / colors, Space, w, y: applied in that key only; u, y: the original text is back', async () => {
		simulator = await startSimulator({dialect: '6', warm: true, token: TOKEN, restricted: false, workerId: 'e2e-config', threads: 4});
		state = tempDir('rigtop-e2e-state-');
		const original = simulator.configText();
		expect(original).toContain('"colors": true');
		terminal = await TmuxTerminal.start(['node', CLI, simulator.url, '--interval', '1'], {
			cols: 80,
			rows: 24,
			env: {RIGTOP_TOKEN: TOKEN, XDG_STATE_HOME: state.dir},
		});
		const screens: string[] = [];
		const see = async (expected: string | RegExp | ((screen: string) => boolean), timeoutMs = 8000) => {
			const screen = await terminal!.waitFor(expected, timeoutMs);
			screens.push(screen);
			return screen;
		};

		await see((screen) => screen.includes('e2e-config') && /live/.test(screen), 5000);
		await terminal.send('c', true);
		await see('▸ cpu');

		await terminal.send('/', true);
		await see('/▏');
		await terminal.send('colors', true);
		await see('/colors▏');
		await terminal.send('Enter');
		await see(/› +colors +true/);

		await terminal.send('Space');
		await see(/● colors +false +\(was true\)/);
		await terminal.send('w', true);
		await see('y apply · n cancel');
		await terminal.send('y', true);
		const applied = await see(/applied 1 change/, 10_000);
		expect(applied).toContain('✓ colors: true → false  applied');

		const after = simulator.configText();
		expect(after).not.toBe(original);
		expect(changedLines(original, after)).toEqual(['    "colors": false,']);
		expect(after).toBe(original.replace('"colors": true', '"colors": false'));
		const backups = readdirSync(path.join(state.dir, 'rigtop', 'backups')).filter((name) => name.endsWith('.json'));
		expect(backups).toHaveLength(1);
		expect(statSync(path.join(state.dir, 'rigtop', 'backups', backups[0]!)).mode & 0o777).toBe(0o600);

		await terminal.send('Escape');
		await see('✓ applied');
		await terminal.send('u', true);
		await see('Undo the last apply?');
		await terminal.send('y', true);
		await see(/Undo: applied 1 change/, 10_000);
		expect(simulator.configText()).toBe(original);

		// Back to the dashboard with q (the view's own key), then open it again: the config as it is now,
		// no old result; u still offers to take back the last action (here the undo: a redo), asking first;
		// ? shows its keys, q leaves it; then quit cleanly.
		await terminal.send('q', true);
		await see((screen) => screen.includes('e2e-config') && !screen.includes('· config'));
		await terminal.send('c', true);
		const reopened = await see((screen) => screen.includes('▸ cpu') && screen.includes('no changes'));
		expect(reopened).not.toContain('Undo: applied');
		expect(reopened).toContain('u undo');
		await terminal.send('u', true);
		await see('Redo the change the undo reverted?');
		await terminal.send('n', true);
		await see((screen) => screen.includes('▸ cpu') && !screen.includes('Redo the change'));
		expect(simulator.configText()).toBe(original);
		await terminal.send('?', true);
		await see('Config view keys');
		await terminal.send('q', true);
		await see((screen) => screen.includes('e2e-config') && !screen.includes('· config') && !screen.includes('Config view keys'));
		await terminal.send('q', true);
		await see('[exit 0]', 5000);

		for (const screen of screens) expect(screen).not.toContain(TOKEN);
	});

	it('x with two pending changes asks first: n keeps them, y discards them; the miner is untouched', async () => {
		simulator = await startSimulator({dialect: '6', warm: true, token: TOKEN, restricted: false, workerId: 'e2e-discard', threads: 4});
		state = tempDir('rigtop-e2e-state-');
		const original = simulator.configText();
		terminal = await TmuxTerminal.start(['node', CLI, simulator.url, '--interval', '1'], {
			cols: 80,
			rows: 24,
			env: {RIGTOP_TOKEN: TOKEN, XDG_STATE_HOME: state.dir},
		});
		await terminal.waitFor((screen) => screen.includes('e2e-discard') && /live/.test(screen), 5000);
		await terminal.send('c', true);
		await terminal.waitFor('▸ cpu');
		await terminal.send('/colors', true);
		await terminal.waitFor('/colors▏');
		await terminal.send('Enter');
		await terminal.waitFor(/› +colors +true/);
		await terminal.send(' /background', true);
		await terminal.waitFor('/background▏');
		await terminal.send('Enter');
		await terminal.waitFor(/› +background +false/);
		await terminal.send('Space');
		await terminal.waitFor(/● background +true +\(was false\)/);

		await terminal.send('x', true);
		const asked = await terminal.waitFor('Discard 2 pending changes?');
		expect(asked).toContain('y discard · n keep them');
		expect(asked).toContain('colors: true → false');
		await terminal.send('n', true);
		const kept = await terminal.waitFor((screen) => !screen.includes('Discard 2 pending') && screen.includes('▸ cpu'));
		expect(kept).toMatch(/● background +true +\(was false\)/);

		await terminal.send('xy', true);
		const discarded = await terminal.waitFor('discarded 2 pending changes');
		expect(discarded).toMatch(/ background +false/);
		expect(discarded).not.toContain('(was ');
		expect(simulator.configText()).toBe(original);
		await terminal.send('q', true);
		await terminal.waitFor((screen) => screen.includes('e2e-discard') && !screen.includes('· config'));
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
	});

	it("--demo keeps its backups in a temporary folder of its own, removed when it quits; the user's backups stay empty", async () => {
		state = tempDir('rigtop-e2e-state-');
		const temp = path.join(state.dir, 'tmp');
		mkdirSync(temp);
		const xdgState = path.join(state.dir, 'state');
		terminal = await TmuxTerminal.start(['node', CLI, '--demo', '--interval', '1'], {
			cols: 80,
			rows: 24,
			env: {XDG_STATE_HOME: xdgState, TMPDIR: temp},
		});
		await terminal.waitFor((screen) => screen.includes('demo-rig') && /live/.test(screen), 8000);
		await terminal.send('c', true);
		await terminal.waitFor('▸ cpu', 8000);
		await terminal.send('/colors', true);
		await terminal.send('Enter');
		await terminal.waitFor(/› +colors +true/, 5000);
		// Space and w typed fast: one read.
		await terminal.send(' w', true);
		await terminal.waitFor('y apply · n cancel', 5000);
		await terminal.send('y', true);
		await terminal.waitFor(/applied 1 change/, 10_000);

		// The backup is in the demo's own folder, not in the user's state folder.
		const demoDirs = readdirSync(temp).filter((name) => name.startsWith('rigtop-demo-'));
		expect(demoDirs).toHaveLength(1);
		expect(readdirSync(path.join(temp, demoDirs[0]!, 'backups')).filter((name) => name.endsWith('.json'))).toHaveLength(1);
		expect(existsSync(path.join(xdgState, 'rigtop', 'backups'))).toBe(false);

		await terminal.send('Escape');
		await terminal.waitFor('✓ applied', 5000);
		await terminal.send('Escape');
		await terminal.waitFor((screen) => screen.includes('demo-rig') && !screen.includes('· config'), 5000);
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
		expect(readdirSync(temp)).toEqual([]);
		expect(existsSync(path.join(xdgState, 'rigtop', 'backups'))).toBe(false);
	});
});
