/**
 * The sensors' alerts of issue 28 from a real simulated miner whose polls carry the rig's sensor readings (the
 * readings built here, shaped as the reader makes them), through the live view's alerting (commands/live/alerting.ts:
 * the alert center, the bell and a real --on-alert command), started after the first poll as the live screens start
 * it. The monitor's clock and the simulator's run ten times faster.
 */
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, expect, test, vi} from 'vitest';
import {startAlerting, type Alerting} from '../../source/commands/live/alerting.js';
import {MinerClient} from '../../source/miner/client.js';
import {MinerReader} from '../../source/miner/reader.js';
import {Monitor} from '../../source/monitor/monitor.js';
import type {SensorReading} from '../../source/sensors/types.js';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {coretemp, DENIED_MESSAGE, DENIED_TOLD, makeReading, powerOk} from '../helpers/sensors.js';
import {fastClock} from '../monitor/fast-watch.js';

let cleanup: Array<() => Promise<void> | void> = [];

afterEach(async () => {
	for (const step of cleanup.reverse()) await step();
	cleanup = [];
});

const waitFor = async (check: () => void) => vi.waitFor(check, {timeout: 15_000, interval: 20});

/** A warm simulated miner, watched by a monitor whose every poll carries `sensors(poll)`; the live view's alerting on it. */
async function watchWithSensors(sensors: (poll: number) => SensorReading, tempAlertC?: number) {
	const sim: Simulator = await startSimulator({warm: true, seed: 7, threads: 4, timeScale: 10, token: 'sensor-test-token'});
	const client = new MinerClient({url: sim.url, token: 'sensor-test-token'}, {connectTimeoutMs: 1000, deadlineMs: 2000});
	const reader = new MinerReader(client);
	let poll = 0;
	const monitor = new Monitor({
		read: async (signal) => ({...(await reader.read(signal)), sensors: sensors(poll++)}),
		url: sim.url,
		intervalMs: 1000,
		clock: fastClock(),
		...(tempAlertC === undefined ? {} : {tempAlertC}),
	});
	cleanup.push(async () => {
		monitor.stop();
		await client.close();
		await sim.stop();
	});
	return {monitor, miner: {target: {url: sim.url}, client, reader, monitor}};
}

