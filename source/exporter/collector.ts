import process from 'node:process';
import {getHeapStatistics} from 'node:v8';
import type {Monitor} from '../monitor/monitor.js';
import {hostPort, rigName} from '../monitor/name.js';
import {allFamilies, minerFamilies, processFamilies, type Family} from './families.js';
import {sampleLine, writeExposition, type Format} from './exposition.js';
import {labelNames, minerSamples, type WorkersLeftOut} from './samples.js';
import type {WorkerMetrics} from './worker-metrics.js';
import {jsonText} from '../text/json-out.js';

/**
 * Keeps every watched miner's series, written out, from its latest poll: each miner's lines are written again when
 * its monitor reports a poll, and a scrape only joins what is there (plus rigtop's own process figures). A scrape
 * therefore never waits on a miner and never makes one poll.
 */

/** What the collector needs of a watched miner (a session's WatchedMiner has it). */
export type CollectedMiner = {
	readonly target: {readonly url: string; readonly name?: string | undefined};
	readonly monitor: Pick<Monitor, 'getState' | 'getStats' | 'subscribe'>;
};

export type MetricsCollector = {
	/** The `miner` label of each miner, in order. */
	readonly labels: readonly string[];
	/** The whole exposition, as of the latest polls. */
	render(format: Format): string;
	/**
	 * Serves these miners from now on (a reload): a miner whose monitor was served already keeps its lines until its
	 * next poll, so its series go on with no gap; a new one's are written now; a gone one's go.
	 */
	setMiners(miners: readonly CollectedMiner[]): void;
	/** Whether every miner served at the start has been polled once, answered or failed (and from then on, true). */
	ready(): boolean;
	/** Stops following the monitors. */
	close(): void;
};

export type CollectorOptions = {
	/** rigtop's version, for xmrig_exporter_build_info. */
	readonly version: string;
	/** A proxy's per-worker series (--no-worker-metrics, --worker-metrics-limit); default on, up to the default limit. */
	readonly workers?: WorkerMetrics | undefined;
	/** Where to say, once per proxy, which workers have no series of their own (the exporter's log). */
	readonly notice?: ((line: string) => void) | undefined;
};

/** How many of the workers left out a log line names. */
const NAMED_LEFT_OUT = 5;

/** The log line for a proxy whose workers are not all served (once per proxy). */
export function leftOutLine(miner: string, left: WorkersLeftOut): string {
	if (left.reason === 'password-mode') {
		const workers = `${left.listed} worker${left.listed === 1 ? '' : 's'}`;
		return `${miner}: the proxy names its ${workers} by their pool password ("workers": "password" in its config): no per-worker series are served for it`;
	}

	const named = left.omitted.slice(0, NAMED_LEFT_OUT).map((name) => jsonText(name));
	const more = left.omitted.length > NAMED_LEFT_OUT ? `, and ${left.omitted.length - NAMED_LEFT_OUT} more` : '';
	return `${miner}: ${left.listed} workers, more than --worker-metrics-limit ${left.limit}: the ${left.omitted.length} with the lowest 10 min hashrate have no per-worker series (${named.join(', ')}${more}); xmrig_exporter_proxy_workers_omitted counts them at each scrape`;
}

const familyIndex = new Map<Family, number>(allFamilies.map((family, index) => [family, index]));

/**
 * The `miner` label of each miner: its configured name, else host:port. Two miners with the same name are told
 * apart by their address ("rig (10.0.0.5:8080)"), so no two miners ever share a series.
 */
export function minerLabels(miners: readonly CollectedMiner['target'][]): string[] {
	// The configured name or host:port, the one rule of a rig's name (monitor/name.ts, rigName; never the worker id: a
	// label must not change when the miner first answers).
	const base = miners.map((target) => rigName(target.name, target.url));
	const counts = new Map<string, number>();
	for (const label of base) counts.set(label, (counts.get(label) ?? 0) + 1);
	const taken = new Set<string>();
	return base.map((label, index) => {
		let unique = (counts.get(label) ?? 0) > 1 ? `${label} (${hostPort(miners[index]!.url)})` : label;
		for (let n = 2; taken.has(unique); n++) unique = `${label} (${n})`;
		taken.add(unique);
		return unique;
	});
}

/**
 * One miner's sample lines, per family (by index in allFamilies). Each family's lines are joined into one flat string:
 * they live until the miner's next poll, and built with `+=` they would be ropes of hundreds of small heap objects per
 * miner (measured at 1000 miners: 18 MB of them, and all promoted to the old generation).
 */
