/**
 * The fleet's screens keep the same rules as the others, the built CLI in tmux against simulated miners from a rigs
 * file: a filter the last run left that hides rigs is said at start, and a rig down that it hides is counted in the
 * header; in the fleet config view q goes back to the fleet as in the config view (asking first over a diff not
 * applied), and does not quit rigtop.
 */
import {mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import type {Simulator} from '../../source/sim/simulator.js';
import {sceneForEachTest} from './helpers/scene.js';
import {CLI} from './helpers/tmux.js';

const scene = sceneForEachTest('rigtop-fleet-consistency-e2e-');
const TOKEN = 'consistency-token-7';

const envOf = () => ({XDG_STATE_HOME: path.join(scene.dir, 'state'), XDG_CONFIG_HOME: path.join(scene.dir, 'config')});

describe('the fleet in a real terminal', () => {
	it('a filter from the last run: said at start while it hides rigs, the down rig it hides counted in the header', async () => {
		const {simulators, rigs} = await scene.tokenFleet(TOKEN, [
			{dialect: '6', workerId: 'box-one', seed: 51},
			{dialect: '6', workerId: 'box-two', seed: 52},
			{dialect: '6', workerId: 'box-three', seed: 53},
		]);
		await (simulators[2] as Simulator).stop();
		const env = envOf();
		await mkdir(path.join(env.XDG_STATE_HOME, 'rigtop'), {recursive: true});
		await writeFile(
			path.join(env.XDG_STATE_HOME, 'rigtop', 'prefs.json'),
			JSON.stringify({fleet: {sort: 'listed', reversed: false, filter: 'one'}}),
		);
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '-i', '1'], {cols: 80, rows: 24, env});
		const first = await terminal.waitFor((screen) => /1 down \(1 hidden\)/.test(screen) && /box-one +live/.test(screen), 8000);
		expect(first).toContain('filter /one from last time hides 2 of 3 rigs · Esc clears');
		expect(first).not.toMatch(/box-three/);
		// Any key ends the notice; Esc clears the filter and the down rig is listed.
		await terminal.send('jk', true);
		await terminal.waitFor((screen) => /\/one 1 of 3/.test(screen) && !screen.includes('from last time'));
		await terminal.send('Escape');
		const all = await terminal.waitFor((screen) => /box-three +down/.test(screen));
		expect(all.split('\n')[0]).toMatch(/● 2 live · 1 down$/);
	});

	it('fleet config view: q goes back to the fleet; over a diff not applied it asks first', async () => {
		const {rigs} = await scene.tokenFleet(TOKEN, [
			{dialect: '6', workerId: 'q-one', seed: 61},
			{dialect: '6', workerId: 'q-two', seed: 62},
		]);
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '-i', '1'], {cols: 80, rows: 24, env: envOf()});
		await terminal.waitFor((screen) => /● 2 live/.test(screen), 8000);
		await terminal.send('  c', true);
		const keys = await terminal.waitFor(/2 rigs read/, 10_000);
		expect(keys.split('\n').find((line) => line.includes('Esc back'))).not.toContain('q quit');
		// q from the keys' list: back to the fleet, the marks kept (rigtop still runs).
		await terminal.send('q', true);
		await terminal.waitFor(/2 rigs · 2 marked/);
		// Again, a value typed and its diff shown; q asks, n stays, q and y go back.
		await terminal.send('c', true);
		await terminal.waitFor(/2 rigs read/, 10_000);
		await terminal.send('/jit', true);
		await terminal.send('Enter');
		await terminal.send('Enter');
		await terminal.send('C-u');
		await terminal.send('true', true);
		await terminal.send('Enter');
		await terminal.waitFor(/cpu\.huge-pages-jit → true: changes \d of 2 rigs/);
		await terminal.send('q', true);
		await terminal.waitFor(/back to the fleet without applying cpu\.huge-pages-jit → true to 2 rigs\? y\/n/);
		await terminal.send('n', true);
		await terminal.waitFor(
			(screen) => /cpu\.huge-pages-jit → true: changes \d of 2 rigs/.test(screen) && !screen.includes('without applying'),
		);
		await terminal.send('qy', true);
		await terminal.waitFor(/2 rigs · 2 marked/);
	});
});
