/**
 * A batch from the live fleet that failed on a rig is a trouble of that rig (issue 38): its monitor gets a
 * 'batch-failed' event, which the alert center alerts (and so notifies); a later batch that takes on it ends it with
 * 'batch-ok'. The fleet's own pause and resume (commands/live/fleet-actions.tsx) on a real session of two simulated
 * miners: one whose API is restricted (its pause refused), then replaced on the same port by one that takes it.
 */
import {afterEach, describe, expect, it, vi} from 'vitest';
import {AlertCenter} from '../../source/alerts/center.js';
import type {Alert} from '../../source/alerts/types.js';
import {BatchFailures} from '../../source/batch/outcome.js';
import type {RigResult} from '../../source/batch/types.js';
import {fleetBatch} from '../../source/commands/live/fleet-actions.js';
import {createSession, type Session} from '../../source/session/session.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';

const TOKEN = 'batch-failed-token-38';
const sims: Simulator[] = [];
const sessions: Session[] = [];
let center: AlertCenter | null = null;

afterEach(async () => {
	center?.stop();
	center = null;
	await Promise.all(sessions.splice(0).map(async (session) => session.close()));
	await Promise.all(sims.splice(0).map(async (sim) => sim.stop()));
});

async function sim(options: {restricted: boolean; port?: number; seed: number}): Promise<Simulator> {
	const started = await startSimulator({
		dialect: '6',
		token: TOKEN,
		warm: true,
		applyDelayMs: 5,
		workerId: `rig-${options.seed}`,
		...options,
	});
	sims.push(started);
	return started;
}

const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 15_000, interval: 20});

async function batch(session: Session, action: 'pause' | 'resume'): Promise<void> {
	const counts = session.miners.map((miner) => miner.monitor.getState().events.length);
	const running = fleetBatch(session)(action, [0, 1], new AbortController().signal);
	await running.run();
	// The results are told to each rig's monitor when the batch's run settles.
	await waitFor(() => {
		session.miners.forEach((miner, index) => expect(miner.monitor.getState().events.length).toBeGreaterThan(counts[index] ?? 0));
	});
}

describe('a batch from the live fleet', () => {
	it("alerts a rig whose part failed, and a later batch that takes on it is the all-clear; the other rig's parts alert nothing", async () => {
		const good = await sim({restricted: false, seed: 1});
		const refusing = await sim({restricted: true, seed: 2});
		const port = Number(new URL(refusing.url).port);
		const session = createSession(
			[
				{url: good.url, token: TOKEN, name: 'good'},
				{url: refusing.url, token: TOKEN, name: 'refusing'},
			],
			60_000,
		);
		sessions.push(session);
		session.start();
		await session.firstPolls(10_000);
		const alerts: Alert[] = [];
		center = new AlertCenter(
			session.miners.map((miner) => miner.monitor),
			{sinks: [(alert) => alerts.push(alert)]},
		);
		center.start();

		await batch(session, 'pause');
		expect(alerts.map((alert) => `${alert.minerIndex} ${alert.kind}`)).toEqual(['1 batch-failed']);
		expect(alerts[0]?.message).toMatch(
			/^batch pause \(rigtop pid \d+ on .*, 2 rigs\): failed: cannot pause: the miner.s API is restricted/,
		);
		expect(center.getState().rigs[1]?.open?.kind).toBe('batch-failed');
		expect(center.getState().rigs[0]?.open).toBeNull();
		expect(session.miners[0]?.monitor.getState().events.at(-1)).toMatchObject({kind: 'action', severity: 'info'});

		// The restricted miner replaced on its port by one whose API takes a resume (and it was never paused: "already").
		await refusing.stop();
		await sim({restricted: false, port, seed: 2});
		await batch(session, 'resume');
		expect(alerts.map((alert) => `${alert.minerIndex} ${alert.kind}`)).toEqual(['1 batch-failed', '1 batch-ok']);
		expect(alerts[1]?.message).toMatch(/^batch resume \(.*\): /);
		expect(center.getState().rigs[1]?.open).toBeNull();

		// Taking again is no news: an action event, no alert.
		await batch(session, 'pause');
		expect(alerts).toHaveLength(2);
		expect(session.miners[1]?.monitor.getState().events.at(-1)).toMatchObject({kind: 'action', severity: 'info'});
	});
});

describe('BatchFailures', () => {
	const result = (status: RigResult['status'], answered = true): RigResult => ({
		rig: {url: 'http://127.0.0.1:19502', token: null, name: 'rig'},
		status,
		reason: `${status} reason`,
		lines: [],
		sent: answered,
		answered,
		snapshot: null,
		apply: null,
	});

	it('counts a rig not reached as failed (the change is not on it), a cancel or a skip as neither; each rig on its own', () => {
		const failures = new BatchFailures();
		const [a, b] = [{}, {}];
		expect(failures.outcome(a, result('unreachable', false), 'config set cpu.yield', 'me')).toEqual({
			kind: 'batch-failed',
			severity: 'warn',
			message: 'batch config set cpu.yield (me): unreachable: unreachable reason',
		});
		expect(failures.outcome(b, result('applied'), 'x', 'me')?.kind).toBe('action');
		expect(failures.outcome(a, result('cancelled', false), 'x', 'me')).toBeNull();
		expect(failures.outcome(a, result('skipped'), 'x', 'me')).toMatchObject({kind: 'action', severity: 'warn'});
		expect(failures.outcome(a, result('already'), 'x', 'me')?.kind).toBe('batch-ok');
		expect(failures.outcome(a, result('already'), 'x', 'me')?.kind).toBe('action');
	});
});
