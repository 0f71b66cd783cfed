/**
 * What the simulated miner (simulator.ts) and the simulated xmrig-proxy (proxy-simulator.ts) share as programs: the
 * simulated clock, the HTTP API and its log of requests, the config document (applied and on disk) that the start
 * reads or writes, and the API id and worker id they answer with. Each subclass adds what it simulates behind them.
 */
import {createHash} from 'node:crypto';
import {performance} from 'node:perf_hooks';
import {ApiListener, startingApi, type ApiOverrides} from './api-listener.js';
import type {ApiSettings} from './config-doc.js';
import {ConfigFile, type CheckedConfig} from './config-file.js';
import type {WireRequest} from './http-wire.js';
import type {DialectInfo} from './dialect.js';
import type {PayloadContext} from './payloads.js';
import {handleLogged, type handleRequest, type PipelineHost, type PutOutcome, type SimRequest} from './pipeline.js';

/** The options both simulators take for what they share. */
export type ProgramOptions = ApiOverrides & {
	readonly host?: string;
	readonly workerId?: string;
	readonly timeScale?: number;
	readonly clock?: () => number;
	readonly watch?: boolean;
	readonly applyDelayMs?: number;
	readonly configText?: string;
	readonly configPath?: string;
	readonly mac?: string;
};

/** What both programs read of their config document beside their own settings. */
export type ProgramSettings = {
	readonly api: ApiSettings;
	readonly apiId: string | null;
	readonly workerId: string | null;
	readonly watch: boolean;
};

/** How a program reads, checks and writes its config document at the start. */
export type ProgramDocument<Settings> = {
	/** The document's settings, or null where the program could not start with it. */
	readonly parse: (text: string) => Settings | null;
	/** The error when the configText option is a document `parse` refuses. */
	readonly refused: string;
	/** The document written when none is given, with the API as bound. */
	readonly defaultText: (api: {readonly port: number; readonly token: string | null; readonly restricted: boolean}) => string;
	readonly check: (text: string) => CheckedConfig<Settings>;
	/** The kind the API id is derived from: "miner" (3.x on), "cpu" (before), "proxy". */
	readonly idKind: string;
};

/** A number from a text's hash, the same at every start: a warm program's uptime past three days, its MAC. */
export function hashNumber(text: string): number {
	return Number.parseInt(createHash('sha256').update(text).digest('hex').slice(0, 8), 16);
}

/** A locally administered MAC made from the worker id: the same simulated machine at every start. */
function defaultMac(workerId: string): string {
	const bytes = createHash('sha256').update(`rigtop-sim-mac:${workerId}`).digest().subarray(0, 6);
	bytes[0] = ((bytes[0] ?? 0) & 0xfc) | 0x02;
	return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
}

/**
 * The API id, derived as XMRig and xmrig-proxy derive it: a hash of the API port, the MAC and the kind, 16 hex
 * characters (Keccak there; SHA3-256 here, which only differs in padding).
 */
function apiId(port: number, mac: string, kind: string): string {
	const portBytes = Buffer.alloc(2);
	portBytes.writeUInt16LE(port & 0xffff);
	const macBytes = Buffer.from(mac.replaceAll(/[:-]/g, ''), 'hex');
	return createHash('sha3-256').update(portBytes).update(macBytes).update(kind).digest('hex').slice(0, 16);
}

export abstract class SimulatedProgram<Settings extends ProgramSettings> implements PipelineHost {
	abstract readonly info: DialectInfo;
	abstract readonly duplicateRpcAnswers: boolean;
	protected readonly options: ProgramOptions;
	protected readonly host: string;
	protected readonly watch: boolean;
	protected readonly api: ApiListener;
	protected readonly requestLog: SimRequest[] = [];
	protected settings!: Settings;
	protected config!: ConfigFile<Settings>;
	readonly #clock: () => number;
	readonly #clockStart: number;
	readonly #timeScale: number;
	readonly #defaultWorkerId: string;
	#generatedId = '';

	constructor(options: ProgramOptions, defaultWorkerId: string) {
		this.options = options;
		this.#defaultWorkerId = defaultWorkerId;
		this.host = options.host ?? '127.0.0.1';
		this.#clock = options.clock ?? (() => performance.now());
		this.#clockStart = this.#clock();
		this.#timeScale = options.timeScale ?? 1;
		this.watch = options.watch ?? true;
		this.api = new ApiListener(this.host, (request) => this.#onRequest(request));
	}

	/** The worker id the options give, else the program's default ('sim-rig', 'sim-proxy'). */
	protected get optionWorkerId(): string {
		return this.options.workerId ?? this.#defaultWorkerId;
	}

	/**
	 * The start: the document given (refused: an error) or else the default one for the API as bound, the API
	 * listening, the config file in force, the API id derived. Returns the settings in force.
	 */
	protected async openDocument(document: ProgramDocument<Settings>): Promise<Settings> {
		const {options} = this;
		let settings: Settings | null = null;
		if (options.configText !== undefined) {
			settings = document.parse(options.configText);
			if (!settings) throw new Error(document.refused);
		}
		await this.api.open(startingApi(settings?.api ?? null, options, this.host));
		let text: string;
		if (options.configText === undefined || !settings) {
			text = document.defaultText({port: this.api.port, token: this.api.settings.token, restricted: this.api.settings.restricted});
			settings = document.parse(text)!;
		} else {
			text = options.configText;
		}
		this.config = new ConfigFile(
			{
				path: options.configPath,
				watch: this.watch,
				delayMs: options.applyDelayMs ?? 500,
				check: document.check,
				apply: (next) => this.apply(next),
			},
			text,
		);
		this.settings = settings;
		this.#generatedId = apiId(this.api.port, options.mac ?? defaultMac(this.optionWorkerId), document.idKind);
		return settings;
	}

	/** The API id answered now: the document's `api.id` when it sets one, else the one derived at the start. */
	protected get apiIdNow(): string {
		return this.settings.apiId !== null && this.settings.apiId !== '' ? this.settings.apiId : this.#generatedId;
	}

	/** The worker id answered now: the document's `api.worker-id`, else the option's, else the default. */
	protected get workerIdNow(): string {
		return this.settings.workerId ?? this.optionWorkerId;
	}

	/** A loaded document (the file the watcher read again, an outside edit, a PUT without the watcher). */
	protected abstract apply(settings: Settings): void;

	abstract payloadContext(): PayloadContext;
	abstract putConfig(sent: string): PutOutcome;
	abstract rpc(method: string): boolean;

	get url(): string {
		return this.api.url;
	}

	get port(): number {
		return this.api.port;
	}

	get requests(): readonly SimRequest[] {
		return this.requestLog;
	}

	get listening(): boolean {
		return this.api.listening;
	}

	simTime(): number {
		return ((this.#clock() - this.#clockStart) / 1000) * this.#timeScale;
	}

	stop(): Promise<void> {
		return this.api.stop();
	}

	start(): Promise<void> {
		return this.api.start();
	}

	settled(): Promise<void> {
		return this.api.settled();
	}

	configText(): string {
		return this.config.applied;
	}

	fileText(): string {
		return this.config.disk;
	}

	setConfigText(text: string): void {
		this.config.edit(text);
	}

	auth(): {token: string | null; restricted: boolean} {
		return this.api.auth();
	}

	#onRequest(request: WireRequest): ReturnType<typeof handleRequest> {
		return handleLogged(this, request, this.requestLog);
	}
}
