/**
 * The JSON documents of the simulated xmrig-proxy, in the key order and number formatting of a real
 * 6.26.0 (test/fixtures/xmrig-proxy/v6.26, src/api/v1/ApiRouter.cpp of xmrig-proxy): /1/summary (= /2/summary,
 * /api.json), /1/workers, /1/miners, and its config document.
 */
import {parsePoolUrl} from './config-doc.js';
import type {ApiSettings} from './config-doc.js';
import {isJsonObject, parseRapidJson, type ParsedJson} from './json-reader.js';
import {JsonDouble, writeJson, STYLE_6, type JsonObject, type JsonValue} from './json-writer.js';
import type {ProxyModel, WorkersMode} from './proxy-model.js';

export const PROXY_VERSION = '6.26.0';
export const PROXY_UA = `xmrig-proxy/${PROXY_VERSION} (Linux x86_64) libuv/1.44.2 gcc/12.2.0`;

export type ProxyContext = {
	readonly model: ProxyModel;
	readonly id: string;
	readonly workerId: string;
	readonly restricted: boolean;
	/** Live proxy uptime in seconds. */
	readonly uptime: number;
	readonly settings: ProxySettings;
	readonly resources: {readonly free: number; readonly total: number; readonly rss: number; readonly load: readonly number[]};
};

/** ApiRouter's normalize(): not a normal number → 0.0, else floored to 2 decimals. */
function normalize(value: number): JsonDouble {
	if (!Number.isFinite(value) || value === 0) return new JsonDouble(0);
	return new JsonDouble(Math.floor(value * 100) / 100);
}

export function proxySummary(ctx: ProxyContext): JsonObject {
	const {model} = ctx;
	const upstreams = model.upstreams();
	return {
		id: ctx.id,
		worker_id: ctx.workerId,
		uptime: ctx.uptime,
		restricted: ctx.restricted,
		resources: {
			memory: {free: ctx.resources.free, total: ctx.resources.total, resident_set_memory: ctx.resources.rss},
			load_average: ctx.resources.load.map((l) => new JsonDouble(Math.floor(l * 100) / 100)),
			hardware_concurrency: 2,
		},
		features: ['api', 'http', 'tls'],
		version: PROXY_VERSION,
		kind: 'proxy',
		algo: 'invalid',
		mode: ctx.settings.mode,
		ua: PROXY_UA,
		donate_level: ctx.settings.donateLevel,
		donated: new JsonDouble(0),
		hashrate: {total: model.hashrate().map(normalize)},
		miners: {now: model.minersNow, max: model.maxMiners},
		workers: model.workers.length,
		upstreams: {
			active: upstreams.active,
			sleep: upstreams.sleep,
			error: upstreams.error,
			total: upstreams.total,
			ratio: normalize(upstreams.active > 0 ? model.minersNow / upstreams.active : 0),
		},
		results: {
			accepted: model.accepted,
			rejected: model.rejected,
			invalid: model.invalid,
			expired: model.expired,
			avg_time: model.avgTime(ctx.uptime),
			latency: model.medianLatency(),
			hashes_total: model.hashes,
			hashes_donate: 0,
			best: [...model.best],
		},
	};
}

export function proxyWorkers(ctx: ProxyContext): JsonObject {
	const {model} = ctx;
	return {
		hashrate: {total: model.hashrate().map(normalize)},
		mode: model.mode,
		workers: model.workers.map((worker) => [
			worker.name,
			worker.ip,
			worker.connections,
			worker.accepted,
			worker.rejected,
			worker.invalid,
			worker.hashes,
			worker.lastHash,
			...model.workerRates(worker).map(normalize),
		]),
	};
}

export function proxyMiners(ctx: ProxyContext): JsonObject {
	return {
		format: ['id', 'ip', 'tx', 'rx', 'state', 'diff', 'user', 'password', 'rig_id', 'agent'],
		miners: ctx.model.miners.map((miner) => [
			miner.id,
			miner.ip,
			miner.tx,
			miner.rx,
			2,
			miner.diff,
			miner.user,
			miner.password,
			miner.rigId,
			miner.agent,
		]),
	};
}

// ---- config ---------------------------------------------------------------------------------------

export type ProxySettings = {
	readonly api: ApiSettings;
	readonly apiId: string | null;
	readonly workerId: string | null;
	readonly mode: 'nicehash' | 'simple' | 'extra_nonce';
	readonly workersMode: WorkersMode;
	readonly donateLevel: number;
	readonly watch: boolean;
};

export type ProxyDocParams = {
	readonly workerId: string;
	readonly host: string;
	readonly port: number;
	readonly token: string | null;
	readonly restricted: boolean;
	readonly watch: boolean;
};

/** The simulated proxy's own pool password (in its config document, which rigtop must not show either). */
export const SIM_PROXY_POOL_PASS = 'sim-proxy-pool-pass';

