/**
 * Strategy 3, and what the others borrow from it: the XMRig processes running on this machine, each
 * with the config it runs with (command line > config files) and the ports it really listens on,
 * which win whenever the configured port is 0, unknown or not listened on.
 */
import {readFile} from 'node:fs/promises';
import {cleanText} from '../text/clean.js';
import {connectHost, httpUrl} from './address.js';
import {describeCommand} from './cmdline.js';
import {homeDirsFor} from './home-dirs.js';
import {judgeLending, mayReadFile, userNameOf, type Lending} from './lending.js';
import {resolveProcessConfig, type ChainLayer, type ProcessConfig} from './process-config.js';
import {isProxyProcess, scanXmrigProcesses, type ListeningSocket, type ProcProcess, type ProcScan, type TcpRow} from './proc.js';
import {ISSUES_WHEN_REACHABLE, Report, warnTokenNotExpected, type Context} from './report.js';
import type {Source, Target} from './types.js';

export type ScannedMiner = {
	readonly process: ProcProcess;
	readonly config: ProcessConfig;
	/** Whether the process's owner may read the config file its token comes from (lending.ts); false when unknown. */
	readonly ownerReads: boolean;
	/** Its owner as said in messages: `user bob`, else `uid 1234`. */
	readonly ownerName: string;
	/** The LISTEN sockets where rigtop's connections go (its own network namespace); null when not known. */
	readonly reached: readonly TcpRow[] | null;
};

/** The XMRig processes (those `keep` accepts, when given) with their configs, read in parallel, in scan order. */
export async function scanMiners(context: Context, describe: boolean, keep?: (process: ProcProcess) => boolean): Promise<ScannedMiner[]> {
	const scan: ProcScan = await scanXmrigProcesses({procRoot: context.procRoot, selfPid: context.selfPid});
	if (describe) {
		if (!scan.available) context.report.looked(`no ${context.procRoot} here (finding running miners works on Linux only)`);
		else if (scan.processes.length === 0) context.report.looked(`${scan.scanned} processes in ${context.procRoot}, none of them XMRig`);
	}
	const processes = keep ? scan.processes.filter(keep) : scan.processes;
	const passwd = processes.length === 0 ? null : await readFile(context.passwdPath, 'utf8').catch(() => null);
	return Promise.all(
		processes.map(async (process) => {
			const homeDirs = await homeDirsFor(process.uid, context.homeDir, context.passwdPath);
			const config = await resolveProcessConfig(process, {homeDirs});
			const from = config.from;
			const ownerReads = from?.kind === 'file' && process.credentials !== null && (await mayReadFile(process.credentials, from.path));
			const owner = process.credentials?.euid ?? process.uid;
			const ownerName = owner === null ? 'an unknown user' : userNameOf(passwd, owner);
			return {process, config, ownerReads, ownerName, reached: scan.ownListenRows};
		}),
	);
}

/** What a process found by discovery may be sent at `url` (lending.ts): the user's token, its own, or none and why. */
export function lendingFor(
	miner: ScannedMiner,
	url: string,
	shownPort: string,
	context: Context,
): Lending & {readonly token: string | null} {
	const {settings, from} = miner.config;
	// The port the URL connects to (the URL class drops a default one: http://127.0.0.1:80 has none written).
	const {host} = addressParts(url);
	const port = addressParts(url).port || (url.startsWith('https:') ? 443 : 80);
	const own =
		!settings.tokenSet || settings.token === null || from === null
			? null
			: from.kind === 'cmdline'
				? {token: settings.token, from: 'cmdline' as const}
				: {token: settings.token, from: 'file' as const, path: cleanText(from.path, 160), ownerReads: miner.ownerReads};
	const lending = judgeLending({
		process: miner.process,
		port,
		host,
		reached: miner.reached,
		explicit: context.explicit?.token ?? null,
		own,
		selfUid: context.selfUid,
		ownerName: miner.ownerName,
		shownPort,
	});
	const token = lending.send === 'explicit' ? (context.explicit?.token ?? null) : lending.send === 'own' ? (own?.token ?? null) : null;
	return {...lending, token};
}

/** The miners running here, by address (host, then port as a number), not in the process table's order. */
export async function processTargets(context: Context): Promise<Target[]> {
	const miners = await scanMiners(context, true);
	const targets: Target[] = [];
	for (const miner of miners) targets.push(...processTargetsFor(miner, context, {quiet: false}));
	return targets.sort((a, b) => compareAddresses(a.url, b.url));
}

/** The host and port of a base URL ("[::1]" kept bracketed); the port as a number, 0 when none is written. */
function addressParts(url: string): {readonly host: string; readonly port: number} {
	try {
		const parsed = new URL(url);
		return {host: parsed.hostname, port: Number(parsed.port || 0)};
	} catch {
		return {host: url, port: 0};
	}
}

