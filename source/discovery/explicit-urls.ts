/**
 * Strategy 1: the addresses the user gave (URL arguments, --url). The token is the one given to rigtop
 * (--token-file, RIGTOP_TOKEN, --token), else the one in --config, else — for a loopback address —
 * that of the local XMRig process listening on that port, when lending.ts allows it (its own socket there, a file
 * its owner may read).
 */
import {normalizeMinerUrl} from '../miner/target.js';
import {readMinerConfig} from './miner-config.js';
import {ISSUES_WHEN_REACHABLE, warnTokenNotExpected, type Context, type Report} from './report.js';
import {isProxyProcess} from './proc.js';
import {lendingFor, listensOn, mayListenOn, scanMiners, tokenSourceOf, type ScannedMiner} from './running-miners.js';
import {isLoopbackHost} from './token-warning.js';
import type {Source, Target} from './types.js';

/** The canonical base URL of an address the user typed; null (with the reason as a problem) when unusable. */
function parseMinerUrl(raw: string, report: Report): string | null {
	try {
		return normalizeMinerUrl(raw);
	} catch (error) {
		report.problem(error instanceof Error ? error.message : 'the miner address is not usable; use host:port');
		return null;
	}
}

export async function explicitUrlTargets(rawUrls: readonly string[], configPath: string | null, context: Context): Promise<Target[]> {
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
		let refused: string | null = null;
		let proxy = false;
		if (isLoopbackHost(url)) {
			// Only a process that may listen on one of these ports can lend its token: read the
			// config of no other (this runs on every start with a loopback URL).
			scanned ??= await scanMiners(context, false, (process) => mayListenOn(process, loopbackPorts));
			const port = portOf(url);
			// The process seen holding the port first; else one that may (its sockets hidden), which lending then judges.
			const owner =
				scanned.find((miner) => miner.process.listening?.some((socket) => socket.port === port)) ??
				scanned.find((miner) => listensOn(miner, port));
			// A local xmrig-proxy answers there: --where says so.
			proxy = owner !== undefined && isProxyProcess(owner.process);
			if (owner) {
				// Its token only if it holds that port and may read the file it comes from (lending.ts).
				const lending = lendingFor(owner, url, url.replace(/^https?:\/\//, ''), context);
				token = lending.token;
				tokenSource = token === null ? null : tokenSourceOf(owner);
				refused = lending.refused;
				if (refused !== null) report.warn(refused);
			}
		}
		targets.push({
			url,
			token,
			...(proxy ? {kind: 'proxy' as const} : {}),
			provenance: {url: urlSource, token: tokenSource},
			...(refused === null ? {} : {tokenRefused: refused, notes: [refused]}),
		});
	}
	return targets;
}

function portOf(url: string): number {
	return Number(new URL(url).port || 80);
}
