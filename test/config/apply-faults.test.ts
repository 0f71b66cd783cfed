/**
 * The safe apply against miners that misbehave, played by a real loopback server: recorded 6.26
 * answers (400, 415, 403 restricted / wrong token), a connection reset on PUT, a 204 that never
 * applies. Each case checks what was sent, what is on disk, and what the result says.
 */
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {applyEdits, type ApplyResult} from '../../source/config/apply.js';
import {PendingEdits} from '../../source/config/edits.js';
import {MinerClient} from '../../source/miner/client.js';
import {fixture, tempDir, v6Config} from './helpers/fixtures.js';
import {json, startReplayServer, type ReplayServer, type Reply, type SeenRequest} from './helpers/replay-server.js';

const TOKEN = 'testtoken';
let temp: ReturnType<typeof tempDir>;
let server: ReplayServer | undefined;
let client: MinerClient | undefined;

beforeEach(() => {
	temp = tempDir('rigtop-apply-faults-');
});

afterEach(async () => {
	await client?.close();
	await server?.close();
	client = undefined;
	server = undefined;
	temp.remove();
});

async function miner(route: (request: SeenRequest) => Reply): Promise<MinerClient> {
	server = await startReplayServer(route);
	client = new MinerClient({url: server.url, token: TOKEN});
	return client;
}

function editedColors(): PendingEdits {
	const outcome = new PendingEdits(v6Config()).toggle(['colors']);
	if (!outcome.ok) throw new Error(outcome.message);
	return outcome.edits;
}

function puts(): SeenRequest[] {
	return server?.requests.filter((request) => request.method === 'PUT') ?? [];
}

function backups(): string[] {
	return existsSync(temp.dir) ? readdirSync(temp.dir).filter((name) => name.endsWith('.json')) : [];
}

function expectNoSecret(result: ApplyResult): void {
	expect(JSON.stringify(result)).not.toContain(TOKEN);
}

