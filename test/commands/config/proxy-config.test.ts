/**
 * `rigtop config get|set` against a simulated xmrig-proxy (its /1/config, GET and PUT as on the miner): the proxy's
 * own keys are known (mode, bind, workers, custom-diff, access-password, reuse-timeout), its secrets masked.
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {ConfigCommandOptions} from '../../../source/commands/config/config.js';
import {startSimulator} from '../../../source/sim/simulator.js';
import type {ProxySimulator} from '../../../source/sim/proxy-simulator.js';
import {runConfig, type Captured} from './helpers.js';
import {tempDir} from '../../config/helpers/fixtures.js';

const TOKEN = 'proxy-config-token-41';
const POOL_PASS = 'proxy-pool-pass-62';
const ACCESS_PASSWORD = 'proxy-miners-login-83';

let sim: ProxySimulator;
let temp: ReturnType<typeof tempDir>;

beforeEach(async () => {
	sim = await startSimulator({kind: 'proxy', token: TOKEN, restricted: false, seed: 5, workers: 3, applyDelayMs: 100});
	const text = sim.configText();
	const withSecrets = text
		.replace(/"pass": "[^"]*"/, `"pass": "${POOL_PASS}"`)
		.replace('"access-password": null', `"access-password": "${ACCESS_PASSWORD}"`);
	expect(withSecrets).toContain(POOL_PASS);
	expect(withSecrets).toContain(ACCESS_PASSWORD);
	sim.setConfigText(withSecrets);
	temp = tempDir('rigtop-proxy-config-');
});

afterEach(async () => {
	await sim.stop();
	temp.remove();
});

async function config(argv: readonly string[], options: Partial<ConfigCommandOptions> = {}): Promise<Captured> {
	return runConfig(argv, {url: sim.url, token: TOKEN, dir: temp.dir, secrets: [TOKEN, POOL_PASS, ACCESS_PASSWORD]}, options);
}

describe('rigtop config against an xmrig-proxy', () => {
	it('get prints its whole config with pools[].pass, access-password and http.access-token masked', async () => {
		const result = await config(['config', 'get']);
		expect(result).toMatchObject({code: 0, err: ''});
		expect(result.out).toContain('"mode": "nicehash"');
		expect(result.out).toContain('"bind": [');
		expect(result.out).toMatch(/"pass": "••••••••"/);
		expect(result.out).toMatch(/"access-password": "••••••••"/);
		expect(result.out).toMatch(/"access-token": "••••••••"/);
		expect(await config(['get', 'access-password'])).toEqual({code: 0, out: '"••••••••"\n', err: ''});
		expect(await config(['get', 'pools.0.pass'])).toEqual({code: 0, out: '"••••••••"\n', err: ''});
		expect(await config(['get', 'workers'])).toEqual({code: 0, out: 'true\n', err: ''});
		expect(await config(['get', 'cpu.huge-pages'])).toEqual({
			code: 1,
			out: '',
			err: "rigtop: the proxy's config has no key cpu.huge-pages\n",
		});
		expect(await config(['get', 'custom-dif'])).toEqual({
			code: 1,
			out: '',
			err: "rigtop: the proxy's config has no key custom-dif: did you mean custom-diff?\n",
		});
	});

	it("set changes the proxy's own keys, with backup and read back; a mode it does not have is refused", async () => {
		const before = sim.configText();
		const result = await config(['set', 'mode=simple', 'custom-diff=5000', 'reuse-timeout=30', 'bind.0.port=3334']);
		expect(result.err).toBe('');
		expect(result.code).toBe(0);
		expect(result.out.trimEnd().split('\n').slice(0, 4)).toEqual([
			'mode: "nicehash" → "simple"  applied',
			'custom-diff: 0 → 5000  applied',
			'reuse-timeout: 0 → 30  applied',
			'bind.0.port: 3333 → 3334  applied',
		]);
		expect(sim.configText()).toContain('"mode": "simple"');
		expect(sim.configText()).toContain('"custom-diff": 5000');
		expect(sim.configText()).not.toBe(before);
		const bad = await config(['set', 'mode=turbo']);
		expect(bad).toEqual({
			code: 1,
			out: '',
			err: 'rigtop: mode must be "nicehash", "simple", "extra_nonce" (not "turbo")\nnothing was applied\n',
		});
		expect(sim.configText()).toContain('"mode": "simple"');
	});

	it('--read-only refuses a set before anything is read, without calling the proxy a miner', async () => {
		const before = sim.configText();
		expect(await config(['set', 'mode=simple'], {readOnly: true})).toEqual({
			code: 1,
			out: '',
			err: 'rigtop: config set would write, but --read-only turns every write off; nothing was sent\n',
		});
		expect(sim.configText()).toBe(before);
	});

	it('a new access-password is sent, never printed', async () => {
		const fresh = 'proxy-new-login-19';
		const result = await config(['set', `access-password=${fresh}`]);
		expect(result.code).toBe(0);
		expect(result.out).not.toContain(fresh);
		expect(sim.configText()).toContain(`"access-password": "${fresh}"`);
	});
});
