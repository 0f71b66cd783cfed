/**
 * The simulated miner's config document: the default document for each dialect (modelled on the
 * real 6.26, 2.16 and 2.14 config files), and reading the settings that matter to the simulation
 * from any document the way XMRig reads them (defaults for whatever is missing).
 */
import {atLeast, type SimDialect} from './dialect.js';
import {writeJson, type JsonObject, type JsonValue} from './json-writer.js';
import {isJsonObject, parseRapidJson, type ParsedJson} from './json-reader.js';

export type ApiSettings = {
	/** Whether the HTTP API runs at all. */
	readonly enabled: boolean;
	/** As written in the document (the simulator never rebinds to it: it keeps its own bind host). */
	readonly host: string;
	/** 0 = any free port. */
	readonly port: number;
	readonly token: string | null;
	readonly restricted: boolean;
};

export type PoolSettings = {
	/** "host:port" as the summary shows it. */
	readonly address: string;
	readonly host: string;
	readonly port: number;
	readonly tls: boolean;
	/** The pool's algorithm when the document pins one. */
	readonly algo: string | null;
};

export type CpuSettings = {
	readonly enabled: boolean;
	readonly hugePages: boolean;
	/** One entry per mining thread: its CPU affinity (-1 = none) and intensity. */
	readonly threads: readonly {readonly affinity: number; readonly intensity: number}[];
	/** Changes whenever anything that restarts XMRig's CPU threads changes. */
	readonly launchKey: string;
};

export type ConfigSettings = {
	readonly api: ApiSettings;
	readonly apiId: string | null;
	readonly workerId: string | null;
	readonly donateLevel: number;
	/** The first enabled, valid pool; null when there is none (XMRig then rejects the document). */
	readonly pool: PoolSettings | null;
	readonly cpu: CpuSettings;
	readonly watch: boolean;
};

export type DefaultDocParams = {
	readonly dialect: SimDialect;
	readonly version: string;
	readonly workerId: string;
	readonly host: string;
	readonly port: number;
	readonly token: string | null;
	readonly restricted: boolean;
	readonly threads: number;
	readonly watch: boolean;
};

export const DEFAULT_POOL_URL = 'pool.example.org:443';
const WALLET_PLACEHOLDER = 'YOUR_WALLET_ADDRESS';

const range = (n: number): number[] => Array.from({length: n}, (_, i) => i);

/** The default document text for a dialect, written the way that miner writes its config file. */
export function defaultConfigText(params: DefaultDocParams): string {
	const style = params.dialect === '6' || params.dialect === '5' ? {singleLineArrays: true} : {singleLineArrays: false};
	return writeJson(defaultConfigDoc(params), style);
}

export function defaultConfigDoc(p: DefaultDocParams): JsonObject {
	if (p.dialect === '2.14') return legacyDoc(p);
	if (p.dialect === '2') return v216Doc(p);
	return modernDoc(p);
}

