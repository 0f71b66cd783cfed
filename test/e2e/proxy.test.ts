import {mkdtemp, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {performance} from 'node:perf_hooks';
import {afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {SIM_PROXY_POOL_PASS} from '../../source/sim/proxy-payloads.js';
import {startSimulator, type ProxySimulator} from '../../source/sim/simulator.js';
import {CLI, cliIsBuilt, TmuxTerminal} from './helpers/tmux.js';

let terminal: TmuxTerminal | null = null;
let sim: ProxySimulator | null = null;
let dir = '';

beforeAll(() => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
});

beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), 'rigtop-proxy-e2e-'));
});

afterEach(async () => {
	await terminal?.kill();
	terminal = null;
	await sim?.stop();
	sim = null;
	await rm(dir, {recursive: true, force: true});
});

const TOKEN = 'e2e-proxy-token';
/** How long rig-05 has been quiet: the proxy's clock jumps this far at the start, its wall clock lined up with ours. */
const QUIET_MS = 6 * 60_000;

/** A warm proxy with 29 workers whose rig-05 stopped sharing six minutes ago (the others shared since). */
async function quietProxy(): Promise<ProxySimulator> {
	let jump = 0;
	const proxy = await startSimulator({
		kind: 'proxy',
		warm: true,
		seed: 11,
		workers: 29,
		lifeEvents: false,
		token: TOKEN,
		restricted: false,
		epochMs: Date.now() - QUIET_MS,
		clock: () => performance.now() + jump,
	});
	proxy.quietWorker('rig-05');
	jump = QUIET_MS;
	return proxy;
}

/** A worker's row: its name after the selection and trouble marks. */
const rowOf = (screen: string, name: string) => screen.split('\n').find((line) => line.slice(2).startsWith(`${name} `)) ?? '';

describe('the proxy screen in a real terminal', () => {
	it("80×24: the proxy's numbers in H/s by its own windows, a quiet worker marked, Enter and Esc, no password anywhere", async () => {
		sim = await quietProxy();
		terminal = await TmuxTerminal.start(['node', CLI, sim.url, '-i', '1'], {
			cols: 80,
			rows: 24,
			env: {RIGTOP_TOKEN: TOKEN, XDG_STATE_HOME: dir, NO_COLOR: '1'},
		});
		const first = await terminal.waitFor((screen) => screen.includes('xmrig-proxy 6.26.0') && /rig-05 +quiet/.test(screen), 10_000);
		expect(first).toMatch(/hashrate {2}1m [\d.]+ kH\/s {2}10m [\d.]+ kH\/s {2}1h [\d.]+ kH\/s/);
		expect(first).toMatch(/24h [\d.]+ kH\/s/);
		expect(first).not.toMatch(/\b(10s|60s|15m) +(—|[\d.]+ k?H\/s)/);
		// Nor as a column ("10s ago" in the last-share column is a time, not a window).
		expect(first.split('\n').find((line) => line.includes('worker listed'))).not.toMatch(/\b(10s|60s|15m)\b/);
		expect(first).toMatch(/upstreams 1 active {2}0 sleep {2}0 error {2}of 1/);
		expect(first).toMatch(/workers 1–\d+ of 29 · totals: all 29 workers listed/);
		// Quiet in words (NO_COLOR), marked with "!".
		expect(rowOf(first, 'rig-05')).toMatch(/^ !rig-05 +quiet 6m/);
		expect(rowOf(first, 'rig-04')).toMatch(/^ {2}rig-04 +live +[\d.]+ kH\/s/);
		expect(first).not.toContain('pause');
		for (const line of first.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

		// Keys as a terminal delivers fast typing: several in one read.
		await terminal.send('jjj', true);
		await terminal.waitFor((screen) => rowOf(screen, 'rig-04').startsWith('▸'));
		await terminal.send('Enter');
		const detail = await terminal.waitFor('worker rig-04');
		expect(detail).toMatch(/hashrate +1m [\d.]+ kH\/s/);
		expect(detail).toMatch(/ +24h [\d.]+ kH\/s/);
		expect(detail).toMatch(/shares +[\d ]+ accepted {2}[\d ]+ rejected \([\d.]+%\) {2}[\d ]+ invalid/);
		expect(detail).toMatch(/connections +1/);
		expect(detail).toMatch(/ip +10\.0\.0\.\d+/);
		await terminal.send('Escape');
		const back = await terminal.waitFor((screen) => screen.includes('worker listed▲') && rowOf(screen, 'rig-04').startsWith('▸'));
		expect(back).not.toContain('worker rig-04');

		// The config view: the proxy's pool password is masked, as the miners' passwords of /1/miners are shown nowhere.
		await terminal.send('c', true);
		const config = await terminal.waitFor(/pools/, 10_000);
		for (const screen of [first, detail, back, config]) {
			expect(screen).not.toContain('sim-pool-pass');
			expect(screen).not.toContain(SIM_PROXY_POOL_PASS);
			expect(screen).not.toContain(TOKEN);
		}
	});

	it('rigtop --demo proxy at 200×50: every window and column, the workers whole', async () => {
		terminal = await TmuxTerminal.start(['node', CLI, '--demo', 'proxy'], {cols: 200, rows: 50, env: {XDG_STATE_HOME: dir}});
		const screen = await terminal.waitFor((text) => text.includes('xmrig-proxy 6.26.0') && text.includes('rig-12'), 15_000);
		expect(screen).toMatch(/^ rigtop {2}demo-proxy · xmrig-proxy 6\.26\.0 · up 3d \d+h? ?\d*m? · nicehash +● live/);
		expect(screen).toMatch(/worker listed▲ +state +ip +conn +1m +10m +1h +12h +24h +acc +rej +inv +last share/);
		// Life events on: miners join and leave, so the count moves.
		expect(screen).toMatch(/total +\d+\/\d+ conn/);
		expect(screen).not.toContain('sim-pool-pass');
		for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(200);
	});
});
