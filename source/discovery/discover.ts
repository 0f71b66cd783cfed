/**
 * Zero-config start: works out which miners to monitor and with which token.
 *
 * Precedence:
 * 1. Explicit settings win: URL arguments / --url, and a token from --token-file, RIGTOP_TOKEN or
 *    --token (in that order). With an explicit loopback URL and no token, the token of the local
 *    XMRig process listening on that port is used (from --config when given).
 * 2. --config PATH: the miner's own config file (both layouts). A random port (0) is looked up from
 *    the running process that uses that file.
 * 3. Otherwise every XMRig process on this machine: its command line > its config files > the ports
 *    it really listens on (which win whenever the configured port is 0, unknown or not listened on).
 *
 * Nothing here prints or logs; the token never appears in warnings, problems or provenance.
 */

import {realpath} from 'node:fs/promises';
import {homedir} from 'node:os';
import path from 'node:path';
import {normalizeMinerUrl} from '../miner/target.js';
import {connectHost, httpUrl} from './address.js';
import {describeCommand} from './cmdline.js';
import {homeDirsFor} from './home-dirs.js';
import {readMinerConfig, type ConfigIssueKind} from './miner-config.js';
import {resolveProcessConfig, type ChainLayer, type ProcessConfig} from './process-config.js';
import {scanXmrigProcesses, type ListeningSocket, type ProcProcess, type ProcScan} from './proc.js';
import {createCleartextTokenWarner, isLoopbackHost} from './token-warning.js';
import {pickExplicitToken, type ExplicitToken} from './token-source.js';
import type {DiscoveryInput, DiscoveryResult, Source, Target} from './types.js';

export type {DiscoveryInput, DiscoveryResult, Source, SourceKind, Target} from './types.js';

/** Issues that still matter when the miner was found and is reachable. */
const ISSUES_WHEN_REACHABLE: ReadonlySet<ConfigIssueKind> = new Set(['empty-token', 'no-token-unrestricted', 'host-not-ip', 'unreadable']);

class Report {
	readonly warnings: string[] = [];
	readonly lookedAt: string[] = [];
	readonly problems: string[] = [];

	warn(...texts: readonly string[]): void {
		for (const text of texts) if (!this.warnings.includes(text)) this.warnings.push(text);
	}

	looked(...texts: readonly string[]): void {
		for (const text of texts) if (!this.lookedAt.includes(text)) this.lookedAt.push(text);
	}

	problem(...texts: readonly string[]): void {
		for (const text of texts) if (!this.problems.includes(text)) this.problems.push(text);
	}
}

type Context = {
	readonly report: Report;
	readonly explicit: ExplicitToken | null;
	readonly cwd: string;
	readonly homeDir: string;
	readonly procRoot: string;
	readonly passwdPath: string;
	readonly selfPid: number;
};

type ScannedMiner = {readonly process: ProcProcess; readonly config: ProcessConfig};

/** Finds the miners to monitor. Never throws for anything the user or the machine can cause. */
export async function resolveTargets(input: DiscoveryInput = {}): Promise<DiscoveryResult> {
	const report = new Report();
	const cwd = input.cwd ?? process.cwd();
	const explicit = await pickExplicitToken({tokenFile: input.tokenFile, tokenEnv: input.tokenEnv, tokenFlag: input.tokenFlag, cwd});
	report.warn(...explicit.warnings);
	report.problem(...explicit.problems);
	const context: Context = {
		report,
		explicit: explicit.token,
		cwd,
		homeDir: input.homeDir ?? homedir(),
		procRoot: input.procRoot ?? '/proc',
		passwdPath: input.passwdPath ?? '/etc/passwd',
		selfPid: input.selfPid ?? process.pid,
	};
	const configPath = input.configPath === undefined ? null : path.resolve(cwd, input.configPath);
	let targets: Target[];
	if ((input.urls ?? []).length > 0) {
		targets = await explicitUrlTargets(input.urls ?? [], configPath, context);
	} else if (configPath !== null) {
		report.looked('no URL argument or --url');
		targets = await configFileTargets(configPath, context);
	} else {
		report.looked('no URL argument or --url', 'no --config');
		targets = await processTargets(context);
	}
	const unique: Target[] = [];
	for (const target of targets) if (!unique.some((other) => other.url === target.url)) unique.push(target);
	const warnCleartext = createCleartextTokenWarner();
	for (const target of unique) {
		const warning = warnCleartext(target.url, target.token);
		if (warning) report.warn(warning);
	}
	return {targets: unique, warnings: report.warnings, lookedAt: report.lookedAt, problems: report.problems};
}

