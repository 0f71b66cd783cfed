/**
 * Issue 27's fleet, as shipped: the built CLI against simulated miners of every dialect in one fleet — a 6.x, a 5.x, a
 * 2.16 and a 2.14 (neither can pause), a 6.x lacking cpu.huge-pages-jit, and one down. In tmux: every rig marked with
 * `*`, `p` asks once and pauses those that can, `r` resumes them, `\` clears the marks. From the shell: `config set
 * --rigs`, `config apply`, `pause`/`resume` (text and --json), each with its exit code, and each touched rig's event in
 * the history.
 */
import {writeFile} from 'node:fs/promises';
import path from 'node:path';
import {beforeEach, describe, expect, it} from 'vitest';
import type {Simulator} from '../../source/sim/simulator.js';
import {runCli} from './helpers/cli.js';
import {sceneForEachTest} from './helpers/scene.js';
import {CLI} from './helpers/tmux.js';

const TOKEN = 'e2e-dialects-token-7e';
const scene = sceneForEachTest('rigtop-dialects-e2e-');
let sims: Simulator[] = [];
let rigs = '';

beforeEach(async () => {
	const rig = (dialect: '6' | '5' | '2' | '2.14', workerId: string, seed: number) => ({dialect, workerId, seed, applyDelayMs: 40});
	const fleet = await scene.tokenFleet(TOKEN, [
		rig('6', 'd-six', 41),
		rig('5', 'd-five', 42),
		rig('2', 'd-two', 43),
		rig('2.14', 'd-old', 44),
		rig('6', 'd-nojit', 45),
		rig('6', 'd-gone', 46),
	]);
	sims = fleet.simulators;
	rigs = fleet.rigs;
	const nojit = sims[4]!;
	nojit.setConfigText(nojit.configText().replace(/\s*"huge-pages-jit": false,/, ''));
	await sims[5]!.stop();
});

async function rigtop(args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
	const result = await runCli(args, {env: {XDG_STATE_HOME: path.join(scene.dir, 'state')}, unset: ['CI', 'RIGTOP_TOKEN'], timeout: 60_000});
	expect(result.stdout + result.stderr).not.toContain(TOKEN);
	return result;
}

/** Whether a 6.x or 5.x simulator is paused, as its summary says. */
async function paused(sim: Simulator): Promise<boolean> {
	const response = await fetch(`${sim.url}/2/summary`, {headers: {authorization: `Bearer ${TOKEN}`}});
	return ((await response.json()) as {paused: boolean}).paused;
}

const lineOf = (text: string, name: string) => text.split('\n').find((line) => line.includes(`${name} `)) ?? '';

