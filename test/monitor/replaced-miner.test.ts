/**
 * Another miner at a watched address: two simulators with different ids (another MAC) answer one port in turn,
 * the second a rig up for days with its counters high. Read through the real client, the monitor, the alert center
 * and the history recorder on a real SQLite file, as a live session does.
 */
import {afterEach, expect, it, vi} from 'vitest';
import {AlertCenter} from '../../source/alerts/center.js';
import {HistoryReader} from '../../source/history/read.js';
import {HistoryRecorder} from '../../source/history/recorder.js';
import {MinerClient} from '../../source/miner/client.js';
import {MinerReader} from '../../source/miner/reader.js';
import {Monitor} from '../../source/monitor/monitor.js';
import {startSimulator} from '../../source/sim/simulator.js';
import {openStore, tempDir} from '../history/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 10_000, interval: 10});

it('says once that a different miner answers, raises no share alert from its counters, and keeps each history apart', async () => {
	const first = await startSimulator({seed: 3, workerId: 'sim-rig', mac: '02:00:00:00:00:0a'});
	cleanups.push(async () => first.stop());
	const port = first.port;
	const url = first.url;
	const client = new MinerClient({url, token: null}, {connectTimeoutMs: 1000, deadlineMs: 2000});
	cleanups.push(async () => client.close());
	const reader = new MinerReader(client);
	const monitor = new Monitor({read: async (signal) => reader.read(signal), url, intervalMs: 250, maxBackoffMs: 300});
	cleanups.push(() => monitor.stop());
	const alerts = new AlertCenter([monitor]);
	alerts.start();
	cleanups.push(() => alerts.stop());
	const temp = tempDir();
	cleanups.push(temp.cleanup);
	const {store} = openStore(temp.dir);
	const recorder = new HistoryRecorder(store, {intervalMs: 250, flushMs: 100});
	recorder.watch([monitor]);
	cleanups.push(() => recorder.close());
	monitor.start();

	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThanOrEqual(3));
	const before = monitor.getState().snapshot;
	const firstId = before?.id;
	expect(firstId).toMatch(/^[0-9a-f]{16}$/);
	recorder.flush();
	const oldMiner = recorder.writtenMinerOf(0);

	// Another rig (the same worker name, another machine) now behind the address, up for days.
	await first.stop();
	await waitFor(() => expect(monitor.getState().status).not.toBe('live'));
	const beforeSamples = monitor.getState().recentRates.length;
	expect(beforeSamples).toBeGreaterThanOrEqual(3);
	let firstOfNew: ReturnType<typeof monitor.getState> | null = null;
	monitor.subscribe(() => {
		const state = monitor.getState();
		if (firstOfNew === null && state.snapshot !== null && state.snapshot.id !== firstId) firstOfNew = state;
	});
	const second = await startSimulator({seed: 4, workerId: 'sim-rig', mac: '02:00:00:00:00:0b', warm: true, port});
	cleanups.push(async () => second.stop());
	await waitFor(() => expect(monitor.getState().snapshot?.id).not.toBe(firstId));
	const swapped = monitor.getState();
	// The recent samples and the session average start with the new miner.
	expect(firstOfNew!.recentRates).toHaveLength(1);
	expect(firstOfNew!.sessionAverage).toBe(firstOfNew!.snapshot?.hashrate.total[0] ?? null);
	const after = swapped.snapshot;
	expect(after?.results.total).toBeGreaterThan(1000);
	expect(after?.results.total).toBeGreaterThan(before?.results.total ?? 0);
	expect(after?.results.rejected).toBeGreaterThan(before?.results.rejected ?? 0);

	const replaced = swapped.events.filter((event) => event.kind === 'replaced');
	expect(replaced.map((event) => event.message)).toEqual([`a different miner now answers at 127.0.0.1:${port}: sim-rig, XMRig 6.26.0`]);
	const kinds = swapped.events.map((event) => event.kind);
	expect(kinds).not.toContain('restarted');
	expect(kinds).not.toContain('rejected');
	expect(monitor.getStats().restarts).toBe(0);

	// A few more polls of the new miner: still one 'replaced', no reject burst from the jump.
	const polls = swapped.polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThanOrEqual(polls + 4));
	expect(monitor.getState().events.filter((event) => event.kind === 'replaced')).toHaveLength(1);
	const alertKinds = alerts.getState().alerts.map((alert) => alert.kind);
	expect(alertKinds).toContain('replaced');
	expect(alertKinds).not.toContain('reject-burst');

	// History: the new miner under its own identity; the old one's polls stop at the swap.
	recorder.flush();
	const newMiner = recorder.writtenMinerOf(0);
	expect(oldMiner).not.toBeNull();
	expect(newMiner).not.toBe(oldMiner);
	const history = new HistoryReader(store);
	const span = {from: 0, to: Date.now() + 1000};
	const oldRows = history.rows(oldMiner ?? -1, span);
	expect(oldRows.filter((row) => row.live > 0).every((row) => (row.total ?? 0) <= (before?.results.total ?? 0) + 5)).toBe(true);
	const newRows = history.rows(newMiner ?? -1, span).filter((row) => row.live > 0);
	expect(newRows.length).toBeGreaterThan(0);
	expect(newRows.every((row) => (row.total ?? 0) > 1000)).toBe(true);
	expect(history.events(newMiner ?? -1, {since: 0}).map((event) => event.kind)).toContain('replaced');
	expect(
		history
			.miners()
			.map((miner) => miner.apiId)
			.sort(),
	).toEqual([firstId, after?.id].sort());
});
