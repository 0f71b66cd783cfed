/**
 * Zero-config start: works out which miners to monitor and with which token.
 *
 * Precedence:
 * 1. Explicit settings win: URL arguments / --url, and a token from --token-file, RIGTOP_TOKEN or
 *    --token (in that order). With an explicit loopback URL and no token, the token of the local
 *    XMRig process listening on that port is used (from --config when given), if lending.ts allows it. (explicit-urls.ts)
 * 2. --config PATH: the miner's own config file (both layouts). A random port (0) is looked up from
 *    the running process that uses that file. (config-file.ts)
 * 3. Otherwise every XMRig process on this machine: its command line > its config files > the ports
 *    it really listens on (which win whenever the configured port is 0, unknown or not listened on).
 *    (running-miners.ts) Each gets the user's token or its own only as lending.ts allows: not a stranger's process.
 *
 * Nothing here prints or logs; the token never appears in warnings, problems or provenance.
 */

import {homedir} from 'node:os';
import path from 'node:path';
import {configFileTargets} from './config-file.js';
import {explicitUrlTargets} from './explicit-urls.js';
import {Report, withNotes, type Context} from './report.js';
import {processTargets} from './running-miners.js';
import {createCleartextTokenWarner} from './token-warning.js';
import {pickExplicitToken} from './token-source.js';
import type {DiscoveryInput, DiscoveryResult, Target} from './types.js';

export type {DiscoveryInput, DiscoveryResult, Source, SourceKind, Target} from './types.js';

/** Finds the miners to monitor. Never throws for anything the user or the machine can cause. */
export async function resolveTargets(input: DiscoveryInput = {}): Promise<DiscoveryResult> {
	const report = new Report();
	const context = await contextFor(input, report);
	const targets = warnCleartextTokens(withoutRepeats(await targetsByPrecedence(input, context)), report);
	return {targets, warnings: report.warnings, lookedAt: report.lookedAt, problems: report.problems};
}

/** Where to look, and the token given to rigtop (--token-file, RIGTOP_TOKEN, --token), if any. */
async function contextFor(input: DiscoveryInput, report: Report): Promise<Context> {
	const cwd = input.cwd ?? process.cwd();
	const explicit = await pickExplicitToken({tokenFile: input.tokenFile, tokenEnv: input.tokenEnv, tokenFlag: input.tokenFlag, cwd});
	report.warn(...explicit.warnings);
	report.problem(...explicit.problems);
	return {
		report,
		explicit: explicit.token,
		cwd,
		homeDir: input.homeDir ?? homedir(),
		procRoot: input.procRoot ?? '/proc',
		passwdPath: input.passwdPath ?? '/etc/passwd',
		selfPid: input.selfPid ?? process.pid,
		selfUid: input.selfUid === undefined ? (process.geteuid?.() ?? null) : input.selfUid,
	};
}

/** The first strategy that applies: the addresses given, else --config, else the running processes. */
async function targetsByPrecedence(input: DiscoveryInput, context: Context): Promise<Target[]> {
	const configPath = input.configPath === undefined ? null : path.resolve(context.cwd, input.configPath);
	const urls = input.urls ?? [];
	if (urls.length > 0) return explicitUrlTargets(urls, configPath, context);
	if (configPath !== null) {
		context.report.looked('no URL argument or --url');
		return configFileTargets(configPath, context);
	}

	context.report.looked('no URL argument or --url', 'no --config');
	return processTargets(context);
}

/** The first target for each URL (with the notes of any other found at that URL). */
function withoutRepeats(targets: readonly Target[]): Target[] {
	const unique: Target[] = [];
	for (const target of targets) {
		const first = unique.findIndex((other) => other.url === target.url);
		if (first < 0) unique.push(target);
		else unique[first] = withNotes(unique[first]!, target.notes ?? []);
	}

	return unique;
}

/** One warning per host a token would go to in clear (not loopback), noted on the first target it goes to there. */
function warnCleartextTokens(targets: readonly Target[], report: Report): Target[] {
	const warnCleartext = createCleartextTokenWarner();
	return targets.map((target) => {
		const warning = warnCleartext(target.url, target.token);
		if (!warning) return target;
		report.warn(warning);
		return withNotes(target, [warning]);
	});
}
