import {
	PROXY_WINDOW_LABELS,
	type HugePages,
	type MinerSnapshot,
	type ProxyInfo,
	type ProxyRateWindows,
	type ProxyWorker,
	type RateWindows,
} from '../miner/model.js';
import type {PollStats} from '../monitor/monitor.js';
import type {MonitorState} from '../monitor/types.js';
import {minerFamilies, type MinerFamilyKey} from './families.js';
import {DEFAULT_WORKER_METRICS_LIMIT, type WorkerMetrics} from './worker-metrics.js';

/**
 * One miner's series, from its monitor's state: what every XMRig dialect rigtop reads (`/2/summary` + `/2/backends`,
 * `/1/summary` + `/2/backends`, `/1/summary` + `/1/threads`, `/1/summary` alone) maps to, through the one normalized
 * model (source/miner/model.ts), so the names never depend on the miner's version. A value the miner did not report
 * (a window not filled, a field its version lacks) is no series at all, never a 0.
 *
 * While the miner cannot be read (any state but live), only `xmrig_up 0`, the reason and rigtop's own counts are
 * served: the last values read are not repeated as if they were current.
 *
 * An xmrig-proxy is served under its own names (`xmrig_proxy_*`, its windows 1m…24h), never as a miner: the miner's
 * hashrate, shares, pool and huge-page series would be meaningless for it. Its workers (`/1/workers`) are served per
 * worker, `worker` the name the proxy groups them by, up to a limit per proxy (--worker-metrics-limit), none with
 * --no-worker-metrics, and none while the proxy groups workers by password (the names would be pool passwords).
 */

export type Sample = {
	readonly family: MinerFamilyKey;
	/** Values of the family's labels (after `miner`), in its order. */
	readonly labels: readonly string[];
	readonly value: number;
};

export type MinerSampleInput = {
	/** The `miner` label: the rig's configured name, else host:port. */
	readonly miner: string;
	readonly state: MonitorState;
	readonly stats: PollStats;
	/** A proxy's per-worker series; default: on, at most DEFAULT_WORKER_METRICS_LIMIT workers. */
	readonly workers?: WorkerMetrics | undefined;
	/** Told, at each poll of a proxy, which of its workers have no per-worker series and why (nothing when all do). */
	readonly onWorkersLeftOut?: ((left: WorkersLeftOut) => void) | undefined;
};

/** Workers of a proxy served without their own series: past the limit (the lowest 10 min rates), or every one. */
export type WorkersLeftOut =
	| {readonly reason: 'limit'; readonly listed: number; readonly limit: number; readonly omitted: readonly string[]}
	| {readonly reason: 'password-mode'; readonly listed: number};

/** The three windows XMRig reports, as the `window` label. */
export const WINDOWS = ['10s', '60s', '15m'] as const;

export function minerSamples(input: MinerSampleInput): Sample[] {
	const {state, stats} = input;
	const out: Sample[] = [];
	const add = (family: MinerFamilyKey, value: number | boolean | null | undefined, labels: readonly string[] = []): void => {
		if (value === null || value === undefined) return;
		const number = typeof value === 'boolean' ? (value ? 1 : 0) : value;
		if (Number.isFinite(number)) out.push({family, labels, value: number});
	};

	const live = state.status === 'live' && state.snapshot !== null;
	add('up', live ? 1 : 0, [state.url]);
	if (!live) add('pollError', 1, [state.error?.kind ?? 'connecting']);
	const proxy = live ? state.snapshot!.proxy : null;
	if (live && proxy === null) addSnapshot(state.snapshot!, state.url, add);
	if (live && proxy !== null) {
		addProxy(state.snapshot!, proxy, state.url, add);
		addProxyWorkers(proxy, input.workers ?? {enabled: true, limit: DEFAULT_WORKER_METRICS_LIMIT}, add, input.onWorkersLeftOut);
	}

	// When the miner started, to the second: the time of the good poll less its uptime.
	if (live && state.lastSuccessAt !== null && state.snapshot!.uptime !== null)
		add('startTime', Math.round(state.lastSuccessAt / 1000 - state.snapshot!.uptime));
	if (live) add('restarts', stats.restarts);
	// Kept while the miner is down: how stale its other series' last values are is the point.
	add('lastSuccess', state.lastSuccessAt === null ? null : state.lastSuccessAt / 1000);
	add('pollDuration', stats.lastDurationMs === null ? null : stats.lastDurationMs / 1000);
	add('polls', state.polls);
	add('pollFailures', stats.failures);
	return out;
}