/** An IPv4 address as one number (10.0.0.9 before 10.0.0.10), null for anything else. */
function ipv4Number(host: string): number | null {
	const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	return parts ? parts.slice(1).reduce((value, part) => value * 256 + Number(part), 0) : null;
}

/** Addresses in order: by host (IPv4 by number, first; then names and IPv6 as text), then by port as a number. */
export function compareAddresses(a: string, b: string): number {
	const left = addressParts(a);
	const right = addressParts(b);
	if (left.host !== right.host) {
		const [l, r] = [ipv4Number(left.host), ipv4Number(right.host)];
		if (l !== null && r !== null) return l - r;
		if (l !== null || r !== null) return l !== null ? -1 : 1;
		return left.host < right.host ? -1 : 1;
	}

	return left.port - right.port;
}

function commandOf(miner: ScannedMiner, context: Context): string {
	return describeCommand(miner.process.argv.length > 0 ? miner.process.argv : [miner.process.comm ?? 'xmrig'], {
		secrets: [miner.config.settings.token, context.explicit?.token ?? null],
		maxLength: 120,
	});
}

export function tokenSourceOf(miner: ScannedMiner): Source | null {
	const {config, process} = miner;
	if (!config.settings.tokenSet || config.from === null) return null;
	// The path is another process's command line's: shown on one line, without its control characters.
	if (config.from.kind === 'file')
		return {kind: 'config-file', detail: `${cleanText(config.from.path, 160)} (the config of process ${process.pid})`, borrowed: true};
	return {kind: 'process', detail: `the command line of process ${process.pid}`, borrowed: true};
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

/**
 * The targets of one miner process, with the problems and warnings it explains: in the context's report, and as the
 * notes of its targets (they are about this miner, and are shown under it).
 */
export function processTargetsFor(miner: ScannedMiner, context: Context, options: {quiet: boolean}): Target[] {
	const {explicit} = context;
	const report = new Report();
	const {process, config} = miner;
	const settings = config.settings;
	const who = `process ${process.pid} (${commandOf(miner, context)})`;
	const configSource = config.from?.kind === 'file' ? config.from.path : config.from?.kind === 'cmdline' ? 'its command line' : null;
	const configured = settings.apiEnabled && settings.port !== null && settings.port > 0 ? settings.port : null;
	const proxyPorts = bindPorts(config.layers);
	const certain = process.listening !== null;
	const ports = byPort((process.listening ?? process.listeningByOwner ?? []).filter((socket) => !proxyPorts.has(socket.port)));
	if (!options.quiet) {
		report.looked(`${who}: config ${config.files.length > 0 ? config.files.join(', ') : 'none found'}`);
		report.problem(...config.problems);
	}
	const proxy = isProxyProcess(process);
	let sendsExplicit = false;
	const make = (url: string, detail: string): Target => {
		const lending = lendingFor(miner, url, `:${addressParts(url).port || 80}`, context);
		if (lending.refused !== null) report.warn(lending.refused);
		if (lending.send === 'explicit') sendsExplicit = true;
		const tokenSource = lending.send === 'explicit' ? (explicit?.source ?? null) : lending.send === 'own' ? tokenSourceOf(miner) : null;
		return {
			url,
			token: lending.token,
			...(proxy ? {kind: 'proxy' as const} : {}),
			// The detail quotes the process's command line and config path: cleaned like the report's lines.
			provenance: {url: {kind: 'process', detail: cleanText(detail, 1000)}, token: tokenSource},
			...(lending.refused === null ? {} : {tokenRefused: lending.refused}),
		};
	};
	const explain = (found: boolean) => {
		const issues = settings.issues.filter((issue) => {
			if (found) return ISSUES_WHEN_REACHABLE.has(issue.kind);
			return issue.kind !== 'random-port' || !certain;
		});
		report.problem(...issues.map((issue) => issue.text));
		// Only when the user's token goes there: one refused (lending.ts) cannot get a 401 for being sent.
		if (found && sendsExplicit && config.from !== null && !settings.tokenSet && settings.apiEnabled) {
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
	return context.report.adopt(report, targets);
}

/** Whether listensOn() can hold for this process and one of `ports` (its sockets, when seen, decide). */
export function mayListenOn(process: ProcProcess, ports: ReadonlySet<number>): boolean {
	return process.listening === null || process.listening.some((socket) => ports.has(socket.port));
}

export function listensOn(miner: ScannedMiner, port: number): boolean {
	const sockets = miner.process.listening ?? miner.process.listeningByOwner;
	if (sockets?.some((socket) => socket.port === port)) return true;
	return miner.process.listening === null && miner.config.settings.apiEnabled && miner.config.settings.port === port;
}