describe('apply against a misbehaving miner', () => {
	it('a connection reset on PUT: the backup is on disk and the result says the PUT may or may not have applied', async () => {
		const text = v6Config();
		const minerClient = await miner((request) => (request.method === 'PUT' ? 'reset' : json(text)));
		const edits = editedColors();
		const result = await applyEdits({
			client: minerClient,
			baseText: text,
			edits,
			backupDir: temp.dir,
			verifyTimeoutMs: 300,
			verifyIntervalMs: 50,
		});
		expect(result.status).toBe('failed');
		if (result.status !== 'failed') return;
		expect(result).toMatchObject({stage: 'put', put: 'unanswered'});
		expect(result.backupPath).not.toBeNull();
		expect(readFileSync(result.backupPath!, 'utf8')).toBe(text);
		expect(result.message).toBe(
			'the PUT was sent but no answer came: the miner may or may not have applied it; ' +
				`your config as it was is saved in ${result.backupPath}; reading it back afterwards: 0 of 1 changes show`,
		);
		expect(result.keys).toEqual([
			expect.objectContaining({path: 'colors', status: 'unknown', before: 'false', after: 'true', seen: 'false'}),
		]);
		expect(puts()).toHaveLength(1);
		expect(puts()[0]?.body).toBe(edits.text());
		expectNoSecret(result);
	});

	it('a reset on PUT after the miner took the change: the read-back shows it applied', async () => {
		let text = v6Config();
		const minerClient = await miner((request) => {
			if (request.method !== 'PUT') return json(text);
			text = request.body;
			return 'reset';
		});
		const result = await applyEdits({
			client: minerClient,
			baseText: text,
			edits: editedColors(),
			backupDir: temp.dir,
			verifyTimeoutMs: 300,
			verifyIntervalMs: 50,
		});
		expect(result).toMatchObject({status: 'failed', put: 'unanswered', keys: [expect.objectContaining({status: 'applied'})]});
		expect(result.status === 'failed' && result.message).toMatch(/reading it back afterwards: 1 of 1 changes show$/);
	});

	it('a 400 from the miner (recorded 6.26 answer): nothing applied, its message shown, backup kept', async () => {
		const text = v6Config();
		const minerClient = await miner((request) =>
			request.method === 'PUT' ? {capture: fixture('v6.26/put_1_config_badjson.txt')} : json(text),
		);
		const result = await applyEdits({client: minerClient, baseText: text, edits: editedColors(), backupDir: temp.dir});
		expect(result).toMatchObject({status: 'failed', stage: 'put', put: 'refused'});
		if (result.status !== 'failed') return;
		expect(result.problem).toMatchObject({kind: 'rejected', detail: 'Missing a name for object member.'});
		// What happened, and the fix apart (the screen and `config set` print it on a line of its own: "fix: …").
		expect(result.message).toBe(
			`the miner rejected the new config (400); nothing was changed (Missing a name for object member.); your config as it was is saved in ${result.backupPath}`,
		);
		expect(result.problem.fix).toBe('check the values you set: the miner needs at least one enabled pool with a valid url');
		expect(result.keys.map((key) => key.status)).toEqual(['not-applied']);
		expect(backups()).toHaveLength(1);
	});

	it('a 415 from the miner (recorded 6.26 answer)', async () => {
		const text = v6Config();
		const minerClient = await miner((request) =>
			request.method === 'PUT' ? {capture: fixture('v6.26/put_1_config_json_charset.txt')} : json(text),
		);
		const result = await applyEdits({client: minerClient, baseText: text, edits: editedColors(), backupDir: temp.dir});
		expect(result).toMatchObject({status: 'failed', put: 'refused', problem: {kind: 'unsupported-media-type'}});
		expect(puts()[0]?.headers['content-type']).toBe('application/json');
	});

	it('restricted mode (recorded 6.26: config 403, summary 200): says to set http.restricted to false; nothing sent', async () => {
		const minerClient = await miner((request) =>
			request.path === '/1/summary'
				? {capture: fixture('v6.26/restricted/get_1_summary_goodtoken.txt')}
				: {capture: fixture('v6.26/restricted/get_1_config_goodtoken.txt')},
		);
		const result = await applyEdits({client: minerClient, baseText: v6Config(), edits: editedColors(), backupDir: temp.dir});
		expect(result).toMatchObject({status: 'failed', stage: 'read', put: 'not-sent', backupPath: null, problem: {kind: 'restricted'}});
		expect(result.status === 'failed' && result.problem.fix).toMatch(/^set http\.restricted to false in the miner's config file/);
		expect(puts()).toHaveLength(0);
		expect(backups()).toHaveLength(0);
	});

	it('a wrong token (recorded 6.26: config 403 and summary 403)', async () => {
		const minerClient = await miner(() => ({capture: fixture('v6.26/get_1_summary_badtoken.txt')}));
		const result = await applyEdits({client: minerClient, baseText: v6Config(), edits: editedColors(), backupDir: temp.dir});
		expect(result).toMatchObject({status: 'failed', stage: 'read', problem: {kind: 'wrong-token'}});
		expect(result.status === 'failed' && result.message).toBe("the miner refused rigtop's token (403); nothing was changed");
		expect(result.status === 'failed' && result.problem.fix).toMatch(/^use the value of http\.access-token/);
		expectNoSecret(result);
	});

	it('a 204 that never applies: every key reported not applied, with what the miner has', async () => {
		const text = v6Config();
		const minerClient = await miner((request) => (request.method === 'PUT' ? {status: 204} : json(text)));
		let edits = editedColors();
		const tokenEdit = edits.set(['pools', 0, 'pass'], 'pool-secret-77');
		if (!tokenEdit.ok) throw new Error(tokenEdit.message);
		edits = tokenEdit.edits;
		const started = Date.now();
		const result = await applyEdits({
			client: minerClient,
			baseText: text,
			edits,
			backupDir: temp.dir,
			verifyTimeoutMs: 400,
			verifyIntervalMs: 50,
		});
		expect(Date.now() - started).toBeGreaterThanOrEqual(350);
		expect(result).toMatchObject({status: 'done', allApplied: false});
		expect(result.status === 'done' && result.applied?.reveal()).toBe(text);
		if (result.status !== 'done') return;
		expect(result.keys).toEqual([
			expect.objectContaining({path: 'colors', status: 'not-applied', seen: 'false'}),
			expect.objectContaining({
				path: 'pools.0.pass',
				status: 'not-applied',
				secret: true,
				before: '••••••••',
				after: '••••••••',
				seen: '••••••••',
			}),
		]);
		expect(result.message).toMatch(/^0 of 2 changes applied \(not confirmed: colors, pools\.0\.pass\); your config as it was is saved in /);
		expect(JSON.stringify(result)).not.toContain('pool-secret-77');
		expectNoSecret(result);
	});

	it('no backup, no PUT: an unwritable backup directory stops the apply', async () => {
		const text = v6Config();
		const minerClient = await miner((request) => (request.method === 'PUT' ? {status: 204} : json(text)));
		const blocker = path.join(temp.dir, 'file');
		writeFileSync(blocker, '');
		const result = await applyEdits({client: minerClient, baseText: text, edits: editedColors(), backupDir: path.join(blocker, 'backups')});
		expect(result).toMatchObject({status: 'failed', stage: 'backup', put: 'not-sent', backupPath: null, problem: {kind: 'backup'}});
		expect(result.status === 'failed' && result.message).toMatch(/^could not save a backup .*\(ENOTDIR\)/);
		expect(result.status === 'failed' && result.problem.fix).toBe('nothing was sent to the miner; its config is unchanged');
		expect(puts()).toHaveLength(0);
	});

	it('a conflict that adds a whole pool shows it with its password masked; nothing is sent', async () => {
		const base = v6Config();
		const changed = JSON.parse(base) as {pools: unknown[]};
		changed.pools.push({url: 'backup.pool:3333', user: 'wallet', pass: 'second-pool-secret', enabled: true});
		const minerClient = await miner((request) => (request.method === 'PUT' ? {status: 204} : json(JSON.stringify(changed, null, 4))));
		const result = await applyEdits({client: minerClient, baseText: base, edits: editedColors(), backupDir: temp.dir});
		expect(result.status).toBe('conflict');
		if (result.status !== 'conflict') return;
		expect(result.conflicts).toEqual([
			'pools.1: (absent) → {"url":"backup.pool:3333","user":"wallet","pass":"••••••••","enabled":true} (changed on the miner)',
		]);
		expect(JSON.stringify(result)).not.toContain('second-pool-secret');
		expect(puts()).toHaveLength(0);
		expect(backups()).toHaveLength(0);
	});

	it('a byte-different but equal document is not a conflict: the PUT is what was read now, plus the edits', async () => {
		const base = v6Config();
		const reformatted = JSON.stringify(JSON.parse(base), null, 2);
		const minerClient = await miner((request) => (request.method === 'PUT' ? {status: 204} : json(reformatted)));
		const result = await applyEdits({
			client: minerClient,
			baseText: base,
			edits: editedColors(),
			backupDir: temp.dir,
			verifyTimeoutMs: 100,
			verifyIntervalMs: 50,
		});
		expect(result.status).toBe('done');
		expect(puts()[0]?.body).toBe(reformatted.replace('"colors": false', '"colors": true'));
		expect(result.status === 'done' && readFileSync(result.backupPath, 'utf8')).toBe(reformatted);
	});
});
