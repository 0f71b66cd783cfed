/**
 * The safe apply and undo end to end: the real MinerClient against the simulated miner, in the 6.x
 * dialect (http section, PUT → 204) and the 2.14 dialect (older `api` section, PUT → 200), with a
 * token, restricted false, and the miner's delayed apply (watch: true: it applies a moment after the PUT).
 */
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {applyEdits, undoLast} from '../../source/config/apply.js';
import {PendingEdits} from '../../source/config/edits.js';
import type {ConfigClient} from '../../source/config/types.js';
import {expectNoSecrets, FAST, ok, POOL_PASS, TOKEN, useSimulatedMiner} from './helpers/sim-miner.js';

for (const dialect of ['6', '2.14'] as const) {
	const priority = dialect === '6' ? ['cpu', 'priority'] : ['cpu-priority'];

	describe(`apply and undo against the simulator (dialect ${dialect})`, () => {
		const miner = useSimulatedMiner(dialect);
		const puts = () => miner().sim.requests.filter((request) => request.method === 'PUT');
		const backups = () => readdirSync(miner().backupDir).filter((name) => name.endsWith('.json'));

		async function readAndEdit(): Promise<{text: string; edits: PendingEdits}> {
			const text = await miner().client.getText('/1/config');
			let edits = new PendingEdits(text);
			edits = ok(edits.toggle(['colors']));
			edits = ok(edits.set(['print-time'], 30));
			edits = ok(edits.set(priority, 2));
			edits = ok(edits.set(['pools', 0, 'pass'], POOL_PASS));
			return {text, edits};
		}

		it('backs up, PUTs the read text plus exactly the edits, waits for the delayed apply, reports each key applied', async () => {
			const {sim, client, backupDir} = miner();
			const {text, edits} = await readAndEdit();
			expect(text).toBe(sim.configText());
			const started = performance.now();
			const result = await applyEdits({client, baseText: text, edits, backupDir, ...FAST});
			const elapsed = performance.now() - started;

			expect(result.status).toBe('done');
			if (result.status !== 'done') return;
			expect(result.allApplied).toBe(true);
			expect(result.keys.map((key) => [key.path, key.status, key.before, key.after])).toEqual([
				['colors', 'applied', 'true', 'false'],
				['print-time', 'applied', '60', '30'],
				[priority.join('.'), 'applied', 'null', '2'],
				['pools.0.pass', 'applied', '••••••••', '••••••••'],
			]);
			// The miner applied after its answer; rigtop kept reading back until the changes showed.
			expect(elapsed).toBeGreaterThan(200);
			const putAt = sim.requests.findIndex((request) => request.method === 'PUT');
			const readsAfter = sim.requests.slice(putAt + 1).filter((request) => request.method === 'GET' && request.path === '/1/config');
			expect(readsAfter.length).toBeGreaterThanOrEqual(1);

			expect(puts()).toHaveLength(1);
			const put = puts()[0]!;
			expect(put.path).toBe('/1/config');
			expect(put.headers['content-type']).toBe('application/json');
			expect(put.headers['authorization']).toBe(`Bearer ${TOKEN}`);
			expect(put.status).toBe(dialect === '6' ? 204 : 200);
			expect(put.body).toBe(edits.text());
			// Every other line is byte for byte what was read.
			const sentLines = put.body.split('\n');
			const readLines = text.split('\n');
			expect(sentLines.length).toBe(readLines.length);
			expect(sentLines.filter((line, index) => line !== readLines[index])).toHaveLength(4);
			expect(sim.configText()).toBe(put.body);
			expect(result.sent.reveal()).toBe(put.body);
			expect(result.applied?.reveal()).toBe(put.body);

			expect(readFileSync(result.backupPath, 'utf8')).toBe(text);
			expect(statSync(result.backupPath).mode & 0o777).toBe(0o600);
			expectNoSecrets(result);
			expect(edits.diffLines().join('\n')).not.toContain(POOL_PASS);
		});

		it('refuses on a conflict: the config changed on the miner, nothing is backed up or sent', async () => {
			const {sim, client, backupDir} = miner();
			const {text, edits} = await readAndEdit();
			sim.setConfigText(text.replace('"print-time": 60', '"print-time": 15').replace(`"pass": "sim-rig"`, '"pass": "changed-elsewhere"'));
			const result = await applyEdits({client, baseText: text, edits, backupDir, ...FAST});
			expect(result.status).toBe('conflict');
			if (result.status !== 'conflict') return;
			expect(result.conflicts).toEqual(['pools.0.pass: changed on the miner', 'print-time: 60 → 15 (changed on the miner)']);
			expect(result.message).toMatch(/^the miner's config changed since rigtop read it \(2 differences\); nothing was applied/);
			expect(result.current.reveal()).toBe(sim.configText());
			expect(puts()).toHaveLength(0);
			expect(backups()).toHaveLength(0);
			expectNoSecrets(result, 'changed-elsewhere');
		});

		it('the miner goes away between the GET and the PUT: the backup is on disk, nothing was sent, the message says so', async () => {
			const {sim, client, backupDir} = miner();
			const {text, edits} = await readAndEdit();
			const stopBeforePut: ConfigClient = {
				url: client.url,
				getText: (path, signal) => client.getText(path, signal),
				getJson: (path, signal) => client.getJson(path, signal),
				setToken: (token) => client.setToken(token),
				putJsonText: async (path, body, signal) => {
					await sim.stop();
					return client.putJsonText(path, body, signal);
				},
			};
			const result = await applyEdits({client: stopBeforePut, baseText: text, edits, backupDir, ...FAST});
			expect(result.status).toBe('failed');
			if (result.status !== 'failed') return;
			expect(result).toMatchObject({stage: 'put', put: 'not-sent', problem: {kind: 'unreachable'}});
			expect(result.message).toBe(
				`the miner could not be reached to send the change: nothing was sent and nothing changed; your config as it was is saved in ${result.backupPath}`,
			);
			expect(readFileSync(result.backupPath!, 'utf8')).toBe(text);
			expect(result.keys.every((key) => key.status === 'not-applied')).toBe(true);
			expect(sim.configText()).toBe(text);
			expectNoSecrets(result);
		});

		it('undo puts the exact original text back, the same safe way (with a backup of the applied config first)', async () => {
			const {sim, client, backupDir} = miner();
			const {text, edits} = await readAndEdit();
			const applied = await applyEdits({client, baseText: text, edits, backupDir, ...FAST});
			if (applied.status !== 'done') throw new Error(applied.message);
			const undone = await undoLast({client, applied: applied.applied!, backupDir, ...FAST});
			expect(undone.status).toBe('done');
			if (undone.status !== 'done') return;
			expect(undone.allApplied).toBe(true);
			expect(undone.keys.map((key) => [key.path, key.status, key.before, key.after])).toEqual(
				expect.arrayContaining([
					['colors', 'applied', 'false', 'true'],
					['print-time', 'applied', '30', '60'],
					['pools.0.pass', 'applied', '••••••••', '••••••••'],
				]),
			);
			expect(undone.keys).toHaveLength(4);
			expect(puts().at(-1)?.body).toBe(text);
			expect(sim.configText()).toBe(text);
			expect(backups()).toHaveLength(2);
			expect(readFileSync(undone.backupPath, 'utf8')).toBe(edits.text());
			expectNoSecrets(undone);
		});

		it('undo refuses when the config changed after the apply', async () => {
			const {sim, client, backupDir} = miner();
			const {text, edits} = await readAndEdit();
			const applied = await applyEdits({client, baseText: text, edits, backupDir, ...FAST});
			if (applied.status !== 'done') throw new Error(applied.message);
			sim.setConfigText(sim.configText().replace('"print-time": 30', '"print-time": 45'));
			const undone = await undoLast({client, applied: applied.applied!, backupDir, ...FAST});
			expect(undone).toMatchObject({status: 'conflict', conflicts: ['print-time: 30 → 45 (changed on the miner)']});
			expect(puts()).toHaveLength(1);
		});
	});
}
