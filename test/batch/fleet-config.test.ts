/**
 * The fleet config view's session (source/batch/fleet-config.ts) on loopback simulators of several dialects: it reads
 * every marked rig's config (a down rig skipped), sets one key on the configs as read (each rig's conflict check is
 * against that read, its backup, the read-back), refuses a rig lacking the key unless told to add it, and undoes the
 * batch rig by rig, each with its own conflict check; the undo records are the ones `rigtop config undo --rigs` reads.
 */
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {FleetConfigSession} from '../../source/batch/fleet-config.js';
import type {BatchRig, RigResult} from '../../source/batch/types.js';
import {readUndoRecords} from '../../source/batch/undo-records.js';
import {parseAssignment} from '../../source/config/edits.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {tempDir} from '../config/helpers/fixtures.js';

const TOKEN = 'fleet-config-session-token-7';
const started: Simulator[] = [];
const temps: ReturnType<typeof tempDir>[] = [];
const sessions: FleetConfigSession[] = [];

afterEach(async () => {
	for (const session of sessions.splice(0)) session.dispose();
	await Promise.all(started.splice(0).map(async (sim) => sim.stop()));
	for (const temp of temps.splice(0)) temp.remove();
});

async function sim(dialect: '6' | '5' | '2', name: string, configText?: string): Promise<Simulator> {
	const started_ = await startSimulator({
		dialect,
		token: TOKEN,
		restricted: false,
		seed: started.length,
		applyDelayMs: 20,
		workerId: name,
		...(configText === undefined ? {} : {configText}),
	});
	started.push(started_);
	return started_;
}

const rigOf = (simulator: {url: string}, name: string): BatchRig => ({url: simulator.url, token: TOKEN, name});

function session(rigs: readonly BatchRig[], told: {results: readonly RigResult[]; what: string}[] = [], parallel?: number) {
	const temp = tempDir('rigtop-fleet-config-');
	temps.push(temp);
	const backupDir = path.join(temp.dir, 'backups');
	const made = new FleetConfigSession({
		rigs,
		backupDir,
		addHint: 'a adds it',
		requestTimeoutMs: 1500,
		verifyIntervalMs: 20,
		...(parallel === undefined ? {} : {parallel}),
		onResults(results, what) {
			told.push({results, what});
		},
	});
	sessions.push(made);
	return {session: made, backupDir};
}

const jit = (simulator: Simulator) => /"huge-pages-jit": (\w+)/.exec(simulator.configText())?.[1] ?? 'missing';

