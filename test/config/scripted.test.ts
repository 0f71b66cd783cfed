/**
 * `rigtop config get` / `config set` engines against the simulated miner (6.x and 2.14 layouts) and a
 * miner that accepts a PUT but never applies it.
 */
import {readdirSync} from 'node:fs';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {configGet, configSet} from '../../source/config/scripted.js';
import {MinerClient} from '../../source/miner/client.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {tempDir, v6Config} from './helpers/fixtures.js';
import {json, startReplayServer} from './helpers/replay-server.js';

const TOKEN = 'scripted-token-42ab';
const POOL_PASS = 'scripted-pool-pass';

for (const dialect of ['6', '2.14'] as const) {
	const api = dialect === '6' ? 'http' : 'api';

	describe(`config get / set against the simulator (dialect ${dialect})`, () => {
		let sim: Simulator;
		let client: MinerClient;
		let temp: ReturnType<typeof tempDir>;
		const common = () => ({client, backupDir: temp.dir, verifyIntervalMs: 50, verifyTimeoutMs: 3000});

		beforeEach(async () => {
			sim = await startSimulator({dialect, token: TOKEN, restricted: false, seed: 5, applyDelayMs: 150});
			sim.setConfigText(sim.configText().replace('"pass": "sim-rig"', `"pass": "${POOL_PASS}"`));
			client = new MinerClient({url: sim.url, token: TOKEN});
			temp = tempDir('rigtop-scripted-');
		});

		afterEach(async () => {
			await client.close();
			await sim.stop();
			temp.remove();
		});

		it('get prints the whole config with secrets masked, everything else as the miner wrote it', async () => {
			const result = await configGet({client});
			expect(result.exitCode).toBe(0);
			const printed = result.lines.join('\n');
			expect(printed).not.toContain(TOKEN);
			expect(printed).not.toContain(POOL_PASS);
			expect(printed).toContain(`"access-token": "••••••••"`);
			expect(printed).toBe(sim.configText().replace(TOKEN, '••••••••').replace(POOL_PASS, '••••••••').replace(/\n$/, ''));
		});

		it('get prints one value, a secret masked, an object without the outer indentation', async () => {
			expect(await configGet({client, path: 'print-time'})).toEqual({exitCode: 0, lines: ['60'], subject: 'miner'});
			expect(await configGet({client, path: 'pools.0.tls'})).toEqual({exitCode: 0, lines: ['true'], subject: 'miner'});
			expect(await configGet({client, path: `${api}.access-token`})).toEqual({exitCode: 0, lines: ['"••••••••"'], subject: 'miner'});
			expect(await configGet({client, path: 'pools.0.pass'})).toEqual({exitCode: 0, lines: ['"••••••••"'], subject: 'miner'});
			const section = await configGet({client, path: api});
			expect(section.lines[0]).toBe('{');
			expect(section.lines.at(-1)).toBe('}');
			expect(section.lines.join('\n')).not.toContain(TOKEN);
			expect(JSON.parse(section.lines.join('\n').replace('"••••••••"', 'null'))).toMatchObject({restricted: false});
			expect(await configGet({client, path: 'no.such.key'})).toEqual({
				exitCode: 1,
				lines: ["the miner's config has no key no.such.key"],
				subject: 'miner',
			});
			const key = dialect === '6' ? 'cpu.huge-page' : 'huge-page';
			expect(await configGet({client, path: key})).toEqual({
				exitCode: 1,
				lines: [`the miner's config has no key ${key}: did you mean ${dialect === '6' ? 'cpu.huge-pages' : 'huge-pages'}?`],
				subject: 'miner',
			});
		});

		it('set applies with backup and verification; exit 0 when every change applied', async () => {
			const before = sim.configText();
			const result = await configSet({
				...common(),
				assignments: ['print-time=30', 'colors=false', 'pools.0.pass=new-pool-pass'],
				confirmApiChanges: false,
			});
			expect(result.lines.slice(0, 3)).toEqual([
				'print-time: 60 → 30  applied',
				'colors: true → false  applied',
				'pools.0.pass: •••••••• (changed)  applied',
			]);
			expect(result.lines.at(-1)).toMatch(/^backup: .*\.json$/);
			expect(result.exitCode).toBe(0);
			expect(sim.configText()).toBe(
				before
					.replace('"print-time": 60', '"print-time": 30')
					.replace('"colors": true', '"colors": false')
					.replace(POOL_PASS, 'new-pool-pass'),
			);
			expect(readdirSync(temp.dir)).toHaveLength(1);
			expect(result.lines.join('\n')).not.toMatch(/new-pool-pass|scripted-pool-pass|scripted-token/);
		});

		it('set refuses bad values and unknown keys with the reason, and sends nothing', async () => {
			const bad = await configSet({...common(), assignments: ['print-time=99999', 'nope.deep=1'], confirmApiChanges: true});
			expect(bad).toEqual({
				exitCode: 2,
				lines: [
					"the miner's config has no key nope.deep",
					'print-time must be a whole number from 0 to 3600 (not 99999)',
					'nothing was sent; to add a key the config does not have, run again with --add',
				],
				subject: 'miner',
			});
			expect(await configSet({...common(), assignments: ['print-time=99999'], confirmApiChanges: true})).toEqual({
				exitCode: 1,
				lines: ['print-time must be a whole number from 0 to 3600 (not 99999)', 'nothing was applied'],
				subject: 'miner',
			});
			expect(await configSet({...common(), assignments: ['print-time'], confirmApiChanges: true})).toMatchObject({
				exitCode: 1,
				lines: [expect.stringMatching(/expected PATH=VALUE/)],
			});
			expect(await configSet({...common(), assignments: [], confirmApiChanges: true})).toMatchObject({exitCode: 1});
			expect(await configSet({...common(), assignments: ['print-time=60'], confirmApiChanges: true})).toEqual({
				exitCode: 0,
				lines: ['nothing to change: the miner already has these values'],
				subject: 'miner',
			});
			expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
		});

		it('set refuses a key the miner does not have before any backup or PUT, exit 2, with the closest keys', async () => {
			const key = dialect === '6' ? 'cpu.hugepages' : 'hugepages';
			const typo = await configSet({...common(), assignments: [`${key}=false`], confirmApiChanges: true});
			expect(typo).toEqual({
				exitCode: 2,
				lines: [
					`the miner's config has no key ${key}: did you mean ${dialect === '6' ? 'cpu.huge-pages' : 'huge-pages'}?`,
					'nothing was sent; to add a key the config does not have, run again with --add',
				],
				subject: 'miner',
			});
			const far = await configSet({...common(), assignments: ['zzzzzzzz=1'], confirmApiChanges: true});
			expect(far.lines[0]).toBe("the miner's config has no key zzzzzzzz");
			expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
			expect(readdirSync(temp.dir)).toHaveLength(0);
		});

		it('set --add sends a new key on purpose; a 6.x miner drops a key it does not know, and that is reported', async () => {
			const key = dialect === '6' ? 'cpu.hugepages' : 'hugepages';
			const before = sim.configText();
			const added = await configSet({...common(), assignments: [`${key}=false`], confirmApiChanges: true, addKeys: true});
			expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(1);
			expect(readdirSync(temp.dir)).toHaveLength(1);
			if (dialect === '6') {
				// XMRig 5.x/6.x serve and save their config from their own objects: the key is gone.
				expect(added.exitCode).toBe(1);
				expect(added.lines[0]).toBe(`${key}: (absent) → false  NOT applied (the miner did not keep this key)`);
				expect(sim.configText()).toBe(before);
			} else {
				expect(added.exitCode).toBe(0);
				expect(sim.configText()).toContain('"hugepages": false');
			}
		});

		it('set asks for confirmation before an API change, then applies it and uses the new token', async () => {
			const refused = await configSet({...common(), assignments: [`${api}.access-token=brand-new-token`], confirmApiChanges: false});
			expect(refused.exitCode).toBe(1);
			expect(refused.lines).toEqual([
				`${api}.access-token: •••••••• (changed)`,
				`${api}.access-token can cut rigtop off from the miner's API; nothing was applied: run again with --yes to confirm`,
			]);
			expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
			const applied = await configSet({...common(), assignments: [`${api}.access-token=brand-new-token`], confirmApiChanges: true});
			expect(applied.exitCode).toBe(0);
			expect(applied.lines).toContain('rigtop now uses the new access token');
			expect(applied.lines.join('\n')).not.toContain('brand-new-token');
			expect((await configGet({client, path: 'print-time'})).exitCode).toBe(0);
		});
	});
}

