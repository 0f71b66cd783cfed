import {MinerError} from './errors.js';
import {arr, asNumber, field, isObject, num, obj, strings, text, type JsonObject} from './json-fields.js';
import {cleanText} from '../text/clean.js';
import type {MinerSnapshot, Rate} from './model.js';
import type {ProxyInfo, ProxyMiner, ProxyRateWindows, ProxyResults, ProxyUpstreams, ProxyWorker} from './proxy-model.js';
import {readResources} from './normalize-summary.js';

/**
 * xmrig-proxy's documents → the model (src/api/v1/ApiRouter.cpp of xmrig/xmrig-proxy; 2.x: src/api/ApiRouter.cpp,
 * src/api/ApiState.cpp):
 * - `/1/summary` (6.x also `/2/summary`, `/api.json`): `kind: "proxy"`, `hashrate.total` SIX numbers in kH/s (1 m, 10 m,
 *   1 h, 12 h, 24 h, then the average since the proxy started: Stats.cpp's `hashrate(uptime)`), `miners` {now, max}, `workers` (a count), `upstreams` {active, sleep, error, total,
 *   ratio} (2.x sends only the active count on every other path, and 2.4 everywhere), `results` {accepted, rejected,
 *   invalid, expired (2.5+), avg_time, latency, hashes_total, hashes_donate, best[10]}. Lenient like a miner's summary:
 *   a missing or mistyped field reads as null.
 * - `/1/workers` (2.5+): `mode` and `workers`, rows of 13: name, ip, connections, accepted, rejected, invalid, hashes,
 *   last share (ms), then kH/s over 1 m, 10 m, 1 h, 12 h, 24 h. Strict: a row that is not what the proxy sends is a
 *   MinerError naming the row, never a guess. Mode "none" (`"workers": false` in its config) lists no one.
 * - `/1/miners` (2.8+): `format` names the columns of each `miners` row; the `password` column is never read.
 */

/** More rows than any real proxy's 1 MiB answer could hold; a document with more is refused. */
export const MAX_PROXY_ROWS = 20_000;
/** Fields of a `/1/workers` row (a longer row's extra fields are ignored: a newer proxy may add some). */
const WORKER_FIELDS = 13;
const TEXT_MAX = 120;

/** kH/s → H/s, rounded to 1e-6 H/s so that 0.95 kH/s is exactly 950 H/s. */
export function kiloToRate(value: number): number {
	return Math.round(value * 1e9) / 1e6;
}

/** A proxy rate (kH/s, ≥ 0) as H/s, else null (also when it is too large to be a number in H/s). */
function proxyRate(value: unknown): Rate {
	const found = asNumber(value);
	const rate = found !== null && found >= 0 ? kiloToRate(found) : null;
	return rate !== null && Number.isFinite(rate) ? rate : null;
}

function windowsOf(values: readonly unknown[]): ProxyRateWindows {
	return [proxyRate(values[0]), proxyRate(values[1]), proxyRate(values[2]), proxyRate(values[3]), proxyRate(values[4])];
}

const noWindows: ProxyRateWindows = Object.freeze([null, null, null, null, null] as const);

function count(value: unknown, key: string): number {
	const found = num(value, key);
	return found !== null && found > 0 ? found : 0;
}

/** A positive number, else null (the proxy sends 0 for "none yet"). */
function positive(value: unknown, key: string): number | null {
	const found = num(value, key);
	return found !== null && found > 0 ? found : null;
}

function readUpstreams(summary: JsonObject): ProxyUpstreams | null {
	const upstreams = obj(summary, 'upstreams');
	if (upstreams === null) return null;
	const ratio = num(upstreams, 'ratio');
	return {
		active: count(upstreams, 'active'),
		sleep: count(upstreams, 'sleep'),
		error: count(upstreams, 'error'),
		total: count(upstreams, 'total'),
		ratio: ratio !== null && ratio >= 0 ? ratio : null,
	};
}

/** The upstreams connected now: the object's `active`, or the bare count 2.x sends. */
function activeUpstreams(summary: JsonObject, upstreams: ProxyUpstreams | null): number | null {
	if (upstreams !== null) return upstreams.active;
	const bare = num(summary, 'upstreams');
	return bare !== null && bare >= 0 ? bare : null;
}

function readProxyResults(summary: JsonObject): ProxyResults {
	const results = obj(summary, 'results');
	const best: number[] = [];
	for (const item of arr(results, 'best') ?? []) {
		const value = asNumber(item);
		if (value !== null && value > 0 && best.length < 100) best.push(value);
	}

	best.sort((a, b) => b - a);
	const hashesTotal = num(results, 'hashes_total');
	const hashesDonate = num(results, 'hashes_donate');
	return {
		accepted: count(results, 'accepted'),
		rejected: count(results, 'rejected'),
		invalid: count(results, 'invalid'),
		expired: count(results, 'expired'),
		avgTime: positive(results, 'avg_time'),
		latency: positive(results, 'latency'),
		hashesTotal: hashesTotal !== null && hashesTotal >= 0 ? hashesTotal : null,
		hashesDonate: hashesDonate !== null && hashesDonate >= 0 ? hashesDonate : null,
		best,
	};
}

