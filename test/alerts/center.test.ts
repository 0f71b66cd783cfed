import {afterEach, expect, test, vi} from 'vitest';
import {AlertCenter} from '../../source/alerts/center.js';
import type {Alert} from '../../source/alerts/types.js';
import {startSimFleet, type SimFleet} from '../ui/screens/fleet/helpers/sim-fleet.js';

let fleet: SimFleet | null = null;
let center: AlertCenter | null = null;

afterEach(async () => {
	center?.stop();
	center = null;
	await fleet?.close();
	fleet = null;
});

const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 8000, interval: 10});

test('alerts from three real miners: down and back, pool lost and back, restart, reject burst — each once', async () => {
	fleet = await startSimFleet([
		{dialect: '6', workerId: 'six', seed: 11, timeScale: 40},
		{dialect: '5', workerId: 'five', seed: 12},
		{dialect: '2', workerId: 'two', seed: 13},
	]);
	const alerts: Alert[] = [];
	center = new AlertCenter(
		fleet.miners.map((miner) => miner.monitor),
		{sinks: [(alert) => alerts.push(alert)], burst: {count: 3, windowMs: 10 * 60_000}},
	);
	center.start();
	fleet.start();
	const [six, five, two] = fleet.sims;
	const [sixMiner, fiveMiner, twoMiner] = fleet.miners;
	// Without a rigs file an alert names each rig by its host:port (its worker id, "two", is no name).
	const [sixAt, fiveAt, twoAt] = fleet.sims.map((sim) => new URL(sim.url).host);
	await waitFor(() => expect(fleet?.miners.every((miner) => miner.monitor.getState().status === 'live')).toBe(true));
	expect(alerts).toEqual([]);

	await two!.stop();
	await waitFor(() => expect(alerts.map((a) => `${a.rig} ${a.kind}`)).toContain(`${twoAt} down`));
	expect(center.getState().rigs[2]?.open?.kind).toBe('down');
	await two!.start();
	await waitFor(() => expect(alerts.map((a) => `${a.rig} ${a.kind}`)).toContain(`${twoAt} up`));
	expect(center.getState().rigs[2]?.open).toBeNull();
	expect(center.getState().rigs[2]?.last?.kind).toBe('up');

	five!.dropPool();
	await waitFor(() => expect(alerts.map((a) => `${a.rig} ${a.kind}`)).toContain(`${fiveAt} pool-lost`));
	five!.restorePool();
	await waitFor(() => expect(alerts.map((a) => `${a.rig} ${a.kind}`)).toContain(`${fiveAt} pool-back`));
	five!.restartMiner();
	await waitFor(() => expect(alerts.map((a) => `${a.rig} ${a.kind}`)).toContain(`${fiveAt} restarted`));

	six!.rejectShares(5);
	await waitFor(() => expect(alerts.map((a) => `${a.rig} ${a.kind}`)).toContain(`${sixAt} reject-burst`));
	const burst = alerts.find((a) => a.kind === 'reject-burst');
	expect(burst).toMatchObject({minerIndex: 0, severity: 'warn', url: six!.url});
	expect(burst?.message).toMatch(/^reject burst: \d+ shares rejected within 10m$/);
	// The burst is in that miner's events log too (no single poll shows it).
	expect(sixMiner!.monitor.getState().events.some((event) => event.message === burst?.message)).toBe(true);

	// One alert per change: polling on changes nothing.
	const count = alerts.length;
	const polls = twoMiner!.monitor.getState().polls;
	await waitFor(() => expect(twoMiner!.monitor.getState().polls).toBeGreaterThan(polls + 3));
	expect(alerts.filter((a) => a.kind === 'down' || a.kind === 'up' || a.kind === 'pool-lost' || a.kind === 'restarted')).toHaveLength(4);
	expect(alerts.length).toBeGreaterThanOrEqual(count);
	expect(center.getState().alerts.map((a) => a.seq)).toEqual(alerts.map((a) => a.seq));
	expect(fiveMiner!.monitor.getState().status).toBe('live');
});

test('events logged before the center started are not alerted, and a throwing sink is ignored', async () => {
	fleet = await startSimFleet([{dialect: '6', workerId: 'early'}]);
	const [miner] = fleet.miners;
	const dead = fleet.sims[0]!;
	await dead.stop();
	fleet.start();
	await waitFor(() => expect(miner!.monitor.getState().status).toBe('down'));
	const seen: Alert[] = [];
	center = new AlertCenter([miner!.monitor], {
		sinks: [
			() => {
				throw new Error('sink failure');
			},
			(alert) => seen.push(alert),
		],
	});
	center.start();
	await dead.start();
	await waitFor(() => expect(seen.map((a) => a.kind)).toEqual(['up']));
});

test('pause and resume of a real miner: no hashrate-drop alert after the resume; a pause that lasts alerts, and its resume too', async () => {
	const {startSimulator} = await import('../../source/sim/simulator.js');
	const {MinerClient} = await import('../../source/miner/client.js');
	const {MinerReader} = await import('../../source/miner/reader.js');
	const {Monitor} = await import('../../source/monitor/monitor.js');
	// Five simulated seconds per real one: a pause of 1.2 s leaves 6 paused seconds in the 10 s window.
	const sim = await startSimulator({dialect: '6', warm: true, seed: 21, workerId: 'pausing', timeScale: 5});
	const client = new MinerClient({url: sim.url, token: null});
	const reader = new MinerReader(client);
	const monitor = new Monitor({read: async (signal) => reader.read(signal), url: sim.url, intervalMs: 250, pausedAlertMs: 2500});
	const alerts: Alert[] = [];
	center = new AlertCenter([monitor], {sinks: [(alert) => alerts.push(alert)]});
	try {
		center.start();
		monitor.start();
		await waitFor(() => expect(monitor.getState().status).toBe('live'));

		// A short pause: the 10 s window refills over ten seconds after it, which is not a drop.
		sim.pause();
		await waitFor(() => expect(monitor.getState().events.map((event) => event.kind)).toContain('paused'));
		await new Promise((resolve) => setTimeout(resolve, 1200));
		sim.resume();
		await waitFor(() => expect(monitor.getState().events.map((event) => event.kind)).toContain('resumed'));
		// Right after the resume the 10 s rate is far under the 15 m average (what used to be alerted as a drop)…
		const [ten, , fifteen] = monitor.getState().snapshot?.hashrate.total ?? [];
		expect(ten).toBeLessThan(0.7 * (fifteen ?? 0));
		const resumedAt = monitor.getState().polls;
		await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(resumedAt + 6));
		// …and it is not one.
		expect(monitor.getState().events.map((event) => event.kind)).not.toContain('hashrate-drop');
		expect(alerts).toEqual([]);

		// A pause longer than the threshold (2.5 s here): one alert, and the resume is one too.
		sim.pause();
		await waitFor(() => expect(alerts.map((alert) => alert.kind)).toEqual(['paused']));
		expect(alerts[0]?.message).toMatch(/^paused for \d/);
		expect(alerts[0]?.severity).toBe('warn');
		sim.resume();
		await waitFor(() => expect(alerts.map((alert) => alert.kind)).toEqual(['paused', 'resumed']));
		expect(alerts[1]?.message).toMatch(/^resumed after \d+s paused$/);
	} finally {
		monitor.stop();
		await client.close();
		await sim.stop();
	}
});
