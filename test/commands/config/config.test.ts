/**
 * `rigtop config get|set` end to end through discovery (URL + token from RIGTOP_TOKEN or a token
 * file), the real client and the simulated miner, plus a recorded-style miner for conflict and 400.
 */
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import type {ConfigCommandOptions} from '../../../source/commands/config/config.js';
import {runHistoryCommand} from '../../../source/commands/history/history.js';
import {HistoryReader} from '../../../source/history/read.js';
import {HistoryStore} from '../../../source/history/store.js';
import {HistoryWriter} from '../../../source/history/writer.js';
import {goodSample, observation} from '../../history/helpers.js';
import {startSimulator, type Simulator} from '../../../source/sim/simulator.js';
import {runConfig, type Captured} from './helpers.js';
import {tempDir, v6Config} from '../../config/helpers/fixtures.js';
import {json, startReplayServer} from '../../config/helpers/replay-server.js';

const TOKEN = 'cli-config-token-77';
const POOL_PASS = 'cli-pool-password-3';

let sim: Simulator;
let temp: ReturnType<typeof tempDir>;

beforeEach(async () => {
	sim = await startSimulator({dialect: '6', token: TOKEN, restricted: false, seed: 11, applyDelayMs: 150});
	sim.setConfigText(sim.configText().replace('"pass": "sim-rig"', `"pass": "${POOL_PASS}"`));
	temp = tempDir('rigtop-config-cli-');
});

afterEach(async () => {
	await sim.stop();
	temp.remove();
});

async function config(argv: readonly string[], options: Partial<ConfigCommandOptions> = {}): Promise<Captured> {
	return runConfig(argv, {url: sim.url, token: TOKEN, dir: temp.dir, secrets: [TOKEN, POOL_PASS]}, options);
}

const openStores: HistoryStore[] = [];
afterEach(() => {
	for (const store of openStores.splice(0)) store.close();
});
const cleanupStore = (store: HistoryStore) => openStores.push(store);

const puts = () => sim.requests.filter((request) => request.method === 'PUT');

describe('rigtop config get', () => {
	it('prints the whole config with the secrets masked', async () => {
		const result = await config(['config', 'get']);
		expect(result.code).toBe(0);
		expect(result.err).toBe('');
		expect(result.out).toBe(`${sim.configText().replace(TOKEN, '••••••••').replace(POOL_PASS, '••••••••').replace(/\n$/, '')}\n`);
	});

	it('prints one value; a secret masked; an unknown key exits 1', async () => {
		expect(await config(['get', 'cpu.huge-pages'])).toEqual({code: 0, out: 'true\n', err: ''});
		expect(await config(['get', 'pools.0.pass'])).toEqual({code: 0, out: '"••••••••"\n', err: ''});
		expect(await config(['get', 'no.such'])).toEqual({code: 1, out: '', err: "rigtop: the miner's config has no key no.such\n"});
	});

	it('a key the miner does not have: the closest keys, as config set says them', async () => {
		expect(await config(['get', 'cpu.huge-page'])).toEqual({
			code: 1,
			out: '',
			err: "rigtop: the miner's config has no key cpu.huge-page: did you mean cpu.huge-pages?\n",
		});
	});

	it('takes the address after the command and the token from a token file', async () => {
		const tokenFile = path.join(temp.dir, 'token');
		writeFileSync(tokenFile, `${TOKEN}\n`, {mode: 0o600});
		const result = await config(['get', 'http.restricted', sim.url.replace('http://', '')], {urls: [], tokenEnv: undefined, tokenFile});
		expect(result).toEqual({code: 0, out: 'false\n', err: ''});
	});

	it("with --rigs, an address given is that miner alone: the file's rigs are added only when a word names one", async () => {
		const rigs = path.join(temp.dir, 'rigs.json');
		writeFileSync(
			rigs,
			JSON.stringify([
				{name: 'alpha', url: '127.0.0.1:9'},
				{name: 'beta', url: '127.0.0.1:10'},
			]),
		);
		const address = sim.url.replace('http://', '');
		const result = await config(['get', 'http.restricted', address], {urls: [], rigsFile: rigs});
		expect(result).toEqual({code: 0, out: 'false\n', err: ''});
		// A word naming a rig: that rig (here unreachable), not the address's miner beside the others.
		expect((await config(['get', 'http.restricted', 'alpha'], {urls: [], rigsFile: rigs})).code).toBe(1);
	});

	it('a wrong token exits 1 with the 403 fix in plain words', async () => {
		const result = await config(['get'], {tokenEnv: 'not-the-token-1'});
		expect(result.code).toBe(1);
		expect(result.out).toBe('');
		// The summary is refused too (that is how a wrong token is told from restricted mode).
		expect(result.err).toMatch(
			/^rigtop: the miner refused rigtop's token \(403\) — use the value of http\.access-token .*from the miner's config/,
		);
		expect(result.err).not.toContain('not-the-token-1');
	});

	it('no token for a miner that wants one exits 1 and says how to give it', async () => {
		const result = await config(['get'], {tokenEnv: undefined});
		expect(result.code).toBe(1);
		expect(result.err).toContain('(401)');
		expect(result.err).toContain('--token-file or RIGTOP_TOKEN');
	});
});