// ---------------------------------------------------------------------------------------------
// 1. Explicit URLs

/** The canonical base URL of an address the user typed; null (with the reason as a problem) when unusable. */
function parseMinerUrl(raw: string, report: Report): string | null {
	try {
		return normalizeMinerUrl(raw);
	} catch (error) {
		report.problem(error instanceof Error ? error.message : 'the miner address is not usable; use host:port');
		return null;
	}
}

async function explicitUrlTargets(rawUrls: readonly string[], configPath: string | null, context: Context): Promise<Target[]> {
	const {report, explicit} = context;
	const urls = rawUrls.map((raw) => parseMinerUrl(raw, report)).filter((url): url is string => url !== null);
	report.looked(`the address${urls.length === 1 ? '' : 'es'} given: ${urls.join(', ') || 'none usable'}`);
	let configToken: {token: string | null; source: Source | null} | null = null;
	if (configPath !== null) {
		const settings = await readMinerConfig(configPath);
		report.looked(`--config ${configPath}`);
		report.problem(...settings.issues.filter((issue) => ISSUES_WHEN_REACHABLE.has(issue.kind)).map((issue) => issue.text));
		configToken = {
			token: settings.tokenSet ? settings.token : null,
			source: settings.tokenSet ? {kind: 'config-file', detail: `--config ${configPath}`} : null,
		};
		if (explicit && settings.read.ok && !settings.tokenSet && settings.apiEnabled) warnTokenNotExpected(configPath, report);
	}
	let scanned: ScannedMiner[] | null = null;
	const loopbackPorts = new Set(urls.filter((url) => isLoopbackHost(url)).map((url) => portOf(url)));
	const targets: Target[] = [];
	for (const url of urls) {
		const urlSource: Source = {kind: 'flag', detail: 'the address given on the command line'};
		if (explicit) {
			targets.push({url, token: explicit.token, provenance: {url: urlSource, token: explicit.source}});
			continue;
		}
		if (configToken) {
			targets.push({url, token: configToken.token, provenance: {url: urlSource, token: configToken.source}});
			continue;
		}
		let token: string | null = null;
		let tokenSource: Source | null = null;
		if (isLoopbackHost(url)) {
			// Only a process that may listen on one of these ports can lend its token: read the
			// config of no other (this runs on every start with a loopback URL).
			scanned ??= await scanMiners(context, false, (process) => mayListenOn(process, loopbackPorts));
			const port = portOf(url);
			const owner = scanned.find((miner) => listensOn(miner, port));
			if (owner?.config.settings.tokenSet) {
				token = owner.config.settings.token;
				tokenSource = tokenSourceOf(owner);
			}
		}
		targets.push({url, token, provenance: {url: urlSource, token: tokenSource}});
	}
	return targets;
}

function portOf(url: string): number {
	return Number(new URL(url).port || 80);
}

/** Whether listensOn() can hold for this process and one of `ports` (its sockets, when seen, decide). */
function mayListenOn(process: ProcProcess, ports: ReadonlySet<number>): boolean {
	return process.listening === null || process.listening.some((socket) => ports.has(socket.port));
}

function listensOn(miner: ScannedMiner, port: number): boolean {
	const sockets = miner.process.listening ?? miner.process.listeningByOwner;
	if (sockets?.some((socket) => socket.port === port)) return true;
	return miner.process.listening === null && miner.config.settings.apiEnabled && miner.config.settings.port === port;
}

function warnTokenNotExpected(where: string, report: Report): void {
	report.warn(
		`${where} sets no access token, but rigtop was given one: XMRig 2.15 and later answer 401 to a request that carries a token ` +
			'when the miner has none. Drop the token, or set the same one in the miner\'s "http"."access-token".',
	);
}

// ---------------------------------------------------------------------------------------------
// 2. --config

