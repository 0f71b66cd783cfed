/**
 * The simulated XMRig miner: a real HTTP server on loopback that speaks the 6.23+, 5.x/6.0–6.22, 2.15–2.16
 * and 2.6–2.15.0 (libmicrohttpd) API dialects byte for byte, over a rig whose numbers move like a real one.
 * Used by `rigtop --demo` and by the project's tests.
 */
import {checkConfigText, defaultConfigText, readConfig, type ConfigSettings} from './config-doc.js';
import {DEFAULT_VERSIONS, dialectInfo, type DialectInfo, type SimDialect} from './dialect.js';
import {isJsonObject, parseRapidJson} from './json-reader.js';
import type {CpuModel, PayloadContext} from './payloads.js';
import type {PutOutcome, SimRequest} from './pipeline.js';
import {hashNumber, SimulatedProgram} from './program.js';
import {createRandom, randomSeed} from './random.js';
import {dropUnknownKeys} from './known-keys.js';
import {startProxySimulator, type ProxySimOptions, type ProxySimulator} from './proxy-simulator.js';
import {DEFAULT_WARM_UPTIME_SECONDS, Rig} from './rig.js';

export type {SimDialect} from './dialect.js';
export type {ProxyMinerSpec, ProxySimOptions, ProxySimulator, ProxyWorkerView} from './proxy-simulator.js';

export type SimOptions = {
	/** 'miner' (default); a proxy is started with ProxySimOptions (kind: 'proxy'). */
	kind?: 'miner';
	/** Default '6'. */
	dialect?: SimDialect;
	/** Default per dialect: '6.26.0', '5.11.4', '2.16.0-beta', '2.14.4'. */
	version?: string;
	/** Default '127.0.0.1'. The simulator only ever binds this host, whatever an applied config says. */
	host?: string;
	/** Default 0 (random free port). */
	port?: number;
	/** Default null (no access token). */
	token?: string | null;
	/** Default true. */
	restricted?: boolean;
	/** Default 'sim-rig'. */
	workerId?: string;
	/** CPU threads, default 4. */
	threads?: number;
	/** Start as a rig that has run for days: windows full, shares, pool up (the demo). */
	warm?: boolean;
	/** Simulated seconds per real second, default 1 (tests may speed time up). */
	timeScale?: number;
	/** Deterministic randomness. */
	seed?: number;
	/**
	 * The simulated machine's MAC address (default: one made from the worker id). The API id is derived from the API
	 * port, this MAC and the kind, as XMRig's is (Keccak there): another MAC on the same port is another machine.
	 */
	mac?: string;
	/** Default true: a PUT /1/config answers 204 and applies ~applyDelayMs later. */
	watch?: boolean;
	/** Default 500. */
	applyDelayMs?: number;
	/**
	 * Initial config document (default: built from the options, in the dialect's layout, with the bound
	 * port). port/token/restricted given explicitly override what this document says, like XMRig's
	 * command-line options override its config file.
	 */
	configText?: string;
	// ---- additions to the contract ----
	/** Monotonic milliseconds driving simulated time (default performance.now); lets tests step time by hand. */
	clock?: () => number;
	/** A file the "config on disk" is written to on every accepted PUT (like the real miner); unwritable → applied in memory only. */
	configPath?: string;
	/** Send each JSON-RPC answer twice on the socket, as XMRig 5.5.1+ is thought to (off by default). */
	duplicateRpcAnswers?: boolean;
};

export type {SimRequest} from './pipeline.js';

export type Simulator = {
	/** 'http://127.0.0.1:PORT' */
	readonly url: string;
	readonly port: number;
	/** Every request seen (bounded to the last 1000), for assertions; status 0 = closed without an answer. */
	readonly requests: readonly SimRequest[];
	/** Stop listening and destroy open sockets; miner state is kept. */
	stop(): Promise<void>;
	/** Listen again on the same port (after stop); does nothing while an applied config has the API off. */
	start(): Promise<void>;
	/** The process restarted: uptime 0, windows null again, shares 0 (id stays); it re-reads the config file. */
	restartMiner(): void;
	/** The config document text currently applied (what GET /1/config serves). */
	configText(): string;
	/** The config file "on disk" (what a PUT wrote; equals configText once applied). */
	fileText(): string;
	/** An outside change (someone else edited the config): applies immediately (an invalid one is ignored, as XMRig does). */
	setConfigText(text: string): void;
	/** Like the console key p. */
	pause(): void;
	/** Like the console key r. */
	resume(): void;
	/** The pool goes away: connection ip null, uptime 0, pool kept, algo stays; shares and hashing stop. */
	dropPool(): void;
	/** The pool is back: reconnects at once. */
	restorePool(): void;
	/** The next n shares are rejected. */
	rejectShares(n: number): void;
	// ---- additions to the contract ----
	/** The dialect and version being spoken. */
	readonly info: DialectInfo;
	/** Simulated seconds since the simulator started. */
	simTime(): number;
	/** Whether the HTTP API is listening now. */
	readonly listening: boolean;
	/** Resolves once pending listener changes (rebind after a config change, stop, start) are done. */
	settled(): Promise<void>;
};

