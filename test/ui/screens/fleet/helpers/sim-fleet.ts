/**
 * A real fleet for tests: simulated miners of several dialects on loopback, each watched through the
 * real client, reader and monitor (as the CLI builds them, sharing one poll limiter).
 */
import {watchMiner, type WatchedMiner} from '../../../../../source/session/session.js';
import {createLimiter} from '../../../../../source/monitor/limiter.js';
import {startSimulator, type SimOptions, type Simulator} from '../../../../../source/sim/simulator.js';
import type {ProxySimOptions, ProxySimulator} from '../../../../../source/sim/proxy-simulator.js';

export type SimFleet<S = Simulator> = {
	readonly sims: readonly S[];
	readonly miners: readonly WatchedMiner[];
	start(): void;
	close(): Promise<void>;
};

/** Miners alone; with a simulated xmrig-proxy (kind: 'proxy') among them, its simulator is a ProxySimulator. */
export async function startSimFleet(
	rigs: readonly SimOptions[],
	intervalMs?: number,
	perThread?: () => boolean,
	names?: readonly (string | undefined)[],
): Promise<SimFleet>;
export async function startSimFleet(
	rigs: readonly (SimOptions | ProxySimOptions)[],
	intervalMs?: number,
	perThread?: () => boolean,
	names?: readonly (string | undefined)[],
): Promise<SimFleet<Simulator | ProxySimulator>>;
/** `names`: what a rigs file names each rig (none: each is named by its host:port, as without one). */
export async function startSimFleet(
	rigs: readonly (SimOptions | ProxySimOptions)[],
	intervalMs = 250,
	perThread?: () => boolean,
	names: readonly (string | undefined)[] = [],
): Promise<SimFleet<Simulator | ProxySimulator>> {
	const sims = await Promise.all(
		rigs.map(async (options) =>
			options.kind === 'proxy' ? startSimulator({warm: true, ...options}) : startSimulator({warm: true, ...options}),
		),
	);
	const limiter = createLimiter(4);
	const miners = sims.map((sim, index) => watchMiner({url: sim.url, token: null, name: names[index]}, intervalMs, limiter, perThread));
	return {
		sims,
		miners,
		start() {
			for (const miner of miners) miner.monitor.start();
		},
		async close() {
			for (const miner of miners) miner.monitor.stop();
			await Promise.all(miners.map(async (miner) => miner.client.close()));
			await Promise.all(sims.map(async (sim) => sim.stop()));
		},
	};
}
