import type {Session} from '../session/session.js';
import {readTokenFile} from '../discovery/token-source.js';
import {UsageError} from '../session/errors.js';
import {createCollector, type CollectorOptions} from './collector.js';
import {hostPortText, parseListen, type ListenAddress} from './listen.js';
import {startMetricsServer} from './server.js';
import type {WebConfig} from './web-config.js';

/**
 * How to serve: `rigtop exporter --listen ADDR…` (or `--web.listen-address`) or the live view's `--metrics ADDR`,
 * `--metrics-token-file` and `--web.config.file`.
 */
export type ServeSettings = {
	/** The addresses as typed (one or more). */
	readonly listen: readonly string[];
	/** The flag it came from, for messages. */
	readonly flag: '--listen' | '--metrics';
	readonly tokenFile: string | undefined;
	/** --web.config.file: TLS and basic auth in exporter-toolkit's format. */
	readonly webConfigFile?: string | undefined;
	/** rigtop's version (xmrig_exporter_build_info). */
	readonly version: string;
};

export type ServedMetrics = {
	readonly url: string;
	/** Every address as really bound. */
	readonly urls: readonly string[];
	/** The `miner` label of each of the session's miners. */
	readonly labels: readonly string[];
	/** Serves these miners from now on (the exporter's reload; see MetricsCollector.setMiners). */
	setMiners(miners: Session['miners']): void;
	/**
	 * SIGHUP's hook for the server layer: the serving settings as read again (prepareServing: the token file, and the
	 * web config where there is one). Absent: the server keeps what it was started with. A rejection is logged and the
	 * server keeps its settings.
	 */
	reload?: (prepared: PreparedServing) => Promise<void>;
	close(): Promise<void>;
};

/** Reads --metrics-token-file: its problems are bad usage (exit 2); its content is never shown. */
async function readMetricsToken(file: string, warn: (line: string) => void): Promise<string> {
	let read;
	try {
		read = await readTokenFile(file);
	} catch (error) {
		throw new UsageError((error instanceof Error ? error.message : String(error)).replaceAll('--token-file', '--metrics-token-file'));
	}

	if (read.token === '') throw new UsageError(`--metrics-token-file ${file} is empty: /metrics would take any request`);
	for (const line of read.warnings) warn(line.replaceAll('--token-file', '--metrics-token-file'));
	return read.token;
}

/**
 * What serving needs once the flags are checked: where to listen, the token /metrics wants (null: none) and the web
 * config (null: plain HTTP, no users). Plain data: it is handed to the exporter's worker thread.
 */
export type PreparedServing = {readonly listen: readonly ListenAddress[]; readonly token: string | null; readonly web: WebConfig | null};

/**
 * Checks the addresses, reads the token file and the web config (UsageError for any), and warns when the endpoint
 * will be reachable from other machines without a token or users, or with passwords sent in clear text.
 */
export async function prepareServing(settings: Omit<ServeSettings, 'version'>, warn: (line: string) => void): Promise<PreparedServing> {
	const listen = settings.listen.map((text) => parseListen(text, settings.flag));
	const token = settings.tokenFile === undefined ? null : await readMetricsToken(settings.tokenFile, warn);
	// The YAML parser loads only when a web config is given.
	const web = settings.webConfigFile === undefined ? null : await (await import('./web-config.js')).readWebConfig(settings.webConfigFile);
	const users = Object.keys(web?.users ?? {}).length > 0;
	const open = listen.find((address) => !address.loopback);
	if (open !== undefined && token === null && !users) {
		warn(
			`${settings.flag} ${hostPortText(open.host, open.port)} can be reached from other machines and /metrics is not protected: anyone who reaches it reads your miners' addresses, versions, pools and hashrates; give --metrics-token-file FILE (Prometheus: authorization.credentials_file) or basic_auth_users in --web.config.file`,
		);
	} else if (open !== undefined && users && web?.tls === null) {
		warn(
			`${settings.flag} ${hostPortText(open.host, open.port)} can be reached from other machines and basic auth passwords cross the network in clear text: add tls_server_config to --web.config.file`,
		);
	}

	return {listen, token, web};
}

/** Makes every miner of the session read its per-thread document, and binds (an Error with one line when it cannot). */
export async function serveMiners(
	session: Pick<Session, 'miners' | 'readEveryThread'>,
	prepared: PreparedServing,
	version: string,
	options: Omit<CollectorOptions, 'version'> = {},
): Promise<ServedMetrics> {
	session.readEveryThread();
	const collector = createCollector(session.miners, {...options, version});
	try {
		const server = await startMetricsServer({
			listen: prepared.listen,
			token: prepared.token,
			web: prepared.web,
			render: collector.render,
			ready: collector.ready,
			version,
		});
		return {
			url: server.url,
			urls: server.urls,
			get labels() {
				return collector.labels;
			},
			setMiners: collector.setMiners,
			async reload(next) {
				const moved = next.listen.map((address) => hostPortText(address.host, address.port)).join(' ');
				const bound = prepared.listen.map((address) => hostPortText(address.host, address.port)).join(' ');
				server.update({token: next.token, web: next.web});
				if (moved !== bound) throw new Error(`the listen addresses stay ${bound} until the exporter restarts`);
			},
			async close() {
				collector.close();
				await server.close();
			},
		};
	} catch (error) {
		collector.close();
		throw error;
	}
}

/**
 * Serves the session's miners on /metrics (the live view's --metrics): prepareServing, then serveMiners. Call before
 * session.start() so that a bad address stops rigtop first.
 */
export async function serveSessionMetrics(session: Session, settings: ServeSettings, warn: (line: string) => void): Promise<ServedMetrics> {
	return serveMiners(session, await prepareServing(settings, warn), settings.version);
}
