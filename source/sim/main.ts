/**
 * xmrig-sim: a process that looks like an xmrig miner to discovery (bundled to dist/xmrig-sim.js).
 *
 *   node dist/xmrig-sim.js -c config.json [--sim-dialect 6|5|2|2.14] [--sim-warm]
 *   node dist/xmrig-sim.js --http-port 0 --http-access-token T --http-no-restricted
 *   node dist/xmrig-sim.js --sim-kind proxy --http-port 0 [--sim-workers N] [--sim-warm]
 *
 * Reads the XMRig config file (current `http` layout, or the older `api.port` layout, which selects the
 * 2.14 dialect unless --sim-dialect says otherwise), applies the command-line overrides as XMRig does,
 * prints `HTTP API host:port` once listening (or `HTTP API disabled`), writes accepted PUTs back to the
 * config file, and exits 0 on SIGTERM/SIGINT. This file is an output layer: it prints.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {parseSimArgs, SIM_USAGE, type SimCliOptions} from './cli-args.js';
import {checkProxyConfigText, defaultProxyConfigText, PROXY_VERSION, type ProxySettings} from './proxy-payloads.js';
import type {ProxySimOptions} from './proxy-simulator.js';
import {defaultConfigDoc, readConfig} from './config-doc.js';
import {DEFAULT_VERSIONS, type SimDialect} from './dialect.js';
import {isJsonObject, parseRapidJson, type ParsedJson} from './json-reader.js';
import {STYLE_2, STYLE_6, writeJson, type JsonObject} from './json-writer.js';
import {startSimulator, type SimOptions} from './simulator.js';
import {startSimSysfs} from './sysfs-tree.js';

/** The config file the command line names (`-c`), as both programs read it; one they cannot open ends the start. */
function readConfigFile(given: string): {readonly path: string; readonly text: string} {
	const resolved = path.resolve(given);
	try {
		return {path: resolved, text: readFileSync(resolved, 'utf8')};
	} catch {
		return fail(`unable to open "${given}"`);
	}
}

function fail(message: string): never {
	console.error(`xmrig-sim: ${message}`);
	process.exit(1);
}

async function main(): Promise<void> {
	const parsed = parseSimArgs(process.argv.slice(2));
	if (!parsed.ok) fail(parsed.error);
	const cli = parsed.options;
	for (const warning of cli.warnings) console.error(`xmrig-sim: ${warning}`);
	if (cli.help) {
		process.stdout.write(SIM_USAGE);
		return;
	}

	if (cli.kind === 'proxy') return mainProxy(cli);

	if (cli.version) {
		const dialect = cli.dialect ?? '6';
		process.stdout.write(`XMRig ${DEFAULT_VERSIONS[dialect]} (xmrig-sim, the ${dialect} dialect)\n`);
		return;
	}

	const file = cli.configPath === null ? null : readConfigFile(cli.configPath);
	let doc: {[key: string]: ParsedJson} | null = null;
	if (file !== null) {
		const result = parseRapidJson(file.text);
		if (!result.ok || !isJsonObject(result.value))
			fail(`"${cli.configPath}" is not a valid config file${result.ok ? '' : `: ${result.error}`}`);
		doc = result.value;
	}

	const api = doc?.['api'];
	const legacyLayout = isJsonObject(api) && 'port' in api && !isJsonObject(doc?.['http']);
	const dialect: SimDialect = cli.dialect ?? (legacyLayout || (cli.apiPort !== null && !cli.httpOption) ? '2.14' : '6');
	const legacy = dialect === '2.14';
	const threads = cli.threads ?? 4;

	const port = legacy ? (cli.apiPort ?? cli.httpPort) : (cli.httpPort ?? (dialect === '2' ? cli.apiPort : null));
	const token = legacy ? (cli.apiToken ?? cli.httpToken) : (cli.httpToken ?? (dialect === '2' ? cli.apiToken : undefined));
	const noRestricted = cli.httpNoRestricted || cli.apiNoRestricted;
	const apiFromCli = port !== null || token !== undefined || noRestricted || cli.httpOption;
	const fileSettings = doc ? readConfig(doc, dialect, threads) : null;
	const host = cli.httpHost ?? (!legacy && fileSettings?.api.enabled ? fileSettings.api.host : '127.0.0.1');

	const options: SimOptions = {dialect, host, threads, warm: cli.warm};
	if (cli.workerId !== null) options.workerId = cli.workerId;
	if (cli.seed !== null) options.seed = cli.seed;
	if (cli.mac !== null) options.mac = cli.mac;
	if (cli.timeScale !== null) options.timeScale = cli.timeScale;
	if (file !== null) {
		options.configText = file.text;
		options.configPath = file.path;
	} else if (!apiFromCli) {
		// No config file and no API option: XMRig's API is off by default.
		const off = defaultConfigDoc({
			dialect,
			version: DEFAULT_VERSIONS[dialect],
			workerId: cli.workerId ?? 'sim-rig',
			host,
			port: 0,
			token: null,
			restricted: true,
			threads,
			watch: true,
		});
		const disabled: JsonObject = legacy ? off : {...off, http: {...(off['http'] as JsonObject), enabled: false}};
		options.configText = writeJson(disabled, dialect === '6' || dialect === '5' ? STYLE_6 : STYLE_2);
	}
	if (apiFromCli) options.port = port ?? fileSettings?.api.port ?? 0;
	if (token !== undefined) options.token = token;
	if (noRestricted) options.restricted = false;

	let sim;
	try {
		sim = await startSimulator(options);
	} catch (error) {
		fail(`HTTP API ${host}:${options.port ?? fileSettings?.api.port ?? 0} ${(error as Error).message}`);
	}
	if (cli.sysfs !== null) await startSimSysfs(path.resolve(cli.sysfs), {cpus: threads});
	console.log(sim.listening ? `HTTP API ${host}:${sim.port}` : 'HTTP API disabled');
	keepRunning(sim);
}