async function configFileTargets(configPath: string, context: Context): Promise<Target[]> {
	const {report, explicit} = context;
	const settings = await readMinerConfig(configPath);
	report.looked(`--config ${configPath}`);
	if (!settings.read.ok) {
		report.problem(...settings.problems);
		return [];
	}
	if (!settings.apiEnabled) {
		report.problem(...settings.problems);
		return [];
	}
	if (explicit && !settings.tokenSet) warnTokenNotExpected(configPath, report);
	const token = explicit?.token ?? (settings.tokenSet ? settings.token : null);
	const tokenSource: Source | null =
		explicit?.source ?? (settings.tokenSet ? {kind: 'config-file', detail: `--config ${configPath}`} : null);
	if (settings.url !== null) {
		const layoutNotes: ReadonlySet<ConfigIssueKind> = new Set(['older-layout', 'both-layouts']);
		report.problem(...settings.issues.filter((issue) => !layoutNotes.has(issue.kind)).map((issue) => issue.text));
		report.warn(...settings.issues.filter((issue) => layoutNotes.has(issue.kind)).map((issue) => issue.text));
		return [{url: settings.url, token, provenance: {url: {kind: 'config-file', detail: `--config ${configPath}`}, token: tokenSource}}];
	}
	// Port 0: the port is random; find the process that runs with this file.
	const wanted = await realpath(configPath).catch(() => configPath);
	const miners = await scanMiners(context, false);
	const targets: Target[] = [];
	for (const miner of miners) {
		const files = await Promise.all(miner.config.files.map((file) => realpath(file).catch(() => file)));
		if (!files.includes(wanted)) continue;
		const found = processTargetsFor(miner, context, {quiet: true});
		for (const target of found) {
			targets.push({...target, token, provenance: {url: target.provenance.url, token: tokenSource}});
		}
	}
	const remaining = settings.issues.filter((issue) => issue.kind !== 'random-port' || targets.length === 0);
	report.problem(...remaining.filter((issue) => targets.length === 0 || ISSUES_WHEN_REACHABLE.has(issue.kind)).map((issue) => issue.text));
	if (targets.length === 0) report.problem(`no running XMRig process on this machine that rigtop may inspect uses ${configPath}`);
	return targets;
}

// ---------------------------------------------------------------------------------------------
// 3. Running processes

/** The XMRig processes (those `keep` accepts, when given) with their configs, read in parallel, in scan order. */
async function scanMiners(context: Context, describe: boolean, keep?: (process: ProcProcess) => boolean): Promise<ScannedMiner[]> {
	const scan: ProcScan = await scanXmrigProcesses({procRoot: context.procRoot, selfPid: context.selfPid});
	if (describe) {
		if (!scan.available) context.report.looked(`no ${context.procRoot} here (finding running miners works on Linux only)`);
		else if (scan.processes.length === 0) context.report.looked(`${scan.scanned} processes in ${context.procRoot}, none of them XMRig`);
	}
	const processes = keep ? scan.processes.filter(keep) : scan.processes;
	return Promise.all(
		processes.map(async (process) => {
			const homeDirs = await homeDirsFor(process.uid, context.homeDir, context.passwdPath);
			return {process, config: await resolveProcessConfig(process, {homeDirs})};
		}),
	);
}

async function processTargets(context: Context): Promise<Target[]> {
	const miners = await scanMiners(context, true);
	const targets: Target[] = [];
	for (const miner of miners) targets.push(...processTargetsFor(miner, context, {quiet: false}));
	return targets;
}

function commandOf(miner: ScannedMiner, context: Context): string {
	return describeCommand(miner.process.argv.length > 0 ? miner.process.argv : [miner.process.comm ?? 'xmrig'], {
		secrets: [miner.config.settings.token, context.explicit?.token ?? null],
		maxLength: 120,
	});
}

function tokenSourceOf(miner: ScannedMiner): Source | null {
	const {config, process} = miner;
	if (!config.settings.tokenSet || config.from === null) return null;
	if (config.from.kind === 'file') return {kind: 'config-file', detail: `${config.from.path} (the config of process ${process.pid})`};
	return {kind: 'process', detail: `the command line of process ${process.pid}`};
}

/** Ports a proxy serves miners on (`bind`), which are not its API. */
function bindPorts(layers: readonly ChainLayer[]): Set<number> {
	const ports = new Set<number>();
	for (let index = layers.length - 1; index >= 0; index--) {
		const bind = layers[index]?.doc['bind'];
		if (!Array.isArray(bind)) continue;
		for (const entry of bind) {
			const text =
				typeof entry === 'string'
					? entry
					: typeof entry === 'object' && entry !== null
						? String((entry as Record<string, unknown>)['port'] ?? '')
						: '';
			const match = /(\d+)$/.exec(text);
			if (match?.[1]) ports.add(Number(match[1]));
		}
		break;
	}
	return ports;
}

/** One socket per port, preferring IPv4 (0.0.0.0 and :: on the same port are one server). */
function byPort(sockets: readonly ListeningSocket[]): Map<number, ListeningSocket> {
	const ports = new Map<number, ListeningSocket>();
	for (const socket of sockets) {
		const existing = ports.get(socket.port);
		if (!existing || (existing.family === 6 && socket.family === 4)) ports.set(socket.port, socket);
	}
	return new Map([...ports.entries()].sort(([a], [b]) => a - b));
}

