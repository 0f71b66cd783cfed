/**
 * One config key on many rigs from the fleet, as shipped: the built CLI in tmux watching simulated miners of several
 * dialects from a rigs file (a 6.x, a 5.x, a 2.16 whose config has no cpu section, a 6.x that is down). Every rig is
 * marked with Spaces, `c` lists each key with the values the rigs have, the config view's search finds
 * cpu.huge-pages-jit, a value typed shows each rig's diff, `y` applies (each simulator's config checked after), and `u`
 * on the results undoes it (each config checked back). Keys go as a terminal sends them: several in one read.
 */
import {execFile} from 'node:child_process';
import path from 'node:path';
import {promisify} from 'node:util';
import {describe, expect, it, vi} from 'vitest';
import {type Simulator} from '../../source/sim/simulator.js';
import {sceneForEachTest} from './helpers/scene.js';
import {CLI} from './helpers/tmux.js';

const run = promisify(execFile);
const TOKEN = 'e2e-fleet-config-token-9c';
const scene = sceneForEachTest('rigtop-fleet-config-e2e-');

/** cpu.huge-pages-jit in a simulator's config as it stands, or "missing". */
const jit = (sim: Simulator) => /"huge-pages-jit": (\w+)/.exec(sim.configText())?.[1] ?? 'missing';
const rowOf = (screen: string, name: string) => screen.split('\n').find((line) => line.includes(name)) ?? '';

describe('the fleet sets one config key on the marked rigs, in a real terminal', () => {
	it('marks every rig, sets cpu.huge-pages-jit on those that have it, and undoes it from the results', async () => {
		const {simulators, rigs} = await scene.tokenFleet(TOKEN, [
			{dialect: '6', workerId: 'c-six', seed: 41},
			{dialect: '5', workerId: 'c-five', seed: 42},
			{dialect: '2', workerId: 'c-old', seed: 43},
			{dialect: '6', workerId: 'c-gone', seed: 44},
		]);
		const [six, five, old, gone] = simulators as [Simulator, Simulator, Simulator, Simulator];
		await gone.stop();
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '-i', '1'], {
			cols: 100,
			rows: 30,
			env: {XDG_STATE_HOME: path.join(scene.dir, 'state'), XDG_CONFIG_HOME: path.join(scene.dir, 'config')},
		});
		await terminal.waitFor((screen) => /c-gone +down/.test(screen) && /c-old +live/.test(screen) && /c-five +live/.test(screen), 8000);
		expect([jit(six), jit(five), jit(old)]).toEqual(['false', 'false', 'missing']);

		// Four Spaces in one read mark every rig (each moves down), then c: the keys with each rig's values; the down rig
		// is not read.
		await terminal.send('    ', true);
		await terminal.waitFor(/4 rigs · 4 marked/);
		await terminal.send('c', true);
		const keys = await terminal.waitFor(/not read: c-gone \(down: /, 10_000);
		expect(keys).toMatch(/fleet config · 4 marked rigs/);

		// The config view's search, typed and confirmed in one read.
		await terminal.send('/huge-pages-jit\r', true);
		const found = await terminal.waitFor(/cpu\.huge-pages-jit — match 1 of 1/);
		expect(rowOf(found, '› cpu.huge-pages-jit')).toMatch(/false on 2, missing on 1/);

		// Enter edits it; Ctrl+U clears what the editor starts with, the new value and Enter follow in the same read.
		await terminal.send('\r', true);
		await terminal.waitFor(/the new value for 4 marked rigs/);
		await terminal.send('\u0015true\r', true);
		const diff = await terminal.waitFor(/cpu\.huge-pages-jit → true: changes 2 of 4 rigs · 1 lacks it · 1 unreachable/);
		expect(rowOf(diff, 'c-six')).toMatch(/c-six +cpu\.huge-pages-jit: false → true/);
		expect(rowOf(diff, 'c-five')).toMatch(/c-five +cpu\.huge-pages-jit: false → true/);
		expect(rowOf(diff, 'c-old')).toMatch(/c-old +lacks cpu\.huge-pages-jit/);
		expect(rowOf(diff, 'c-gone')).toMatch(/c-gone +unreachable: down: /);
		// Nothing is sent before y.
		expect([jit(six), jit(five)]).toEqual(['false', 'false']);

		await terminal.send('y', true);
		// The results, and u once the batch's undo records are kept.
		const applied = await terminal.waitFor(
			(screen) => /cpu\.huge-pages-jit → true on 4 rigs: 2 applied · 1 failed · 1 unreachable/.test(screen) && /u undo/.test(screen),
			15_000,
		);
		expect(rowOf(applied, 'c-six')).toMatch(/✓ c-six +cpu\.huge-pages-jit: false → true \(read back\)/);
		expect(rowOf(applied, 'c-five')).toMatch(/✓ c-five +cpu\.huge-pages-jit: false → true \(read back\)/);
		expect(rowOf(applied, 'c-old')).toMatch(/✗ c-old +failed: lacks cpu\.huge-pages-jit/);
		expect(rowOf(applied, 'c-gone')).toMatch(/- c-gone +unreachable: down: /);
		expect([jit(six), jit(five), jit(old)]).toEqual(['true', 'true', 'missing']);

		// u asks, y undoes: each rig's own backup, each with its own conflict check.
		await terminal.send('u', true);
		await terminal.waitFor(/undo on 2 rigs \(each backup put back, unless its config changed since\)\? y\/n/);
		await terminal.send('y', true);
		await terminal.waitFor(/undo on 2 rigs: 2 put back/, 15_000);
		expect([jit(six), jit(five), jit(old)]).toEqual(['false', 'false', 'missing']);

		// Esc closes the results (the rigs read again: the values as they are now), Esc again: the fleet, marks kept.
		await terminal.send('Escape');
		await terminal.waitFor((screen) => /fleet config/.test(screen) && /not read: c-gone/.test(screen), 10_000);
		await terminal.send('Escape');
		await terminal.waitFor(/4 rigs · 4 marked/);

		// Each rig written to has the batch and its undo in its history, read by another rigtop process.
		await vi.waitFor(
			async () => {
				const {stdout} = await run('node', [CLI, 'history', six.url], {
					env: {...process.env, XDG_STATE_HOME: path.join(scene.dir, 'state')},
					timeout: 20_000,
				});
				expect(stdout).toMatch(
					/batch config set cpu\.huge-pages-jit \(rigtop pid \d+ on [^,]+, 4 rigs\): cpu\.huge-pages-jit: false → true/,
				);
				expect(stdout).toMatch(/batch config undo \(rigtop pid \d+ on [^,]+, 2 rigs\): cpu\.huge-pages-jit: true → false/);
			},
			{timeout: 15_000, interval: 1000},
		);
	});
});
