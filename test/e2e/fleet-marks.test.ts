/**
 * The fleet's marks and its pause batch as shipped: the built CLI in tmux watching four simulated miners from a rigs
 * file (two 6.x, a 2.14, one stopped). Two rigs are marked with Spaces sent in one chunk, p asks, y pauses them: the
 * per-rig result list shows, the simulators are paused, and another rigtop process reads the batch's events from the
 * history.
 */
import {execFile} from 'node:child_process';
import path from 'node:path';
import {promisify} from 'node:util';
import {describe, expect, it, vi} from 'vitest';
import {type Simulator} from '../../source/sim/simulator.js';
import {sceneForEachTest} from './helpers/scene.js';
import {CLI} from './helpers/tmux.js';

const run = promisify(execFile);
const TOKEN = 'e2e-marks-token-4d';
const scene = sceneForEachTest('rigtop-marks-e2e-');

async function paused(sim: Simulator): Promise<boolean> {
	const response = await fetch(`${sim.url}/2/summary`, {headers: {authorization: `Bearer ${TOKEN}`}});
	return ((await response.json()) as {paused: boolean}).paused;
}

const rowOf = (screen: string, name: string) => screen.split('\n').find((line) => line.includes(name)) ?? '';

describe('the fleet marks rigs and pauses them, in a real terminal', () => {
	it('marks two of four rigs with Spaces in one chunk, pauses them after one question, lists each rig’s result', async () => {
		const {simulators, rigs} = await scene.tokenFleet(TOKEN, [
			{dialect: '6', workerId: 'm-one', seed: 31},
			{dialect: '6', workerId: 'm-two', seed: 32},
			{dialect: '2.14', workerId: 'm-old', seed: 33},
			{dialect: '6', workerId: 'm-gone', seed: 34},
		]);
		const [one, two, old, gone] = simulators as [Simulator, Simulator, Simulator, Simulator];
		await gone.stop();
		const state = path.join(scene.dir, 'state');
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '-i', '1'], {
			cols: 100,
			rows: 30,
			env: {XDG_STATE_HOME: state, XDG_CONFIG_HOME: path.join(scene.dir, 'config')},
		});
		await terminal.waitFor((screen) => /m-gone +down/.test(screen) && /m-old +live/.test(screen), 8000);

		// Two Spaces in one read: the first two rigs marked, the selection on the third.
		await terminal.send('  ', true);
		const marked = await terminal.waitFor(/4 rigs · 2 marked/);
		expect(rowOf(marked, 'm-one')).toMatch(/^ \* m-one/);
		expect(rowOf(marked, 'm-two')).toMatch(/^ \* m-two/);
		expect(rowOf(marked, 'm-old')).toMatch(/^▸ {2}m-old/);

		await terminal.send('p', true);
		const question = await terminal.waitFor(/pause 2 rigs: m-one, m-two/);
		expect(question).toMatch(/y yes/);
		await terminal.send('y', true);
		const results = await terminal.waitFor(/pause 2 rigs: 2 paused/, 10_000);
		expect(rowOf(results, 'm-one')).toMatch(/✓ m-one +paused \(read back\)/);
		expect(rowOf(results, 'm-two')).toMatch(/✓ m-two +paused \(read back\)/);
		expect(results).toMatch(/Esc close/);
		expect(await paused(one)).toBe(true);
		expect(await paused(two)).toBe(true);
		// The unmarked 2.14 was sent nothing.
		expect(old.requests.filter((request) => request.method === 'POST')).toEqual([]);

		// Esc back to the rigs: the marks stay, the rigs read PAUSED.
		await terminal.send('Escape');
		await terminal.waitFor((screen) => /\* m-one +PAUSED/.test(screen) && /2 marked/.test(screen), 8000);

		// Another rigtop, in another process, reads the batch's event from the history.
		await vi.waitFor(
			async () => {
				const {stdout} = await run('node', [CLI, 'history', one.url], {env: {...process.env, XDG_STATE_HOME: state}, timeout: 20_000});
				expect(stdout).toMatch(/batch pause \(rigtop pid \d+ on [^,]+, 2 rigs\): paused \(read back\)/);
			},
			{timeout: 15_000, interval: 1000},
		);
	});

	it('the marks outlive a drill-in and back, the chart, the events, the help and a resize (issue 35, item 1)', async () => {
		const {rigs} = await scene.tokenFleet(TOKEN, [
			{dialect: '6', workerId: 'k-one', seed: 51},
			{dialect: '6', workerId: 'k-two', seed: 52},
			{dialect: '6', workerId: 'k-three', seed: 53},
			{dialect: '6', workerId: 'k-four', seed: 54},
		]);
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '-i', '1'], {
			cols: 100,
			rows: 30,
			env: {XDG_STATE_HOME: path.join(scene.dir, 'state'), XDG_CONFIG_HOME: path.join(scene.dir, 'config')},
		});
		await terminal.waitFor(
			(screen) => ['k-one', 'k-two', 'k-three', 'k-four'].every((name) => new RegExp(`${name} +live`).test(screen)),
			8000,
		);
		const asLeft = async () => {
			const screen = await terminal.waitFor((shown) => /4 rigs · 2 marked/.test(shown) && /k-four +live/.test(shown), 8000);
			expect(rowOf(screen, 'k-one')).toMatch(/^ \* k-one/);
			expect(rowOf(screen, 'k-two')).toMatch(/^ \* k-two/);
			expect(rowOf(screen, 'k-three')).toMatch(/^▸ {2}k-three/);
		};

		await terminal.send('  ', true);
		await asLeft();
		// Enter on another rig (the third), its dashboard, Esc back.
		await terminal.send('Enter');
		await terminal.waitFor(/k-three[^\n]*\n[^]*Hashrate/);
		await terminal.send('Escape');
		await asLeft();
		// The chart of the selected rig, every rig's events, the help: each and back.
		await terminal.send('g', true);
		await terminal.waitFor((screen) => !/4 rigs/.test(screen));
		await terminal.send('Escape');
		await asLeft();
		await terminal.send('e', true);
		await terminal.waitFor(/all rigs/);
		await terminal.send('Escape');
		await asLeft();
		await terminal.send('?', true);
		await terminal.waitFor(/Keys/);
		await terminal.send('Escape');
		await asLeft();
		await terminal.resize(200, 50);
		await asLeft();
	});

	it('80×24: twelve results that wrap overflow the pane; j and PgDn sent in one chunk reach the last rig’s whole result', async () => {
		// A 6.x rig that pauses (with none, p would ask nothing) and eleven 2.14 ones that cannot.
		const names = ['new-01', ...Array.from({length: 11}, (_, index) => `old-${String(index + 2).padStart(2, '0')}`)];
		const {rigs} = await scene.tokenFleet(
			TOKEN,
			names.map((workerId, index) => ({dialect: index === 0 ? '6' : '2.14', workerId, seed: 40 + index})),
		);
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '-i', '1'], {
			cols: 80,
			rows: 24,
			env: {XDG_STATE_HOME: path.join(scene.dir, 'state'), XDG_CONFIG_HOME: path.join(scene.dir, 'config')},
		});
		await terminal.waitFor((screen) => names.every((name) => new RegExp(`${name} +live`).test(screen)), 10_000);
		await terminal.send('*p', true);
		await terminal.waitFor(/pause 1 rig: new-01; 11 cannot/);
		await terminal.send('y', true);
		// Each 2.14 failed (a miner that cannot pause), and why wraps under it: 23 lines, more than the pane's.
		const top = await terminal.waitFor(/pause 12 rigs: 1 paused · 11 failed \(lines 1–\d+ of 23\)/, 10_000);
		expect(top).not.toContain('old-12');
		expect(top).toMatch(/↑↓ scroll/);

		await terminal.send('jjj\u001B[6~\u001B[6~', true);
		const bottom = await terminal.waitFor(/\(lines \d+–23 of 23\)/);
		const lines = bottom.split('\n');
		const at = lines.findIndex((line) => line.includes('old-12'));
		expect(lines[at]).toMatch(/^ ✗ old-12 +failed: cannot pause: XMRig 2\.14\.4 has no pause or resume in its API$/);
		expect(lines[at + 1]?.trim()).toBe('(they came in XMRig 2.99.6)');
		// Nothing past the pane: the footer follows the last result.
		expect(lines[at + 2]).toMatch(/^ ↑↓ scroll/);
		for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
	});
});
