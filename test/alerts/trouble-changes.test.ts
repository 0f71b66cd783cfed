/**
 * The AlertCenter tells the notifier every trouble opening and closing (issue 38, item 3): real simulated miners and a
 * simulated xmrig-proxy, polled by real monitors. A trouble closed by another's all-clear (up clears pool-lost), a
 * reject burst and its end, a proxy's worker's trouble, and one-shot news (a restart: open null).
 */
import {afterEach, expect, test, vi} from 'vitest';
import {AlertCenter} from '../../source/alerts/center.js';
import type {TroubleChange} from '../../source/alerts/types.js';
import {alertForEvent, troubleChanges, type OpenTroubles} from '../../source/alerts/select.js';
import {EVENT_KIND_NAMES, kindRow} from '../../source/monitor/event-kinds.js';
import {MinerClient} from '../../source/miner/client.js';
import {MinerReader} from '../../source/miner/reader.js';
import {Monitor} from '../../source/monitor/monitor.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {startSimFleet, type SimFleet} from '../ui/screens/fleet/helpers/sim-fleet.js';

const cleanups: (() => Promise<void> | void)[] = [];
let fleet: SimFleet | null = null;

afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
	await fleet?.close();
	fleet = null;
});

const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 15_000, interval: 10});
const line = (change: TroubleChange) => `${change.worker ?? change.rig} ${change.trouble} ${String(change.open)}`;

test('a rig down with its pool lost: both open, and up closes both (pool-lost without an all-clear of its own); a restart is news', async () => {
	fleet = await startSimFleet([
		{dialect: '6', workerId: 'one', seed: 31},
		{dialect: '6', workerId: 'two', seed: 32},
	]);
	const [one, two] = fleet.sims;
	const [oneAt, twoAt] = fleet.sims.map((sim) => new URL(sim.url).host);
	const changes: TroubleChange[] = [];
	const center = new AlertCenter(
		fleet.miners.map((miner) => miner.monitor),
		{troubles: (change) => changes.push(change)},
	);
	cleanups.push(() => {
		center.stop();
	});
	// A second listener, and one that throws: the others are told all the same.
	const second: TroubleChange[] = [];
	center.addTroubleListener(() => {
		throw new Error('listener failure');
	});
	const remove = center.addTroubleListener((change) => second.push(change));
	center.start();
	fleet.start();
	await waitFor(() => expect(fleet?.miners.every((miner) => miner.monitor.getState().status === 'live')).toBe(true));
	expect(changes).toEqual([]);

	one!.dropPool();
	await waitFor(() => expect(changes.map(line)).toContain(`${oneAt} pool-lost true`));
	await one!.stop();
	await waitFor(() => expect(changes.map(line)).toContain(`${oneAt} down true`));
	one!.restorePool();
	await one!.start();
	await waitFor(() => expect(changes.map(line)).toContain(`${oneAt} down false`));
	const closed = changes.filter((change) => change.rig === oneAt && change.open === false);
	// up ends down and clears pool-lost: both closed by the one event, at its time, with its message.
	expect(closed.map((change) => change.trouble).sort()).toEqual(['down', 'pool-lost']);
	expect(new Set(closed.map((change) => change.at)).size).toBe(1);
	expect(closed.every((change) => change.severity === 'info' && change.url === one!.url && change.worker === undefined)).toBe(true);
	const down = changes.find((change) => line(change) === `${oneAt} down true`);
	expect(down).toMatchObject({severity: 'error', url: one!.url});
	expect(down?.message).toMatch(/^down: /);

	two!.restartMiner();
	await waitFor(() => expect(changes.map(line)).toContain(`${twoAt} restarted null`));
	expect(changes.find((change) => change.open === null)).toMatchObject({rig: twoAt, severity: 'warn'});

	// Each trouble opened once and closed once: polling on tells nothing more.
	const polls = fleet.miners[0]!.monitor.getState().polls;
	await waitFor(() => expect(fleet?.miners[0]?.monitor.getState().polls).toBeGreaterThan(polls + 3));
	expect(changes.filter((change) => change.rig === oneAt).map(line)).toEqual([
		`${oneAt} pool-lost true`,
		`${oneAt} down true`,
		...closed.map(line),
	]);
	expect(second.map(line)).toEqual(changes.map(line));
	// A listener removed is told nothing more.
	remove();
	await two!.stop();
	await waitFor(() => expect(changes.map(line)).toContain(`${twoAt} down true`));
	expect(second.map(line)).not.toContain(`${twoAt} down true`);
});