function cpuModel(threads: number): CpuModel {
	const cores = Math.max(1, threads);
	return {brand: `AMD Ryzen ${cores}-Core Processor`, cores, threads: cores * 2};
}

function parseDoc(text: string, dialect: SimDialect, threads: number): ConfigSettings | null {
	const parsed = parseRapidJson(text);
	if (!parsed.ok || !isJsonObject(parsed.value)) return null;
	return readConfig(parsed.value, dialect, threads);
}

class SimulatedMiner extends SimulatedProgram<ConfigSettings> implements Simulator {
	readonly info: DialectInfo;
	readonly duplicateRpcAnswers: boolean;
	declare protected readonly options: SimOptions;
	private readonly threadCount: number;
	private readonly cpu: CpuModel;
	private rig!: Rig;

	constructor(options: SimOptions) {
		super(options, 'sim-rig');
		const dialect = options.dialect ?? '6';
		this.info = dialectInfo(dialect, options.version ?? DEFAULT_VERSIONS[dialect]);
		this.threadCount = Math.max(1, Math.floor(options.threads ?? 4));
		this.duplicateRpcAnswers = options.duplicateRpcAnswers ?? false;
		this.cpu = cpuModel(this.threadCount);
	}

	async init(): Promise<void> {
		const {options, info} = this;
		const settings = await this.openDocument({
			parse: (text) => parseDoc(text, info.dialect, this.threadCount),
			refused: 'startSimulator: configText is not a JSON object',
			defaultText: (api) =>
				defaultConfigText({
					dialect: info.dialect,
					version: info.version,
					workerId: this.optionWorkerId,
					host: this.host,
					...api,
					threads: this.threadCount,
					watch: this.watch,
				}),
			check: (doc) => checkConfigText(doc, info.dialect, this.threadCount),
			// "miner" from 3.x on, "cpu" before.
			idKind: info.dialect === '2' || info.dialect === '2.14' ? 'cpu' : 'miner',
		});
		this.rig = new Rig({
			dialect: info.dialect,
			random: createRandom(options.seed ?? randomSeed()),
			settings,
			now: 0,
			warm: options.warm ?? false,
			// 3 days and up to an hour more, the same for the same worker id at every start.
			warmUptimeSeconds: DEFAULT_WARM_UPTIME_SECONDS + (hashNumber(`rigtop-sim-uptime:${this.optionWorkerId}`) % 3600),
		});
	}

	// ---- Simulator ----------------------------------------------------------------------------------

	restartMiner(): void {
		this.advance();
		this.config.cancel();
		if (this.config.disk !== this.config.applied) {
			const fromFile = parseDoc(this.config.disk, this.info.dialect, this.threadCount);
			if (fromFile && fromFile.pool) {
				this.config.markApplied(this.config.disk);
				this.settings = fromFile;
				this.api.apply(fromFile.api);
			}
		}
		this.rig.restartProcess(this.settings);
	}

	pause(): void {
		this.advance();
		this.rig.pause();
	}

	resume(): void {
		this.advance();
		this.rig.resume();
	}

	dropPool(): void {
		this.advance();
		this.rig.dropPool();
	}

	restorePool(): void {
		this.advance();
		this.rig.restorePool();
	}

	rejectShares(n: number): void {
		this.advance();
		this.rig.rejectShares(n);
	}

	// ---- PipelineHost -------------------------------------------------------------------------------

	payloadContext(): PayloadContext {
		this.advance();
		return {
			info: this.info,
			rig: this.rig,
			id: this.apiIdNow,
			workerId: this.workerIdNow,
			restricted: this.api.settings.restricted,
			cpu: this.cpu,
		};
	}

	putConfig(sent: string): PutOutcome {
		// 5.x and 6.x serve and save the config from their own objects: keys they do not know are gone.
		return this.config.put(sent, (text) => (this.info.modern ? dropUnknownKeys(text) : text));
	}

	rpc(method: string): boolean {
		this.advance();
		switch (method) {
			case 'pause':
				this.rig.pause();
				return true;
			case 'resume':
				this.rig.resume();
				return true;
			case 'stop':
				this.rig.stopWorkers();
				return true;
			default:
				return false;
		}
	}

	// ---- internals ----------------------------------------------------------------------------------

	private advance(): void {
		this.rig.advance(this.simTime());
	}

	protected apply(settings: ConfigSettings): void {
		this.advance();
		this.settings = settings;
		this.rig.applySettings(settings);
		this.api.apply(settings.api);
	}
}

/**
 * Starts a simulated miner (or, with `kind: 'proxy'`, a simulated xmrig-proxy) listening on loopback; resolves
 * once it accepts connections.
 */
export async function startSimulator(options: ProxySimOptions): Promise<ProxySimulator>;
export async function startSimulator(options?: SimOptions): Promise<Simulator>;
export async function startSimulator(options: SimOptions | ProxySimOptions = {}): Promise<Simulator | ProxySimulator> {
	if (options.kind === 'proxy') return startProxySimulator(options);
	const miner = new SimulatedMiner(options);
	await miner.init();
	return miner;
}