type Add = (family: MinerFamilyKey, value: number | boolean | null | undefined, labels?: readonly string[]) => void;

function addSnapshot(snapshot: MinerSnapshot, url: string, add: Add): void {
	const {connection, results} = snapshot;
	add('info', 1, [
		url,
		snapshot.workerId ?? '',
		snapshot.version ?? '',
		snapshot.kind ?? '',
		snapshot.algo ?? '',
		snapshot.dialect,
		connection.pool ?? '',
	]);
	add('uptime', snapshot.uptime);
	add('paused', snapshot.paused);
	addWindows(add, 'hashrate', snapshot.hashrate.total, []);
	add('hashrateHighest', snapshot.hashrate.highest);

	for (const backend of snapshot.backends) {
		add('backendEnabled', backend.enabled, [backend.type]);
		add('backendThreads', backend.threadCount, [backend.type]);
		if (backend.hashrate) addWindows(add, 'backendHashrate', backend.hashrate, [backend.type]);
	}

	for (const thread of snapshot.threads) {
		const labels = [thread.backend, String(thread.index)];
		addWindows(add, 'threadHashrate', thread.hashrate, labels);
		add('gpuTemperature', thread.health?.temperature, labels);
		add('gpuPower', thread.health?.power, labels);
	}

	add('sharesGood', results.good);
	add('sharesRejected', results.rejected);
	add('shares', results.total);
	add('hashes', results.hashesTotal);
	add('difficultyCurrent', results.diffCurrent ?? connection.diff);
	add('difficultyBest', results.best);
	add('shareTime', results.avgTime);
	add('poolConnected', connection.connected);
	add('poolPing', connection.ping === null ? null : connection.ping / 1000);
	add('poolUptime', connection.uptime);
	add('poolFailures', connection.failures);
	addHugePages(add, snapshot.hugepages);
	add('residentMemory', snapshot.resources?.rss);
}

/** A proxy's own series: who it is (kind proxy on the info), its rates, miners, upstreams and results. */
function addProxy(snapshot: MinerSnapshot, proxy: ProxyInfo, url: string, add: Add): void {
	add('info', 1, [url, snapshot.workerId ?? '', snapshot.version ?? '', 'proxy', '', snapshot.dialect, '']);
	add('proxyInfo', 1, [proxy.mode ?? '']);
	add('uptime', snapshot.uptime);
	addProxyWindows(add, 'proxyHashrate', proxy.hashrate, []);
	add('proxyHashrateAverage', proxy.sinceStart);
	add('proxyMiners', proxy.miners?.now);
	add('proxyMinersMax', proxy.miners?.max);
	add('proxyWorkers', proxy.workerCount);
	if (proxy.upstreams !== null) {
		add('proxyUpstreams', proxy.upstreams.active, ['active']);
		add('proxyUpstreams', proxy.upstreams.sleep, ['sleep']);
		add('proxyUpstreams', proxy.upstreams.error, ['error']);
		add('proxyUpstreamConnections', proxy.upstreams.total);
	}

	const {results} = proxy;
	add('proxyShares', results.accepted, ['accepted']);
	add('proxyShares', results.rejected, ['rejected']);
	add('proxyShares', results.invalid, ['invalid']);
	add('proxyShares', results.expired, ['expired']);
	add('proxyHashes', results.hashesTotal);
	add('proxyHashesDonated', results.hashesDonate);
	add('proxyShareTime', results.avgTime);
	add('proxyLatency', results.latency === null ? null : results.latency / 1000);
	add('proxyDifficultyBest', results.best[0]);
	add('residentMemory', snapshot.resources?.rss);
}

/**
 * The proxy's workers, each under its own `worker` label. Past the limit, the workers with the highest 10 min rate are
 * kept (then by name, so the choice is stable); a worker the proxy no longer lists has no series from this poll on.
 * Names are the proxy's (sanitized by the reader: no control characters, at most 120 characters); two that read the
 * same get " (2)"…, so no two workers ever share a series.
 */
