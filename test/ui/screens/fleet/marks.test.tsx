/**
 * Marks and the fleet's pause/resume batch, against real simulated miners on loopback (two 6.x, a 2.14 that cannot
 * pause, one stopped): Space, * and \ mark and unmark by rig (a sort keeps them), p asks one question saying what will
 * happen, y runs the engine's Batch and draws each rig's result, and the miners are paused; --read-only offers none.
 */
import {afterEach, describe, expect, test} from 'vitest';
import {Batch} from '../../../../source/batch/batch.js';
import {createLimiter} from '../../../../source/monitor/limiter.js';
import {watchMiner, type WatchedMiner} from '../../../../source/session/session.js';
import {startSimulator, type Simulator} from '../../../../source/sim/simulator.js';
import {startFaultServer, type FaultServer} from '../../../helpers/fault-server.js';
import {App} from '../../../../source/ui/app.js';
import {linesOf, renderTerminal, KEYS} from '../../helpers/terminal.js';

const TOKEN = 'marks-test-token-5e';
let sims: Simulator[] = [];
let watched: WatchedMiner[] = [];
let faults: FaultServer[] = [];

afterEach(async () => {
	for (const miner of watched) miner.monitor.stop();
	await Promise.all(watched.map(async (miner) => miner.client.close()));
	await Promise.all(sims.map(async (sim) => sim.stop()));
	await Promise.all(faults.map(async (fault) => fault.close()));
	sims = [];
	faults = [];
	watched = [];
});

async function fourRigs(): Promise<{readonly sims: Simulator[]; readonly miners: WatchedMiner[]}> {
	sims = await Promise.all([
		startSimulator({dialect: '6', warm: true, token: TOKEN, restricted: false, workerId: 'rig-01', seed: 1}),
		startSimulator({dialect: '6', warm: true, token: TOKEN, restricted: false, workerId: 'rig-02', seed: 2}),
		startSimulator({dialect: '2.14', warm: true, token: TOKEN, restricted: false, workerId: 'rig-03', seed: 3}),
		startSimulator({dialect: '6', warm: true, token: TOKEN, restricted: false, workerId: 'rig-04', seed: 4}),
	]);
	await sims[3]!.stop();
	const limiter = createLimiter(4);
	watched = sims.map((sim, index) => watchMiner({url: sim.url, token: TOKEN, name: `rig-0${index + 1}`}, 250, limiter));
	for (const miner of watched) miner.monitor.start();
	return {sims, miners: watched};
}

async function paused(sim: Simulator): Promise<boolean> {
	const response = await fetch(`${sim.url}/2/summary`, {headers: {authorization: `Bearer ${TOKEN}`}});
	return ((await response.json()) as {paused: boolean}).paused;
}

function app(miners: readonly WatchedMiner[], options: {readOnly?: boolean; requestTimeoutMs?: number} = {}) {
	const fleetBatch = (action: 'pause' | 'resume', rigs: readonly number[], signal: AbortSignal) => {
		const batch = new Batch({
			rigs: rigs.map((index) => ({url: miners[index]!.target.url, token: TOKEN, name: miners[index]!.monitor.getState().name})),
			action: {kind: action},
			signal,
			dryRun: false,
			addKeys: false,
			confirmApiChanges: false,
			requestTimeoutMs: options.requestTimeoutMs ?? 2000,
		});
		void batch.run();
		return batch;
	};

	return (
		<App
			miners={miners.map((miner) => ({store: miner.monitor, tokenGiven: true}))}
			onQuit={() => {}}
			color={false}
			readOnly={options.readOnly ?? false}
			fleetThrottleMs={0}
			fleetBatch={fleetBatch}
		/>
	);
}

const rowOf = (frame: string, name: string) => linesOf(frame).find((line) => line.includes(name)) ?? '';

