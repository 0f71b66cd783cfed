import {createLimiter} from '../monitor/limiter.js';
import {MAX_CONCURRENT_POLLS, watchMiner, type SessionTarget, type WatchedMiner} from '../session/session.js';

/**
 * The exporter's miners, as a set that can change while it runs (SIGHUP re-reads the rigs file): a miner is known by
 * its URL and token, and one that is still listed keeps its monitor (so its counters and its schedule go on, with no
 * gap in its series); one no longer listed is stopped; a new one is watched and polled at once.
 */
export type Fleet = {
	readonly miners: readonly WatchedMiner[];
	/** Every miner reads its per-thread document (always, for the exporter, unless the operator dropped them). */
	readEveryThread(): void;
	/** Makes the set the one listed; returns the miners added and removed. */
	reconcile(targets: readonly SessionTarget[]): {readonly added: readonly WatchedMiner[]; readonly removed: readonly WatchedMiner[]};
	start(): void;
	close(): Promise<void>;
};

export type FleetOptions = {
	/** Whether to read the per-thread document (/2/backends, /1/threads) at each poll; default true. */
	readonly threads?: boolean;
	/** Whether a proxy reads its /1/workers at each poll (its per-worker series); default true. */
	readonly workers?: boolean;
};

const identity = (target: SessionTarget) => `${target.url}\n${target.token ?? ''}`;

export function createFleet(targets: readonly SessionTarget[], intervalMs: number, options: FleetOptions = {}): Fleet {
	const limiter = createLimiter(MAX_CONCURRENT_POLLS);
	const threads = options.threads ?? true;
	const workers = options.workers ?? true;
	// A proxy's per-thread document is its /1/workers: read for the per-worker series, whatever --no-thread-metrics says.
	const watch = (target: SessionTarget): WatchedMiner => {
		// No sensors: node_exporter serves hwmon and RAPL already (docs/prometheus/), and the exporter shows nothing else.
		const watched: WatchedMiner = watchMiner(
			target,
			intervalMs,
			limiter,
			() => (watched.monitor.getState().snapshot?.proxy ? workers : threads),
			{sensors: false},
		);
		return watched;
	};

	let miners: WatchedMiner[] = targets.map(watch);
	let started = false;
	return {
		get miners() {
			return miners;
		},
		readEveryThread() {
			// The exporter's miners read their threads (or not) from the start: nothing to switch.
		},
		reconcile(next) {
			const old = new Map(miners.map((miner) => [identity(miner.target), miner]));
			const added: WatchedMiner[] = [];
			const kept = new Set<WatchedMiner>();
			miners = next.map((target) => {
				const found = old.get(identity(target));
				if (found !== undefined && !kept.has(found)) {
					kept.add(found);
					// The same monitor under the name the file now gives (its label follows the name).
					return found.target.name === target.name ? found : {...found, target};
				}

				const miner = watch(target);
				added.push(miner);
				return miner;
			});
			const removed = [...old.values()].filter((miner) => !kept.has(miner));
			for (const miner of removed) {
				miner.monitor.stop();
				void miner.client.close();
			}

			if (started) for (const miner of added) miner.monitor.start();
			return {added, removed};
		},
		start() {
			started = true;
			for (const miner of miners) miner.monitor.start();
		},
		async close() {
			for (const miner of miners) miner.monitor.stop();
			await Promise.allSettled(miners.map(async (miner) => miner.client.close()));
		},
	};
}