test('a CPU hot for three polls, throttling and the power reading lost are alerted once each, rung and run, with their recoveries', async () => {
	const dir = await mkdtemp(path.join(tmpdir(), 'rigtop-sensor-alerts-'));
	cleanup.push(async () => rm(dir, {recursive: true, force: true}));
	const script = path.join(dir, 'record.cjs');
	const out = path.join(dir, 'alerts.jsonl');
	await writeFile(
		script,
		`let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => { require('node:fs').appendFileSync(process.argv[2], input); });
`,
	);

	// Cool, then 84 °C (coretemp's max: 80 °C) from read 3 to 16; the throttle count rises at read 8 and stays; the
	// package power is lost from read 20 to 22. Each change a few reads from the last, so that a read lost to a slow
	// machine (its reading skipped) moves an event by a poll but not past the next.
	const {monitor, miner} = await watchWithSensors((n) =>
		makeReading({
			at: Date.now(),
			temps: [coretemp(0, 'Package id 0', n < 3 ? 70 : n < 17 ? 84 : 60, 80), coretemp(0, 'Core 0', 65, 80)],
			throttle: n < 8 ? 10 : 25,
			power: n >= 20 && n < 23 ? {state: 'lost', message: 'intel-rapl:0/energy_uj could not be read: EIO'} : powerOk(n < 20 ? 120 : 118),
		}),
	);
	monitor.start();
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(0));
	const rung: string[] = [];
	const alerting: Alerting = startAlerting([miner as never], {bell: (text) => rung.push(text), onAlert: [process.execPath, script, out]});
	cleanup.push(async () => alerting.close());
	// The rig's open alert (the fleet's alert column) as each alert goes out: a trouble's own while it lasts.
	const openAtEach: string[] = [];
	alerting.center.addSink((alert) => openAtEach.push(`${alert.kind} → ${alerting.center.getState().rigs[0]?.open?.kind ?? 'none'}`));

	await waitFor(() => expect(alerting.center.getState().alerts.map((alert) => alert.kind)).toContain('power-restored'));
	const settled = monitor.getState().polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(settled + 5));
	const alerts = alerting.center.getState().alerts;
	expect(alerts.map((alert) => `${alert.kind}: ${alert.message}`)).toEqual([
		'temp-high: CPU hot: Package id 0 84°C, at or over its max (80°C) for 3 polls',
		'throttle-started: CPU throttling: thermal_throttle count up by 15 (25 since boot)',
		expect.stringMatching(/^throttle-stopped: CPU throttling stopped after \d+s \(the count still for 5 polls\)$/),
		'temp-normal: CPU temperature back under its max: Package id 0 60°C',
		'power-lost: package power reading lost: intel-rapl:0/energy_uj could not be read: EIO',
		'power-restored: package power read again: 118 W',
	]);
	expect(alerts.map((alert) => alert.severity)).toEqual(['warn', 'warn', 'info', 'info', 'warn', 'info']);
	expect(alerts.every((alert) => alert.rig === monitor.getState().name)).toBe(true);
	expect(alerting.center.getState().rigs[0]?.open).toBeNull();
	expect(openAtEach).toEqual([
		'temp-high → temp-high',
		'throttle-started → throttle-started',
		'throttle-stopped → temp-high',
		'temp-normal → none',
		'power-lost → power-lost',
		'power-restored → none',
	]);
	// The bell rang for the trouble, never for an all-clear (three troubles; alerts within its 2 s gap ring once).
	expect(rung[0]).toBe('\u0007');
	expect(rung.length).toBeLessThanOrEqual(3);
	// The events log (the events pane, the event view, the history's recorder read it) has each once.
	const kinds = monitor.getState().events.map((event) => event.kind);
	for (const kind of ['temp-high', 'temp-normal', 'throttle-started', 'throttle-stopped', 'power-lost', 'power-restored'] as const) {
		expect(
			kinds.filter((seen) => seen === kind),
			kind,
		).toHaveLength(1);
	}

	// --on-alert got each as one line of JSON.
	await waitFor(async () => {
		const lines = (await readFile(out, 'utf8').catch(() => '')).split('\n').filter(Boolean);
		expect(lines.map((line) => (JSON.parse(line) as {kind: string}).kind)).toEqual([
			'temp-high',
			'throttle-started',
			'throttle-stopped',
			'temp-normal',
			'power-lost',
			'power-restored',
		]);
	});
});

test('--temp-alert judges a k10temp that has no max; power refused to rigtop is said once in the events and alerts nothing', async () => {
	const {monitor, miner} = await watchWithSensors(
		(n) =>
			makeReading({
				at: Date.now(),
				temps: [{...coretemp(0, 'Tctl', n >= 2 ? 86 : 70, null), source: 'k10temp', headline: true}],
				power: {state: 'denied', message: DENIED_MESSAGE},
			}),
		85,
	);
	monitor.start();
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(0));
	const alerting = startAlerting([miner as never], {bell: null, onAlert: null});
	cleanup.push(async () => alerting.close());
	await waitFor(() => expect(alerting.center.getState().alerts.map((alert) => alert.kind)).toEqual(['temp-high']));
	expect(alerting.center.getState().alerts[0]?.message).toBe('CPU hot: Tctl 86°C, at or over --temp-alert 85°C for 3 polls');
	const polls = monitor.getState().polls;
	await waitFor(() => expect(monitor.getState().polls).toBeGreaterThan(polls + 5));
	const events = monitor.getState().events.filter((event) => event.kind === 'power-denied');
	expect(events.map((event) => [event.severity, event.message])).toEqual([['info', `package power not shown: ${DENIED_TOLD}`]]);
	expect(alerting.center.getState().alerts.map((alert) => alert.kind)).toEqual(['temp-high']);
	expect(alerting.center.getState().rigs[0]?.open?.kind).toBe('temp-high');
});
