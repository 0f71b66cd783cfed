/**
 * Config safety when the PUT fails at any point, played by the fault server on the PUT alone (the GETs answer as a
 * healthy 6.26 miner): the backup is on disk and holds the config as read, the result says exactly what is known
 * about the PUT, the body sent is the document read plus exactly the edits, and no secret is in the result.
 *
 * Covered elsewhere (test/config/apply-faults.test.ts, apply-sim.test.ts): a reset on the PUT (with and without the
 * change applied), 400 and 415 from the miner, restricted mode and a wrong token, a 204 that never applies, an
 * unwritable backup directory (no PUT), a conflict (nothing sent), the miner gone between the GET and the PUT.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {inspect} from 'node:util';
import {describe, it, type TestContext} from 'vitest';
import {applyEdits, type PutState} from '../../source/config/apply.js';
import {PendingEdits} from '../../source/config/edits.js';
import {MinerClient} from '../../source/miner/client.js';
import {tempDir} from '../config/helpers/fixtures.js';
import {readCapture} from '../helpers/captures.js';
import {startFaultServer, type FaultMode} from '../helpers/fault-server.js';

const TOKEN = 'tok-config-faults-0b7e21';
const POOL_PASS = 'pool-pass-config-faults-9d';
const baseConfig = readCapture('v6.26/get_1_config.txt')
	.body.replace('"access-token": "testtoken"', `"access-token": "${TOKEN}"`)
	.replace('"pass": "x"', `"pass": "${POOL_PASS}"`);

type Case = {
	readonly mode: FaultMode | 'refused-before-put';
	readonly put: PutState;
	readonly status: 'failed' | 'done';
	readonly says: RegExp;
};

const cases: readonly Case[] = [
	{
		mode: 'refused-before-put',
		put: 'not-sent',
		status: 'failed',
		says: /^the miner could not be reached to send the change: nothing was sent and nothing changed; your config as it was is saved in /,
	},
	{
		mode: 'no-answer',
		put: 'unanswered',
		status: 'failed',
		says: /^the PUT was sent but no answer came: the miner may or may not have applied it; your config as it was is saved in .*; reading it back afterwards: 0 of 1 changes show$/,
	},
	{mode: 'reset-before-answer', put: 'unanswered', status: 'failed', says: /^the PUT was sent but no answer came/},
	{mode: 'not-http', put: 'unanswered', status: 'failed', says: /^the PUT was sent but no answer came/},
	{mode: 'status-500', put: 'refused', status: 'failed', says: /500.*; your config as it was is saved in /},
	{mode: 'status-503-empty', put: 'refused', status: 'failed', says: /503.*; your config as it was is saved in /},
	// A 200 with a page instead of 204: taken as accepted, and the read-back tells the truth.
	// 200 then a body that drips forever: the status is the answer (the body is dropped at the deadline).
	{
		mode: 'drip',
		put: 'accepted',
		status: 'done',
		says: /^0 of 1 changes applied \(not confirmed: colors\); your config as it was is saved in /,
	},
	{
		mode: 'html',
		put: 'accepted',
		status: 'done',
		says: /^0 of 1 changes applied \(not confirmed: colors\); your config as it was is saved in /,
	},
];

describe.concurrent('a PUT that fails at any point', () => {
	for (const fault of cases) {
		it(`${fault.mode}: put ${fault.put}, the backup on disk, the message says what is known, no secret shown`, async (context: TestContext) => {
			const {expect} = context;
			const server = await startFaultServer({token: TOKEN, configText: baseConfig});
			const client = new MinerClient({url: server.url, token: TOKEN}, {deadlineMs: 800, headersTimeoutMs: 600, bodyTimeoutMs: 600});
			const temp = tempDir('rigtop-config-faults-');
			context.onTestFinished(async () => {
				await client.close();
				await server.close();
				temp.remove();
			});

			const read = await client.getText('/1/config');
			expect(read).toBe(baseConfig);
			const toggled = new PendingEdits(read).toggle(['colors']);
			if (!toggled.ok) throw new Error(toggled.message);
			const edits = toggled.edits;

			if (fault.mode === 'refused-before-put') {
				// The miner goes away after the apply read the config again, just before the PUT.
				const realGet = client.getText.bind(client);
				let gets = 0;
				client.getText = async (path, signal) => {
					const text = await realGet(path, signal);
					if (++gets === 1) await server.setMode('refused');
					return text;
				};
			} else {
				await server.setMode(fault.mode, {only: (request) => request.method === 'PUT'});
			}

			const result = await applyEdits({
				client,
				baseText: read,
				edits,
				backupDir: temp.dir,
				verifyTimeoutMs: 400,
				verifyIntervalMs: 50,
				tokenGiven: true,
			});
			expect(result.status).toBe(fault.status);
			if (result.status !== 'failed' && result.status !== 'done') return;
			if (result.status === 'failed') expect(result.put).toBe(fault.put);
			expect(result.message).toMatch(fault.says);
			expect(result.message).toContain(result.backupPath);

			// The backup is on disk, byte for byte what the miner had.
			expect(result.backupPath).not.toBeNull();
			expect(readFileSync(result.backupPath!, 'utf8')).toBe(read);
			expect(existsSync(temp.dir) ? readdirSync(temp.dir).filter((name) => name.endsWith('.json')) : []).toHaveLength(1);

			// What was sent (if anything) is the read text plus exactly the edit; the miner's config is unchanged.
			const puts = server.requests.filter((request) => request.method === 'PUT');
			expect(puts).toHaveLength(fault.put === 'not-sent' ? 0 : 1);
			for (const put of puts) expect(put.body).toBe(edits.text());
			expect(server.configText).toBe(baseConfig);
			for (const key of result.keys) expect(key.status).not.toBe('applied');

			for (const secret of [TOKEN, POOL_PASS]) {
				expect(JSON.stringify(result)).not.toContain(secret);
				expect(inspect(result, {depth: 10})).not.toContain(secret);
			}
		});
	}
});
