/**
 * "A slow or dead miner never delays the others", at fleet scale: the real session (createSession: one client,
 * reader and monitor per miner, sharing the poll limiter of MAX_CONCURRENT_POLLS slots) watching 20 miners that
 * accept connections and never answer (each retried every interval, each request hanging until the client's
 * timeout) and 2 healthy simulated miners. The healthy ones must keep being polled at their interval: before the
 * limiter bounded how long a poll holds a slot, the hung miners held every slot and the healthy ones waited seconds.
 */
import {setTimeout as sleep} from 'node:timers/promises';
import {expect, test, type TestContext} from 'vitest';
import {createSession, MAX_CONCURRENT_POLLS} from '../../source/session/session.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {startFaultServer} from '../helpers/fault-server.js';

const HUNG = MAX_CONCURRENT_POLLS + 4;
const INTERVAL_MS = 250;

test(`${HUNG} hung miners do not hold up the healthy ones`, async (context: TestContext) => {
	const hung = await Promise.all(Array.from({length: HUNG}, async () => startFaultServer()));
	await Promise.all(hung.map(async (server) => server.setMode('no-answer')));
	const healthy = await Promise.all([startSimulator({warm: true, dialect: '6'}), startSimulator({warm: true, dialect: '2'})]);
	// The hung miners first, so their first polls take the slots.
	const session = createSession(
		[...hung, ...healthy].map((server) => ({url: server.url, token: null})),
		INTERVAL_MS,
	);
	context.onTestFinished(async () => {
		await session.close();
		await Promise.all(hung.map(async (server) => server.close()));
		await Promise.all(healthy.map(async (sim) => sim.stop()));
	});

	session.start();
	const healthyMiners = session.miners.slice(HUNG);
	const polls = () => healthyMiners.map((miner) => miner.monitor.getState().polls);
	// Past the limiter's hold time: every hung miner's first request is in flight (and holds no slot any more).
	await sleep(1500);
	const before = polls();
	await sleep(2000);
	const after = polls();
	for (const [index, miner] of healthyMiners.entries()) {
		// 8 polls in 2 s at 250 ms; at least half of them, and each one good.
		expect(after[index]! - before[index]!).toBeGreaterThanOrEqual(4);
		expect(miner.monitor.getState().status).toBe('live');
	}

	// And every hung miner was asked (and never answered).
	expect(hung.every((server) => server.requests.length >= 1)).toBe(true);
	for (const miner of session.miners.slice(0, HUNG)) expect(miner.monitor.getState().lastSuccessAt).toBeNull();
}, 30_000);