export function minerFragments(
	miner: string,
	monitor: Pick<Monitor, 'getState' | 'getStats'>,
	workers?: WorkerMetrics,
	onWorkersLeftOut?: (left: WorkersLeftOut) => void,
): string[] {
	const lines: Array<string[] | undefined> = [];
	for (const sample of minerSamples({miner, state: monitor.getState(), stats: monitor.getStats(), workers, onWorkersLeftOut})) {
		const family = minerFamilies[sample.family];
		const index = familyIndex.get(family)!;
		(lines[index] ??= []).push(sampleLine(family, labelNames(sample.family), [miner, ...sample.labels], sample.value));
	}

	return Array.from(allFamilies, (_, index) => lines[index]?.join('') ?? '');
}

type Followed = {miner: CollectedMiner; label: string; fragments: string[]; told: boolean; readonly unsubscribe: () => void};

export function createCollector(initial: readonly CollectedMiner[], options: CollectorOptions): MetricsCollector {
	let followed: Followed[] = [];
	const fragmentsOf = (entry: Pick<Followed, 'label' | 'told'>, monitor: CollectedMiner['monitor']) =>
		minerFragments(entry.label, monitor, options.workers, (left) => {
			if (entry.told || options.notice === undefined) return;
			entry.told = true;
			options.notice(leftOutLine(entry.label, left));
		});
	const setMiners = (miners: readonly CollectedMiner[]) => {
		const labels = minerLabels(miners.map((miner) => miner.target));
		const old = new Map(followed.map((entry) => [entry.miner.monitor, entry]));
		followed = miners.map((miner, index) => {
			const label = labels[index]!;
			const known = old.get(miner.monitor);
			if (known !== undefined) {
				old.delete(miner.monitor);
				known.miner = miner;
				if (known.label !== label) {
					known.label = label;
					known.fragments = fragmentsOf(known, miner.monitor);
				}

				return known;
			}

			const entry: Followed = {
				miner,
				label,
				fragments: [],
				told: false,
				unsubscribe: miner.monitor.subscribe(() => {
					entry.fragments = fragmentsOf(entry, miner.monitor);
				}),
			};
			entry.fragments = fragmentsOf(entry, miner.monitor);
			return entry;
		});
		for (const gone of old.values()) gone.unsubscribe();
	};

	setMiners(initial);
	const first = new Set(initial.map((miner) => miner.monitor));
	let ready = false;
	const startTime = Date.now() / 1000 - process.uptime();
	const build = sampleLine(processFamilies.buildInfo, ['version', 'nodejs'], [options.version, process.versions.node], 1);

	return {
		get labels() {
			return followed.map((entry) => entry.label);
		},
		render(format) {
			const cpu = process.cpuUsage();
			const own = Array.from<string>({length: allFamilies.length}).fill('');
			own[familyIndex.get(processFamilies.buildInfo)!] = build;
			own[familyIndex.get(processFamilies.miners)!] = sampleLine(processFamilies.miners, [], [], followed.length);
			own[familyIndex.get(processFamilies.cpu)!] = sampleLine(processFamilies.cpu, [], [], (cpu.user + cpu.system) / 1e6);
			own[familyIndex.get(processFamilies.residentMemory)!] = sampleLine(processFamilies.residentMemory, [], [], process.memoryUsage.rss());
			own[familyIndex.get(processFamilies.startTime)!] = sampleLine(processFamilies.startTime, [], [], Math.round(startTime * 1000) / 1000);
			// This thread's heap: the exporter's worker for rigtop exporter, whose bound is its documented way to fail.
			const heap = getHeapStatistics();
			own[familyIndex.get(processFamilies.heapUsed)!] = sampleLine(processFamilies.heapUsed, [], [], heap.used_heap_size);
			own[familyIndex.get(processFamilies.heapTotal)!] = sampleLine(processFamilies.heapTotal, [], [], heap.total_heap_size);
			own[familyIndex.get(processFamilies.heapLimit)!] = sampleLine(processFamilies.heapLimit, [], [], heap.heap_size_limit);
			return writeExposition(allFamilies, [...followed.map((entry) => entry.fragments), own], format);
		},
		setMiners,
		ready() {
			// The miners of the start still served (one removed by a reload before its first poll does not count).
			ready ||= followed.every((entry) => !first.has(entry.miner.monitor) || entry.miner.monitor.getState().polls > 0);
			return ready;
		},
		close() {
			for (const entry of followed) entry.unsubscribe();
			followed = [];
		},
	};
}
