/**
 * The simulated xmrig-proxy: the same loopback HTTP server, auth and wire writer as the simulated miner,
 * answering as a real xmrig-proxy 6.26.0 does (/1/summary, /2/summary, /api.json, /1/workers, /1/miners,
 * /1/config = /2/config GET and PUT, /json_rpc with no methods, everything else 404), over a ProxyModel whose
 * miners come and go, share, fall quiet and lose their upstream. Started by startSimulator({kind: 'proxy'}).
 */
import {dialectInfo, type DialectInfo} from './dialect.js';
import {isJsonObject, parseRapidJson} from './json-reader.js';
import type {JsonValue} from './json-writer.js';
import type {PayloadContext} from './payloads.js';
import type {PutOutcome, SimRequest} from './pipeline.js';
import {hashNumber, SimulatedProgram} from './program.js';
import {ProxyModel, type LifeRates, type ProxyMinerSpec} from './proxy-model.js';
import {
	checkProxyConfigText,
	defaultProxyConfigText,
	PROXY_VERSION,
	proxyMiners,
	proxySummary,
	proxyWorkers,
	readProxyConfig,
	type ProxyContext,
	type ProxySettings,
} from './proxy-payloads.js';
import {createRandom, randomSeed, type Random} from './random.js';

export type {ProxyMinerSpec, LifeRates} from './proxy-model.js';

export type ProxySimOptions = {
	readonly kind: 'proxy';
	/** Default '127.0.0.1'. */
	readonly host?: string;
	/** Default 0 (a free port). */
	readonly port?: number;
	/** Default null. */
	readonly token?: string | null;
	/** Default true. */
	readonly restricted?: boolean;
	/** Default 'sim-proxy'. */
	readonly workerId?: string;
	/** How many miners connect at the start (default 6), each its own worker `rig-01`… (ignored when `miners` is given). */
	readonly workers?: number;
	/** The miners connected at the start, in order (their names are the worker names under rig_id grouping). */
	readonly miners?: readonly ProxyMinerSpec[];
	/** Start as a proxy that has run for days (every window full). */
	readonly warm?: boolean;
	/** How long a warm proxy has been up, seconds (default 3 days and up to an hour more, fixed per worker id). */
	readonly warmUptime?: number;
	readonly seed?: number;
	readonly timeScale?: number;
	/** Monotonic milliseconds driving simulated time (default performance.now). */
	readonly clock?: () => number;
	/** Wall-clock milliseconds at the start, for `last hash time` (default Date.now()). */
	readonly epochMs?: number;
	/** Every Nth share is rejected by the pool (default 50; 0: none). */
	readonly rejectEvery?: number;
	/** Share difficulty (default 60000). */
	readonly diff?: number;
	/** Workers joining, leaving, falling quiet and upstream errors at random (default true). */
	readonly lifeEvents?: boolean;
	/** Mean seconds between those events. */
	readonly life?: Partial<LifeRates>;
	/** Default true: a PUT answers 204 and applies ~applyDelayMs later. */
	readonly watch?: boolean;
	readonly applyDelayMs?: number;
	/** Initial config document (default a 6.26 proxy's, with the bound port). */
	readonly configText?: string;
	/** Where accepted PUTs are written. */
	readonly configPath?: string;
	/** The machine's MAC address (the API id derives from it, the port and "proxy"). */
	readonly mac?: string;
};

export type ProxyWorkerView = {
	readonly name: string;
	readonly connections: number;
	readonly accepted: number;
	readonly rejected: number;
	readonly invalid: number;
	readonly lastHash: number;
	readonly quiet: boolean;
};