test('a reject burst opens a trouble, and a burst window without another closes it', async () => {
	fleet = await startSimFleet([{dialect: '6', workerId: 'rejecting', seed: 33, timeScale: 40}]);
	const changes: TroubleChange[] = [];
	// The center's clock, moved by hand past the burst window (ten minutes) once the burst is seen.
	let offset = 0;
	const center = new AlertCenter([fleet.miners[0]!.monitor], {
		troubles: (change) => changes.push(change),
		burst: {count: 3, windowMs: 10 * 60_000},
		now: () => Date.now() + offset,
	});
	cleanups.push(() => {
		center.stop();
	});
	center.start();
	fleet.start();
	const told = () => changes.map((change) => `${change.trouble} ${String(change.open)}`);
	await waitFor(() => expect(fleet?.miners[0]?.monitor.getState().status).toBe('live'));
	fleet.sims[0]!.rejectShares(5);
	await waitFor(() => expect(told()).toEqual(['reject-burst true']));
	expect(changes[0]?.message).toMatch(/^reject burst: \d+ shares rejected within 10m$/);
	// Polls within the window keep it open.
	const polls = fleet.miners[0]!.monitor.getState().polls;
	await waitFor(() => expect(fleet?.miners[0]?.monitor.getState().polls).toBeGreaterThan(polls + 3));
	expect(told()).toEqual(['reject-burst true']);
	offset += 11 * 60_000;
	await waitFor(() => expect(told()).toEqual(['reject-burst true', 'reject-burst false']));
	expect(changes[1]).toMatchObject({severity: 'info', message: 'reject burst over: none within 10m'});
	expect((changes[1]?.at ?? 0) - (changes[0]?.at ?? 0)).toBeGreaterThanOrEqual(10 * 60_000);
});

test("a proxy's worker gone and back: its own trouble, named by the worker, opened and closed", async () => {
	const sim = await startSimulator({
		kind: 'proxy',
		warm: true,
		lifeEvents: false,
		seed: 34,
		miners: ['rig-01', 'rig-02'].map((name) => ({name, hashrate: 6000})),
	});
	const client = new MinerClient({url: sim.url, token: null});
	const reader = new MinerReader(client);
	const monitor = new Monitor({read: async (signal) => reader.read(signal, {perThread: true}), url: sim.url, intervalMs: 250});
	const changes: TroubleChange[] = [];
	const center = new AlertCenter([monitor], {troubles: (change) => changes.push(change)});
	cleanups.push(async () => {
		center.stop();
		monitor.stop();
		await client.close();
		await sim.stop();
	});
	monitor.start();
	await waitFor(() => expect(monitor.getState().snapshot?.proxy?.workers?.length).toBe(2));
	center.start();
	sim.dropWorker('rig-01');
	await waitFor(() => expect(changes.map(line)).toEqual(['rig-01 worker-gone true']));
	sim.connectMiner({name: 'rig-01', hashrate: 6000});
	await waitFor(() => expect(changes.map(line)).toEqual(['rig-01 worker-gone true', 'rig-01 worker-gone false']));
	expect(changes[0]).toMatchObject({url: sim.url, worker: 'rig-01', severity: 'warn', message: 'worker rig-01 gone: no connection left'});
	expect(changes[0]?.rig).toBe(monitor.getState().name);
	expect(changes[1]).toMatchObject({worker: 'rig-01', severity: 'info', message: 'worker rig-01 back'});
});

test('every kind of the catalogue: what it opens, closes and tells, as its row says', () => {
	for (const kind of EVENT_KIND_NAMES) {
		const row = kindRow(kind);
		if (row === undefined) throw new Error(kind);
		const severity = row.severity ?? 'info';
		const event = {kind, severity, message: `${kind} happened`};
		// Everything it can end or clear is open before it.
		const before: OpenTroubles = new Set([...(row.ends ?? []), ...(row.clears ?? [])]);
		const after = alertForEvent(event, before).open;
		const told = troubleChanges(event, before, after);
		const opened = told.filter((change) => change.open === true).map((change) => change.trouble);
		const closed = told.filter((change) => change.open === false).map((change) => change.trouble);
		const news = told.filter((change) => change.open === null);
		if (row.alert !== undefined && row.begins !== undefined) expect(opened, kind).toEqual([row.begins]);
		else expect(opened, kind).toEqual([]);
		expect(closed.sort(), kind).toEqual([...before].filter((trouble) => !after.has(trouble)).sort());
		for (const trouble of row.clears ?? []) if (trouble !== row.begins) expect(closed, `${kind} clears ${trouble}`).toContain(trouble);
		const isNews = row.alert !== undefined && row.begins === undefined && (row.ends ?? []).length === 0;
		expect(news, kind).toHaveLength(isNews ? 1 : 0);
		if (isNews) expect(news[0]).toMatchObject({trouble: row.alert?.as ?? kind, severity});
	}
});
