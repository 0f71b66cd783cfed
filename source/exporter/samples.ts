import type {HugePages, MinerSnapshot, RateWindows} from '../miner/model.js';
import type {PollStats} from '../monitor/monitor.js';
import type {MonitorState} from '../monitor/types.js';
import {minerFamilies, type MinerFamilyKey} from './families.js';

/**
 * One miner's series, from its monitor's state: what every XMRig dialect rigtop reads (`/2/summary` + `/2/backends`,
 * `/1/summary` + `/2/backends`, `/1/summary` + `/1/threads`, `/1/summary` alone) maps to, through the one normalized
 * model (source/miner/model.ts), so the names never depend on the miner's version. A value the miner did not report
 * (a window not filled, a field its version lacks) is no series at all, never a 0.
 *
 * While the miner cannot be read (any state but live), only `xmrig_up 0`, the reason and rigtop's own counts are
 * served: the last values read are not repeated as if they were current.
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
};

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
	if (live) addSnapshot(state.snapshot!, state.url, add);
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
