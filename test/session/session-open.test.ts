import {afterEach, describe, expect, it} from 'vitest';
import {createSession, type Session} from '../../source/session/session.js';
import {startRawServer} from '../helpers/raw-server.js';
import {routes626, routesProxy626, startReplayMiner, type ReplayMiner} from '../miner/helpers/replay-miner.js';

const miners: ReplayMiner[] = [];
const sessions: Session[] = [];

afterEach(async () => {
	await Promise.all(sessions.splice(0).map(async (session) => session.close()));
	await Promise.all(miners.splice(0).map(async (miner) => miner.close()));
});

async function twoMiners(): Promise<[ReplayMiner, ReplayMiner, Session]> {
	const a = await startReplayMiner(routes626());
	const b = await startReplayMiner(routes626());
	miners.push(a, b);
	// A long interval: only the first poll and pollNow() read during the test.
	const session = createSession(
		[
			{url: a.url, token: null},
			{url: b.url, token: null},
		],
		60_000,
	);
	sessions.push(session);
	return [a, b, session];
}

async function polled(session: Session, index: number, polls: number): Promise<void> {
	const monitor = session.miners[index]!.monitor;
	if (monitor.getState().polls >= polls) return;
	await new Promise<void>((resolve) => {
		const stop = monitor.subscribe(() => {
			if (monitor.getState().polls >= polls) {
				stop();
				resolve();
			}
		});
	});
}

/** With the fleet view showing (no dashboard open), polls both miners once more: what each was asked, and its count before. */
async function pollInFleetView(
	a: ReplayMiner,
	b: ReplayMiner,
	session: Session,
): Promise<{before: [number, number]; asked: [string[], string[]]}> {
	session.setOpen(null);
	const before: [number, number] = [a.seen().length, b.seen().length];
	session.miners[0]!.monitor.pollNow();
	session.miners[1]!.monitor.pollNow();
	await Promise.all([polled(session, 0, 2), polled(session, 1, 2)]);
	return {before, asked: [a.seen().slice(before[0]), b.seen().slice(before[1])]};
}

describe('session.setOpen: only the open dashboard reads per-thread data', () => {
	it('reads both documents from every miner until a screen says which is open (--once)', async () => {
		const [a, b, session] = await twoMiners();
		session.start();
		await Promise.all([polled(session, 0, 1), polled(session, 1, 1)]);
		session.miners[0]!.monitor.pollNow();
		await polled(session, 0, 2);
		expect(a.seen().filter((line) => line === 'GET /2/backends')).toHaveLength(2);
		expect(b.seen()).toContain('GET /2/backends');
	});

	it('the fleet view: the summary alone; opening a dashboard polls that miner at once, with its threads', async () => {
		const [a, b, session] = await twoMiners();
		session.start();
		await Promise.all([polled(session, 0, 1), polled(session, 1, 1)]);
		const {
			before: [seenA, seenB],
			asked,
		} = await pollInFleetView(a, b, session);
		expect(asked).toEqual([['GET /2/summary'], ['GET /2/summary']]);

		session.setOpen(1);
		await polled(session, 1, 3);
		expect(
			b
				.seen()
				.slice(seenB + 1)
				.sort(),
		).toEqual(['GET /2/backends', 'GET /2/summary']);
		expect(a.seen()).toHaveLength(seenA + 1);
	});

	it('readEveryThread (--metrics): the fleet view no longer drops the per-thread document of the miners not open', async () => {
		const [a, b, session] = await twoMiners();
		session.readEveryThread();
		session.start();
		await Promise.all([polled(session, 0, 1), polled(session, 1, 1)]);
		const {asked} = await pollInFleetView(a, b, session);
		expect(asked.map((lines) => lines.sort())).toEqual([
			['GET /2/backends', 'GET /2/summary'],
			['GET /2/backends', 'GET /2/summary'],
		]);
	});
});

describe('first polls', () => {
	it('resolves once every miner has answered or failed its first poll', async () => {
		const a = await startReplayMiner(routes626());
		miners.push(a);
		// Nothing listens on the second address: its first poll fails at once.
		const closed = await startReplayMiner(routes626());
		const deadUrl = closed.url;
		await closed.close();
		const session = createSession(
			[
				{url: a.url, token: null},
				{url: deadUrl, token: null},
			],
			60_000,
		);
		sessions.push(session);
		session.start();
		await session.firstPolls(10_000);
		expect(session.miners.map((miner) => miner.monitor.getState().polls)).toEqual([1, 1]);
		expect(session.miners[1]!.monitor.getState().error).not.toBeNull();
	});

	it('gives up after maxMs when a miner never answers', async () => {
		const silent = await startRawServer(() => undefined);
		const session = createSession([{url: silent.url, token: null}], 60_000);
		sessions.push(session);
		session.start();
		const started = Date.now();
		await session.firstPolls(150);
		expect(Date.now() - started).toBeLessThan(2000);
		expect(session.miners[0]!.monitor.getState().polls).toBe(0);
		await session.close();
		await silent.close();
	});
});

describe('session: an xmrig-proxy reads its workers at every poll, open or not', () => {
	it('asks a proxy for /1/workers in the fleet view, while the miner beside it reads its summary alone', async () => {
		const miner = await startReplayMiner(routes626());
		const proxy = await startReplayMiner(routesProxy626());
		miners.push(miner, proxy);
		const session = createSession(
			[
				{url: miner.url, token: null},
				{url: proxy.url, token: 'proxy-secret-3b7'},
			],
			60_000,
		);
		sessions.push(session);
		session.start();
		await Promise.all([polled(session, 0, 1), polled(session, 1, 1)]);
		expect(session.miners[1]!.monitor.getState().snapshot?.proxy?.workers?.map((worker) => worker.name)).toEqual(['rig-6.26', 'rig-5.11']);
		const {asked} = await pollInFleetView(miner, proxy, session);
		// The worker rows feed their history and alerts (a worker gone in the night), so the fleet view reads them too.
		expect(asked[1]).toContain('GET /1/workers');
		expect(asked[0]).toEqual(['GET /2/summary']);
		expect(session.miners[1]!.monitor.getState().snapshot?.proxy?.workers).toHaveLength(2);
	});
});
