/**
 * A write with a token the user did not give (issue 35, item 5): the built CLI run against the built simulator started
 * as a real process whose command line carries `--http-access-token`, so rigtop finds that process (its /proc) and
 * borrows its token. `config set`, `pause`, `resume --rigs` and `config undo` say whose token they use, in one line on
 * stderr, `--yes` or not; never the token. With the token given (RIGTOP_TOKEN) nothing is said.
 */
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {runCli} from './helpers/cli.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const SIM = path.resolve('dist/xmrig-sim.js');
const TOKEN = 'borrowed-e2e-token-51';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => {
				resolve(typeof address === 'object' && address !== null ? address.port : 0);
			});
		});
	});
}

/** The built simulator as its own process, its token on its command line; resolves once it answers. */
async function startSim(): Promise<{url: string; address: string; pid: number}> {
	const port = await freePort();
	const child = spawn('node', [SIM, '--http-port', String(port), '--sim-warm', '--http-access-token', TOKEN, '--http-no-restricted'], {
		stdio: 'ignore',
	});
	cleanups.push(() => child.kill());
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 15_000;
	for (;;) {
		try {
			const response = await fetch(`${url}/2/summary`, {headers: {Authorization: `Bearer ${TOKEN}`}});
			if (response.ok) break;
		} catch {
			// not listening yet
		}

		if (Date.now() > deadline) throw new Error('the simulator did not answer');
		await new Promise((resolve) => setTimeout(resolve, 100));
	}

	return {url, address: `127.0.0.1:${port}`, pid: child.pid ?? 0};
}

async function donateLevel(url: string): Promise<unknown> {
	const response = await fetch(`${url}/1/config`, {headers: {Authorization: `Bearer ${TOKEN}`}});
	return ((await response.json()) as Record<string, unknown>)['donate-level'];
}

describe('a write with a token borrowed from a running miner', () => {
	it('says whose token it uses, in one line on stderr, for config set, pause, resume --rigs and undo, --yes or not', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-borrowed-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		const sim = await startSim();
		const env = {XDG_STATE_HOME: path.join(dir, 'state')};
		const rigtop = async (args: string[], extra: NodeJS.ProcessEnv = {}) => {
			const result = await runCli(args, {
				env: {...env, ...extra},
				unset: extra['RIGTOP_TOKEN'] === undefined ? ['CI', 'RIGTOP_TOKEN'] : ['CI'],
				timeout: 30_000,
			});
			expect(result.stdout + result.stderr).not.toContain(TOKEN);
			return result;
		};
		const said = `no token was given, so the write uses the one from the command line of process ${sim.pid}`;
		const saying = (stderr: string) => stderr.split('\n').filter((line) => line.includes('no token was given'));

		const set = await rigtop(['config', 'set', 'donate-level=4', sim.address]);
		expect(set.code).toBe(0);
		expect(saying(set.stderr)).toEqual([`rigtop: ${said} (--token-file or RIGTOP_TOKEN gives one)`]);
		expect(await donateLevel(sim.url)).toBe(4);

		const setYes = await rigtop(['config', 'set', 'donate-level=3', sim.address, '--yes']);
		expect([setYes.code, saying(setYes.stderr).length]).toEqual([0, 1]);
		expect(setYes.stderr).toContain(said);

		const paused = await rigtop(['pause', sim.address, '--yes']);
		expect(paused.code).toBe(0);
		expect(saying(paused.stderr)).toEqual([`rigtop: ${said} (--token-file or RIGTOP_TOKEN gives one)`]);

		// A rigs file's rig without a tokenFile borrows too: named, as there may be several.
		const rigs = path.join(dir, 'rigs.json');
		writeFileSync(rigs, JSON.stringify([{name: 'lent', url: sim.url}]));
		const resumed = await rigtop(['resume', '--rigs', rigs]);
		expect(resumed.code).toBe(0);
		expect(saying(resumed.stderr)).toEqual([`rigtop: ${said} (--token-file or RIGTOP_TOKEN gives one)`]);

		const batchSet = await rigtop(['config', 'set', 'donate-level=5', '--rigs', rigs]);
		expect(batchSet.code).toBe(0);
		expect(saying(batchSet.stderr)).toHaveLength(1);
		const undone = await rigtop(['config', 'undo', '--rigs', rigs]);
		expect(undone.code).toBe(0);
		expect(saying(undone.stderr)).toHaveLength(1);
		expect(await donateLevel(sim.url)).toBe(3);

		// Given by the user: nothing to say.
		const given = await rigtop(['config', 'set', 'donate-level=2', sim.address], {RIGTOP_TOKEN: TOKEN});
		expect([given.code, saying(given.stderr)]).toEqual([0, []]);
		expect(await donateLevel(sim.url)).toBe(2);
	});

	it('the fleet’s pause says whose token it uses in its question, then on each rig’s line', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-borrowed-fleet-'));
		cleanups.push(() => rmSync(dir, {recursive: true, force: true}));
		const [one, two] = await Promise.all([startSim(), startSim()]);
		if (!one || !two) throw new Error('no simulators');
		const env = {XDG_STATE_HOME: path.join(dir, 'state'), RIGTOP_TOKEN: ''};
		const terminal = await TmuxTerminal.start(['node', CLI, one.address, two.address, '--interval', '1'], {cols: 200, rows: 50, env});
		cleanups.push(() => void terminal.kill());
		await terminal.waitFor(/● 2 live/, 15_000);
		await terminal.send('  ', true);
		await terminal.send('p', true);
		// Said in the question, before the write (review, finding 6).
		const question = await terminal.waitFor(/pause 2 rigs/);
		expect(question).toMatch(new RegExp(`no token given: .* the one from the command line of process ${one.pid}`));
		expect(question).toContain(`the one from the command line of process ${two.pid}`);
		await terminal.send('y', true);
		const results = await terminal.waitFor(/pause 2 rigs: 2 paused/, 15_000);
		expect(results).toContain(`no token given: the one from the command line of process ${one.pid}`);
		expect(results).toContain(`no token given: the one from the command line of process ${two.pid}`);
		expect(results).not.toContain(TOKEN);
	});
});