function readMinerCounts(summary: JsonObject): ProxyInfo['miners'] {
	const miners = obj(summary, 'miners');
	return miners === null ? null : {now: count(miners, 'now'), max: count(miners, 'max')};
}

/** What `/1/workers` held: the rows (null when the proxy lists none: mode "none") and the grouping mode. */
export type ProxyWorkersRead = {readonly workers: readonly ProxyWorker[] | null; readonly mode: string | null};

function badRow(index: number, why: string): MinerError {
	return new MinerError('incompatible', `the answer from /1/workers is not xmrig-proxy's: worker row ${index + 1} ${why}`);
}

/** A count in a row: a finite number ≥ 0. */
function rowCount(row: readonly unknown[], at: number, index: number, what: string): number {
	const value = asNumber(row[at]);
	if (value === null || value < 0) throw badRow(index, `has no valid ${what}`);
	return value;
}

function readWorkerRow(row: unknown, index: number): ProxyWorker {
	if (!Array.isArray(row)) throw badRow(index, 'is not a list');
	if (row.length < WORKER_FIELDS) throw badRow(index, `has ${row.length} fields, not ${WORKER_FIELDS}`);
	const [name, ip] = row as unknown[];
	if (typeof name !== 'string') throw badRow(index, 'has no name');
	if (ip !== null && typeof ip !== 'string') throw badRow(index, 'has an ip that is not text');
	const lastShare = rowCount(row, 7, index, 'last share time');
	const rates = row.slice(8, 13).map((value, at) => {
		const rate = asNumber(value);
		if (rate === null || rate < 0) throw badRow(index, `has no valid ${['1m', '10m', '1h', '12h', '24h'][at] ?? ''} rate`);
		return value;
	});
	const cleanIp = ip === null ? '' : cleanText(ip, TEXT_MAX);
	return {
		name: cleanText(name, TEXT_MAX),
		ip: cleanIp === '' ? null : cleanIp,
		connections: rowCount(row, 2, index, 'connection count'),
		accepted: rowCount(row, 3, index, 'accepted count'),
		rejected: rowCount(row, 4, index, 'rejected count'),
		invalid: rowCount(row, 5, index, 'invalid count'),
		hashes: rowCount(row, 6, index, 'hash count'),
		lastShareAt: lastShare > 0 ? lastShare : null,
		hashrate: windowsOf(rates),
	};
}

/**
 * The name rigtop gives worker `index` of a proxy that groups workers by password (`"workers": "password"`): its
 * place in the proxy's list, which the proxy keeps while it runs. The password itself is dropped at parse.
 */
export function passwordWorkerName(index: number): string {
	return `worker ${index + 1}`;
}

/** `/1/workers` → its rows and mode. Throws MinerError 'incompatible' for a document no proxy sends. */
export function readProxyWorkers(document: unknown): ProxyWorkersRead {
	const rows = arr(document, 'workers');
	if (rows === null) throw new MinerError('incompatible', 'the answer from /1/workers is not a workers list');
	if (rows.length > MAX_PROXY_ROWS) {
		throw new MinerError(
			'incompatible',
			`the answer from /1/workers lists ${rows.length} workers, more than the ${MAX_PROXY_ROWS} rigtop reads`,
		);
	}

	const mode = text(document, 'mode');
	const read = rows.map((row, index) => readWorkerRow(row, index));
	// Grouped by password, the proxy names each worker by its miners' pool password: a secret, never kept.
	const workers = mode === 'password' ? read.map((worker, index) => ({...worker, name: passwordWorkerName(index)})) : read;
	// Mode "none" (`"workers": false`): the proxy keeps no per-worker statistics.
	return {workers: mode === 'none' && workers.length === 0 ? null : workers, mode: mode === null ? null : cleanText(mode, 40)};
}

/**
 * A proxy's summary (and its `/1/workers` when read: `workers` undefined when not read this poll, null when the proxy
 * has no such list) → the snapshot. The generic fields carry what is true of a proxy: the 1 min rate is the 60 s
 * window, shares good/total from accepted/rejected, connected while an upstream is active.
 */
