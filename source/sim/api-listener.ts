/**
 * The HTTP API side shared by the simulated miner and the simulated xmrig-proxy: the settings in force (auth,
 * on/off, port) and the loopback listener, which an applied config document turns off, on or moves to another
 * port after the answer in flight, as both programs do. One queue orders every listener change (config applies,
 * stop, start) so that `settled()` can wait for them all.
 */
import {ApiServer, type RequestHandler} from './api-server.js';
import type {ApiSettings} from './config-doc.js';

/** Options given at the start, which override the config document like the programs' command-line options. */
export type ApiOverrides = {
	readonly port?: number;
	readonly token?: string | null;
	readonly restricted?: boolean;
};

/**
 * The API settings at the start: the document's (none: on, any free port, no token, restricted) with the
 * overrides on top; any override, or no document, turns the API on.
 */
export function startingApi(fromDocument: ApiSettings | null, overrides: ApiOverrides, host: string): ApiSettings {
	const base: ApiSettings = fromDocument ?? {enabled: true, host, port: 0, token: null, restricted: true};
	const overridden = overrides.port !== undefined || overrides.token !== undefined || overrides.restricted !== undefined;
	return {
		enabled: base.enabled || overridden || fromDocument === null,
		host: base.host,
		port: overrides.port ?? base.port,
		token: overrides.token !== undefined ? overrides.token : base.token,
		restricted: overrides.restricted ?? base.restricted,
	};
}

export class ApiListener {
	private readonly server: ApiServer;
	private current: ApiSettings = {enabled: false, host: '', port: 0, token: null, restricted: true};
	private lastPort = 0;
	private manuallyStopped = false;
	private operations: Promise<void> = Promise.resolve();

	/** `host` is the only address ever bound, whatever a document's http.host says. */
	constructor(
		private readonly host: string,
		handler: RequestHandler,
	) {
		this.server = new ApiServer(handler);
	}

	/** The API settings in force. */
	get settings(): ApiSettings {
		return this.current;
	}

	/** The port bound last (0 before the first bind). */
	get port(): number {
		return this.lastPort;
	}

	get url(): string {
		return `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.lastPort}`;
	}

	get listening(): boolean {
		return this.server.listening;
	}

	auth(): {token: string | null; restricted: boolean} {
		return {token: this.current.token, restricted: this.current.restricted};
	}

	/** The first settings: listens at once when the API is on (port 0: any free port); rejects when the port is taken. */
	async open(api: ApiSettings): Promise<void> {
		this.current = api;
		if (api.enabled) this.lastPort = await this.server.listen(this.host, api.port);
	}

	/** Stop listening and destroy open sockets (the settings stay). */
	async stop(): Promise<void> {
		this.manuallyStopped = true;
		this.queue(() => this.server.close());
		await this.settled();
	}

	/** Listen again on the same port; does nothing while the settings have the API off. */
	async start(): Promise<void> {
		this.manuallyStopped = false;
		this.queue(async () => {
			if (this.current.enabled && !this.server.listening) this.lastPort = await this.server.listen(this.host, this.lastPort);
		});
		await this.settled();
	}

	/** Resolves once every queued listener change is done. */
	async settled(): Promise<void> {
		let current: Promise<void>;
		do {
			current = this.operations;
			await current;
		} while (current !== this.operations);
	}

	/** An applied document: auth changes at once; the listener closes, opens or moves to a new port after the current answer. */
	apply(next: ApiSettings): void {
		const previous = this.current;
		this.current = next;
		if (!next.enabled) {
			this.queue(() => this.server.close());
			return;
		}
		const moveTo = next.port !== 0 && next.port !== this.lastPort ? next.port : null;
		if (previous.enabled && moveTo === null) return;
		this.queue(async () => {
			if (moveTo !== null) await this.server.close();
			if (this.manuallyStopped || this.server.listening) return;
			try {
				this.lastPort = await this.server.listen(this.host, moveTo ?? this.lastPort);
			} catch {
				// Port taken: the API stays down, as the program's does.
			}
		});
	}

	private queue(operation: () => Promise<void>): void {
		this.operations = this.operations.then(async () => {
			// After the answer in flight has been handed to its socket.
			await new Promise<void>((resolve) => setImmediate(resolve));
			try {
				await operation();
			} catch {
				// A failed close/listen leaves the listener as it is.
			}
		});
	}
}
