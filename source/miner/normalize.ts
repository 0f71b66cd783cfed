import {MinerError} from './errors.js';
import {arr, bool, field, isObject, num, obj, str, strings, text} from './json-fields.js';
import type {DialectName, MinerSnapshot} from './model.js';
import {
	readConnection,
	readCpu,
	readHashrate,
	readResources,
	readResults,
	readSummaryHealth,
	readSummaryHugePages,
} from './normalize-summary.js';
import {normalizeProxySnapshot, readProxyWorkers} from './normalize-proxy.js';
import {fromBackends, fromSummaryThreads, fromV1Threads, type LegacyContext, type PerThread} from './normalize-threads.js';
import {jsonText} from '../text/json-out.js';

/**
 * One summary plus its per-thread document → the normalized MinerSnapshot, for every dialect:
 * - 'v2': `/2/summary` + `/2/backends`;  'v2-legacy-summary': `/1/summary` + `/2/backends`;
 * - 'v1': `/1/summary` + `/1/threads`;   'v1-summary-only': `/1/summary` alone (`perThread` is ignored);
 * - 'proxy': xmrig-proxy's `/1/summary` + `/1/workers` (null: the proxy lists no workers), in normalize-proxy.ts.
 *
 * Never throws anything but MinerError ('incompatible' when a document is not even the right JSON type), whatever
 * the JSON: unknown fields are ignored and missing or mistyped ones read as null.
 */
export function normalizeSnapshot(dialect: DialectName, summary: unknown, perThread: unknown): MinerSnapshot {
	if (dialect === 'proxy') {
		return normalizeProxySnapshot(summary, perThread === null ? null : readProxyWorkers(perThread));
	}

	if (!isObject(summary)) {
		throw new MinerError('incompatible', 'the summary is not a JSON object');
	}

	const hashrate = readHashrate(summary);
	const summaryHugePages = readSummaryHugePages(summary);
	const kind = text(summary, 'kind');
	const algo = text(summary, 'algo') ?? text(obj(summary, 'connection'), 'algo');
	const legacy: LegacyContext = {
		kind,
		algo,
		total: hashrate.total,
		summaryThreads: arr(obj(summary, 'hashrate'), 'threads') ?? [],
		health: readSummaryHealth(summary),
		summaryHugePages,
	};

	let detail: PerThread;
	switch (dialect) {
		case 'v2':
		case 'v2-legacy-summary': {
			if (!Array.isArray(perThread)) {
				throw new MinerError('incompatible', 'the backends list is not a JSON array');
			}

			detail = fromBackends(perThread);
			break;
		}

		case 'v1': {
			if (!isObject(perThread)) {
				throw new MinerError('incompatible', 'the threads document is not a JSON object');
			}

			detail = fromV1Threads(perThread, legacy);
			break;
		}

		case 'v1-summary-only': {
			detail = fromSummaryThreads(legacy);
			break;
		}

		default: {
			throw new MinerError('incompatible', `unknown API dialect ${jsonText(dialect as unknown)}`);
		}
	}

	// The summary's pair wins; where it only has a flag (`/1/summary`, 2.x), the pages from the per-thread source.
	const hugepages = summaryHugePages?.kind === 'pages' ? summaryHugePages : (detail.hugepages ?? summaryHugePages);

	return {
		dialect,
		id: text(summary, 'id'),
		workerId: text(summary, 'worker_id'),
		version: text(summary, 'version'),
		kind,
		userAgent: text(summary, 'ua'),
		algo,
		uptime: num(summary, 'uptime'),
		paused: bool(summary, 'paused'),
		restricted: bool(summary, 'restricted'),
		donateLevel: num(summary, 'donate_level'),
		hashrate,
		results: readResults(summary),
		connection: readConnection(summary),
		cpu: readCpu(summary),
		hugepages,
		resources: readResources(summary),
		threads: detail.threads,
		backends: detail.backends,
		perThreadRead: true,
		features: strings(field(summary, 'features')),
		proxy: null,
	};
}

/** What tells one miner process from the next: used to notice a restart or a different miner on the same port. */
export type MinerIdentity = {readonly id: string | null; readonly version: string | null; readonly uptime: number | null};

export function identityOf(summary: unknown): MinerIdentity {
	return {id: text(summary, 'id'), version: str(summary, 'version'), uptime: num(summary, 'uptime')};
}
