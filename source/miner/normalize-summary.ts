import {arr, asNumber, asRate, asRateWindows, bool, field, has, num, obj, text, unknownWindows, type JsonObject} from './json-fields.js';
import type {CpuInfo, HugePages, PoolConnection, Rate, RateWindows, Resources, ShareResults} from './model.js';

/**
 * The parts of MinerSnapshot that come from a summary (`/1/summary`, `/2/summary`), for every XMRig era: 2.4 – 2.14
 * (and the GPU forks), 2.15 – 2.16, 2.99 – 5.x and 6.x. Missing or mistyped fields read as null; nothing throws.
 */

export function readHashrate(summary: JsonObject): {total: RateWindows; highest: Rate} {
	const hashrate = obj(summary, 'hashrate');
	return {
		total: asRateWindows(field(hashrate, 'total')) ?? unknownWindows,
		highest: asRate(field(hashrate, 'highest')),
	};
}

function count(value: unknown, key: string): number {
	const found = num(value, key);
	return found !== null && found > 0 ? found : 0;
}

/** The largest of `best[]`; null when there is none above 0 (XMRig zero-fills the top-10 list). */
function bestShare(best: readonly unknown[] | null): number | null {
	let max = 0;
	for (const item of best ?? []) {
		const value = asNumber(item);
		if (value !== null && value > max) {
			max = value;
		}
	}

	return max > 0 ? max : null;
}

export function readResults(summary: JsonObject): ShareResults {
	const results = obj(summary, 'results');
	const good = count(results, 'shares_good');
	const total = Math.max(count(results, 'shares_total'), good);
	const avgMs = num(results, 'avg_time_ms');
	const avg = num(results, 'avg_time');
	// XMRig sends 0 until the first accepted share on this connection.
	const avgTime = avgMs !== null && avgMs > 0 ? avgMs / 1000 : avg !== null && avg > 0 ? avg : null;
	return {
		good,
		total,
		rejected: total - good,
		avgTime,
		hashesTotal: num(results, 'hashes_total'),
		best: bestShare(arr(results, 'best')),
		diffCurrent: num(results, 'diff_current'),
	};
}

export function readConnection(summary: JsonObject): PoolConnection {
	const connection = obj(summary, 'connection');
	const ip = text(connection, 'ip');
	const uptime = num(connection, 'uptime');
	const ping = num(connection, 'ping');
	return {
		pool: text(connection, 'pool'),
		ip,
		uptime,
		// XMRig sends 0 until the first share round trip.
		ping: ping !== null && ping > 0 ? ping : null,
		failures: num(connection, 'failures'),
		tls: text(connection, 'tls'),
		tlsFingerprint: text(connection, 'tls-fingerprint'),
		diff: num(connection, 'diff') ?? num(obj(summary, 'results'), 'diff_current'),
		// 2.15.4+ reports the pool IP (null when disconnected); before that only the connection's age tells.
		connected: has(connection, 'ip') ? ip !== null : uptime !== null && uptime > 0,
	};
}

export function readCpu(summary: JsonObject): CpuInfo {
	const cpu = obj(summary, 'cpu');
	return {
		brand: text(cpu, 'brand'),
		cores: num(cpu, 'cores'),
		threads: num(cpu, 'threads'),
		// 2.x calls it sockets.
		packages: num(cpu, 'packages') ?? num(cpu, 'sockets'),
		aes: bool(cpu, 'aes'),
		avx2: bool(cpu, 'avx2'),
		// `x64` is deprecated since 6.25 in favour of `64_bit`.
		x64: bool(cpu, '64_bit') ?? bool(cpu, 'x64'),
		arch: text(cpu, 'arch'),
		msr: text(cpu, 'msr'),
		assembly: text(cpu, 'assembly'),
	};
}

function loadAverage(value: unknown): readonly [number, number, number] | null {
	if (!Array.isArray(value)) {
		return null;
	}

	const [one, five, fifteen] = [asNumber(value[0]), asNumber(value[1]), asNumber(value[2])];
	return one === null || five === null || fifteen === null ? null : [one, five, fifteen];
}

/** 5.1+ only; null before. */
export function readResources(summary: JsonObject): Resources | null {
	const resources = obj(summary, 'resources');
	if (resources === null) {
		return null;
	}

	const memory = obj(resources, 'memory');
	return {
		rss: num(memory, 'resident_set_memory'),
		memoryFree: num(memory, 'free'),
		memoryTotal: num(memory, 'total'),
		loadAverage: loadAverage(field(resources, 'load_average')),
		hardwareConcurrency: num(resources, 'hardware_concurrency'),
	};
}

/** `[allocated, total]` pages (`/2/*`, `/1/threads`, backends), or null when the value is not such a pair. */
export function asHugePagesPair(value: unknown): HugePages | null {
	if (!Array.isArray(value)) {
		return null;
	}

	const allocated = asNumber(value[0]);
	const total = asNumber(value[1]);
	return allocated === null || total === null || allocated < 0 || total < 0 ? null : {kind: 'pages', allocated, total};
}

/** A summary's `hugepages`: a pair on `/2/summary`, a bool on `/1/summary` and in 2.x. */
export function readSummaryHugePages(summary: JsonObject): HugePages | null {
	const value = field(summary, 'hugepages');
	if (typeof value === 'boolean') {
		return {kind: 'flag', enabled: value};
	}

	return asHugePagesPair(value);
}

/** The nvidia fork's per-GPU `health[]` list from its summary ([] elsewhere). */
export function readSummaryHealth(summary: JsonObject): readonly unknown[] {
	return arr(summary, 'health') ?? [];
}
