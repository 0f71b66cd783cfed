/**
 * Strategy 2: --config PATH, the miner's own config file (both layouts). A random port (0) is looked
 * up from the running process that uses that file.
 */
import {realpath} from 'node:fs/promises';
import {readMinerConfig, type ConfigIssueKind} from './miner-config.js';
import {ISSUES_WHEN_REACHABLE, Report, warnTokenNotExpected, type Context} from './report.js';
import {compareAddresses, processTargetsFor, scanMiners} from './running-miners.js';
import type {Source, Target} from './types.js';

/** The miner of --config; what is found about that file is about that miner: its targets carry it as notes too. */
export async function configFileTargets(configPath: string, context: Context): Promise<Target[]> {
	const {explicit} = context;
	const report = new Report();
	return context.report.adopt(report, await targetsOf(configPath, context, report, explicit));
}

async function targetsOf(configPath: string, context: Context, report: Report, explicit: Context['explicit']): Promise<Target[]> {
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
			// A process found, not named: what was refused to it (not its user's, not its port) stays refused (lending.ts).
			if (target.tokenRefused !== undefined) targets.push(target);
			else targets.push({...target, token, provenance: {url: target.provenance.url, token: tokenSource}});
		}
	}
	const remaining = settings.issues.filter((issue) => issue.kind !== 'random-port' || targets.length === 0);
	report.problem(...remaining.filter((issue) => targets.length === 0 || ISSUES_WHEN_REACHABLE.has(issue.kind)).map((issue) => issue.text));
	if (targets.length === 0) report.problem(`no running XMRig process on this machine that rigtop may inspect uses ${configPath}`);
	return targets.sort((a, b) => compareAddresses(a.url, b.url));
}
