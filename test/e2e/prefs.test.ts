/**
 * What rigtop remembers between runs, the built CLI in tmux against two simulated miners: the fleet's sort and the
 * interval chosen with + are there the next time (in $XDG_STATE_HOME/rigtop/prefs.json); --interval wins over the
 * remembered one; a damaged file is set aside (one notice says where), and a state folder that cannot be used gives
 * one notice and the defaults.
 */
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function twoRigs(): Promise<[Simulator, Simulator]> {
	const rigs = await Promise.all([
		startSimulator({dialect: '6', warm: true, workerId: 'pref-a', seed: 41}),
		startSimulator({dialect: '6', warm: true, workerId: 'pref-b', seed: 42}),
	]);
	for (const rig of rigs) cleanups.push(async () => rig.stop());
	return rigs;
}

function stateHome(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-prefs-'));
	cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
	return dir;
}

async function rigtop(args: readonly string[], xdgState: string): Promise<TmuxTerminal> {
	const terminal = await TmuxTerminal.start(['node', CLI, ...args], {cols: 100, rows: 30, env: {XDG_STATE_HOME: xdgState}});
	cleanups.push(async () => terminal.kill());
	return terminal;
}

describe('remembered between runs', () => {
	it("the fleet's sort and the interval chosen with + come back; --interval wins over the remembered one", async () => {
		const [a, b] = await twoRigs();
		const state = stateHome();
		const file = path.join(state, 'rigtop', 'prefs.json');

		const first = await rigtop([a.url, b.url], state);
		await first.waitFor((screen) => /● 2 live/.test(screen), 8000);
		await first.send('s', true);
		await first.waitFor('by state, worst first');
		await first.send('Enter');
		// The dashboard is open (the default interval gives way to the uptime on its header at 80 columns).
		await first.waitFor('╭ Hashrate');
		await first.send('+', true);
		await first.waitFor('every 3s');
		await first.send('q', true);
		await first.waitFor('[exit 0]', 5000);
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({fleet: {sort: 'state', reversed: false, filter: ''}, intervalMs: 3000});

		const second = await rigtop([a.url, b.url], state);
		await second.waitFor((screen) => /● 2 live/.test(screen) && screen.includes('by state, worst first'), 8000);
		await second.send('Enter');
		await second.waitFor('every 3s');
		await second.send('q', true);
		await second.waitFor('[exit 0]', 5000);

		// Given on the command line, the interval is that one; the remembered one stays as it was.
		const third = await rigtop([a.url, b.url, '--interval', '1'], state);
		await third.waitFor((screen) => /● 2 live/.test(screen) && screen.includes('by state, worst first'), 8000);
		await third.send('Enter');
		await third.waitFor('every 1s');
		await third.send('q', true);
		await third.waitFor('[exit 0]', 5000);
		expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({intervalMs: 3000});
	});

	it('a damaged file: set aside with its bytes, one notice on screen saying where, the defaults; + writes a new one', async () => {
		const [a, b] = await twoRigs();
		const state = stateHome();
		const folder = path.join(state, 'rigtop');
		const file = path.join(folder, 'prefs.json');
		mkdirSync(folder, {recursive: true});
		const damaged = '{"fleet": {"sort": "state"\n';
		writeFileSync(file, damaged);

		const terminal = await rigtop([a.url, b.url], state);
		const screen = await terminal.waitFor((text) => /● 2 live/.test(text) && text.includes('prefs.json.damaged-'), 8000);
		// The defaults and the set-aside name first, where a one-line event is not cut.
		expect(screen).toMatch(/rigtop using defaults; kept prefs\.json\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z in \/tmp\//u);
		expect(screen.match(/prefs\.json\.damaged-/gu)).toHaveLength(1);
		expect(screen).not.toContain('by state');
		await terminal.send('s', true);
		await terminal.waitFor('by state, worst first');
		await terminal.send('Enter');
		await terminal.waitFor('╭ Hashrate');
		await terminal.send('+', true);
		await terminal.waitFor('every 3s');
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
		const names = readdirSync(folder).filter((name) => name.startsWith('prefs.json'));
		const aside = names.find((name) => name.startsWith('prefs.json.damaged-'));
		expect(names.sort()).toEqual(['prefs.json', aside].sort());
		expect(readFileSync(path.join(folder, aside!), 'utf8')).toBe(damaged);
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({fleet: {sort: 'state', reversed: false, filter: ''}, intervalMs: 3000});
	});

	it('a state folder that cannot be used: a notice, the defaults, and q still quits at once', async () => {
		const [a, b] = await twoRigs();
		const blocked = path.join(stateHome(), 'not-a-folder');
		writeFileSync(blocked, 'a file where the state folder should be\n');
		const terminal = await rigtop([a.url, b.url, '--no-history'], blocked);
		const screen = await terminal.waitFor((text) => /● 2 live/.test(text) && text.includes('remembered settings'), 8000);
		// One line in the events, cut at the edge (the path is long): what it means for the session first.
		expect(screen.match(/rigtop using defaults, saving nothing this session: could not read the remembered/gu)).toHaveLength(1);
		await terminal.send('s', true);
		await terminal.waitFor('by state, worst first');
		await terminal.send('q', true);
		await terminal.waitFor('[exit 0]', 5000);
		expect(readFileSync(blocked, 'utf8')).toBe('a file where the state folder should be\n');
	});
});
