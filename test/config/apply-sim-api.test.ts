/**
 * Changes that touch the miner's API itself, end to end against the simulated miner (6.x and 2.14
 * layouts): a new token (rigtop switches to it), a new port (rigtop loses contact), restricted mode
 * turned on (confirmed through the summary), and telling restricted mode from a wrong token.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {applyEdits} from '../../source/config/apply.js';
import {PendingEdits} from '../../source/config/edits.js';
import {MinerClient} from '../../source/miner/client.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {freePort} from '../helpers/raw-server.js';
import {expectNoSecrets, FAST, NEW_TOKEN, ok, TOKEN, useSimulatedMiner} from './helpers/sim-miner.js';

for (const dialect of ['6', '2.14'] as const) {
	const api = dialect === '6' ? 'http' : 'api';

	describe(`API changes against the simulator (dialect ${dialect})`, () => {
		const miner = useSimulatedMiner(dialect);

		it('after a token change that applied, rigtop uses the new token', async () => {
			const {sim, client, backupDir} = miner();
			const text = await client.getText('/1/config');
			const edits = ok(new PendingEdits(text).set([api, 'access-token'], NEW_TOKEN));
			expect(edits.hasGuarded).toBe(true);
			expect(edits.diffLines()).toEqual([`${api}.access-token: •••••••• (changed)`]);
			const result = await applyEdits({client, baseText: text, edits, backupDir, ...FAST});
			expect(result).toMatchObject({status: 'done', allApplied: true, tokenChanged: true});
			expect(result.status === 'done' && result.notes).toContain('rigtop now uses the new access token');
			expect(await client.getText('/1/config')).toBe(edits.text());
			expect(sim.requests.at(-1)?.headers['authorization']).toBe(`Bearer ${NEW_TOKEN}`);
			expectNoSecrets(result);
		});

		it('moving the API to another port: the PUT applied, rigtop lost contact, so the change shows as unknown with the reason', async () => {
			const {sim, client, backupDir} = miner();
			const text = await client.getText('/1/config');
			const port = await freePort();
			let edits = ok(new PendingEdits(text).set([api, 'port'], port));
			edits = ok(edits.toggle(['colors']));
			expect(edits.hasGuarded).toBe(true);
			const result = await applyEdits({client, baseText: text, edits, backupDir, verifyIntervalMs: 50, verifyTimeoutMs: 800});
			expect(result.status).toBe('done');
			if (result.status !== 'done') return;
			expect(result.allApplied).toBe(false);
			expect(result.keys.map((key) => [key.path, key.status])).toEqual([
				[`${api}.port`, 'unknown'],
				['colors', 'unknown'],
			]);
			expect(result.notes).toEqual([
				`rigtop lost contact with the miner's API after the change to ${api}.port (that change can move or close it): ` +
					`could not read its config: connection refused; if it applied, the API now listens on port ${port}: point rigtop there`,
			]);
			await sim.settled();
			expect(sim.port).toBe(port);
			expect(sim.configText()).toBe(edits.text());
		});

		it('turning restricted mode on: confirmed through the summary, the rest cannot be checked any more', async () => {
			const {sim, client, backupDir} = miner();
			const text = await client.getText('/1/config');
			let edits = ok(new PendingEdits(text).set([api, 'restricted'], true));
			edits = ok(edits.toggle(['colors']));
			const result = await applyEdits({client, baseText: text, edits, backupDir, ...FAST});
			expect(result.status).toBe('done');
			if (result.status !== 'done') return;
			expect(result.keys.map((key) => [key.path, key.status])).toEqual([
				[`${api}.restricted`, 'applied'],
				['colors', 'unknown'],
			]);
			expect(result.notes.join(' ')).toMatch(new RegExp(`restricted mode is on now: .*set ${api}\\.restricted back to false`));
			expect(sim.configText()).toBe(edits.text());
		});
	});

	describe(`read failures against the simulator (dialect ${dialect})`, () => {
		let sim: Simulator | undefined;
		let client: MinerClient | undefined;

		afterEach(async () => {
			await client?.close();
			await sim?.stop();
		});

		it('tells restricted mode (summary readable) from a wrong token (summary refused)', async () => {
			sim = await startSimulator({dialect, token: TOKEN, restricted: true, seed: 3});
			const baseText = sim.configText();
			const edits = ok(new PendingEdits(baseText).toggle(['colors']));
			client = new MinerClient({url: sim.url, token: TOKEN});
			const restricted = await applyEdits({client, baseText, edits, backupDir: '/nonexistent-never-written'});
			expect(restricted).toMatchObject({status: 'failed', stage: 'read', put: 'not-sent', problem: {kind: 'restricted'}});
			expect(restricted.status === 'failed' && restricted.problem.fix).toMatch(
				new RegExp(`^set ${api}\\.restricted to false in the miner's config file`),
			);
			await client.close();

			client = new MinerClient({url: sim.url, token: 'wrong-token-0000'});
			const wrong = await applyEdits({client, baseText, edits, backupDir: '/nonexistent-never-written'});
			expect(wrong).toMatchObject({status: 'failed', stage: 'read', problem: {kind: 'wrong-token'}});
			expect(wrong.status === 'failed' && wrong.problem.fix).toMatch(new RegExp(`use the value of ${api}\\.access-token`));
			expect(wrong.message).not.toContain('use the value');
			expect(sim.requests.filter((request) => request.method === 'PUT')).toHaveLength(0);
			expectNoSecrets(wrong, 'wrong-token-0000');
		});
	});
}
