/**
 * ConfigSession (the config view's controller) against the simulated miner: read, edit, apply with
 * the delayed apply, conflict, failed PUT, undo, read-only, and read errors in token / restricted modes.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {inspect} from 'node:util';
import {describe, expect, it} from 'vitest';
import type {ApplyResult} from '../../source/config/apply.js';
import {BUSY_MESSAGE, ConfigSession, READ_ONLY_MESSAGE, STALE_EDITS_MESSAGE, type ConfigSessionState} from '../../source/config/session.js';
import type {ConfigClient} from '../../source/config/types.js';
import {MinerClient} from '../../source/miner/client.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {edit} from './helpers/edit.js';
import {tempDir} from './helpers/fixtures.js';
import {FAST, TOKEN, useSimulatedMiner} from './helpers/sim-miner.js';

type Seen = {result: ApplyResult; action: 'apply' | 'undo'};

function sessionFor(client: ConfigClient, backupDir: string, readOnly = false) {
	const applied: Seen[] = [];
	const session = new ConfigSession({
		client,
		backupDir,
		readOnly,
		tokenGiven: true,
		...FAST,
		onApplied: (result, action) => applied.push({result, action}),
	});
	const states: ConfigSessionState[] = [];
	session.subscribe(() => states.push(session.getState()));
	return {session, applied, states};
}

for (const dialect of ['6', '2.14'] as const) {
	const priority = dialect === '6' ? ['cpu', 'priority'] : ['cpu-priority'];
	const api = dialect === '6' ? 'http' : 'api';

	describe(`ConfigSession against the simulator (dialect ${dialect})`, () => {
		const miner = useSimulatedMiner(dialect);
		const puts = () => miner().sim.requests.filter((request) => request.method === 'PUT');

		it('reads the config, keeps edits immutable and notifies only on change', async () => {
			const {sim, client, backupDir} = miner();
			const {session, states} = sessionFor(client, backupDir);
			expect(session.getState()).toMatchObject({phase: 'loading', document: null, edits: null});
			await session.ensureLoaded();
			const loaded = session.getState();
			expect(loaded).toMatchObject({phase: 'ready', busy: null, problem: null});
			expect(loaded.document?.text).toBe(sim.configText());
			expect(loaded.readAt).not.toBeNull();
			// A second ensureLoaded does not read again.
			const gets = sim.requests.length;
			await session.ensureLoaded();
			expect(sim.requests.length).toBe(gets);
			expect(session.getState()).toBe(loaded);

			expect(edit(session, (edits) => edits.toggle(['colors'])).ok).toBe(true);
			// Nothing a log or a JSON dump of the state could print holds the token.
			expect(inspect(session.getState(), {depth: 10})).not.toContain(TOKEN);
			expect(JSON.stringify(session.getState())).not.toContain(TOKEN);
			expect(edit(session, (edits) => edits.toggle(priority, 1)).ok).toBe(true);
			expect(edit(session, (edits) => edits.step(['print-time'], 5)).ok).toBe(true);
			const bad = edit(session, (edits) => edits.set(['print-time'], 99_999));
			expect(bad).toEqual({ok: false, message: 'print-time must be a whole number from 0 to 3600 (not 99999)'});
			const edits = session.getState().edits!;
			expect(edits.diffLines()).toEqual(['colors: true → false', `${priority.join('.')}: null → 0`, 'print-time: 60 → 65']);
			// Toggling back drops the edit.
			edit(session, (edits) => edits.toggle(['colors']));
			expect(session.getState().edits!.size).toBe(2);
			session.discard(['print-time']);
			expect(session.getState().edits!.diffLines()).toEqual([`${priority.join('.')}: null → 0`]);
			const before = states.length;
			session.discard(['print-time']); // nothing to drop: no notification
			expect(states.length).toBe(before);
			session.discard();
			expect(session.getState().edits!.size).toBe(0);
			expect(puts()).toHaveLength(0);
		});

		it('applies: backup, PUT, waits for the delayed apply, reports applied, continues from the read back', async () => {
			const {sim, client, backupDir} = miner();
			const {session, applied, states} = sessionFor(client, backupDir);
			await session.load();
			const original = sim.configText();
			edit(session, (edits) => edits.toggle(['colors']));
			edit(session, (edits) => edits.set(priority, 2));
			const pending = session.apply();
			expect(session.getState()).toMatchObject({phase: 'applying', busy: 'apply'});
			// Edits are refused while the apply runs.
			expect(edit(session, (edits) => edits.toggle(['background']))).toEqual({ok: false, message: BUSY_MESSAGE});
			const result = await pending;
			expect(result?.status).toBe('done');
			if (result?.status !== 'done') return;
			expect(result.allApplied).toBe(true);
			expect(result.keys.map((key) => [key.path, key.status])).toEqual([
				['colors', 'applied'],
				[priority.join('.'), 'applied'],
			]);
			const expected = original
				.replace('"colors": true', '"colors": false')
				.replace(`"${priority.at(-1)}": null`, `"${priority.at(-1)}": 2`);
			expect(sim.configText()).toBe(expected);
			expect(puts()).toHaveLength(1);
			expect(puts()[0]?.body).toBe(expected);
			expect(readFileSync(result.backupPath, 'utf8')).toBe(original);

			const state = session.getState();
			expect(state).toMatchObject({phase: 'ready', busy: null, lastAction: 'apply', resultSeq: 1});
			expect(state.lastResult).toBe(result);
			expect(state.document?.text).toBe(expected);
			expect(state.edits?.size).toBe(0);
			expect(state.lastApplied).toMatchObject({backupPath: result.backupPath, keys: ['colors', priority.join('.')], wasUndo: false});
			expect(applied).toEqual([{result, action: 'apply'}]);
			expect(states.some((seen) => seen.phase === 'applying')).toBe(true);
			// Nothing pending: apply does not even try.
			expect(await session.apply()).toBeNull();
			expect(puts()).toHaveLength(1);
		});

		it('a concurrent change is a conflict: nothing backed up or sent, the edits stay; reload starts again from the miner', async () => {
			const {sim, client, backupDir} = miner();
			const {session, applied} = sessionFor(client, backupDir);
			await session.load();
			edit(session, (edits) => edits.toggle(['colors']));
			const elsewhere = sim.configText().replace('"print-time": 60', '"print-time": 15');
			sim.setConfigText(elsewhere);
			const result = await session.apply();
			expect(result).toMatchObject({status: 'conflict', conflicts: ['print-time: 60 → 15 (changed on the miner)']});
			expect(puts()).toHaveLength(0);
			expect(readdirSync(backupDir)).toHaveLength(0);
			expect(session.getState().edits?.diffLines()).toEqual(['colors: true → false']);
			expect(session.getState().lastApplied).toBeNull();
			expect(applied.map((seen) => seen.result.status)).toEqual(['conflict']);

			await session.reload();
			expect(session.getState().document?.text).toBe(elsewhere);
			expect(session.getState().edits?.size).toBe(0);
		});

		it('a failed PUT loses nothing: the edits stay, the backup holds the config as it was', async () => {
			const {sim, client, backupDir} = miner();
			const stopBeforePut: ConfigClient = {
				url: client.url,
				getText: async (path, signal) => client.getText(path, signal),
				getJson: async (path, signal) => client.getJson(path, signal),
				setToken: (token) => client.setToken(token),
				putJsonText: async (path, body, signal) => {
					await sim.stop();
					return client.putJsonText(path, body, signal);
				},
			};
			const {session} = sessionFor(stopBeforePut, backupDir);
			await session.load();
			const original = sim.configText();
			edit(session, (edits) => edits.toggle(['colors']));
			const result = await session.apply();
			expect(result).toMatchObject({status: 'failed', stage: 'put', put: 'not-sent'});
			if (result?.status !== 'failed') return;
			expect(readFileSync(result.backupPath!, 'utf8')).toBe(original);
			expect(sim.configText()).toBe(original);
			const state = session.getState();
			expect(state.phase).toBe('ready');
			expect(state.edits?.diffLines()).toEqual(['colors: true → false']);
			expect(state.document?.text).toBe(original);
			expect(state.lastApplied).toBeNull();
		});

		it('undo restores the exact original text; a second undo re-applies the change', async () => {
			const {sim, client, backupDir} = miner();
			const {session, applied} = sessionFor(client, backupDir);
			await session.load();
			const original = sim.configText();
			edit(session, (edits) => edits.toggle(['colors']));
			edit(session, (edits) => edits.step(['print-time'], -30));
			const done = await session.apply();
			if (done?.status !== 'done') throw new Error(done?.message ?? 'not applied');
			const changed = sim.configText();
			expect(changed).not.toBe(original);

			const undone = await session.undo();
			expect(undone).toMatchObject({status: 'done', allApplied: true});
			expect(sim.configText()).toBe(original);
			expect(session.getState().document?.text).toBe(original);
			expect(session.getState()).toMatchObject({lastAction: 'undo', resultSeq: 2, lastApplied: {wasUndo: true}});

			const redone = await session.undo();
			expect(redone).toMatchObject({status: 'done', allApplied: true});
			expect(sim.configText()).toBe(changed);
			expect(applied.map((seen) => seen.action)).toEqual(['apply', 'undo', 'undo']);
			expect(readdirSync(backupDir).filter((name) => name.endsWith('.json'))).toHaveLength(3);
		});

		it('read-only: reads and browses, refuses every edit and write and sends nothing', async () => {
			const {sim, client, backupDir} = miner();
			const {session} = sessionFor(client, backupDir, true);
			await session.load();
			expect(session.getState()).toMatchObject({phase: 'ready', readOnly: true});
			expect(edit(session, (edits) => edits.toggle(['colors']))).toEqual({ok: false, message: READ_ONLY_MESSAGE});
			expect(edit(session, (edits) => edits.set([api, 'restricted'], true))).toEqual({ok: false, message: READ_ONLY_MESSAGE});
			expect(await session.apply()).toBeNull();
			expect(await session.undo()).toBeNull();
			expect(sim.requests.every((request) => request.method === 'GET')).toBe(true);
		});

		it('nothing to undo before an apply', async () => {
			const {client, backupDir} = miner();
			const {session} = sessionFor(client, backupDir);
			await session.load();
			expect(await session.undo()).toBeNull();
		});
	});

	describe(`ConfigSession read errors (dialect ${dialect})`, () => {
		it('a wrong token: phase error, the fix names the token key, the token never in the problem', async () => {
			const sim = await startSimulator({dialect, token: TOKEN, restricted: false, seed: 3});
			const client = new MinerClient({url: sim.url, token: 'wrong-token-0000'});
			const temp = tempDir();
			try {
				const {session} = sessionFor(client, temp.dir);
				await session.load();
				const state = session.getState();
				expect(state.phase).toBe('error');
				expect(state.document).toBeNull();
				expect(state.problem?.kind).toBe('wrong-token');
				expect(state.problem?.fix).toContain(`${api}.access-token`);
				expect(JSON.stringify(state.problem)).not.toMatch(/wrong-token-0000|sim-token/);
			} finally {
				await client.close();
				await sim.stop();
				temp.remove();
			}
		});

		it('restricted mode: told apart from a wrong token because the summary reads', async () => {
			const sim = await startSimulator({dialect, token: TOKEN, restricted: true, seed: 3});
			const client = new MinerClient({url: sim.url, token: TOKEN});
			const temp = tempDir();
			try {
				const {session} = sessionFor(client, temp.dir);
				await session.load();
				const {problem} = session.getState();
				expect(problem?.kind).toBe('restricted');
				expect(problem?.fix).toContain(`set ${api}.restricted to false in the miner's config`);
			} finally {
				await client.close();
				await sim.stop();
				temp.remove();
			}
		});
	});
}

describe('ConfigSession lifecycle', () => {
	it('dispose aborts a read in flight and stops notifying', async () => {
		let release: () => void = () => {};
		const hanging: ConfigClient = {
			url: 'http://127.0.0.1:1',
			getText: async (_path, signal) =>
				new Promise<string>((_resolve, reject) => {
					release = () => reject(new Error('released'));
					signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), {name: 'AbortError'})));
				}),
			getJson: async () => ({}),
			putJsonText: async () => {},
			setToken: () => {},
		};
		const temp = tempDir();
		try {
			const {session, states} = sessionFor(hanging, temp.dir);
			const loading = session.load();
			expect(session.getState().busy).toBe('load');
			const seen = states.length;
			session.dispose();
			await loading;
			release();
			expect(states.length).toBe(seen);
		} finally {
			temp.remove();
		}
	});
});

describe('ConfigSession.adopt', () => {
	const miner = useSimulatedMiner('6');

	it('takes edits made elsewhere as they are; refuses them made on an older read, while applying, and read-only', async () => {
		const {client, backupDir} = miner();
		const {session} = sessionFor(client, backupDir);
		await session.load();
		const made = session.getState().edits!.toggle(['colors']);
		if (!made.ok) throw new Error(made.message);
		expect(session.adopt(made.edits)).toEqual({ok: true, edits: made.edits});
		expect(session.getState().edits).toBe(made.edits);
		// Read again: edits made on the old read are refused, and the session's own stay.
		await session.open();
		const fresh = session.getState().edits;
		expect(session.adopt(made.edits)).toEqual({ok: false, message: STALE_EDITS_MESSAGE});
		expect(session.getState().edits).toBe(fresh);
		const next = fresh!.toggle(['background']);
		if (!next.ok) throw new Error(next.message);
		edit(session, (edits) => edits.toggle(['colors']));
		const applying = session.apply();
		expect(session.adopt(next.edits)).toEqual({ok: false, message: BUSY_MESSAGE});
		await applying;
		const readOnly = sessionFor(client, backupDir, true).session;
		await readOnly.load();
		const denied = readOnly.getState().edits!.toggle(['colors']);
		if (!denied.ok) throw new Error(denied.message);
		expect(readOnly.adopt(denied.edits)).toEqual({ok: false, message: READ_ONLY_MESSAGE});
		expect(readOnly.getState().edits?.size).toBe(0);
	});
});
