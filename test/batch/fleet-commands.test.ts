/**
 * The batch commands (`rigtop pause|resume`, `config set --rigs`, `config apply`, `config undo`) against a fleet of
 * simulated miners of every dialect on loopback: one down, one that cannot pause, one lacking the key. Each rig's line,
 * the summary, the exit code, the miners' config text, the backups and the history events are asserted.
 */
import {readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {runBatchCommand, type BatchPlan} from '../../source/commands/batch/batch.js';
import {HistoryReader} from '../../source/history/read.js';
import {HistoryStore} from '../../source/history/store.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {tempDir} from '../config/helpers/fixtures.js';

const TOKEN = 'batch-fleet-token-41';
const POOL_PASS = 'batch-pool-password-9';

type Fleet = {v6: Simulator; v5: Simulator; v216: Simulator; v214: Simulator; nojit: Simulator; down: Simulator};
let fleet: Fleet;
let temp: ReturnType<typeof tempDir>;
let rigsFile: string;

const sims = () => Object.values(fleet) as Simulator[];

beforeEach(async () => {
	const start = async (dialect: '6' | '5' | '2' | '2.14', workerId: string) =>
		startSimulator({dialect, token: TOKEN, restricted: false, seed: 5, applyDelayMs: 40, workerId});
	fleet = {
		v6: await start('6', 'rig-6'),
		v5: await start('5', 'rig-5'),
		v216: await start('2', 'rig-216'),
		v214: await start('2.14', 'rig-214'),
		nojit: await start('6', 'rig-nojit'),
		down: await start('6', 'rig-down'),
	};
	fleet.v6.setConfigText(fleet.v6.configText().replace('"pass": "rig-6"', `"pass": "${POOL_PASS}"`));
	fleet.nojit.setConfigText(fleet.nojit.configText().replace(/\s*"huge-pages-jit": false,/, ''));
	await fleet.down.stop();
	temp = tempDir('rigtop-batch-');
	writeFileSync(path.join(temp.dir, 'token-6'), `${TOKEN}\n`, {mode: 0o600});
	rigsFile = path.join(temp.dir, 'rigs.json');
	const rigs = [
		{name: 'rig-6', url: fleet.v6.url, tokenFile: 'token-6'},
		{name: 'rig-5', url: fleet.v5.url},
		{name: 'rig-216', url: fleet.v216.url},
		{name: 'rig-214', url: fleet.v214.url},
		{name: 'rig-nojit', url: fleet.nojit.url},
		{name: 'rig-down', url: fleet.down.url},
	];
	writeFileSync(rigsFile, JSON.stringify(rigs));
});

afterEach(async () => {
	for (const sim of sims()) await sim.stop();
	temp.remove();
});

async function batch(words: readonly string[], options: Partial<BatchPlan> = {}): Promise<{code: number; out: string; err: string}> {
	let out = '';
	let err = '';
	const code = await runBatchCommand({
		words,
		urls: [],
		rigsFile,
		tokenFile: undefined,
		tokenEnv: TOKEN,
		tokenFlag: undefined,
		configPath: undefined,
		dryRun: false,
		parallel: undefined,
		yes: false,
		add: false,
		readOnly: false,
		backupDir: path.join(temp.dir, 'backups'),
		historyFile: path.join(temp.dir, 'history.sqlite'),
		verifyIntervalMs: 30,
		verifyTimeoutMs: 2000,
		requestTimeoutMs: 3000,
		discovery: {homeDir: temp.dir, procRoot: path.join(temp.dir, 'no-proc')},
		signal: new AbortController().signal,
		stdout: {write: (text: string) => (out += text)},
		stderr: {write: (text: string) => (err += text)},
		...options,
	});
	for (const secret of [TOKEN, POOL_PASS]) {
		expect(out).not.toContain(secret);
		expect(err).not.toContain(secret);
	}

	return {code, out, err};
}

/** Each rig's line, by name (the name column is padded). */
function lineOf(out: string, name: string): string {
	const line = out.split('\n').find((item) => item.startsWith(`${name} `));
	return (line ?? '').slice(name.length).trim();
}

function eventsOf(file: string): Map<string, string[]> {
	const store = HistoryStore.open({file, readOnly: true});
	try {
		const reader = new HistoryReader(store);
		return new Map(reader.miners().map((miner) => [miner.url, reader.events(miner.id, {since: 0}).map((event) => event.text)]));
	} finally {
		store.close();
	}
}

describe('rigtop config set PATH=VALUE --rigs FILE', () => {
	it('applies on the rigs that have the key, says why for the rest, exits 1, in the rigs file order', async () => {
		const before = Object.fromEntries(Object.entries(fleet).map(([key, sim]) => [key, sim.configText()]));
		const result = await batch(['config', 'set', 'cpu.huge-pages-jit=true']);
		expect(result.code).toBe(1);
		const names = result.out
			.split('\n')
			.filter((line) => line.startsWith('rig-'))
			.map((line) => line.split(' ')[0]);
		expect(names).toEqual(['rig-6', 'rig-5', 'rig-216', 'rig-214', 'rig-nojit', 'rig-down']);
		expect(lineOf(result.out, 'rig-6')).toBe('applied  cpu.huge-pages-jit: false → true');
		expect(lineOf(result.out, 'rig-5')).toBe('applied  cpu.huge-pages-jit: false → true');
		expect(lineOf(result.out, 'rig-216')).toMatch(/^failed {2}lacks cpu\.huge-pages-jit(: did you mean [^(]*)?$/);
		expect(lineOf(result.out, 'rig-214')).toMatch(/^failed {2}lacks cpu\.huge-pages-jit/);
		expect(lineOf(result.out, 'rig-nojit')).toBe('failed  lacks cpu.huge-pages-jit (--add adds it)');
		expect(lineOf(result.out, 'rig-down')).toMatch(/^unreachable {2}down: /);
		expect(result.out.trimEnd().split('\n').at(-1)).toBe('6 rigs: ok=0 changed=2 skipped=0 failed=3 unreachable=1');
		expect(fleet.v6.configText()).toContain('"huge-pages-jit": true');
		expect(fleet.v5.configText()).toContain('"huge-pages-jit": true');
		// Only that key changed on the applied rigs; the others are byte for byte as they were.
		expect(fleet.v6.configText()).toBe(before['v6']?.replace('"huge-pages-jit": false', '"huge-pages-jit": true'));
		for (const key of ['v216', 'v214', 'nojit'] as const) expect(fleet[key].configText()).toBe(before[key]);
	});

	it('--add adds the key where its section exists; every rig applied or already so exits 0', async () => {
		writeFileSync(
			rigsFile,
			JSON.stringify([
				{name: 'rig-6', url: fleet.v6.url},
				{name: 'rig-nojit', url: fleet.nojit.url},
			]),
		);
		const result = await batch(['config', 'set', 'cpu.huge-pages-jit=false'], {add: true});
		expect(result.code).toBe(0);
		expect(lineOf(result.out, 'rig-6')).toBe('already so');
		expect(lineOf(result.out, 'rig-nojit')).toBe('applied  cpu.huge-pages-jit: (absent) → false');
		expect(result.out.trimEnd().split('\n').at(-1)).toBe('2 rigs: ok=1 changed=1 skipped=0 failed=0 unreachable=0');
	});

	it("--dry-run prints each rig's diff and changes nothing", async () => {
		const before = sims().map((sim) => sim.configText());
		const result = await batch(['config', 'set', 'cpu.huge-pages-jit=true', 'pools.0.pass=new-secret-pass'], {dryRun: true});
		expect(sims().map((sim) => sim.configText())).toEqual(before);
		expect(fleet.v6.requests.filter((request) => request.method === 'PUT')).toEqual([]);
		expect(lineOf(result.out, 'rig-6')).toBe('would change 2 keys');
		expect(result.out).toContain('    cpu.huge-pages-jit: false → true\n');
		expect(result.out).toContain('    pools.0.pass: •••••••• (changed)\n');
		expect(result.out).not.toContain('new-secret-pass');
		expect(result.code).toBe(1); // the rigs lacking the key and the down one
	});

	it('refuses http.* / api.* changes on every rig without --yes', async () => {
		writeFileSync(rigsFile, JSON.stringify([{name: 'rig-6', url: fleet.v6.url}]));
		const result = await batch(['config', 'set', 'http.restricted=true']);
		expect(result.code).toBe(1);
		expect(lineOf(result.out, 'rig-6')).toBe("failed  http.restricted can cut rigtop off from the miner's API: --yes confirms it");
		expect(fleet.v6.configText()).toContain('"restricted": false');
	});

	it('bad usage exits 2 and sends nothing', async () => {
		expect((await batch(['config', 'set', '=3'])).code).toBe(2);
		expect((await batch(['config', 'set', 'cpu.x=1'], {rigsFile: path.join(temp.dir, 'none.json')})).code).toBe(2);
		expect((await batch(['config', 'apply', path.join(temp.dir, 'no-patch.json')])).code).toBe(2);
		writeFileSync(path.join(temp.dir, 'bad.json'), '{"cpu": ');
		const bad = await batch(['config', 'apply', path.join(temp.dir, 'bad.json')]);
		expect(bad.code).toBe(2);
		expect(bad.err).toMatch(/^rigtop: the patch .*bad\.json is /);
		const notAnAddress = await batch(['pause', 'rig-6:notaport']);
		expect(notAnAddress.code).toBe(2);
		expect(notAnAddress.err.split('\n')[0]).toMatch(/^rigtop: .*rig-6:notaport/);
		expect(sims().flatMap((sim) => sim.requests)).toEqual([]);
	});

	it("writes each touched rig's history event, with this rigtop's pid and the result", async () => {
		await batch(['config', 'set', 'cpu.huge-pages-jit=true']);
		const events = eventsOf(path.join(temp.dir, 'history.sqlite'));
		const by = `rigtop pid ${process.pid} on `;
		expect(events.get(fleet.v6.url)).toEqual([
			expect.stringMatching(/^batch config set cpu\.huge-pages-jit \(rigtop pid \d+ on .+, 6 rigs\): applied: read back; backup /),
		]);
		expect(events.get(fleet.v6.url)?.[0]).toContain(by);
		expect(events.get(fleet.v5.url)?.[0]).toContain('): applied: read back; backup ');
		expect(events.get(fleet.v214.url)?.[0]).toContain('): failed: lacks cpu.huge-pages-jit');
		expect(events.get(fleet.nojit.url)?.[0]).toContain('): failed: lacks cpu.huge-pages-jit');
		// The down rig was never reached: nothing is said about it in its history.
		expect(events.has(fleet.down.url)).toBe(false);
	});
});

describe('rigtop config undo --rigs FILE', () => {
	it("puts back each rig's own backup, with its own conflict check", async () => {
		const before6 = fleet.v6.configText();
		const before5 = fleet.v5.configText();
		expect((await batch(['config', 'set', 'cpu.huge-pages-jit=true'])).code).toBe(1);
		// Someone changes rig-5 after the batch: its undo is refused, rig-6's goes through.
		fleet.v5.setConfigText(fleet.v5.configText().replace('"donate-level": 1', '"donate-level": 2'));
		const result = await batch(['config', 'undo']);
		expect(lineOf(result.out, 'rig-6')).toBe('applied  cpu.huge-pages-jit: true → false');
		expect(lineOf(result.out, 'rig-5')).toMatch(
			/^failed {2}its config changed since the batch \(config set cpu\.huge-pages-jit\); nothing was applied$/,
		);
		expect(lineOf(result.out, 'rig-214')).toBe('skipped  no batch change of this rig to undo');
		expect(result.code).toBe(1);
		expect(fleet.v6.configText()).toBe(before6.replace(POOL_PASS, POOL_PASS));
		expect(fleet.v5.configText()).not.toBe(before5);
		expect(fleet.v5.configText()).toContain('"huge-pages-jit": true');
		// A second undo puts the batch's change back (the undo left a record of its own).
		const again = await batch(['config', 'undo']);
		expect(lineOf(again.out, 'rig-6')).toBe('applied  cpu.huge-pages-jit: false → true');
	});
});

describe('rigtop config apply PATCH.json', () => {
	it('merges the patch into each rig: objects merge, null removes, lists replace', async () => {
		writeFileSync(
			rigsFile,
			JSON.stringify([
				{name: 'rig-6', url: fleet.v6.url},
				{name: 'rig-5', url: fleet.v5.url},
			]),
		);
		const patchFile = path.join(temp.dir, 'patch.json');
		writeFileSync(patchFile, JSON.stringify({cpu: {'huge-pages-jit': true, 'memory-pool': null, rx: [0, 1]}, 'donate-level': 1}));
		const result = await batch(['config', 'apply', patchFile], {add: false});
		expect(result.code).toBe(0);
		for (const sim of [fleet.v6, fleet.v5]) {
			const cpu = (JSON.parse(sim.configText()) as {cpu: Record<string, unknown>}).cpu;
			expect(cpu['huge-pages-jit']).toBe(true);
			expect('memory-pool' in cpu).toBe(false);
			expect(cpu['rx']).toEqual([0, 1]);
		}

		expect(lineOf(result.out, 'rig-6')).toBe(
			'applied  cpu.huge-pages-jit: false → true; cpu.memory-pool: false → (absent); cpu.rx: [0,1,2,3] → [0,1]',
		);
		expect(readFileSync(patchFile, 'utf8')).toContain('huge-pages-jit');
	});
});

describe('rigtop config apply: refusals', () => {
	it('a key the rig lacks needs --add, an http.* key --yes; nothing is sent for either', async () => {
		writeFileSync(rigsFile, JSON.stringify([{name: 'rig-6', url: fleet.v6.url}]));
		const before = fleet.v6.configText();
		const lacking = path.join(temp.dir, 'lacking.json');
		writeFileSync(lacking, JSON.stringify({cpu: {'no-such-key': 1}}));
		const refused = await batch(['config', 'apply', lacking]);
		expect([refused.code, lineOf(refused.out, 'rig-6')]).toEqual([1, 'failed  lacks cpu.no-such-key (--add adds it)']);
		const api = path.join(temp.dir, 'api.json');
		writeFileSync(api, JSON.stringify({http: {restricted: true}}));
		const guarded = await batch(['config', 'apply', api]);
		expect(lineOf(guarded.out, 'rig-6')).toBe("failed  http.restricted can cut rigtop off from the miner's API: --yes confirms it");
		// A value refused for a secret key is not echoed (the schema's message quotes the value).
		const secret = path.join(temp.dir, 'secret.json');
		writeFileSync(secret, JSON.stringify({http: {'access-token': 918273645}}));
		const hidden = await batch(['config', 'apply', secret], {yes: true});
		expect(lineOf(hidden.out, 'rig-6')).toBe('failed  http.access-token does not take that value (not shown: it is a secret)');
		expect(hidden.out).not.toContain('918273645');
		expect(fleet.v6.configText()).toBe(before);
		expect(fleet.v6.requests.filter((request) => request.method === 'PUT')).toEqual([]);
	});
});

describe('rigtop pause / resume', () => {
	it('pauses what can pause, reads the state back, says why for the rest', async () => {
		fleet.v5.pause();
		const result = await batch(['pause']);
		expect(result.code).toBe(1);
		expect(lineOf(result.out, 'rig-6')).toBe('applied  paused (read back)');
		expect(lineOf(result.out, 'rig-5')).toBe('already paused');
		expect(lineOf(result.out, 'rig-216')).toMatch(/^failed {2}cannot pause: XMRig 2\.16\.0-beta has no pause or resume in its API/);
		expect(lineOf(result.out, 'rig-214')).toMatch(/^failed {2}cannot pause: XMRig 2\.14\.4 has no pause or resume in its API/);
		expect(lineOf(result.out, 'rig-down')).toMatch(/^unreachable {2}down: /);
		const resumed = await batch(['resume', fleet.v6.url, fleet.v5.url], {rigsFile: undefined});
		expect(resumed.code).toBe(0);
		expect(resumed.out).toContain('applied  running (read back)');
		expect(resumed.out.trimEnd().split('\n').at(-1)).toBe('2 rigs: ok=0 changed=2 skipped=0 failed=0 unreachable=0');
	});

	it('--read-only sends nothing', async () => {
		const result = await batch(['pause'], {readOnly: true});
		expect(result.code).toBe(1);
		expect(result.err).toContain('--read-only');
		expect(fleet.v6.requests).toEqual([]);
	});
});

describe('--json: one JSON document, each rig with its url, name, result and error', () => {
	type Doc = {
		command: string;
		dryRun: boolean;
		ok: boolean;
		rigs: {url: string; name: string; result: string; ok: boolean; reason: string; error: string | null; lines: string[]; sent: boolean}[];
		summary: Record<string, number>;
	};
	const parse = (out: string) => JSON.parse(out) as Doc;

	it('pause and resume: every rig in the file order, exit 1 when one did not; resume of two that can, exit 0', async () => {
		const paused = await batch(['pause'], {json: true});
		expect(paused.code).toBe(1);
		const doc = parse(paused.out);
		expect(doc.command).toBe('pause');
		expect(doc.ok).toBe(false);
		expect(doc.rigs.map((rig) => [rig.name, rig.result])).toEqual([
			['rig-6', 'applied'],
			['rig-5', 'applied'],
			['rig-216', 'failed'],
			['rig-214', 'failed'],
			['rig-nojit', 'applied'],
			['rig-down', 'unreachable'],
		]);
		expect(doc.rigs[0]).toMatchObject({url: fleet.v6.url, ok: true, reason: 'paused (read back)', error: null, sent: true});
		expect(doc.rigs[2]?.error).toMatch(/^cannot pause: XMRig 2\.16\.0-beta has no pause or resume/);
		expect(doc.rigs[5]).toMatchObject({url: fleet.down.url, ok: false, sent: false});
		expect(doc.rigs[5]?.error).toMatch(/^down: /);
		expect(doc.summary).toEqual({rigs: 6, applied: 3, already: 0, planned: 0, skipped: 0, failed: 2, unreachable: 1, cancelled: 0});
		const resumed = await batch(['resume', fleet.v6.url, fleet.v5.url], {rigsFile: undefined, json: true});
		expect(resumed.code).toBe(0);
		expect(parse(resumed.out)).toMatchObject({command: 'resume', ok: true, summary: {rigs: 2, applied: 2}});
	});

	it('config set --dry-run, config set, config apply and config undo: the diff and the keys read back per rig', async () => {
		const dry = parse((await batch(['config', 'set', 'cpu.huge-pages-jit=true'], {json: true, dryRun: true})).out);
		expect(dry).toMatchObject({dryRun: true, ok: false});
		expect(dry.rigs[0]).toMatchObject({name: 'rig-6', result: 'planned', lines: ['cpu.huge-pages-jit: false → true'], sent: false});
		expect(dry.rigs[4]).toMatchObject({name: 'rig-nojit', result: 'failed'});
		expect(dry.rigs[4]?.error).toMatch(/^lacks cpu\.huge-pages-jit/);

		const set = await batch(['config', 'set', 'cpu.huge-pages-jit=true'], {json: true});
		expect(set.code).toBe(1);
		expect(parse(set.out).rigs[1]).toMatchObject({
			name: 'rig-5',
			result: 'applied',
			lines: ['cpu.huge-pages-jit: false → true'],
			error: null,
		});

		writeFileSync(rigsFile, JSON.stringify([{name: 'rig-6', url: fleet.v6.url}]));
		const patchFile = path.join(temp.dir, 'patch.json');
		writeFileSync(patchFile, JSON.stringify({'donate-level': 2}));
		const applied = await batch(['config', 'apply', patchFile], {json: true});
		expect(applied.code).toBe(0);
		expect(parse(applied.out)).toMatchObject({command: 'config apply donate-level', ok: true, rigs: [{name: 'rig-6', result: 'applied'}]});
		const undone = await batch(['config', 'undo'], {json: true});
		expect(undone.code).toBe(0);
		expect(parse(undone.out)).toMatchObject({command: 'config undo', rigs: [{name: 'rig-6', result: 'applied', error: null}]});
	});
});
