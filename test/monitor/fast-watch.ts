/**
 * A real simulated miner watched by a real monitor through the real client, both on a clock running SCALE times
 * faster than real time: a minute of mining in six seconds (the drop and huge pages tests).
 */
import {MinerClient} from '../../source/miner/client.js';
import {MinerReader} from '../../source/miner/reader.js';
import {Monitor, type Clock} from '../../source/monitor/monitor.js';
import type {PastRates} from '../../source/monitor/reference.js';
import {startSimulator, type SimOptions, type Simulator} from '../../source/sim/simulator.js';

export const SCALE = 10;
export const TOKEN = 'drop-test-token';

/** Epoch-ms time running SCALE times faster than real time, and timers as short. */
export function fastClock(): Clock {
	const epoch = Date.now();
	const start = performance.now();
	return {
		now: () => epoch + (performance.now() - start) * SCALE,
		setTimeout: (fn, ms) => setTimeout(fn, ms / SCALE),
		clearTimeout(handle) {
			clearTimeout(handle as ReturnType<typeof setTimeout>);
		},
	};
}

export type FastWatch = {
	readonly sim: Simulator;
	readonly monitor: Monitor;
	readonly client: MinerClient;
	readonly clock: Clock;
	close(): Promise<void>;
};

/** A warm 4-thread 6.x miner (token, not restricted: PUT and pause work) and a monitor polling it every (fast) second. */
export async function fastWatch(options: SimOptions = {}, pastRates?: PastRates): Promise<FastWatch> {
	const sim = await startSimulator({
		warm: true,
		seed: 5,
		threads: 4,
		timeScale: SCALE,
		token: TOKEN,
		restricted: false,
		applyDelayMs: 5,
		...options,
	});
	const client = new MinerClient({url: sim.url, token: TOKEN}, {connectTimeoutMs: 1000, deadlineMs: 2000});
	const reader = new MinerReader(client);
	const clock = fastClock();
	const monitor = new Monitor({
		read: async (signal) => reader.read(signal),
		url: sim.url,
		intervalMs: 1000,
		clock,
		...(pastRates ? {pastRates} : {}),
	});
	return {
		sim,
		monitor,
		client,
		clock,
		async close() {
			monitor.stop();
			await client.close();
			await sim.stop();
		},
	};
}

/** A PUT of the whole config with `cpu` changed, as `rigtop config set` sends it; resolves to the status. */
export async function putCpu(sim: Simulator, change: (cpu: Record<string, unknown>) => void): Promise<number> {
	const doc = JSON.parse(sim.configText()) as {cpu: Record<string, unknown>};
	change(doc.cpu);
	const response = await fetch(`${sim.url}/1/config`, {
		method: 'PUT',
		headers: {Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json'},
		body: JSON.stringify(doc, null, 4),
	});
	return response.status;
}