describe('config set against a miner that never applies', () => {
	it('exits 1 and says which keys did not apply and what the miner has', async () => {
		const text = v6Config();
		const server = await startReplayServer((request) => (request.method === 'PUT' ? {status: 204} : json(text)));
		const client = new MinerClient({url: server.url, token: 'testtoken'});
		const temp = tempDir('rigtop-scripted-stuck-');
		try {
			const result = await configSet({
				client,
				assignments: ['randomx.mode=fast'],
				confirmApiChanges: false,
				backupDir: temp.dir,
				verifyTimeoutMs: 200,
				verifyIntervalMs: 50,
			});
			expect(result.exitCode).toBe(1);
			expect(result.lines[0]).toBe('randomx.mode: "auto" → "fast"  NOT applied (the miner has "auto")');
			expect(result.lines.at(-1)).toMatch(/^0 of 1 changes applied \(not confirmed: randomx\.mode\); your config as it was is saved in /);
		} finally {
			await client.close();
			await server.close();
			temp.remove();
		}
	});

	it('get reports an unreachable miner with exit 1', async () => {
		const server = await startReplayServer(() => json('{}'));
		const url = server.url;
		await server.close();
		const client = new MinerClient({url, token: null});
		try {
			const result = await configGet({client});
			expect(result.exitCode).toBe(1);
			expect(result.lines[0]).toMatch(/^could not read its config: connection refused — /);
		} finally {
			await client.close();
		}
	});
});