/** --sim-kind proxy: an xmrig-proxy, configured like the miner (config file, then the command line over it). */
async function mainProxy(cli: SimCliOptions): Promise<void> {
	if (cli.version) {
		process.stdout.write(`xmrig-proxy ${PROXY_VERSION} (xmrig-sim)\n`);
		return;
	}
	const file = cli.configPath === null ? null : readConfigFile(cli.configPath);
	let settings: ProxySettings | null = null;
	if (file !== null) {
		const check = checkProxyConfigText(file.text);
		if (!check.ok) fail(`"${cli.configPath}" is not a valid proxy config file${check.parseError === null ? '' : `: ${check.parseError}`}`);
		settings = check.settings;
	}
	const apiFromCli = cli.httpPort !== null || cli.httpToken !== undefined || cli.httpNoRestricted || cli.httpOption;
	const host = cli.httpHost ?? (settings?.api.enabled ? settings.api.host : '127.0.0.1');
	const options: {-readonly [K in keyof ProxySimOptions]?: ProxySimOptions[K]} = {host, warm: cli.warm};
	if (cli.workerId !== null) options.workerId = cli.workerId;
	if (cli.seed !== null) options.seed = cli.seed;
	if (cli.mac !== null) options.mac = cli.mac;
	if (cli.timeScale !== null) options.timeScale = cli.timeScale;
	if (cli.workers !== null) options.workers = cli.workers;
	if (file !== null) {
		options.configText = file.text;
		options.configPath = file.path;
	} else if (!apiFromCli) {
		// No config file and no API option: the proxy's API is off by default, as the miner's.
		const off = defaultProxyConfigText({workerId: cli.workerId ?? 'sim-proxy', host, port: 0, token: null, restricted: true, watch: true});
		options.configText = off.replace('"enabled": true,\n        "host"', '"enabled": false,\n        "host"');
	}
	if (apiFromCli) options.port = cli.httpPort ?? settings?.api.port ?? 0;
	if (cli.httpToken !== undefined) options.token = cli.httpToken;
	if (cli.httpNoRestricted) options.restricted = false;
	let sim;
	try {
		sim = await startSimulator({...options, kind: 'proxy'});
	} catch (error) {
		fail(`HTTP API ${host}:${options.port ?? settings?.api.port ?? 0} ${(error as Error).message}`);
	}
	console.log(sim.listening ? `HTTP API ${host}:${sim.port}` : 'HTTP API disabled');
	keepRunning(sim);
}

function keepRunning(sim: {stop(): Promise<void>}): void {
	// Like xmrig, keep running whether or not the API is up.
	const keepAlive = setInterval(() => undefined, 1 << 30);
	let stopping = false;
	const shutdown = (): void => {
		if (stopping) return;
		stopping = true;
		clearInterval(keepAlive);
		void sim.stop().then(() => process.exit(0));
	};
	process.on('SIGTERM', shutdown);
	process.on('SIGINT', shutdown);
}

await main();