export function normalizeProxySnapshot(summary: unknown, workers: ProxyWorkersRead | null | undefined): MinerSnapshot {
	if (!isObject(summary)) {
		throw new MinerError('incompatible', 'the summary is not a JSON object');
	}

	const total = arr(obj(summary, 'hashrate'), 'total');
	const hashrate = total === null ? noWindows : windowsOf(total);
	const sinceStart = total === null ? null : proxyRate(total[5]);
	const upstreams = readUpstreams(summary);
	const results = readProxyResults(summary);
	const active = activeUpstreams(summary, upstreams);
	const algo = text(summary, 'algo');
	const workerCount = num(summary, 'workers');
	const proxy: ProxyInfo = {
		mode: text(summary, 'mode'),
		miners: readMinerCounts(summary),
		workerCount: workerCount !== null && workerCount >= 0 ? workerCount : null,
		upstreams,
		results,
		hashrate,
		sinceStart,
		workers: workers?.workers ?? null,
		workersMode: workers?.mode ?? null,
	};
	const uptime = num(summary, 'uptime');
	const donateLevel = num(summary, 'donate_level');
	return {
		dialect: 'proxy',
		id: text(summary, 'id'),
		workerId: text(summary, 'worker_id'),
		version: text(summary, 'version'),
		kind: 'proxy',
		userAgent: text(summary, 'ua'),
		// 6.x sends the literal "invalid": a proxy mines no algorithm of its own.
		algo: algo === 'invalid' ? null : algo,
		uptime: uptime !== null && uptime >= 0 ? uptime : null,
		paused: null,
		restricted: typeof field(summary, 'restricted') === 'boolean' ? (field(summary, 'restricted') as boolean) : null,
		donateLevel: donateLevel !== null && donateLevel >= 0 ? donateLevel : null,
		// The proxy reports no highest rate: its sixth number is an average since the start, not a maximum.
		hashrate: {total: [null, hashrate[0], null], highest: null},
		results: {
			good: results.accepted,
			total: results.accepted + results.rejected,
			rejected: results.rejected,
			avgTime: results.avgTime,
			hashesTotal: results.hashesTotal,
			best: results.best[0] ?? null,
			diffCurrent: null,
		},
		connection: {
			pool: null,
			ip: null,
			uptime: null,
			ping: results.latency,
			failures: upstreams?.error ?? null,
			tls: null,
			tlsFingerprint: null,
			diff: null,
			connected: active !== null && active > 0,
		},
		cpu: {brand: null, cores: null, threads: null, packages: null, aes: null, avx2: null, x64: null, arch: null, msr: null, assembly: null},
		hugepages: null,
		resources: readResources(summary),
		threads: [],
		backends: [],
		perThreadRead: workers !== undefined,
		features: strings(field(summary, 'features')),
		proxy,
	};
}

function badMiners(why: string): MinerError {
	return new MinerError('incompatible', `the answer from /1/miners is not xmrig-proxy's: ${why}`);
}

/** The `/1/miners` columns rigtop keeps, by the proxy's names. The password column is not among them. */
const MINER_COLUMNS = {
	id: 'number',
	ip: 'text',
	tx: 'number',
	rx: 'number',
	state: 'number',
	diff: 'number',
	user: 'text',
	rig_id: 'text',
	agent: 'text',
} as const;
type MinerColumn = keyof typeof MINER_COLUMNS;

function isMinerColumn(name: string): name is MinerColumn {
	return Object.hasOwn(MINER_COLUMNS, name);
}

/**
 * `/1/miners` → one ProxyMiner per row, read by the names in `format`. Only the columns above are ever read: the pool
 * password (and anything else the proxy may add) is left in the document, and no error message quotes a value.
 */
export function readProxyMinersDocument(document: unknown): ProxyMiner[] {
	const format = arr(document, 'format');
	const rows = arr(document, 'miners');
	if (format === null || rows === null) throw badMiners('no format and miners lists');
	if (format.length > 64) throw badMiners(`${format.length} columns`);
	if (rows.length > MAX_PROXY_ROWS) throw badMiners(`${rows.length} miners, more than the ${MAX_PROXY_ROWS} rigtop reads`);
	const columns = new Map<MinerColumn, number>();
	format.forEach((name, at) => {
		if (typeof name === 'string' && isMinerColumn(name) && !columns.has(name)) columns.set(name, at);
	});
	return rows.map((row, index) => {
		if (!Array.isArray(row)) throw badMiners(`miner row ${index + 1} is not a list`);
		if (row.length !== format.length) throw badMiners(`miner row ${index + 1} has ${row.length} fields, not ${format.length}`);
		const cell = (column: MinerColumn): number | string | null => {
			const at = columns.get(column);
			const value: unknown = at === undefined ? null : row[at];
			if (value === null || value === undefined) return null;
			if (MINER_COLUMNS[column] === 'number') {
				const found = asNumber(value);
				if (found === null || found < 0) throw badMiners(`miner row ${index + 1} has no valid ${column}`);
				return found;
			}

			if (typeof value !== 'string') throw badMiners(`miner row ${index + 1} has a ${column} that is not text`);
			const clean = cleanText(value, TEXT_MAX);
			return clean === '' ? null : clean;
		};

		const number = (column: MinerColumn): number | null => cell(column) as number | null;
		const words = (column: MinerColumn): string | null => cell(column) as string | null;
		return {
			id: number('id'),
			ip: words('ip'),
			tx: number('tx'),
			rx: number('rx'),
			state: number('state'),
			diff: number('diff'),
			user: words('user'),
			rigId: words('rig_id'),
			agent: words('agent'),
		};
	});
}
