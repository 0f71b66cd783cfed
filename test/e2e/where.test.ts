/**
 * `rigtop --where` with the built CLI: it lists the miners of every source it is given (addresses, --config, --rigs)
 * with where each came from, as the session would watch them, and a rigs file it cannot use is one line (exit 2).
 */
import {spawn} from 'node:child_process';
import net from 'node:net';
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {runCli} from './helpers/cli.js';
import {cliIsBuilt} from './helpers/tmux.js';

/** What a terminal would act on: C0 (but the newline), ESC, DEL, C1, and bidi controls. */
// eslint-disable-next-line no-control-regex -- the bytes no output may hold.
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

const fixtures = path.resolve('test', 'fixtures', 'xmrig-configs');
let dir = '';
/** Loopback ports nobody listens on: discovery lends the token of a local miner listening on an address given. */
let ports: number[] = [];

async function freePort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as net.AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

beforeAll(async () => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-where-'));
	ports = [await freePort(), await freePort(), await freePort(), await freePort()];
});

afterAll(() => rmSync(dir, {recursive: true, force: true}));

async function rigtop(...args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
	return runCli(args, {env: {HOME: dir}, unset: ['CI', 'RIGTOP_TOKEN'], cwd: dir});
}

describe('rigtop --where', () => {
	it('--rigs: the rigs in the file order, each from its line of the file, its token file named, then the addresses given', async () => {
		mkdirSync(path.join(dir, 'tokens'), {recursive: true});
		writeFileSync(path.join(dir, 'tokens', 'rig-02'), 'where-secret-token\n');
		chmodSync(path.join(dir, 'tokens', 'rig-02'), 0o600);
		const rigs = path.join(dir, 'rigs.json');
		writeFileSync(
			rigs,
			JSON.stringify([
				{name: 'rig-01', url: `127.0.0.1:${ports[0]}`},
				{name: 'rig-02', url: `127.0.0.1:${ports[1]}`, tokenFile: 'tokens/rig-02'},
			]),
		);
		const result = await rigtop('--where', '--rigs', 'rigs.json', `127.0.0.1:${ports[2]}`);
		expect(result.stderr).toBe('');
		expect(result.code).toBe(0);
		expect(result.stdout.split('\n').slice(0, 10)).toEqual([
			'rigtop will monitor 3 miners:',
			`  rig-01  http://127.0.0.1:${ports[0]}`,
			`    address  rigs file: --rigs ${rigs}, rig 1`,
			'    token    not set (no Authorization header is sent)',
			`  rig-02  http://127.0.0.1:${ports[1]}`,
			`    address  rigs file: --rigs ${rigs}, rig 2`,
			`    token    set (from rigs file: tokenFile ${path.join(dir, 'tokens', 'rig-02')})`,
			`  http://127.0.0.1:${ports[2]}`,
			'    address  command line: the address given on the command line',
			'    token    not set (no Authorization header is sent)',
		]);
		expect(result.stdout).not.toContain('where-secret-token');
	});

	it('--config and an address: the miner from each, as before', async () => {
		const configPath = path.join(fixtures, 'v6.26', 'config_main_as_written.json');
		const config = await rigtop('--where', '--config', configPath);
		expect(config.code).toBe(0);
		expect(config.stdout).toContain(`    address  config file: --config ${configPath}\n`);
		const address = await rigtop('--where', `127.0.0.1:${ports[3]}`);
		expect(address.code).toBe(0);
		expect(address.stdout).toContain(`  http://127.0.0.1:${ports[3]}\n    address  command line: the address given on the command line\n`);
	});

	it('a rigs file it cannot use: its one-line message, exit 2', async () => {
		const bad = path.join(dir, 'bad.json');
		writeFileSync(bad, '[{"name": "rig-01", "url": "127.0.0.1:18301"},\n');
		const result = await rigtop('--where', '--rigs', bad);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr).toBe(
			`rigtop: --rigs ${bad} is not valid JSON at line 2, column 1 (ValueExpected)\nRun rigtop --help for usage.\n`,
		);
		const missing = await rigtop('--where', '--rigs', 'nowhere.json');
		expect(missing.code).toBe(2);
		expect(missing.stderr).toBe(
			`rigtop: cannot read --rigs ${path.join(dir, 'nowhere.json')}: it does not exist\nRun rigtop --help for usage.\n`,
		);
	});

	it("a running miner's command line holding escape sequences is shown with each control as its code", async () => {
		const port = await freePort();
		// A process that names itself xmrig with a window-title and clear-screen sequence in its argv[0] and argv.
		const child = spawn(
			process.execPath,
			[path.resolve('dist/xmrig-sim.js'), '--http-port', String(port), '--sim-warm', '--rig-id', 'wk\u001B]0;PWNTITLE\u0007\u009B2J'],
			{argv0: 'xmrig\u001B]52;c;SEFDS0VE\u0007\u001B[2J\u200B', stdio: 'ignore'},
		);
		try {
			for (let tries = 0; tries < 150; tries++) {
				const answered = await fetch(`http://127.0.0.1:${port}/1/summary`).then(
					(response) => response.ok,
					() => false,
				);
				if (answered) break;
				await new Promise((resolve) => setTimeout(resolve, 100));
			}

			const result = await rigtop('--where');
			const ours = result.stdout.split('\n').find((line) => line.includes(`process ${child.pid} `));
			// Shown, not obeyed and not deleted: what followed each ESC is plain text, the controls are codes.
			expect(ours).toContain(`process ${child.pid} (xmrig<001B>]52;c;SEFDS0VE<0007><001B>[2J<200B> `);
			expect(`${result.stdout}${result.stderr}`).not.toMatch(CONTROL);
		} finally {
			child.kill();
		}
	});
});