export type ProxySimulator = {
	readonly kind: 'proxy';
	/** 'http://127.0.0.1:PORT' */
	readonly url: string;
	readonly port: number;
	readonly info: DialectInfo;
	readonly requests: readonly SimRequest[];
	readonly listening: boolean;
	stop(): Promise<void>;
	start(): Promise<void>;
	settled(): Promise<void>;
	simTime(): number;
	/** The proxy's uptime now, seconds. */
	uptime(): number;
	configText(): string;
	fileText(): string;
	setConfigText(text: string): void;
	/** The workers now (the rows of /1/workers). */
	workers(): readonly ProxyWorkerView[];
	/** A worker stays connected but sends no share for `seconds` (default: until wakeWorker). */
	quietWorker(name: string, seconds?: number): void;
	wakeWorker(name: string): void;
	/** Every miner of the worker disconnects (its row stays, 0 connections) until connectMiner. */
	dropWorker(name: string): void;
	/** A miner logs in (a new worker, or one more connection of a known one); returns its worker name. */
	connectMiner(spec: ProxyMinerSpec): string;
	/** Every upstream goes to error (shares stop) for `seconds` (default: until restoreUpstream). */
	failUpstream(seconds?: number): void;
	restoreUpstream(): void;
	/** The pool rejects the next n shares. */
	rejectShares(n: number): void;
	/**
	 * The worker's miner submits n shares of the share difficulty now: counters move at once, rates at the next
	 * 4-second tick. With `hashrate: 0` miners and lifeEvents off, a test gets exact numbers.
	 */
	submitShares(name: string, n?: number): void;
	/** The proxy process restarted: uptime 0, every counter and window empty, the miners connected now log in again. */
	restartProxy(): void;
};

const DEFAULT_WARM_UPTIME = 3 * 24 * 3600;
const MEMORY_TOTAL = 17_179_869_184;

/** The default miners: rig-01…, a spread of CPUs from a laptop to a server. */
export function defaultProxyMiners(count: number, random: Random): ProxyMinerSpec[] {
	return Array.from({length: Math.max(0, Math.floor(count))}, (_, i) => ({
		name: `rig-${String(i + 1).padStart(2, '0')}`,
		user: 'sim-wallet',
		ip: `10.0.0.${11 + i}`,
		hashrate: Math.round(1500 + random.next() * 14_000),
	}));
}

function parseSettings(text: string): ProxySettings | null {
	const parsed = parseRapidJson(text);
	if (!parsed.ok || !isJsonObject(parsed.value)) return null;
	return readProxyConfig(parsed.value);
}

class SimulatedProxy extends SimulatedProgram<ProxySettings> implements ProxySimulator {
	readonly kind = 'proxy' as const;
	readonly info: DialectInfo = dialectInfo('6', PROXY_VERSION);
	readonly duplicateRpcAnswers = false;
	declare protected readonly options: ProxySimOptions;
	private model!: ProxyModel;
	private random!: Random;
	/** The proxy's uptime at simulated second 0 (negative after a restart). */
	private startUptime = 0;
	private epochStart = 0;

	constructor(options: ProxySimOptions) {
		super(options, 'sim-proxy');
	}

	async init(): Promise<void> {
		const {options} = this;
		await this.openDocument({
			parse: parseSettings,
			refused: 'startSimulator: configText is not a proxy config document with a valid pool',
			defaultText: (api) => defaultProxyConfigText({workerId: this.optionWorkerId, host: this.host, ...api, watch: this.watch}),
			check: checkProxyConfigText,
			idKind: 'proxy',
		});
		this.random = createRandom(options.seed ?? randomSeed());
		this.startUptime = options.warm
			? (options.warmUptime ?? DEFAULT_WARM_UPTIME + (hashNumber(`rigtop-sim-uptime:${this.optionWorkerId}`) % 3600))
			: 0;
		this.epochStart = options.epochMs ?? Date.now();
		this.model = this.newModel(options.miners ?? defaultProxyMiners(options.workers ?? 6, this.random), this.startUptime, this.epochStart);
	}

	private newModel(miners: readonly ProxyMinerSpec[], startUptime: number, epochMs: number): ProxyModel {
		const {options} = this;
		return new ProxyModel({
			random: this.random,
			miners,
			startUptime,
			epochMs,
			rejectEvery: options.rejectEvery ?? 50,
			diff: options.diff ?? 60_000,
			lifeEvents: options.lifeEvents ?? true,
			...(options.life ? {life: options.life} : {}),
			mode: this.settings.workersMode,
		});
	}

	// ---- ProxySimulator -----------------------------------------------------------------------------

