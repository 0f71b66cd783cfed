/**
 * The notifier with real parts (issue 38): simulated miners on loopback going down and coming back, the session's
 * monitors and alert center, the policy, the outbox in a real store file, and loopback servers answering as ntfy, a
 * JSON webhook, Alertmanager and a healthchecks-style heartbeat do.
 */
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {startAlerting} from '../../source/commands/live/alerting.js';
import {HistoryStore} from '../../source/history/store.js';
import {parseHeartbeat} from '../../source/notify/channels/heartbeat.js';
import {parseChannel} from '../../source/notify/channels/parse.js';
import {deliveryLine, type DeliveryReport} from '../../source/notify/notifier.js';
import type {NotificationsOptions, NotifySettings} from '../../source/notify/start/notifications.js';
import {createSession, type Session} from '../../source/session/session.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {startService, type RunningService} from '../helpers/notify-services.js';
import {tempDir, until} from '../history/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PATIENCE_MS = 20_000;

async function service(
	name: Parameters<typeof startService>[0],
	options: Parameters<typeof startService>[1] = {},
): Promise<RunningService> {
	const running = await startService(name, options);
	cleanups.push(async () => running.close());
	return running;
}

async function miners(count: number): Promise<Simulator[]> {
	const sims = await Promise.all(
		Array.from({length: count}, async (_, index) => startSimulator({dialect: '6', warm: true, workerId: `sim-${index}`, threads: 2})),
	);
	cleanups.push(async () => {
		await Promise.all(sims.map(async (sim) => sim.stop()));
	});
	return sims;
}

function store(): HistoryStore {
	const {dir, cleanup} = tempDir();
	const opened = HistoryStore.open({file: path.join(dir, 'rigtop', 'history.sqlite')});
	cleanups.push(cleanup);
	cleanups.push(() => opened.close());
	return opened;
}

/** A session of these miners, named rig-00…, polled every 250 ms, started, every miner answered once. */
async function watching(sims: readonly Simulator[]): Promise<Session> {
	const session = createSession(
		sims.map((sim, index) => ({url: sim.url, token: null, name: `rig-${String(index).padStart(2, '0')}`})),
		250,
		null,
		{sensors: false},
	);
	cleanups.push(async () => session.close());
	session.start();
	await session.firstPolls(PATIENCE_MS);
	await until(() => session.miners.every((miner) => miner.monitor.getState().snapshot !== null), PATIENCE_MS, 'every miner read');
	return session;
}

const quick: NotifySettings = {groupMs: 2500, repeatMs: 0, flap: {count: 0, windowMs: 600_000}};

/** The live view's alerting on this session with notifications: nothing bells or runs; `notify` says the rest. */
function notifying(session: Session, notify: Partial<NotificationsOptions> & Pick<NotificationsOptions, 'channels'>) {
	const alerting = startAlerting(session.miners, {
		bell: null,
		onAlert: null,
		notify: {heartbeat: null, settings: quick, store: null, say: () => undefined, ...notify},
	});
	cleanups.push(async () => alerting.close());
	return alerting;
}

/** The notices' titles a service received (ntfy's JSON publish). */
const titles = (ntfy: RunningService) => ntfy.received.map((request) => String((request.json as {title?: unknown}).title));