/** The config document a 6.26 proxy writes, with the simulator's API settings. */
export function defaultProxyConfigText(p: ProxyDocParams): string {
	const doc: JsonObject = {
		'access-log-file': null,
		'access-password': null,
		'algo-ext': true,
		api: {id: null, 'worker-id': p.workerId},
		http: {enabled: true, host: p.host, port: p.port, 'access-token': p.token, restricted: p.restricted},
		background: false,
		bind: [{host: '0.0.0.0', port: 3333, tls: false}],
		colors: false,
		'custom-diff': 0,
		'custom-diff-stats': false,
		'donate-level': 0,
		'log-file': null,
		mode: 'nicehash',
		pools: [
			{
				algo: 'rx/0',
				coin: null,
				url: 'pool.example.org:443',
				user: 'YOUR_WALLET_ADDRESS',
				pass: SIM_PROXY_POOL_PASS,
				'rig-id': null,
				keepalive: true,
				enabled: true,
				tls: true,
				sni: false,
				'tls-fingerprint': null,
				daemon: false,
				socks5: null,
				'self-select': null,
				'submit-to-origin': false,
			},
		],
		retries: 2,
		'retry-pause': 1,
		'reuse-timeout': 0,
		tls: {enabled: true, protocols: null, cert: 'cert.pem', cert_key: 'cert_key.pem', ciphers: null, ciphersuites: null, dhparam: null},
		dns: {ip_version: 0, ttl: 30},
		'user-agent': null,
		syslog: false,
		verbose: false,
		watch: p.watch,
		workers: true,
	};
	return writeJson(doc, STYLE_6);
}

type Obj = {[key: string]: ParsedJson};
const getObject = (doc: Obj | null, key: string): Obj | null => {
	const value = doc?.[key];
	return isJsonObject(value) ? value : null;
};
const getString = (doc: Obj | null, key: string): string | null => {
	const value = doc?.[key];
	return typeof value === 'string' ? value : null;
};
const getBool = (doc: Obj | null, key: string, fallback: boolean): boolean => {
	const value = doc?.[key];
	return typeof value === 'boolean' ? value : fallback;
};
const getInt = (doc: Obj | null, key: string, fallback: number): number => {
	const value = doc?.[key];
	return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
};

/** Workers::parseMode over the config's `workers`: true = rig_id, false = none, a name, anything else rig_id. */
function workersMode(value: ParsedJson | undefined): WorkersMode {
	if (value === false) return 'none';
	if (typeof value !== 'string') return 'rig_id';
	const lower = value.toLowerCase();
	const modes: readonly WorkersMode[] = ['none', 'rig_id', 'user', 'password', 'agent', 'ip'];
	return modes.find((m) => m === lower) ?? 'rig_id';
}

/** The settings of a proxy config document, or null when the proxy would refuse it (no valid pool). */
export function readProxyConfig(doc: Obj): ProxySettings | null {
	const pools = doc['pools'];
	const validPool =
		Array.isArray(pools) &&
		pools.some((pool) => isJsonObject(pool) && getBool(pool, 'enabled', true) && parsePoolUrl(getString(pool, 'url') ?? '') !== null);
	if (!validPool) return null;
	const http = getObject(doc, 'http');
	const apiSection = getObject(doc, 'api');
	const port = getInt(http, 'port', 0);
	const modeText = getString(doc, 'mode');
	return {
		api: {
			enabled: getBool(http, 'enabled', false),
			host: getString(http, 'host') ?? '127.0.0.1',
			port: port >= 0 && port <= 65535 ? port : 0,
			token: getString(http, 'access-token'),
			restricted: getBool(http, 'restricted', true),
		},
		apiId: getString(apiSection, 'id'),
		workerId: getString(apiSection, 'worker-id'),
		mode: modeText === 'simple' || modeText === 'extra_nonce' ? modeText : 'nicehash',
		workersMode: workersMode(doc['workers']),
		donateLevel: getInt(doc, 'donate-level', 0),
		watch: getBool(doc, 'watch', true),
	};
}

export type ProxyConfigCheck =
	{readonly ok: true; readonly settings: ProxySettings} | {readonly ok: false; readonly parseError: string | null};

/** A PUT body as the proxy judges it: a parse error names itself; a document without a valid pool is refused. */
export function checkProxyConfigText(text: string): ProxyConfigCheck {
	if (text === '') return {ok: false, parseError: null};
	const parsed = parseRapidJson(text);
	if (!parsed.ok) return {ok: false, parseError: parsed.error};
	if (!isJsonObject(parsed.value) || Object.keys(parsed.value).length === 0) return {ok: false, parseError: null};
	const settings = readProxyConfig(parsed.value);
	return settings ? {ok: true, settings} : {ok: false, parseError: null};
}

export type {JsonValue};