function modernDoc(p: DefaultDocParams): JsonObject {
	const n = p.threads;
	const pairs = (intensity: number): JsonValue => range(n).map((i) => [intensity, i]);
	return {
		api: {id: null, 'worker-id': p.workerId},
		http: {enabled: true, host: p.host, port: p.port, 'access-token': p.token, restricted: p.restricted},
		autosave: true,
		background: false,
		colors: true,
		title: true,
		randomx: {
			init: -1,
			'init-avx2': -1,
			mode: 'auto',
			'1gb-pages': false,
			rdmsr: true,
			wrmsr: true,
			cache_qos: false,
			numa: true,
			scratchpad_prefetch_mode: 1,
		},
		cpu: {
			enabled: true,
			'huge-pages': true,
			'huge-pages-jit': false,
			'hw-aes': null,
			priority: null,
			'memory-pool': false,
			yield: true,
			asm: true,
			'argon2-impl': null,
			argon2: range(n),
			cn: pairs(1),
			'cn-heavy': pairs(1),
			'cn-lite': pairs(1),
			'cn-pico': pairs(2),
			'cn/upx2': pairs(2),
			ghostrider: pairs(8),
			rx: range(n),
			'rx/wow': range(n),
			'cn-lite/0': false,
			'cn/0': false,
			'rx/arq': 'rx/wow',
		},
		opencl: {enabled: false, cache: true, loader: null, platform: 'AMD', adl: true, 'cn-lite/0': false, 'cn/0': false},
		'log-file': null,
		'donate-level': 1,
		'donate-over-proxy': 1,
		pools: [
			{
				algo: null,
				coin: null,
				url: DEFAULT_POOL_URL,
				user: WALLET_PLACEHOLDER,
				pass: p.workerId,
				'rig-id': null,
				nicehash: false,
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
		retries: 5,
		'retry-pause': 5,
		'print-time': 60,
		'health-print-time': 60,
		dmi: atLeast(p.version, '6.8.0') ? true : undefined,
		syslog: false,
		tls: {enabled: false, protocols: null, cert: null, cert_key: null, ciphers: null, ciphersuites: null, dhparam: null},
		dns: {ip_version: 0, ttl: 30},
		'user-agent': null,
		verbose: 0,
		watch: p.watch,
		'pause-on-battery': false,
		'pause-on-active': false,
	};
}

function legacyThreads(n: number): JsonValue {
	return range(n).map(() => ({low_power_mode: 1, affine_to_cpu: false, asm: true}));
}

function v216Doc(p: DefaultDocParams): JsonObject {
	return {
		algo: 'cryptonight',
		api: {id: null, 'worker-id': p.workerId},
		http: {enabled: true, host: p.host, port: p.port, 'access-token': p.token, restricted: p.restricted},
		asm: true,
		autosave: true,
		av: 0,
		background: false,
		colors: true,
		'cpu-affinity': null,
		'cpu-priority': null,
		'donate-level': 1,
		'donate-over-proxy': 1,
		'huge-pages': true,
		'hw-aes': null,
		'log-file': null,
		'max-cpu-usage': 100,
		pools: [
			{
				url: DEFAULT_POOL_URL,
				user: WALLET_PLACEHOLDER,
				pass: p.workerId,
				'rig-id': null,
				nicehash: false,
				keepalive: true,
				variant: -1,
				enabled: true,
				tls: true,
				'tls-fingerprint': null,
				daemon: false,
				'daemon-poll-interval': 1000,
			},
		],
		'print-time': 60,
		retries: 5,
		'retry-pause': 5,
		safe: false,
		threads: legacyThreads(p.threads),
		'user-agent': null,
		syslog: false,
		watch: p.watch,
	};
}

function legacyDoc(p: DefaultDocParams): JsonObject {
	return {
		algo: 'cryptonight',
		api: {port: p.port, 'access-token': p.token, id: null, 'worker-id': p.workerId, ipv6: false, restricted: p.restricted},
		asm: true,
		autosave: true,
		av: 0,
		background: false,
		colors: true,
		'cpu-affinity': null,
		'cpu-priority': null,
		'donate-level': 1,
		'huge-pages': true,
		'hw-aes': null,
		'log-file': null,
		'max-cpu-usage': 100,
		pools: [
			{
				url: DEFAULT_POOL_URL,
				user: WALLET_PLACEHOLDER,
				pass: p.workerId,
				'rig-id': null,
				nicehash: false,
				keepalive: true,
				variant: -1,
				enabled: true,
				tls: true,
				'tls-fingerprint': null,
			},
		],
		'print-time': 60,
		retries: 5,
		'retry-pause': 5,
		safe: false,
		threads: legacyThreads(p.threads),
		'user-agent': null,
		syslog: false,
		watch: p.watch,
	};
}

type Obj = {[key: string]: ParsedJson};

const getObject = (doc: Obj, key: string): Obj | null => {
	const value = doc[key];
	return isJsonObject(value) ? value : null;
};
const getBool = (doc: Obj | null, key: string, fallback: boolean): boolean => {
	const value = doc?.[key];
	return typeof value === 'boolean' ? value : fallback;
};
const getString = (doc: Obj | null, key: string): string | null => {
	const value = doc?.[key];
	return typeof value === 'string' ? value : null;
};
const getInt = (doc: Obj | null, key: string, fallback: number): number => {
	const value = doc?.[key];
	return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
};
const validPort = (port: number): number => (port >= 0 && port <= 65535 ? port : 0);

/** XMRig's Url::parse: optional stratum+tcp:// / stratum+ssl:// scheme, host, port (default 3333). */
export function parsePoolUrl(url: string): {host: string; port: number; tls: boolean} | null {
	let base = url;
	let tls = false;
	const scheme = url.indexOf('://');
	if (scheme !== -1) {
		const lower = url.slice(0, scheme + 3).toLowerCase();
		if (lower === 'stratum+ssl://' || lower === 'daemon+https://') tls = true;
		else if (lower !== 'stratum+tcp://' && lower !== 'socks5://' && lower !== 'daemon+http://') return null;
		base = url.slice(scheme + 3);
	}
	if (base === '' || base.startsWith('/')) return null;
	let host: string;
	let portText: string | null;
	if (base.startsWith('[')) {
		const end = base.indexOf(']');
		const colon = end === -1 ? -1 : base.indexOf(':', end);
		if (colon === -1) return null;
		host = base.slice(1, end);
		portText = base.slice(colon + 1);
	} else {
		const colon = base.indexOf(':');
		host = colon === -1 ? base : base.slice(0, colon);
		portText = colon === -1 ? null : base.slice(colon + 1);
	}
	const port = portText === null ? 3333 : Number.parseInt(portText, 10) & 0xffff;
	if (host === '' || !(port > 0)) return null;
	return {host, port, tls};
}

function readPool(doc: Obj): PoolSettings | null {
	const pools = doc['pools'];
	if (!Array.isArray(pools)) return null;
	for (const entry of pools) {
		if (!isJsonObject(entry)) continue;
		const url = getString(entry, 'url');
		const parsed = url === null ? null : parsePoolUrl(url);
		if (!parsed || !getBool(entry, 'enabled', true)) continue;
		const tls = parsed.tls || getBool(entry, 'tls', false);
		const address = parsed.host.includes(':') ? `[${parsed.host}]:${parsed.port}` : `${parsed.host}:${parsed.port}`;
		return {address, host: parsed.host, port: parsed.port, tls, algo: getString(entry, 'algo')};
	}
	return null;
}

type ThreadEntry = {affinity: number; intensity: number};

function modernThreads(cpu: Obj | null, algo: string, fallback: number): ThreadEntry[] | false {
	const family = algo.split('/')[0] ?? algo;
	let profile: ParsedJson | undefined = cpu?.[algo] ?? cpu?.[family];
	for (let hops = 0; typeof profile === 'string' && hops < 4; hops++) profile = cpu?.[profile];
	if (profile === false) return false;
	if (!Array.isArray(profile) || profile.length === 0) return Array.from({length: fallback}, (_, i) => ({affinity: i, intensity: 1}));
	return profile.map((entry) => {
		if (typeof entry === 'number') return {affinity: entry, intensity: 1};
		if (Array.isArray(entry)) {
			const [intensity, affinity] = entry;
			return {intensity: typeof intensity === 'number' ? intensity : 1, affinity: typeof affinity === 'number' ? affinity : -1};
		}
		if (isJsonObject(entry)) return {intensity: getInt(entry, 'intensity', 1), affinity: getInt(entry, 'affinity', -1)};
		return {affinity: -1, intensity: 1};
	});
}

function legacyThreadList(doc: Obj, fallback: number): ThreadEntry[] {
	const threads = doc['threads'];
	if (typeof threads === 'number' && threads > 0)
		return Array.from({length: Math.min(threads, 1024)}, () => ({affinity: -1, intensity: 1}));
	if (!Array.isArray(threads) || threads.length === 0) return Array.from({length: fallback}, () => ({affinity: -1, intensity: 1}));
	return threads.map((entry) => {
		const object = isJsonObject(entry) ? entry : null;
		return {affinity: getInt(object, 'affine_to_cpu', -1), intensity: getInt(object, 'low_power_mode', 1)};
	});
}

/** The algorithm the pool would hand out for this dialect when the document does not pin one. */
export function defaultAlgo(dialect: SimDialect): string {
	return dialect === '6' || dialect === '5' ? 'rx/0' : 'cn/r';
}

/** Reads a parsed document as the given dialect's miner would. `fallbackThreads` stands in for autodetection. */
export function readConfig(doc: Obj, dialect: SimDialect, fallbackThreads: number): ConfigSettings {
	const apiSection = getObject(doc, 'api');
	const http = getObject(doc, 'http');
	let api: ApiSettings;
	if (dialect === '2.14') {
		const port = validPort(getInt(apiSection, 'port', 0));
		api = {
			enabled: port > 0,
			host: '0.0.0.0',
			port,
			token: getString(apiSection, 'access-token'),
			restricted: getBool(apiSection, 'restricted', true),
		};
	} else if (http) {
		api = {
			enabled: getBool(http, 'enabled', false),
			host: getString(http, 'host') ?? '127.0.0.1',
			port: validPort(getInt(http, 'port', 0)),
			token: getString(http, 'access-token'),
			restricted: getBool(http, 'restricted', true),
		};
	} else if (dialect === '2' && getInt(apiSection, 'port', 0) > 0) {
		// 2.15/2.16 carried an old-style api.port over into http (XMRIG_DEPRECATED), listening on all interfaces.
		api = {
			enabled: true,
			host: '0.0.0.0',
			port: validPort(getInt(apiSection, 'port', 0)),
			token: getString(apiSection, 'access-token'),
			restricted: getBool(apiSection, 'restricted', true),
		};
	} else {
		api = {enabled: false, host: '127.0.0.1', port: 0, token: null, restricted: true};
	}

	const pool = readPool(doc);
	let cpu: CpuSettings;
	if (dialect === '6' || dialect === '5') {
		const section = getObject(doc, 'cpu');
		const algo = pool?.algo ?? defaultAlgo(dialect);
		const threads = modernThreads(section, algo, fallbackThreads);
		const enabled = getBool(section, 'enabled', true) && threads !== false;
		const hugePagesValue = section?.['huge-pages'];
		const hugePages = typeof hugePagesValue === 'number' ? hugePagesValue > 0 : hugePagesValue !== false;
		const list = threads === false ? [] : threads;
		const launch = {enabled, hugePages, list, hwAes: section?.['hw-aes'] ?? null, asm: section?.['asm'] ?? true, algo};
		cpu = {enabled, hugePages, threads: list, launchKey: JSON.stringify(launch)};
	} else {
		const list = legacyThreadList(doc, fallbackThreads);
		const hugePages = getBool(doc, 'huge-pages', true);
		cpu = {enabled: true, hugePages, threads: list, launchKey: JSON.stringify({hugePages, list})};
	}

	return {
		api,
		apiId: getString(apiSection, 'id'),
		workerId: getString(apiSection, 'worker-id'),
		donateLevel: getInt(doc, 'donate-level', dialect === '6' || dialect === '5' ? 1 : 5),
		pool,
		cpu,
		watch: getBool(doc, 'watch', true),
	};
}

export type ConfigCheck = {readonly ok: true; readonly settings: ConfigSettings} | {readonly ok: false; readonly parseError: string | null};

/**
 * What XMRig does with a PUT body before saving it: an empty body or one that is not a non-empty object
 * with an enabled, valid pool is refused (parseError holds rapidjson's message for a syntax error).
 */
export function checkConfigText(text: string, dialect: SimDialect, fallbackThreads: number): ConfigCheck {
	if (text === '') return {ok: false, parseError: null};
	const parsed = parseRapidJson(text);
	if (!parsed.ok) return {ok: false, parseError: parsed.error};
	if (!isJsonObject(parsed.value) || Object.keys(parsed.value).length === 0) return {ok: false, parseError: null};
	const settings = readConfig(parsed.value, dialect, fallbackThreads);
	if (!settings.pool) return {ok: false, parseError: null};
	return {ok: true, settings};
}
