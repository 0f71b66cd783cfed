import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {createSession, type Session} from '../../source/session/session.js';
import {runOnce} from '../../source/commands/once/once.js';
import type {RunPlan} from '../../source/commands/command.js';
import {attachHistory} from '../../source/history/attach.js';
import {HistoryReader} from '../../source/history/read.js';
import {HistoryStore} from '../../source/history/store.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {formatDuration, formatTimeSpan} from '../../source/text/format.js';
import {describeEvents} from '../../source/ui/text/event-lines.js';
import {tempDir, until} from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

function readStore(file: string) {
	const store = HistoryStore.open({file, readOnly: true});
	cleanups.push(() => store.close());
	return new HistoryReader(store);
}

const plan = (mode: 'live' | 'once', intervalMs: number) => ({mode, intervalMs}) as const;

describe('history recorder on a real session', () => {
	it('records every poll and every event of a live session: down and back, a restart, paused, an action', async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const token = 'sekrit-token-123456';
		const sim: Simulator = await startSimulator({dialect: '6', warm: true, workerId: 'rec-rig', token, restricted: false});
		cleanups.push(async () => sim.stop());
		const notices: string[] = [];
		const session: Session = attachHistory(createSession([{url: sim.url, token}], 250), plan('live', 250), (line) => notices.push(line), {
			file,
		});
		expect(session.recorder?.enabled).toBe(true);
		const [miner] = session.miners;
		if (!miner) throw new Error('no miner');
		session.start();
		await until(() => miner.monitor.getState().polls >= 4, 5000, 'four polls');
		await miner.client.rpc('pause');
		await until(() => miner.monitor.getState().snapshot?.paused === true, 5000, 'paused');
		miner.monitor.addEvent('action', 'info', `config apply: set cpu.enabled (token ${token} never stored)`);
		await sim.stop();
		await until(() => miner.monitor.getState().status === 'down', 8000, 'down');
		await sim.start();
		await until(() => miner.monitor.getState().events.some((event) => event.kind === 'up'), 8000, 'back up');
		sim.restartMiner();
		await until(() => miner.monitor.getState().events.some((event) => event.kind === 'restarted'), 8000, 'restarted');
		const polls = miner.monitor.getState().polls;
		const logged = miner.monitor.getState().events.map((event) => event.kind);
		await session.close();
		expect(notices).toEqual([]);

		const reader = readStore(file);
		const [stored] = reader.miners();
		expect(stored?.workerId).toBe('rec-rig');
		const id = stored?.id ?? 0;
		const events = reader.events(id, {since: 0});
		expect(events.map((event) => event.kind)).toEqual(logged);
		for (const kind of ['started', 'paused', 'action', 'down', 'up', 'restarted'])
			expect(events.map((event) => event.kind)).toContain(kind);
		expect(events.find((event) => event.kind === 'action')?.text).toBe('config apply: set cpu.enabled (token *** never stored)');
		const rows = reader.rows(id, {from: 0, to: Date.now() + 1000});
		// Every poll (a poll right after another — pollNow — may fall within the spacing and not be stored).
		expect(rows.length).toBeGreaterThanOrEqual(polls - 3);
		expect(rows.length).toBeLessThanOrEqual(polls);
		expect(rows.some((row) => row.live === 0 && row.link >= 2)).toBe(true); // the outage
		expect(rows.some((row) => row.paused === 1)).toBe(true);
	}, 30_000);

	it("a notice after start (history off: the store is full) is the session's, not an event of the first miner", async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const sims = await Promise.all([startSimulator({dialect: '6', warm: true}), startSimulator({dialect: '5', warm: true})]);
		cleanups.push(async () => {
			await Promise.all(sims.map(async (sim) => sim.stop()));
		});
		const warned: string[] = [];
		const session = attachHistory(
			createSession(
				sims.map((sim) => ({url: sim.url, token: null})),
				250,
			),
			plan('live', 250),
			(line) => warned.push(line),
			{file, maxBytes: 96 * 1024},
		);
		cleanups.push(async () => session.close());
		session.start();
		const [first, second] = session.miners;
		if (!first || !second) throw new Error('no miners');
		await until(() => first.monitor.getState().polls > 0, 5000, 'a first poll');
		// Events of 200 characters fill 96 KiB in a few hundred; each is written within 50 ms.
		for (let burst = 0; burst < 200 && session.notices.getState().length === 0; burst++) {
			for (let i = 0; i < 20; i++) second.monitor.addEvent('action', 'info', `note ${burst}.${i} ${'x'.repeat(200)}`);
			await new Promise((resolve) => setTimeout(resolve, 60));
		}

		expect(session.recorder?.enabled).toBe(false);
		expect(session.notices.getState().map((notice) => notice.message)).toEqual([expect.stringMatching(/^history off: /)]);
		expect(warned).toEqual([]);
		for (const miner of session.miners) {
			expect(miner.monitor.getState().events.some((event) => event.message.startsWith('history off'))).toBe(false);
		}
	}, 30_000);

	it('a --once adds its sample; a miner that answered once adds a failed one, an address that never answered nothing', async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const sim = await startSimulator({dialect: '6', warm: true, workerId: 'cron-rig'});
		cleanups.push(async () => sim.stop());
		const gone = await startSimulator({dialect: '2', workerId: 'gone-rig'});
		const goneUrl = gone.url;
		// A wrong address: nothing ever answered there.
		const never = await startSimulator({dialect: '6'});
		const neverUrl = never.url;
		await never.stop();
		const out = {write: () => true} as unknown as NodeJS.WritableStream;
		const once = async (urls: readonly string[]) => {
			const session = attachHistory(
				createSession(
					urls.map((url) => ({url, token: null})),
					2000,
				),
				plan('once', 2000),
				() => undefined,
				{file},
			);
			const code = await runOnce(session, {json: false} as RunPlan, out);
			await session.close();
			// Past the spacing within which a poll close to a stored one is not stored again.
			await new Promise((resolve) => setTimeout(resolve, 1600));
			return code;
		};

		// The gone rig answered one --once before it went.
		expect(await once([goneUrl])).toBe(0);
		await gone.stop();
		expect(await once([neverUrl])).toBe(1);
		for (let i = 0; i < 3; i++) expect(await once([sim.url, goneUrl, neverUrl])).toBe(1);

		const reader = readStore(file);
		const miners = reader.miners();
		// Named as the exporter names them (no rigs file: host:port), the worker id beside.
		expect(miners.map((miner) => miner.workerId).sort()).toEqual(['cron-rig', 'gone-rig']);
		expect(miners.every((miner) => miner.name === miner.url.replace('http://', ''))).toBe(true);
		expect(miners.map((miner) => miner.url)).not.toContain(neverUrl);
		const cron = miners.find((miner) => miner.workerId === 'cron-rig');
		const rows = reader.rows(cron?.id ?? 0, {from: 0, to: Date.now() + 1});
		expect(rows.reduce((sum, row) => sum + row.n, 0)).toBe(3);
		expect(rows.every((row) => row.hrAvg !== null && row.live === row.n)).toBe(true);
		const down = miners.find((miner) => miner.workerId === 'gone-rig');
		const polls = reader.rows(down?.id ?? 0, {from: 0, to: Date.now() + 1});
		expect(polls.reduce((sum, row) => sum + row.n, 0)).toBe(4);
		expect(polls.reduce((sum, row) => sum + row.live, 0)).toBe(1);
	}, 40_000);

	it('a live session stores no miner for an address that never answers, and one that answers late keeps its outage', async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const late = await startSimulator({dialect: '6', warm: true, workerId: 'late-rig'});
		cleanups.push(async () => late.stop());
		const lateUrl = late.url;
		await late.stop();
		const never = await startSimulator({dialect: '6'});
		const neverUrl = never.url;
		await never.stop();
		const session = attachHistory(
			createSession(
				[lateUrl, neverUrl].map((url) => ({url, token: null})),
				250,
			),
			plan('live', 250),
			() => undefined,
			{file},
		);
		cleanups.push(async () => session.close());
		session.start();
		const [first, second] = session.miners;
		if (!first || !second) throw new Error('no miners');
		await until(() => first.monitor.getState().status === 'down' && second.monitor.getState().polls >= 3, 8000, 'both down');
		// Neither has an id in the store yet, and reading their history does not make one.
		expect(session.recorder?.writtenMinerOf(0)).toBeNull();
		expect(session.recorder?.writtenMinerOf(1)).toBeNull();
		session.recorder?.flush();
		expect(readStore(file).miners()).toEqual([]);
		await late.start();
		await until(() => first.monitor.getState().status === 'live', 8000, 'the late rig up');
		const down = first.monitor.getState().events.filter((event) => event.kind === 'down').length;
		await until(
			() => {
				session.recorder?.flush();
				return (session.recorder?.writtenMinerOf(0) ?? null) !== null;
			},
			8000,
			'its id',
		);
		await session.close();

		const reader = readStore(file);
		const miners = reader.miners();
		expect(miners.map((miner) => miner.workerId)).toEqual(['late-rig']);
		const id = miners[0]?.id ?? 0;
		const rows = reader.rows(id, {from: 0, to: Date.now() + 1000});
		// The polls before its first answer are its outage, stored under it once it answered.
		expect(rows.some((row) => row.live === 0 && row.link >= 2)).toBe(true);
		expect(rows.some((row) => row.live > 0)).toBe(true);
		expect(reader.events(id, {since: 0}).filter((event) => event.kind === 'down')).toHaveLength(down);
		expect(miners[0]?.firstSeen).toBeLessThan(rows.find((row) => row.live > 0)?.t ?? 0);
	}, 30_000);

	it("a wrong token is not stored as the miner's trouble: neither its polls nor its error; its session alone shows the error", async () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		const sim = await startSimulator({dialect: '6', warm: true, workerId: 'tok-rig', token: 'the-right-token-1', restricted: false});
		cleanups.push(async () => sim.stop());
		// One rigtop with the right token and one with a wrong one, on one store, at the same time.
		const right = attachHistory(createSession([{url: sim.url, token: 'the-right-token-1'}], 250), plan('live', 250), () => undefined, {
			file,
		});
		const wrong = attachHistory(createSession([{url: sim.url, token: 'a-wrong-token-22'}], 250), plan('live', 250), () => undefined, {
			file,
		});
		const [good] = right.miners;
		const [bad] = wrong.miners;
		if (!good || !bad) throw new Error('no miner');
		// The wrong token's error is stored as the event of the miner last seen at its address: the store must know the
		// miner first (an error at an address never answered has no miner to go to). Before the sensors were read beside
		// each poll, the right token's first poll happened to be written first; now it is made so.
		right.start();
		await until(
			() => {
				right.recorder?.flush();
				return (right.recorder?.writtenMinerOf(0) ?? null) !== null;
			},
			8000,
			'the miner stored',
		);
		wrong.start();
		await until(() => good.monitor.getState().polls >= 6 && bad.monitor.getState().polls >= 6, 8000, 'six polls each');
		expect(bad.monitor.getState().status).toBe('error');
		// The rig goes down and comes back on the same port: both see the outage, the wrong token its error again.
		await sim.stop();
		await until(() => good.monitor.getState().status === 'down' && bad.monitor.getState().status === 'down', 8000, 'both down');
		await sim.start();
		await until(() => good.monitor.getState().status === 'live' && bad.monitor.getState().status === 'error', 8000, 'back');
		right.recorder?.flush();
		wrong.recorder?.flush();
		const forbidden = 'error: forbidden (HTTP 403)';
		// The wrong token's session shows its own error (from memory); the right one's reads never do.
		const wrongMiner = wrong.recorder?.readMinerOf(0) ?? null;
		const rightMiner = right.recorder?.readMinerOf(0) ?? null;
		expect(wrongMiner).not.toBeNull();
		expect(wrongMiner).toBe(rightMiner);
		const wrongSees = wrong.recorder?.reader.events(wrongMiner ?? 0, {since: 0}) ?? [];
		expect(wrongSees.filter((event) => event.text === forbidden)).toHaveLength(2);
		expect(wrongSees.find((event) => event.text === forbidden)?.watcher).toBe(true);
		const rightSees = right.recorder?.reader.events(rightMiner ?? 0, {since: 0}) ?? [];
		expect(rightSees.map((event) => event.text)).not.toContain(forbidden);
		await wrong.close();
		await right.close();
		// A cron --once with the wrong token adds no failed poll either (after the spacing within which a poll
		// close to a stored one is not stored again).
		await new Promise((resolve) => setTimeout(resolve, 1600));
		const once = attachHistory(createSession([{url: sim.url, token: 'a-wrong-token-22'}], 2000), plan('once', 2000), () => undefined, {
			file,
		});
		const out = {write: () => true} as unknown as NodeJS.WritableStream;
		expect(await runOnce(once, {json: false} as RunPlan, out)).toBe(1);
		await once.close();

		const reader = readStore(file);
		const [stored] = reader.miners();
		expect(reader.miners()).toHaveLength(1);
		const rows = reader.rows(stored?.id ?? 0, {from: 0, to: Date.now() + 1000});
		expect(rows.length).toBeGreaterThan(0);
		// The wrong token's polls left no failed poll (link error, 3): the failed ones are the outage's.
		expect(rows.some((row) => row.live === row.n)).toBe(true);
		expect(rows.every((row) => row.link !== 3)).toBe(true);
		// The rig's outage once (both rigtops saw it), from its own down to its up; no error of the wrong token.
		const events = reader.events(stored?.id ?? 0, {since: 0});
		expect(events.filter((event) => event.kind === 'error')).toEqual([]);
		expect(events.filter((event) => event.kind === 'down')).toHaveLength(1);
		const down = events.find((event) => event.kind === 'down');
		const up = events.find((event) => event.kind === 'up');
		if (!down || !up) throw new Error('no outage stored');
		const lines = describeEvents(events, Date.now());
		expect(lines[events.indexOf(up)]?.text).toBe(
			`back up · down ${formatTimeSpan(down.t, up.t, Date.now())}, ${formatDuration((up.t - down.t) / 1000)}`,
		);
	}, 30_000);
});
