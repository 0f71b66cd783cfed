// Many simulated miners in one process, for the fleet and HTTP client benchmarks (their CPU is then not counted as
// rigtop's). `node sim-fleet.mjs COUNT` prints one JSON line, the miners' URLs, and serves until SIGTERM.
// Dialects cycle 6, 6, 5, 2 (so every fourth miner answers /1/summary, the others /2/summary).
import {startSimulator, type SimDialect, type Simulator} from '../source/sim/simulator.js';

const fleetDialects: readonly SimDialect[] = ['6', '6', '5', '2'];

const count = Number(process.argv[2]);
const sims: Simulator[] = [];
for (let i = 0; i < count; i++) {
	sims.push(
		await startSimulator({
			dialect: fleetDialects[i % fleetDialects.length]!,
			warm: true,
			seed: 1000 + i,
			workerId: `bench-${i}`,
			threads: 4 + (i % 5),
		}),
	);
}

process.stdout.write(`${JSON.stringify(sims.map((sim) => sim.url))}\n`);
const stop = async (): Promise<void> => {
	await Promise.all(sims.map(async (sim) => sim.stop()));
	process.exit(0);
};

process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => undefined, 1 << 30);
