/**
 * The fleet with an xmrig-proxy beside two miners, in a real terminal (the built CLI in tmux, simulators on
 * loopback): --rigs lists the proxy, --where says it is one, the proxy row shows its workers, its 1 min rate in H/s
 * and its upstreams, sort and filter keep it, and `rigtop config get` on the proxy hides its passwords.
 */
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import type {ProxySimulator} from '../../source/sim/proxy-simulator.js';
import {runCli} from './helpers/cli.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

const TOKEN = 'fleet-proxy-token-27';
const POOL_PASS = 'fleet-proxy-pool-pass-64';
let terminal: TmuxTerminal | null = null;
let miners: Simulator[] = [];
let proxy: ProxySimulator | null = null;
let dir = '';

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), 'rigtop-fleet-proxy-e2e-'));
	miners = await Promise.all([
		startSimulator({dialect: '6', warm: true, workerId: 'rig-six', seed: 31}),
		startSimulator({dialect: '5', warm: true, workerId: 'rig-five', seed: 32}),
	]);
	proxy = await startSimulator({
		kind: 'proxy',
		warm: true,
		workerId: 'front-proxy',
		workers: 7,
		seed: 33,
		lifeEvents: false,
		token: TOKEN,
		restricted: false,
	});
	proxy.setConfigText(proxy.configText().replace(/"pass": "[^"]*"/, `"pass": "${POOL_PASS}"`));
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
	await Promise.all(miners.map(async (sim) => sim.stop()));
	await proxy?.stop();
	miners = [];
	proxy = null;
	await rm(dir, {recursive: true, force: true});
});

/** The rigs file: two miners, then the proxy with its token file (the file says nothing of its kind). */
async function rigsFile(): Promise<string> {
	const tokenFile = path.join(dir, 'proxy.token');
	await writeFile(tokenFile, `${TOKEN}\n`, {mode: 0o600});
	const file = path.join(dir, 'rigs.json');
	await writeFile(
		file,
		JSON.stringify([
			{name: 'rig-six', url: miners[0]!.url},
			{name: 'rig-five', url: miners[1]!.url},
			{name: 'front-proxy', url: proxy!.url, tokenFile: 'proxy.token', kind: 'proxy'},
		]),
	);
	return file;
}

async function rigtop(...args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
	return runCli(args, {env: {HOME: dir}, unset: ['CI', 'RIGTOP_TOKEN'], cwd: dir});
}

const rowOf = (screen: string, name: string) => screen.split('\n').find((line) => new RegExp(`^[▸ ][ !]${name} `).test(line)) ?? '';

describe('a fleet of two miners and an xmrig-proxy in a real terminal', () => {
	it('the proxy row: workers, 1 min rate in H/s, upstreams; s and / keep it; Enter opens it', async () => {
		const rigs = await rigsFile();
		terminal = await TmuxTerminal.start(['node', CLI, '--rigs', rigs, '-i', '1', '--no-history'], {cols: 200, rows: 50});
		const wide = await terminal.waitFor((screen) => /● 3 live/.test(screen) && /front-proxy +live/.test(screen), 8000);
		expect(wide.split('\n')[0]).toMatch(/^ rigtop {2}3 rigs · [\d.]+ kH\/s from 2 miners · proxy [\d.]+ k?H\/s \(1m, not in total\)/);
		expect(wide.split('\n')[1]).toMatch(/kind\/wk +10s +60s\/1m +15m .*pool\/upstream/);
		expect(rowOf(wide, 'front-proxy')).toMatch(
			/front-proxy +live +proxy, 7 workers +— +[\d.]+ k?H\/s +— +[\d ]+\/[\d ]+ +[\d.]+% +1\/1 up/,
		);
		expect(rowOf(wide, 'rig-six')).toMatch(/rig-six +live +miner +[\d.]+ kH\/s/);
		expect(wide).toMatch(/miners +2\/2 up/);

		// Sort: s twice (state, then 10s: a proxy by its 1 min rate, far above one miner's), typed as one chunk.
		await terminal.send('ss', true);
		const sorted = await terminal.waitFor(/10s▲/, 5000);
		const order = sorted
			.split('\n')
			.map((line) => /^[▸ ][ !](rig-six|rig-five|front-proxy) /.exec(line)?.[1])
			.filter(Boolean);
		expect(order).toHaveLength(3);
		expect(order.at(-1)).toBe('front-proxy');

		// Filter "proxy" typed in one chunk, kept with Enter: the proxy alone.
		await terminal.send('/proxy', true);
		await terminal.send('Enter');
		const filtered = await terminal.waitFor(/\/proxy 1 of 3/, 5000);
		expect(rowOf(filtered, 'front-proxy')).toMatch(/proxy, 7 workers/);
		expect(rowOf(filtered, 'rig-six')).toBe('');

		// 80×24: the proxy still says what it is and its rate; nothing is wider than the terminal.
		await terminal.resize(80, 24);
		const narrow = await terminal.waitFor((screen) => screen.split('\n')[1]?.includes('kind/wk') === true, 5000);
		expect(rowOf(narrow, 'front-proxy')).toMatch(/front-proxy +live +proxy 7(?: wk)? +— +[\d.]+ k?H\/s/);
		for (const line of narrow.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

		// No password of the proxy's config or /1/miners anywhere on the screen.
		expect(narrow + wide + filtered).not.toContain(POOL_PASS);
		expect(narrow + wide + filtered).not.toContain(TOKEN);
		expect(narrow + wide + filtered).not.toMatch(/password/i);

		// Enter opens the proxy's own screen (not the fleet any longer); Esc comes back to the filtered fleet.
		await terminal.send('Enter');
		await terminal.waitFor((screen) => !/\/proxy 1 of 3/.test(screen) && /front-proxy/.test(screen), 5000);
		await terminal.send('Escape');
		await terminal.waitFor(/\/proxy 1 of 3/, 5000);
	});

	it('--where --rigs lists the proxy as an xmrig-proxy; rigtop config get on it hides every password', async () => {
		const rigs = await rigsFile();
		const where = await rigtop('--where', '--rigs', rigs);
		expect(where.code).toBe(0);
		expect(where.stdout.split('\n')[0]).toBe('rigtop will monitor 2 miners and 1 xmrig-proxy:');
		expect(where.stdout).toContain(`  front-proxy  ${proxy!.url}  (xmrig-proxy)`);
		expect(where.stdout).toContain(`  rig-six  ${miners[0]!.url}\n`);
		expect(where.stdout + where.stderr).not.toContain(TOKEN);

		const tokenFile = path.join(dir, 'proxy.token');
		const got = await rigtop('config', 'get', proxy!.url.replace('http://', ''), '--token-file', tokenFile);
		expect(got.code).toBe(0);
		expect(got.stdout).toContain('"mode": "nicehash"');
		expect(got.stdout).toMatch(/"pass": "••••••••"/);
		expect(got.stdout + got.stderr).not.toContain(POOL_PASS);
		expect(got.stdout + got.stderr).not.toContain(TOKEN);
		const pass = await rigtop('config', 'get', 'pools.0.pass', proxy!.url.replace('http://', ''), '--token-file', tokenFile);
		expect(pass).toEqual({code: 0, stdout: '"••••••••"\n', stderr: ''});
	});
});