describe('rigtop config get against an xmrig-proxy', () => {
	it("masks the proxy's access-password (the password its miners log in with) with the token and pool passwords", async () => {
		const minersPassword = 'proxy-login-password-5';
		const proxy = await startSimulator({kind: 'proxy', token: TOKEN, restricted: false, seed: 3, workers: 2, lifeEvents: false});
		try {
			proxy.setConfigText(proxy.configText().replace('"access-password": null', `"access-password": "${minersPassword}"`));
			expect(proxy.configText()).toContain(minersPassword);
			const whole = await config(['get'], {urls: [proxy.url]});
			expect(whole.code).toBe(0);
			expect(whole.out).toContain('"access-password": "••••••••"');
			expect(whole.out).not.toContain(minersPassword);
			expect(await config(['get', 'access-password'], {urls: [proxy.url]})).toEqual({code: 0, out: '"••••••••"\n', err: ''});
		} finally {
			await proxy.stop();
		}
	});
});

describe('rigtop config set against an xmrig-proxy', () => {
	it('refuses a mode the proxy does not have, naming the ones it has; nothing is sent', async () => {
		const proxy = await startSimulator({kind: 'proxy', token: TOKEN, restricted: false, seed: 4, workers: 1, lifeEvents: false});
		try {
			const bad = await config(['set', 'mode=nicehsah'], {urls: [proxy.url]});
			expect(bad).toMatchObject({
				code: 1,
				err: 'rigtop: mode must be "nicehash", "simple", "extra_nonce" (not "nicehsah")\nnothing was applied\n',
			});
			expect(proxy.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
			expect(proxy.configText()).toContain('"mode": "nicehash"');
		} finally {
			await proxy.stop();
		}
	});

	it('takes a workers mode by name as the proxy does (true, false, or rig_id, user, password, agent, ip)', async () => {
		const proxy = await startSimulator({kind: 'proxy', token: TOKEN, restricted: false, seed: 5, workers: 1, lifeEvents: false});
		try {
			const byUser = await config(['set', 'workers=user'], {urls: [proxy.url]});
			expect(byUser.code, byUser.err).toBe(0);
			expect(byUser.out).toContain('workers: true → "user"  applied');
			expect(proxy.configText()).toContain('"workers": "user"');
			const bad = await config(['set', 'workers=users'], {urls: [proxy.url]});
			expect(bad.code).toBe(1);
			expect(bad.err).toContain('workers must be');
			expect(bad.err).toContain('(not "users")');
			expect(proxy.configText()).toContain('"workers": "user"');
		} finally {
			await proxy.stop();
		}
	});
});

describe('rigtop config set', () => {
	it('applies with backup and read back, prints each key applied, exits 0; the miner changed in those keys only', async () => {
		const before = sim.configText();
		const result = await config(['config', 'set', 'cpu.huge-pages=false', 'randomx.mode=fast']);
		expect(result.err).toBe('');
		expect(result.code).toBe(0);
		const lines = result.out.trimEnd().split('\n');
		expect(lines.slice(0, 2)).toEqual(['cpu.huge-pages: true → false  applied', 'randomx.mode: "auto" → "fast"  applied']);
		expect(lines.at(-1)).toMatch(/^backup: .*backups\/127\.0\.0\.1_\d+_.*\.json$/);
		expect(sim.configText()).toBe(before.replace('"huge-pages": true', '"huge-pages": false').replace('"mode": "auto"', '"mode": "fast"'));
		expect(readdirSync(path.join(temp.dir, 'backups'))).toHaveLength(1);
	});

	it('records the apply in the history store as the config view does, so rigtop history shows it; never a secret', async () => {
		const historyFile = path.join(temp.dir, 'state', 'rigtop', 'history.sqlite');
		const newPass = 'cli-new-pool-pass-91';
		const result = await config(['set', 'cpu.huge-pages=false', `pools.0.pass=${newPass}`], {historyFile});
		expect(result.code).toBe(0);
		expect(result.err).toBe('');
		let out = '';
		const code = await runHistoryCommand({
			urls: [sim.url],
			since: '1h',
			until: undefined,
			json: true,
			csv: false,
			list: false,
			tokenFile: undefined,
			tokenEnv: TOKEN,
			tokenFlag: undefined,
			configPath: undefined,
			file: historyFile,
			discovery: {homeDir: temp.dir, procRoot: path.join(temp.dir, 'no-proc')},
			stdout: {write: (text: string) => (out += text)},
			stderr: {write: () => true},
		});
		expect(code).toBe(0);
		const doc = JSON.parse(out) as {
			miner: {name: string; id: string; workerId: string};
			events: {kind: string; severity: string; text: string}[];
		};
		// Named as the exporter names it (no rigs file: host:port), the worker id beside.
		expect(doc.miner.name).toBe(`127.0.0.1:${sim.port}`);
		expect(doc.miner.workerId).toBe('sim-rig');
		expect(doc.miner.id).toMatch(/^[0-9a-f]{16}$/);
		// The config view's event: kind 'action', "config apply: " and the apply's own message, naming each key changed
		// as a batch's event does (a secret only "changed").
		expect(doc.events).toEqual([
			{
				kind: 'action',
				severity: 'info',
				time: expect.any(String),
				text: expect.stringMatching(
					/^config apply: applied 2 changes: cpu\.huge-pages: true → false; pools\.0\.pass: •+ \(changed\); your config as it was is saved in .*backups\/.*\.json$/,
				),
			},
		]);
		for (const file of readdirSync(path.dirname(historyFile))) {
			const bytes = readFileSync(path.join(path.dirname(historyFile), file));
			for (const secret of [TOKEN, POOL_PASS, newPass]) expect(bytes.includes(secret)).toBe(false);
		}
	});

	it('records an api.id change under the miner it was made to, not as a new one', async () => {
		const historyFile = path.join(temp.dir, 'state', 'rigtop', 'history.sqlite');
		const answer = await fetch(`${sim.url}/2/summary`, {headers: {Authorization: `Bearer ${TOKEN}`}});
		const summary = (await answer.json()) as {id: string; worker_id: string; uptime: number};
		// The miner as a rigtop watching it stored it.
		const store = HistoryStore.open({file: historyFile, notify: () => undefined});
		const facts = {apiId: summary.id, workerId: summary.worker_id, kind: 'miner', uptimeS: summary.uptime};
		new HistoryWriter(store).write([observation(goodSample(Date.now(), 1000), facts, {url: sim.url, name: 'sim-rig'})], []);
		store.close();
		const result = await config(['set', 'api.id=my-rig-id'], {historyFile, yes: true});
		expect(result.code).toBe(0);
		const after = HistoryStore.open({file: historyFile, readOnly: true});
		cleanupStore(after);
		const reader = new HistoryReader(after);
		const miners = reader.miners();
		expect(miners.map((miner) => miner.apiId)).toEqual([summary.id]);
		expect(reader.events(miners[0]?.id ?? -1, {since: 0}).map((event) => event.text)).toEqual([
			expect.stringMatching(/^config apply: applied 1 change: api\.id: null → "my-rig-id"; /),
		]);
	});

	it('records nothing with --no-history, nor when nothing was applied', async () => {
		const historyFile = path.join(temp.dir, 'state', 'rigtop', 'history.sqlite');
		expect((await config(['set', 'cpu.huge-pages=false'], {historyFile, history: false})).code).toBe(0);
		expect((await config(['set', 'no.such=1'], {historyFile})).code).toBe(2);
		expect(existsSync(historyFile)).toBe(false);
	});

	it('an API change needs --yes; a bad value is refused; --read-only refuses set; nothing is sent', async () => {
		const guarded = await config(['set', 'http.restricted=true']);
		expect(guarded.code).toBe(1);
		expect(guarded.err).toContain(
			"http.restricted can cut rigtop off from the miner's API; nothing was applied: run again with --yes to confirm",
		);
		const bad = await config(['set', 'print-time=-1']);
		expect(bad).toMatchObject({code: 1, err: 'rigtop: print-time must be a whole number from 0 to 3600 (not -1)\nnothing was applied\n'});
		const readOnly = await config(['set', 'colors=false'], {readOnly: true});
		expect(readOnly.code).toBe(1);
		expect(readOnly.err).toContain('--read-only');
		expect(puts()).toHaveLength(0);
	});

	it('bad usage exits 2 with the usage', async () => {
		expect((await config([])).code).toBe(2);
		expect((await config(['config', 'frobnicate'])).err).toMatch(/unknown config command "frobnicate"/);
		expect((await config(['set'])).code).toBe(2);
		expect((await config(['set', 'colors'])).err).toContain('PATH=VALUE');
		expect((await config(['get', 'a', 'b'])).code).toBe(2);
	});

	it('more than one miner is refused: config works on one', async () => {
		const other = await startSimulator({dialect: '6', token: TOKEN, restricted: false, seed: 12});
		try {
			const result = await config(['get'], {urls: [sim.url, other.url]});
			expect(result.code).toBe(2);
			expect(result.err).toContain('config works on one miner at a time, and 2 were found');
		} finally {
			await other.stop();
		}
	});

	it('a miner that cannot be reached: exit 1 with the reason', async () => {
		const url = sim.url;
		await sim.stop();
		const result = await config(['get'], {urls: [url]});
		expect(result.code).toBe(1);
		expect(result.err).toMatch(/^rigtop: could not read its config: connection refused — /);
		await sim.start();
	});
});

describe('rigtop config set against a miner that changes or refuses', () => {
	it('the config changed between the read and the apply: conflict, exit 1, nothing sent', async () => {
		const text = v6Config();
		let gets = 0;
		const server = await startReplayServer((request) => {
			if (request.method !== 'GET') return {status: 204};
			gets += 1;
			return json(gets === 1 ? text : text.replace('"print-time": 60', '"print-time": 10'));
		});
		try {
			const result = await config(['set', 'colors=true'], {urls: [server.url], tokenEnv: 'testtoken'});
			expect(result.code).toBe(1);
			expect(result.err).toMatch(/^rigtop: the miner's config changed since rigtop read it \(1 difference\); nothing was applied/);
			expect(result.err).toContain('  print-time: 60 → 10 (changed on the miner)');
			expect(server.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
		} finally {
			await server.close();
		}
	});

	it('the miner refuses the PUT (400): exit 1 with its message; the backup is on disk', async () => {
		const text = v6Config();
		const server = await startReplayServer((request) =>
			request.method === 'PUT' ? {status: 400, body: '{"error":"Bad Request","msg":"pools: at least one enabled pool"}'} : json(text),
		);
		try {
			const result = await config(['set', 'pools.0.enabled=false'], {urls: [server.url], tokenEnv: 'testtoken'});
			expect(result.code).toBe(1);
			expect(result.err).toContain('the miner rejected the new config (400); nothing was changed');
			expect(result.err).toContain('fix: check the values you set');
			expect(readdirSync(path.join(temp.dir, 'backups'))).toHaveLength(1);
		} finally {
			await server.close();
		}
	});
});

describe('config set with a key the miner does not have', () => {
	it('is bad usage: exit 2, the closest key suggested, nothing backed up or sent; --add sends it', async () => {
		const typo = await config(['config', 'set', 'cpu.hugepages=false']);
		expect(typo.code).toBe(2);
		expect(typo.out).toBe('');
		expect(typo.err).toBe(
			"rigtop: the miner's config has no key cpu.hugepages: did you mean cpu.huge-pages?\n" +
				'nothing was sent; to add a key the config does not have, run again with --add\n',
		);
		expect(puts()).toHaveLength(0);
		expect(readdirSync(temp.dir)).not.toContain('backups');

		const added = await config(['config', 'set', 'cpu.hugepages=false'], {add: true});
		expect(puts()).toHaveLength(1);
		// The simulated 6.x miner, like a real one, drops a key it does not know.
		expect(added.code).toBe(1);
		expect(added.err).toContain('NOT applied (the miner did not keep this key)');
	});
});