describe('the fleet marks rigs and pauses them as one batch', () => {
	test('Space marks and moves down, the title counts, a sort keeps the marks; * toggles what is shown; \\ clears', async () => {
		const {miners} = await fourRigs();
		const terminal = await renderTerminal(app(miners), {columns: 100, rows: 24});
		await terminal.waitFor(/rig-04 +down/);
		await terminal.waitFor(/rig-03 +live/);
		// Two Spaces in one read, as a terminal delivers them.
		await terminal.press('  ', '2 marked');
		expect(rowOf(terminal.frame(), 'rig-01')).toMatch(/^ \* {1,2}rig-01/);
		expect(rowOf(terminal.frame(), 'rig-02')).toMatch(/^ \* {1,2}rig-02/);
		expect(rowOf(terminal.frame(), 'rig-03')).toMatch(/^▸ {2}rig-03/);
		// Sorted by name reversed: the marks are on the same rigs, on other lines.
		await terminal.press('I', /rig listed▼/);
		expect(linesOf(terminal.frame()).findIndex((line) => line.includes('rig-01'))).toBeGreaterThan(
			linesOf(terminal.frame()).findIndex((line) => line.includes('rig-04')),
		);
		expect(rowOf(terminal.frame(), 'rig-01')).toMatch(/\* {1,2}rig-01/);
		expect(rowOf(terminal.frame(), 'rig-04')).not.toMatch(/\*/);
		await terminal.press('*', '4 marked');
		await terminal.press('*');
		await terminal.waitFor(/^ rigtop {2}4 rigs · (?!.*marked)/);
		expect(rowOf(terminal.frame(), 'rig-01')).not.toMatch(/\*/);
		await terminal.press('  ', '2 marked');
		await terminal.press('\\');
		await terminal.waitFor(/^ rigtop {2}4 rigs · (?!.*marked)/);
	});

	test('p asks what will happen, y pauses the marked rigs through the batch and lists each rig’s result; the miners are paused', async () => {
		const {sims, miners} = await fourRigs();
		const terminal = await renderTerminal(app(miners), {columns: 100, rows: 24});
		await terminal.waitFor(/rig-04 +down/);
		await terminal.waitFor(/rig-03 +live/);
		await terminal.press('*', '4 marked');
		await terminal.press('p', /pause 2 rigs: rig-01, rig-02; 1 cannot: XMRig 2\.14\.4 has no pause/);
		expect(terminal.frame()).toMatch(/1 down/);
		// n (or any key) asks no more and sends nothing.
		await terminal.press('n');
		await terminal.waitFor(/rig-04 +down/);
		expect(await paused(sims[0]!)).toBe(false);
		await terminal.press('py', /pause 4 rigs: 2 paused · 1 failed · 1 unreachable/);
		const done = terminal.frame();
		expect(rowOf(done, 'rig-01')).toMatch(/✓ rig-01 +paused \(read back\)/);
		expect(rowOf(done, 'rig-02')).toMatch(/✓ rig-02 +paused \(read back\)/);
		expect(rowOf(done, 'rig-03')).toMatch(/✗ rig-03 +failed: cannot pause: XMRig 2\.14\.4/);
		expect(rowOf(done, 'rig-04')).toMatch(/- rig-04 +unreachable: down/);
		expect(await paused(sims[0]!)).toBe(true);
		expect(await paused(sims[1]!)).toBe(true);
		// Esc closes the results; the marks are still there; r resumes them.
		await terminal.press(KEYS.escape, /rig-04 +down/);
		expect(terminal.frame()).toContain('4 marked');
		// The question is made from what the rigs last said: once they say paused, r would resume them.
		await terminal.waitFor(/rig-02 +PAUSED/);
		await terminal.waitFor(/rig-01 +PAUSED/);
		await terminal.press('r', /resume 2 rigs: rig-01, rig-02/);
		await terminal.press('y', /resume 4 rigs: 2 resumed · 1 failed · 1 unreachable/);
		expect(await paused(sims[0]!)).toBe(false);
	});

	test('with nothing marked, p acts on the selected rig; --read-only offers none of it and says why', async () => {
		const {sims, miners} = await fourRigs();
		const terminal = await renderTerminal(app(miners), {columns: 100, rows: 24});
		await terminal.waitFor(/rig-02 +live/);
		await terminal.press('j', /▸ +rig-02/);
		await terminal.press('p', /pause 1 rig: rig-02 — y\/n/);
		await terminal.press('y', /pause 1 rig: 1 paused/);
		expect(await paused(sims[1]!)).toBe(true);
		expect(await paused(sims[0]!)).toBe(false);
		terminal.unmount();

		const readOnly = await renderTerminal(app(miners, {readOnly: true}), {columns: 100, rows: 24});
		await readOnly.waitFor(/rig-01 +live/);
		await readOnly.press(' p', 'rigtop runs with --read-only: writes are off');
		expect(readOnly.frame()).not.toMatch(/y\/n/);
		expect(await paused(sims[0]!)).toBe(false);
	});

	test('nothing to do is said in one line, with no question: only a proxy or a 2.14 marked for p, mining rigs for r (issue 35, item 9)', async () => {
		const {sims, miners} = await fourRigs();
		const proxy = await startSimulator({kind: 'proxy', warm: true, token: TOKEN, restricted: false, workers: 3});
		sims.push(proxy as unknown as Simulator);
		const limiter = createLimiter(1);
		const withProxy = [...miners, watchMiner({url: proxy.url, token: TOKEN, name: 'proxy-a'}, 250, limiter)];
		watched = withProxy;
		withProxy[4]!.monitor.start();
		const terminal = await renderTerminal(app(withProxy), {columns: 120, rows: 24});
		await terminal.waitFor(/proxy-a \(sim-proxy\) +live/);
		await terminal.waitFor(/rig-03 +live/);
		// Only the proxy marked: p says why there is nothing to pause, in the footer's place, and asks nothing.
		await terminal.press('G ', '1 marked');
		await terminal.press('p', /nothing to pause: 1 cannot: xmrig-proxy [\d.]+ has no pause or resume in its API/);
		expect(terminal.frame()).not.toMatch(/y\/n|no rig/);
		// y is no answer to anything: no batch runs; the next key clears the line.
		await terminal.press('y');
		await terminal.waitFor(/q quit/);
		expect(terminal.frame()).not.toMatch(/pause 1 rig|skipped/);
		// The 2.14 alone, the same; rigs already mining, for r.
		await terminal.press('\\', /q quit/);
		await terminal.press(`${KEYS.home}jj`, /▸ +rig-03/);
		await terminal.press(' ', '1 marked');
		await terminal.press('p', /nothing to pause: 1 cannot: XMRig 2\.14\.4 has no pause/);
		await terminal.press(`\\${KEYS.home} `, '1 marked');
		await terminal.press('r', /nothing to resume: 1 already mining/);
		expect(terminal.frame()).not.toMatch(/y\/n/);
		expect(await paused(sims[0]!)).toBe(false);
	});

	test('Esc while the batch runs cancels it: a rig that never answers ends cancelled, the rig already sent to is read back', async () => {
		const sim = await startSimulator({dialect: '6', warm: true, token: TOKEN, restricted: false, workerId: 'rig-01', seed: 5});
		const mute = await startFaultServer({token: TOKEN, workerId: 'rig-02'});
		sims = [sim];
		faults = [mute];
		const limiter = createLimiter(4);
		watched = [
			watchMiner({url: sim.url, token: TOKEN, name: 'rig-01'}, 250, limiter),
			watchMiner({url: mute.url, token: TOKEN, name: 'rig-02'}, 250, limiter),
		];
		for (const miner of watched) miner.monitor.start();
		const terminal = await renderTerminal(app(watched, {requestTimeoutMs: 60_000}), {columns: 100, rows: 24});
		await terminal.waitFor(/rig-02 +no pool/);
		await mute.setMode('no-answer');
		await terminal.press('*py', /✓ rig-01 +paused \(read back\)/);
		expect(terminal.frame()).toMatch(/… rig-02 +pausing…/);
		expect(terminal.frame()).toMatch(/Esc cancel/);
		await terminal.press(KEYS.escape, /pause 2 rigs \(cancelled\): 1 paused · 1 cancelled/);
		expect(rowOf(terminal.frame(), 'rig-02')).toMatch(/⊘ rig-02 +cancelled: cancelled before anything was sent/);
		expect(await paused(sim)).toBe(true);
		await terminal.press(KEYS.escape, /rig-01 +(live|PAUSED)/);
	});
});