	uptime(): number {
		return Math.floor(this.startUptime + this.simTime());
	}

	workers(): readonly ProxyWorkerView[] {
		this.advance();
		const now = this.model.tickedUptime;
		return this.model.workers.map((w) => ({
			name: w.name,
			connections: w.connections,
			accepted: w.accepted,
			rejected: w.rejected,
			invalid: w.invalid,
			lastHash: w.lastHash,
			quiet: w.connections > 0 && w.quietUntil > now,
		}));
	}

	quietWorker(name: string, seconds = Infinity): void {
		this.model.quiet(this.worker(name), this.model.tickedUptime + seconds);
	}

	wakeWorker(name: string): void {
		this.model.quiet(this.worker(name), 0);
	}

	dropWorker(name: string): void {
		this.model.disconnect(this.worker(name));
	}

	connectMiner(spec: ProxyMinerSpec): string {
		this.advance();
		return this.model.connect(spec).worker.name;
	}

	failUpstream(seconds = Infinity): void {
		this.advance();
		this.model.failUpstream(this.model.tickedUptime + seconds);
	}

	restoreUpstream(): void {
		this.advance();
		this.model.restoreUpstream();
	}

	rejectShares(n: number): void {
		this.advance();
		this.model.rejectShares(n);
	}

	restartProxy(): void {
		this.advance();
		const now = this.simTime();
		const connected = this.model.miners.map((miner) => miner.worker.spec);
		this.startUptime = -now;
		this.model = this.newModel(connected, 0, this.epochStart + now * 1000);
	}

	submitShares(name: string, n = 1): void {
		this.model.submitShares(this.worker(name), n, this.startUptime + this.simTime());
	}

	// ---- PipelineHost -------------------------------------------------------------------------------

	payloadContext(): PayloadContext {
		throw new Error('a proxy answers through getDocument');
	}

	getDocument(target: string): JsonValue | null {
		switch (target) {
			case '/1/summary':
			case '/2/summary':
			case '/api.json':
				return proxySummary(this.context());
			case '/1/workers':
				return proxyWorkers(this.context());
			case '/1/miners':
				return proxyMiners(this.context());
			default:
				return null;
		}
	}

	putConfig(sent: string): PutOutcome {
		return this.config.put(sent);
	}

	/** xmrig-proxy registers no JSON-RPC methods. */
	rpc(): boolean {
		return false;
	}

	// ---- internals ----------------------------------------------------------------------------------

	private worker(name: string): NonNullable<ReturnType<ProxyModel['workerNamed']>> {
		this.advance();
		const worker = this.model.workerNamed(name);
		if (!worker) throw new Error(`no simulated worker named ${JSON.stringify(name)}`);
		return worker;
	}

	private advance(): void {
		this.model.advanceTo(this.startUptime + this.simTime());
	}

	private context(): ProxyContext {
		this.advance();
		const uptime = this.uptime();
		const wobble = Math.sin(uptime / 600);
		return {
			model: this.model,
			id: this.apiIdNow,
			workerId: this.workerIdNow,
			restricted: this.api.settings.restricted,
			uptime,
			settings: this.settings,
			resources: {
				free: Math.floor((MEMORY_TOTAL * (0.62 + 0.02 * wobble)) / 4096) * 4096,
				total: MEMORY_TOTAL,
				rss: 9_109_504 + this.model.miners.length * 16_384 + this.model.workers.length * 8192,
				load: [0.12 + 0.05 * wobble, 0.1 + 0.03 * wobble, 0.08],
			},
		};
	}

	protected apply(settings: ProxySettings): void {
		this.advance();
		this.settings = settings;
		this.model.setMode(settings.workersMode);
		this.api.apply(settings.api);
	}
}

/** Starts a simulated xmrig-proxy on loopback; resolves once it accepts connections. */
export async function startProxySimulator(
	options: Omit<ProxySimOptions, 'kind'> & {readonly kind?: 'proxy'} = {},
): Promise<ProxySimulator> {
	const proxy = new SimulatedProxy({...options, kind: 'proxy'});
	await proxy.init();
	return proxy;
}