describe('every dialect in one fleet, built', () => {
	it('tmux: * marks every rig, p pauses those that can after one question, r resumes them, \\ clears the marks', async () => {
		const [six, five, two, old, nojit] = sims as [Simulator, Simulator, Simulator, Simulator, Simulator];
		const terminal = await scene.start(['node', CLI, '--rigs', rigs, '-i', '1'], {
			cols: 140,
			rows: 30,
			env: {XDG_STATE_HOME: path.join(scene.dir, 'state'), XDG_CONFIG_HOME: path.join(scene.dir, 'config')},
		});
		await terminal.waitFor(
			(screen) =>
				/d-gone +down/.test(screen) &&
				['d-six', 'd-five', 'd-two', 'd-old', 'd-nojit'].every((name) => new RegExp(`${name} +live`).test(screen)),
			15_000,
		);

		await terminal.send('*', true);
		await terminal.waitFor(/6 rigs · 6 marked/);
		await terminal.send('p', true);
		const question = (await terminal.waitFor(/pause 3 rigs: d-six, d-five, d-nojit/)).replaceAll(/\s+/g, ' ');
		expect(question).toMatch(/1 cannot: .*2\.16/);
		expect(question).toMatch(/1 cannot: .*2\.14/);
		expect(question).toMatch(/1 down/);
		await terminal.send('y', true);
		const results = await terminal.waitFor(/pause 6 rigs: 3 paused · 2 failed · 1 unreachable/, 20_000);
		for (const name of ['d-six', 'd-five', 'd-nojit'])
			expect(lineOf(results, name)).toMatch(new RegExp(`✓ ${name} +paused \\(read back\\)`));
		expect(lineOf(results, 'd-two')).toMatch(/✗ d-two +failed: cannot pause: XMRig 2\.16/);
		expect(lineOf(results, 'd-old')).toMatch(/✗ d-old +failed: cannot pause: XMRig 2\.14/);
		expect(lineOf(results, 'd-gone')).toMatch(/- d-gone +unreachable: down/);
		expect([await paused(six), await paused(five), await paused(nojit)]).toEqual([true, true, true]);
		// The two that cannot pause were sent nothing.
		for (const sim of [two, old]) expect(sim.requests.filter((request) => request.method === 'POST')).toEqual([]);

		await terminal.send('Escape');
		await terminal.waitFor((screen) => /\* d-six +PAUSED/.test(screen) && /6 marked/.test(screen), 10_000);
		await terminal.send('r', true);
		await terminal.waitFor(/resume 3 rigs: d-six, d-five, d-nojit/);
		await terminal.send('y', true);
		const resumed = await terminal.waitFor(/resume 6 rigs: 3 resumed · 2 failed · 1 unreachable/, 20_000);
		expect(lineOf(resumed, 'd-five')).toMatch(/✓ d-five +running \(read back\)/);
		expect([await paused(six), await paused(five), await paused(nojit)]).toEqual([false, false, false]);
		await terminal.send('Escape');
		await terminal.waitFor((screen) => /\* d-six +live/.test(screen) && /6 marked/.test(screen), 10_000);
		await terminal.send('\\', true);
		await terminal.waitFor((screen) => !screen.includes('marked') && /d-six +live/.test(screen), 10_000);
	});

	it('shell: config set --rigs, config apply, pause and resume say each rig and exit 1 when one did not, 0 when all did', async () => {
		const [six, five] = sims as [Simulator, Simulator];
		const set = await rigtop(['config', 'set', 'cpu.huge-pages-jit=true', '--rigs', rigs]);
		expect(set.code).toBe(1);
		expect(lineOf(set.stdout, 'd-six')).toMatch(/applied {2}cpu\.huge-pages-jit: false → true$/);
		expect(lineOf(set.stdout, 'd-five')).toMatch(/applied {2}cpu\.huge-pages-jit: false → true$/);
		for (const name of ['d-two', 'd-old', 'd-nojit']) expect(lineOf(set.stdout, name)).toMatch(/failed {2}lacks cpu\.huge-pages-jit/);
		expect(lineOf(set.stdout, 'd-gone')).toMatch(/unreachable {2}down: /);
		expect(set.stdout.trimEnd().split('\n').at(-1)).toBe('6 rigs: ok=0 changed=2 skipped=0 failed=3 unreachable=1');
		expect(JSON.parse(six.configText()).cpu['huge-pages-jit']).toBe(true);

		const patch = path.join(scene.dir, 'patch.json');
		await writeFile(patch, JSON.stringify({cpu: {'huge-pages-jit': false}}));
		const applied = await rigtop(['config', 'apply', patch, '--rigs', rigs]);
		expect(applied.code).toBe(1);
		expect(lineOf(applied.stdout, 'd-five')).toMatch(/applied {2}cpu\.huge-pages-jit: true → false$/);
		expect(lineOf(applied.stdout, 'd-nojit')).toMatch(/failed {2}lacks cpu\.huge-pages-jit/);
		// The rigs that can, by address: every one applied (already so), exit 0.
		const token = ['--token-file', path.join(scene.dir, 'token')];
		const again = await rigtop(['config', 'apply', patch, six.url, five.url, ...token]);
		expect(again.code).toBe(0);
		expect(again.stdout.trimEnd().split('\n').at(-1)).toBe('2 rigs: ok=2 changed=0 skipped=0 failed=0 unreachable=0');

		const pausedAll = await rigtop(['pause', '--rigs', rigs]);
		expect(pausedAll.code).toBe(1);
		expect(lineOf(pausedAll.stdout, 'd-six')).toMatch(/applied {2}paused \(read back\)/);
		expect(lineOf(pausedAll.stdout, 'd-two')).toMatch(/failed {2}cannot pause: XMRig 2\.16/);
		expect(lineOf(pausedAll.stdout, 'd-gone')).toMatch(/unreachable {2}down: /);
		// Each rig the batch touched has its event in the history, read by another rigtop process.
		const [, , two] = sims as [Simulator, Simulator, Simulator];
		const history = await rigtop(['history', six.url]);
		expect(history.stdout).toMatch(/batch pause \(rigtop pid \d+ on [^,]+, 6 rigs\): applied: paused \(read back\)/);
		const twoHistory = await rigtop(['history', two.url]);
		expect(twoHistory.stdout).toMatch(/batch pause \(rigtop pid \d+ on [^,]+, 6 rigs\): failed: cannot pause: XMRig 2\.16/);
		const json = await rigtop(['resume', '--rigs', rigs, '--json']);
		expect(json.code).toBe(1);
		const document = JSON.parse(json.stdout) as {rigs: {name: string; url: string; result: string; error: string | null}[]};
		expect(document.rigs.map((rig) => [rig.name, rig.result])).toEqual([
			['d-six', 'applied'],
			['d-five', 'applied'],
			['d-two', 'failed'],
			['d-old', 'failed'],
			['d-nojit', 'applied'],
			['d-gone', 'unreachable'],
		]);
		expect(document.rigs[3]?.error).toMatch(/^cannot resume: XMRig 2\.14/);
		const pausedTwo = await rigtop(['pause', six.url, five.url, ...token]);
		expect(pausedTwo.code).toBe(0);
		const resumedTwo = await rigtop(['resume', six.url, five.url, ...token]);
		expect([resumedTwo.code, resumedTwo.stdout.trimEnd().split('\n').at(-1)]).toEqual([
			0,
			'2 rigs: ok=0 changed=2 skipped=0 failed=0 unreachable=0',
		]);
		const usage = await rigtop(['pause', '--rigs', path.join(scene.dir, 'none.json')]);
		expect(usage.code).toBe(2);
	});
});