describe('the fleet config session', () => {
	it('reads every rig in parallel (a down one skipped), sets the key on those that have it, undoes rig by rig', async () => {
		const six = await sim('6', 'six');
		const five = await sim('5', 'five');
		const old = await sim('2', 'old');
		const gone = await sim('6', 'gone');
		await gone.stop();
		const told: {results: readonly RigResult[]; what: string}[] = [];
		const {session: fleet, backupDir} = session([rigOf(six, 'six'), rigOf(five, 'five'), rigOf(old, 'old'), rigOf(gone, 'gone')], told);
		await fleet.open();
		const reads = fleet.getState().reads ?? [];
		expect(reads.map((read) => [read.rig.name, read.status, read.config === undefined])).toEqual([
			['six', 'already', false],
			['five', 'already', false],
			['old', 'already', false],
			['gone', 'unreachable', true],
		]);
		expect(reads[3]?.reason).toMatch(/^down: /);

		await fleet.apply(parseAssignment('cpu.huge-pages-jit=true'), {addKeys: false, confirmApiChanges: false});
		const run = fleet.getState().run;
		expect(run?.kind).toBe('set');
		expect(run?.batch.finished).toBe(true);
		const results = run?.batch.rigs.map((progress) => (progress.state === 'done' ? [progress.rig.name, progress.result.status] : null));
		expect(results).toEqual([
			['six', 'applied'],
			['five', 'applied'],
			['old', 'failed'],
			['gone', 'unreachable'],
		]);
		expect([jit(six), jit(five), jit(old)]).toEqual(['true', 'true', 'missing']);
		expect(fleet.getState().undoable).toBe(2);
		// The records `rigtop config undo --rigs` reads, too.
		expect([...(await readUndoRecords(backupDir)).keys()].sort()).toEqual([six.url, five.url].sort());
		expect(told.at(-1)?.what).toBe('config set cpu.huge-pages-jit');

		await fleet.undo();
		const undone = fleet.getState().run;
		expect(undone?.kind).toBe('undo');
		expect(undone?.batch.rigs.map((progress) => (progress.state === 'done' ? progress.result.status : progress.state))).toEqual([
			'applied',
			'applied',
		]);
		expect([jit(six), jit(five)]).toEqual(['false', 'false']);
		// The undo is spent: nothing is left to undo (u is no longer offered).
		expect(fleet.getState().undoable).toBe(0);
	});

	it('checks each rig against the config the user saw: one changed since is a conflict, nothing sent to it', async () => {
		const calm = await sim('6', 'calm');
		const busy = await sim('6', 'busy');
		const {session: fleet} = session([rigOf(calm, 'calm'), rigOf(busy, 'busy')]);
		await fleet.open();
		// Someone else changes the busy rig after the view read it.
		busy.setConfigText(busy.configText().replace('"donate-level": 1', '"donate-level": 2'));
		await new Promise((resolve) => {
			setTimeout(resolve, 100);
		});
		const puts = busy.requests.filter((request) => request.method === 'PUT').length;
		await fleet.apply(parseAssignment('cpu.huge-pages-jit=true'), {addKeys: false, confirmApiChanges: false});
		const done = fleet.getState().run?.batch.rigs ?? [];
		const [first, second] = done.map((progress) => (progress.state === 'done' ? progress.result : null));
		expect(first?.status).toBe('applied');
		expect(second?.status).toBe('failed');
		expect(second?.lines.join('\n')).toMatch(/donate-level/);
		expect(busy.requests.filter((request) => request.method === 'PUT').length).toBe(puts);
		expect(jit(busy)).toBe('false');
		expect(fleet.getState().undoable).toBe(1);
	});

	it('adds a key a rig lacks only when told to', async () => {
		const full = await sim('6', 'full');
		const base = full.configText();
		// The same config, on a port of its own, without the key.
		const lacking = await sim('6', 'lacking', base.replace(/\s*"huge-pages-jit": false,/, '').replace(/"port": \d+/, '"port": 0'));
		expect(jit(lacking)).toBe('missing');
		const {session: fleet} = session([rigOf(full, 'full'), rigOf(lacking, 'lacking')]);
		await fleet.open();
		await fleet.apply(parseAssignment('cpu.huge-pages-jit=true'), {addKeys: false, confirmApiChanges: false});
		const refused = fleet.getState().run?.batch.rigs[1];
		expect(refused?.state === 'done' ? refused.result.reason : null).toBe('lacks cpu.huge-pages-jit (a adds it)');
		expect(jit(lacking)).toBe('missing');

		await fleet.open();
		await fleet.apply(parseAssignment('cpu.huge-pages-jit=true'), {addKeys: true, confirmApiChanges: false});
		const added = fleet.getState().run?.batch.rigs[1];
		expect(added?.state === 'done' ? added.result.status : null).toBe('applied');
		expect(jit(lacking)).toBe('true');
	});

	it('Esc cancels: a rig done stays done (read back), no rig not yet started is written', async () => {
		const list = await Promise.all(['r1', 'r2', 'r3', 'r4'].map(async (name) => sim('6', name)));
		const {session: fleet} = session(
			list.map((item, index) => rigOf(item, `r${index + 1}`)),
			[],
			1,
		);
		await fleet.open();
		// One rig at a time: cancel as soon as the first has its result.
		const stop = fleet.subscribe(() => {
			if ((fleet.getState().run?.batch.done ?? 0) >= 1) fleet.cancel();
		});
		await fleet.apply(parseAssignment('cpu.huge-pages-jit=true'), {addKeys: false, confirmApiChanges: false});
		stop();
		const batch = fleet.getState().run?.batch;
		expect(batch?.cancelled).toBe(true);
		const results = batch?.rigs.map((progress) => (progress.state === 'done' ? [progress.result.status, progress.result.reason] : null));
		expect(results?.[0]?.[0]).toBe('applied');
		expect(results?.slice(1)).toEqual([
			['cancelled', 'not started (cancelled)'],
			['cancelled', 'not started (cancelled)'],
			['cancelled', 'not started (cancelled)'],
		]);
		expect(list.map((item) => jit(item))).toEqual(['true', 'false', 'false', 'false']);
		expect(fleet.getState().undoable).toBe(1);
	});

	it('undoes each rig with its own conflict check: a rig changed since the batch is left alone', async () => {
		const kept = await sim('6', 'kept');
		const touched = await sim('6', 'touched');
		const {session: fleet} = session([rigOf(kept, 'kept'), rigOf(touched, 'touched')]);
		await fleet.open();
		await fleet.apply(parseAssignment('cpu.huge-pages-jit=true'), {addKeys: false, confirmApiChanges: false});
		expect(fleet.getState().undoable).toBe(2);
		touched.setConfigText(touched.configText().replace('"donate-level": 1', '"donate-level": 3'));
		await new Promise((resolve) => {
			setTimeout(resolve, 100);
		});
		await fleet.undo();
		const results = fleet.getState().run?.batch.rigs.map((progress) => (progress.state === 'done' ? progress.result : null));
		expect(results?.map((result) => result?.status)).toEqual(['applied', 'failed']);
		expect(results?.[1]?.reason).toMatch(/its config changed since the batch/);
		expect([jit(kept), jit(touched)]).toEqual(['false', 'true']);
		expect(touched.configText()).toContain('"donate-level": 3');
	});
});
