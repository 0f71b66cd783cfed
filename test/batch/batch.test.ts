/**
 * The batch engine (source/batch/batch.ts) on loopback: a slow rig and a dead one hold up no other, a cancel leaves
 * no rig half-written (the rig whose PUT went out is read back and reported), the store follows each rig, and a batch
 * of 100 simulated rigs ends with a result for each.
 */
import {existsSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {Batch, runBatch} from '../../source/batch/batch.js';
import type {BatchRig, RigProgress} from '../../source/batch/types.js';
import {applyEdits} from '../../source/config/apply.js';
import {parseAssignment} from '../../source/config/edits.js';
import {MinerClient} from '../../source/miner/client.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {tempDir} from '../config/helpers/fixtures.js';
import {startFaultServer, type FaultServer} from '../helpers/fault-server.js';

const TOKEN = 'batch-engine-token-3';
const started: Simulator[] = [];
const faults: FaultServer[] = [];
const temps: ReturnType<typeof tempDir>[] = [];

afterEach(async () => {
	await Promise.all(started.splice(0).map(async (sim) => sim.stop()));
	await Promise.all(faults.splice(0).map(async (server) => server.close()));
	for (const temp of temps.splice(0)) temp.remove();
});

async function sims(count: number, applyDelayMs = 30): Promise<Simulator[]> {
	const list = await Promise.all(
		Array.from({length: count}, async (_, index) =>
			startSimulator({dialect: '6', token: TOKEN, restricted: false, seed: index, applyDelayMs, workerId: `rig-${index}`}),
		),
	);
	started.push(...list);
	return list;
}

const rigOf = (sim: {url: string}, name: string): BatchRig => ({url: sim.url, token: TOKEN, name});

function backupDir(): string {
	const temp = tempDir('rigtop-batch-engine-');
	temps.push(temp);
	return path.join(temp.dir, 'backups');
}

const set = (text: string) => ({kind: 'set', assignments: [parseAssignment(text)]}) as const;

describe('a batch', () => {
	it('a rig that never answers and a closed port hold up no other rig', async () => {
		const healthy = await sims(4);
		const slow = await startFaultServer({token: TOKEN});
		faults.push(slow);
		await slow.setMode('no-answer');
		const [closed] = await sims(1);
		await closed?.stop();
		const rigs = [rigOf(slow, 'slow'), rigOf(closed as Simulator, 'closed'), ...healthy.map((sim, index) => rigOf(sim, `ok-${index}`))];
		const results = await runBatch({
			rigs,
			action: set('cpu.huge-pages=false'),
			parallel: 2,
			requestTimeoutMs: 1500,
			dryRun: false,
			addKeys: false,
			confirmApiChanges: false,
			backupDir: backupDir(),
			verifyIntervalMs: 20,
		});
		expect(results.map((result) => [result.rig.name, result.status])).toEqual([
			['slow', 'unreachable'],
			['closed', 'unreachable'],
			['ok-0', 'applied'],
			['ok-1', 'applied'],
			['ok-2', 'applied'],
			['ok-3', 'applied'],
		]);
		expect(results[0]?.reason).toMatch(/^down: /);
		expect(results[1]?.reason).toMatch(/^down: /);
		for (const sim of healthy) expect(sim.configText()).toContain('"huge-pages": false');
	});

	it('cancelled mid-batch: the rig whose PUT went out is read back and reported, the rest are not started', async () => {
		// A miner that applies its config 800 ms after the PUT's answer: the cancel comes while it is being read back.
		const list = await sims(4, 800);
		const controller = new AbortController();
		const batch = new Batch({
			rigs: list.map((sim, index) => rigOf(sim, `rig-${index}`)),
			action: set('cpu.huge-pages=false'),
			parallel: 1,
			signal: controller.signal,
			dryRun: false,
			addKeys: false,
			confirmApiChanges: false,
			backupDir: backupDir(),
			verifyIntervalMs: 20,
		});
		const watcher = setInterval(() => {
			if (list[0]?.requests.some((request) => request.method === 'PUT')) controller.abort();
		}, 5);
		const running = batch.run();
		const results = await running.finally(() => clearInterval(watcher));
		expect(results[0]?.status).toBe('applied');
		expect(results[0]?.sent).toBe(true);
		expect(results[0]?.lines).toEqual(['cpu.huge-pages: true → false']);
		expect(list[0]?.configText()).toContain('"huge-pages": false');
		for (const result of results.slice(1)) expect([result.status, result.reason]).toEqual(['cancelled', 'not started (cancelled)']);
		for (const sim of list.slice(1)) {
			expect(sim.requests).toEqual([]);
			expect(sim.configText()).toContain('"huge-pages": true');
		}

		expect(batch.getState()).toMatchObject({cancelled: true, finished: true, done: 4});
	});

	it('cancelled while a rig is still reading: that rig stops with nothing sent, the one written is read back', async () => {
		const [written, later] = await sims(2, 800);
		const hanging = await startFaultServer({token: TOKEN});
		faults.push(hanging);
		await hanging.setMode('no-answer');
		const controller = new AbortController();
		const watcher = setInterval(() => {
			if (written?.requests.some((request) => request.method === 'PUT')) controller.abort();
		}, 5);
		const results = await runBatch({
			rigs: [rigOf(written as Simulator, 'written'), rigOf(hanging, 'hanging'), rigOf(later as Simulator, 'later')],
			action: set('cpu.huge-pages=false'),
			parallel: 2,
			signal: controller.signal,
			dryRun: false,
			addKeys: false,
			confirmApiChanges: false,
			backupDir: backupDir(),
			verifyIntervalMs: 20,
		}).finally(() => clearInterval(watcher));
		expect(results.map((result) => [result.rig.name, result.status, result.reason])).toEqual([
			['written', 'applied', `read back; backup ${results[0]?.apply?.status === 'done' ? results[0].apply.backupPath : ''}`],
			['hanging', 'cancelled', 'cancelled before anything was sent'],
			['later', 'cancelled', 'not started (cancelled)'],
		]);
		expect(hanging.requests.filter((request) => request.method === 'PUT')).toEqual([]);
		expect(later?.requests).toEqual([]);
	});

	it('a cancel given to the safe apply stops it before the backup and the PUT', async () => {
		const [sim] = await sims(1);
		const dir = backupDir();
		const client = new MinerClient({url: (sim as Simulator).url, token: TOKEN});
		const text = (sim as Simulator).configText();
		const controller = new AbortController();
		controller.abort();
		const result = await applyEdits({
			client,
			baseText: text,
			edits: [{path: ['cpu', 'huge-pages'], after: false}],
			backupDir: dir,
			cancel: controller.signal,
		});
		await client.close();
		expect(result).toMatchObject({status: 'failed', put: 'not-sent', backupPath: null, problem: {kind: 'cancelled'}});
		expect(existsSync(dir)).toBe(false);
		expect(sim?.requests.filter((request) => request.method === 'PUT')).toEqual([]);
	});

	it('a cancel before a rig writes stops it with nothing sent', async () => {
		const list = await sims(2);
		const controller = new AbortController();
		controller.abort();
		const results = await runBatch({
			rigs: list.map((sim, index) => rigOf(sim, `rig-${index}`)),
			action: {kind: 'pause'},
			signal: controller.signal,
			dryRun: false,
			addKeys: false,
			confirmApiChanges: false,
		});
		expect(results.map((result) => result.reason)).toEqual(['not started (cancelled)', 'not started (cancelled)']);
		expect(list.flatMap((sim) => sim.requests)).toEqual([]);
	});

	it('100 simulated rigs: a result for each, in order, the store following every rig to done', async () => {
		const list = await sims(100, 10);
		const batch = new Batch({
			rigs: list.map((sim, index) => rigOf(sim, `rig-${String(index).padStart(3, '0')}`)),
			action: {kind: 'pause'},
			dryRun: false,
			addKeys: false,
			confirmApiChanges: false,
			verifyIntervalMs: 20,
		});
		let most = 0;
		const seen = new Set<string>();
		batch.subscribe(() => {
			const {rigs} = batch.getState();
			most = Math.max(most, rigs.filter((rig: RigProgress) => rig.state === 'running').length);
			for (const rig of rigs) seen.add(`${rig.rig.name}:${rig.state}`);
		});
		const results = await batch.run();
		expect(results).toHaveLength(100);
		expect(results.map((result) => result.rig.name)).toEqual(list.map((_, index) => `rig-${String(index).padStart(3, '0')}`));
		expect(results.filter((result) => result.status === 'applied')).toHaveLength(100);
		expect(results.every((result) => result.reason === 'paused (read back)')).toBe(true);
		expect(batch.getState()).toMatchObject({done: 100, finished: true, cancelled: false});
		// At most the default 8 at once, and every rig was seen running and done.
		expect(most).toBeLessThanOrEqual(8);
		expect(most).toBeGreaterThan(1);
		for (const result of results) {
			expect(seen.has(`${result.rig.name}:running`)).toBe(true);
			expect(seen.has(`${result.rig.name}:done`)).toBe(true);
		}
	});
});