function socketUrl(socket: ListeningSocket): string {
	return httpUrl(connectHost(socket.address), socket.port);
}

function shownAddress(socket: ListeningSocket): string {
	return `${socket.family === 6 ? `[${socket.address}]` : socket.address}:${socket.port}`;
}

/** The targets of one miner process, with the problems and warnings it explains. */
function processTargetsFor(miner: ScannedMiner, context: Context, options: {quiet: boolean}): Target[] {
	const {report, explicit} = context;
	const {process, config} = miner;
	const settings = config.settings;
	const who = `process ${process.pid} (${commandOf(miner, context)})`;
	const token = explicit?.token ?? (settings.tokenSet ? settings.token : null);
	const tokenSource = explicit?.source ?? tokenSourceOf(miner);
	const configSource = config.from?.kind === 'file' ? config.from.path : config.from?.kind === 'cmdline' ? 'its command line' : null;
	const configured = settings.apiEnabled && settings.port !== null && settings.port > 0 ? settings.port : null;
	const proxyPorts = bindPorts(config.layers);
	const certain = process.listening !== null;
	const ports = byPort((process.listening ?? process.listeningByOwner ?? []).filter((socket) => !proxyPorts.has(socket.port)));
	if (!options.quiet) {
		report.looked(`${who}: config ${config.files.length > 0 ? config.files.join(', ') : 'none found'}`);
		report.problem(...config.problems);
	}
	const make = (url: string, detail: string): Target => ({url, token, provenance: {url: {kind: 'process', detail}, token: tokenSource}});
	const explain = (found: boolean) => {
		const issues = settings.issues.filter((issue) => {
			if (found) return ISSUES_WHEN_REACHABLE.has(issue.kind);
			return issue.kind !== 'random-port' || !certain;
		});
		report.problem(...issues.map((issue) => issue.text));
		if (found && explicit && config.from !== null && !settings.tokenSet && settings.apiEnabled) {
			warnTokenNotExpected(
				configSource === 'its command line' ? `the command line of process ${process.pid}` : (configSource ?? who),
				report,
			);
		}
	};

	let targets: Target[] = [];
	if (certain) {
		const matching = configured === null ? undefined : ports.get(configured);
		if (matching) {
			targets = [make(socketUrl(matching), `${who}, listening on ${shownAddress(matching)}`)];
		} else if (ports.size > 0) {
			targets = [...ports.values()].map((socket) => make(socketUrl(socket), `${who}, listening on ${shownAddress(socket)}`));
			const listed = [...ports.keys()].join(', ');
			if (configured !== null) {
				report.warn(
					`${who}: its config says port ${configured}, but it listens on ${listed}; using what it listens on (the config may have changed since it started)`,
				);
			} else if (!settings.apiEnabled) {
				report.warn(`${who}: its config has the API off, yet it listens on ${listed}; trying that`);
			}
			if (ports.size > 1) report.warn(`${who} listens on several ports (${listed}); rigtop tries each — pass the address to pick one`);
		} else if (configured !== null && settings.url !== null) {
			targets = [make(settings.url, `${who}, port ${configured} from ${configSource ?? 'its config'}`)];
			report.warn(
				`${who} is not listening on port ${configured} yet: its API did not start (is the port taken by another program? ` +
					'XMRig 6.20 and later keep retrying)',
			);
		} else if (!options.quiet) {
			report.problem(`${who} does not listen on any TCP port: its HTTP API is off.`);
		}
	} else {
		report.warn(...process.notes);
		if (configured !== null && settings.url !== null) {
			targets = [make(settings.url, `${who}, port ${configured} from ${configSource ?? 'its config'}`)];
		} else if (settings.apiEnabled && ports.size === 1) {
			const [socket] = [...ports.values()];
			if (socket) {
				targets = [make(socketUrl(socket), `${who}: the only port its user listens on, ${shownAddress(socket)} (a guess)`)];
				report.warn(`${who}: rigtop cannot see its sockets, so ${shownAddress(socket)} (the only port its user listens on) is a guess`);
			}
		} else if (!options.quiet) {
			report.problem(
				`${who}: rigtop cannot tell which port its API listens on; run rigtop as the miner's user (or root), or pass the address`,
			);
		}
	}
	if (!options.quiet || targets.length > 0) explain(targets.length > 0);
	if (targets.length > 0 && !explicit && config.from === null && config.files.length === 0) {
		report.warn(
			`${who}: rigtop found no config it can read for this miner, so it knows no token; if the miner has one, pass it with --token-file or RIGTOP_TOKEN`,
		);
	}
	return targets;
}