describe('the notifier, with simulated miners, a real store and loopback services', () => {
	it('twenty miners stopped together: one notice per channel; back together: one resolved notice per channel', async () => {
		const sims = await miners(20);
		const session = await watching(sims);
		const ntfy = await service('ntfy');
		const hook = await service('json');
		const said: string[] = [];
		const reports: DeliveryReport[] = [];
		const alerting = notifying(session, {
			channels: [parseChannel(`ntfy://127.0.0.1:${ntfy.port}/rigs`), parseChannel(`json://127.0.0.1:${hook.port}/hook`)],
			store: store(),
			say: (_severity, line) => said.push(line),
			onDelivery: (report) => reports.push(report),
		});

		await Promise.all(sims.map(async (sim) => sim.stop()));
		await until(() => ntfy.received.length >= 1 && hook.received.length >= 1, PATIENCE_MS, 'the down notice');
		expect(titles(ntfy)).toEqual(['20 rigs down']);
		expect(String((ntfy.received[0]?.json as {message?: unknown}).message)).toContain('and 10 more');
		expect(JSON.stringify(hook.received[0]?.json)).toContain('20 rigs down');

		await Promise.all(sims.map(async (sim) => sim.start()));
		await until(() => ntfy.received.length >= 2 && hook.received.length >= 2, PATIENCE_MS, 'the resolved notice');
		// Every rig is back (the notifier's open troubles are none): nothing more is coming.
		await until(() => alerting.notifier?.open().length === 0, PATIENCE_MS, 'no trouble open');
		await alerting.notifier?.flush();
		expect(titles(ntfy)).toEqual(['20 rigs down', 'resolved: 20 rigs down']);
		expect(hook.received).toHaveLength(2);
		expect(said).toEqual([]);
		// Each send told its answer, as rigtop watch logs it: the channel's shown address, never its path. A service has
		// the request before its answer is back with the notifier: wait for the answers.
		await until(() => reports.length >= 4, PATIENCE_MS, 'every answer reported');
		expect(reports.map((report) => `${report.channel.service}:${report.delivery.ok}`).sort()).toEqual([
			'json:true',
			'json:true',
			'ntfy:true',
			'ntfy:true',
		]);
		const line = deliveryLine(reports[0]!);
		expect(line.level).toBe('info');
		expect(Object.values(line.fields).join(' ')).not.toContain('/hook');
	}, 60_000);

	it('a channel that answers 500, 500, then 200 receives the notice once; the outbox kept it in the store', async () => {
		const [sim] = await miners(1);
		const session = await watching([sim!]);
		const ntfy = await service('ntfy', {faults: [500, 500]});
		const file = store();
		notifying(session, {
			channels: [parseChannel(`ntfy://127.0.0.1:${ntfy.port}/rigs`)],
			settings: {...quick, groupMs: 0},
			store: file,
			// The outbox's own waits (10 s, then 20 s) shortened: what is tested is that it retries and sends once.
			retry: {firstMs: 200},
		});
		await sim!.stop();
		await until(() => ntfy.received.some((request) => request.status === 200), PATIENCE_MS, 'the third try answered');
		expect(ntfy.received.map((request) => request.status)).toEqual([500, 500, 200]);
		const rows = file.all<{state: string; attempts: number}>('SELECT state, attempts FROM notify_outbox');
		expect(rows).toEqual([{state: 'sent', attempts: 3}]);
	}, 60_000);

	it('the heartbeat pings while all is well, its /fail form while a rig is down, and again when it is back', async () => {
		const [sim] = await miners(1);
		const session = await watching([sim!]);
		const beat = await service('heartbeat');
		notifying(session, {
			channels: [],
			heartbeat: parseHeartbeat(`http://127.0.0.1:${beat.port}/ping/check-uuid`),
			heartbeatMs: 60_000,
		});
		await until(() => beat.received.length >= 1, PATIENCE_MS, 'the first ping');
		expect(beat.received[0]?.path).toBe('/ping/check-uuid');
		await sim!.stop();
		// A trouble opened: its fail form at once, not a minute later.
		await until(() => beat.received.some((request) => request.path === '/ping/check-uuid/fail'), PATIENCE_MS, 'the fail ping');
		await sim!.start();
		await until(() => beat.received.at(-1)?.path === '/ping/check-uuid', PATIENCE_MS, 'the ping when back');
	}, 60_000);

	it('Alertmanager: the trouble is pushed as an alert while it lasts, refreshed, and ended when the rig is back', async () => {
		const [sim] = await miners(1);
		const session = await watching([sim!]);
		const am = await service('alertmanager');
		const alerting = notifying(session, {
			channels: [parseChannel(`http://127.0.0.1:${am.port}/api/v2/alerts`)],
			settings: {...quick, groupMs: 0},
			refreshMs: 300,
		});
		await sim!.stop();
		// The notice, then at least one refresh while the rig is down.
		await until(() => am.received.length >= 2, PATIENCE_MS, 'the alert and a refresh');
		const alerts = am.received.map((request) => request.json as Array<{labels: Record<string, string>; endsAt?: string}>);
		for (const sent of alerts) expect(sent[0]?.labels).toMatchObject({rig: 'rig-00', alertname: expect.any(String)});
		await sim!.start();
		await until(() => alerting.notifier?.open().length === 0, PATIENCE_MS, 'the rig back');
		await until(
			() => am.received.some((request) => JSON.stringify(request.json).includes('endsAt') && request !== am.received[0]),
			PATIENCE_MS,
			'the alert ended',
		);
		// No refresh once nothing is open: the count settles.
		const count = am.received.length;
		await alerting.notifier?.flush();
		expect(am.received.length).toBe(count);
	}, 60_000);

	it('close(): a trouble still in its group window is told before rigtop stops, not lost', async () => {
		const [sim] = await miners(1);
		const session = await watching([sim!]);
		const ntfy = await service('ntfy');
		const alerting = notifying(session, {
			channels: [parseChannel(`ntfy://127.0.0.1:${ntfy.port}/rigs`)],
			settings: {...quick, groupMs: 10 * 60_000},
			store: store(),
		});
		await sim!.stop();
		await until(() => alerting.notifier?.open().length === 1, PATIENCE_MS, 'the trouble open');
		expect(ntfy.received).toHaveLength(0);
		await alerting.close();
		expect(titles(ntfy)).toEqual(['rig-00 down']);
	}, 60_000);
});