function addProxyWorkers(proxy: ProxyInfo, options: WorkerMetrics, add: Add, report: MinerSampleInput['onWorkersLeftOut']): void {
	const {workers} = proxy;
	if (!options.enabled || workers === null) return;
	if (proxy.workersMode === 'password') {
		if (workers.length > 0) report?.({reason: 'password-mode', listed: workers.length});
		return;
	}

	let served: readonly ProxyWorker[] = workers;
	if (workers.length > options.limit) {
		const ranked = [...workers].sort(
			(a, b) => (b.hashrate[1] ?? -1) - (a.hashrate[1] ?? -1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
		);
		const kept = new Set(ranked.slice(0, options.limit));
		served = workers.filter((worker) => kept.has(worker));
		report?.({
			reason: 'limit',
			listed: workers.length,
			limit: options.limit,
			omitted: ranked.slice(options.limit).map((worker) => worker.name),
		});
	}

	add('proxyWorkersOmitted', workers.length - served.length);
	const workerLabels = proxyWorkerLabels(served);
	for (const [index, worker] of served.entries()) {
		const label = workerLabels[index] ?? worker.name;
		const labels = [label];
		add('proxyWorkerConnections', worker.connections, labels);
		addProxyWindows(add, 'proxyWorkerHashrate', worker.hashrate, labels);
		add('proxyWorkerShares', worker.accepted, [label, 'accepted']);
		add('proxyWorkerShares', worker.rejected, [label, 'rejected']);
		add('proxyWorkerShares', worker.invalid, [label, 'invalid']);
		add('proxyWorkerHashes', worker.hashes, labels);
		add('proxyWorkerLastShare', worker.lastShareAt === null ? null : worker.lastShareAt / 1000, labels);
	}
}

/**
 * The `worker` label of each worker (by its place in the list): its name. Two workers may have one name (anyone may
 * connect to a proxy and name a worker; names that differ only in what cleaning drops come out the same): the first
 * of them by ip, then by place in the list, keeps the name, the others are `name (2)`, `name (3)`, … (a number a
 * worker's own name already takes is skipped). By ip, not by list order: the same worker keeps its series when the
 * proxy lists them in another order, and an impostor that connects first does not take the real one's label.
 */
export function proxyWorkerLabels(workers: readonly Pick<ProxyWorker, 'name' | 'ip'>[]): readonly string[] {
	const counts = new Map<string, number>();
	for (const worker of workers) counts.set(worker.name, (counts.get(worker.name) ?? 0) + 1);
	const labels = workers.map((worker) => worker.name);
	const taken = new Set(workers.filter((worker) => counts.get(worker.name) === 1).map((worker) => worker.name));
	const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
	const duplicates = [...workers.keys()]
		.filter((index) => (counts.get(workers[index]!.name) ?? 0) > 1)
		.sort((a, b) => order(workers[a]!.name, workers[b]!.name) || order(workers[a]!.ip ?? '', workers[b]!.ip ?? '') || a - b);
	for (const index of duplicates) {
		const {name} = workers[index]!;
		let label = name;
		for (let n = 2; taken.has(label); n++) label = `${name} (${n})`;
		taken.add(label);
		labels[index] = label;
	}

	return labels;
}

function addProxyWindows(add: Add, family: MinerFamilyKey, windows: ProxyRateWindows, labels: readonly string[]): void {
	for (const [index, window] of PROXY_WINDOW_LABELS.entries()) add(family, windows[index], [...labels, window]);
}

function addWindows(add: Add, family: MinerFamilyKey, windows: RateWindows, labels: readonly string[]): void {
	for (const [index, window] of WINDOWS.entries()) add(family, windows[index], [...labels, window]);
}

function addHugePages(add: Add, hugepages: HugePages | null): void {
	if (hugepages === null) return;
	if (hugepages.kind === 'flag') {
		add('hugepagesEnabled', hugepages.enabled);
		return;
	}

	add('hugepagesAllocated', hugepages.allocated);
	add('hugepagesRequested', hugepages.total);
}

/** Every label name a family's series carry, `miner` first. */
export function labelNames(family: MinerFamilyKey): readonly string[] {
	return ['miner', ...minerFamilies[family].labels];
}
