import path from 'node:path';
import {resolveTargets} from '../discovery/discover.js';
import type {DiscoveryResult, Source, Target} from '../discovery/types.js';
import {formatNoneFound} from '../discovery/where.js';
import {NothingToWatchError, UsageError} from './errors.js';
import {borrowedTokenOf} from '../discovery/borrowed-token.js';
import {isMinerAddress} from '../miner/target.js';
import {closestCommand} from './command-words.js';
import {createCleartextTokenWarner} from '../discovery/token-warning.js';
import {readRigsFile, readRigToken, type RigEntry} from './rigs-file.js';
import type {Session, SessionTarget} from './session.js';
import {discoveryInput, findTargets, type TargetOptions} from './targets.js';
import type {ProxySimulator, Simulator} from '../sim/simulator.js';
import type {SimSysfs} from '../sim/sysfs-tree.js';
import {jsonText} from '../text/json-out.js';

/** What a session is built from (the commands' RunPlan has it all): which miners, how to watch them, what to record. */
export type SessionPlan = TargetOptions & {
	/** The command the session is for (history records the live screens' monitors; --once records its reads). */
	readonly mode: 'live' | 'once' | 'where' | 'exporter';
	/** URLs as typed; discovery normalizes and checks them. */
	readonly urls: readonly string[];
	readonly demo: boolean;
	/** `--demo proxy`: the simulated xmrig-proxy instead of the simulated miner. */
	readonly demoProxy?: boolean;
	/** --rigs FILE: a JSON list of {name, url, tokenFile}. */
	readonly rigsFile: string | undefined;
	readonly intervalMs: number;
	/** --paused-alert: after how long a paused miner is an alert (ms; 0 never). */
	readonly pausedAlertMs: number;
	/** --temp-alert: °C, or null for each sensor's own max. */
	readonly tempAlertC?: number | null;
	/** Record polls and events in the history store (off with --no-history). */
	readonly history: boolean;
};

/**
 * Builds the session: the simulated miner for --demo, else what discovery found. Warnings go to
 * `warn` (stderr, before the dashboard takes the screen). A token file that cannot be read, or an
 * address that is not one, is bad usage; finding no miner at all is NothingToWatchError.
 */
export async function buildSession(plan: SessionPlan, warn: (line: string) => void): Promise<Session> {
	return withHistory(await buildBareSession(plan, warn), plan, warn);
}

/** The session with history recorded (source/history/attach.ts), unless --no-history; a store that fails only warns. */
async function withHistory(session: Session, plan: SessionPlan, warn: (line: string) => void): Promise<Session> {
	if (!plan.history) return session;
	try {
		const {attachHistory} = await import('../history/attach.js');
		return attachHistory(session, plan, warn);
	} catch (error) {
		warn(`history off: ${error instanceof Error ? error.message : String(error)}`);
		return session;
	}
}

async function buildBareSession(plan: SessionPlan, warn: (line: string) => void): Promise<Session> {
	// The session's code (HTTP client, monitor, simulator) loads while discovery reads files.
	const loading = import('./session.js');
	loading.catch(() => undefined); // awaited below; a failure must not go unhandled when discovery throws first
	const {targets, demo} = await resolveSessionTargets(plan, warn);
	const {createSession} = await loading;
	return createSession(targets, plan.intervalMs, demo, {pausedAlertMs: plan.pausedAlertMs, tempAlertC: plan.tempAlertC ?? null});
}

/** The simulated miner of --demo and the folder it keeps its state in (removed when the session closes). */
export type DemoMiner = {
	readonly simulator: Simulator | ProxySimulator;
	readonly stateDir: string;
	/** The simulated sysfs tree the demo's miner is read beside (sim/sysfs-tree.ts), in stateDir; none for the proxy. */
	readonly sysfs?: SimSysfs | undefined;
};

/**
 * What a session watches, without making it (rigtop exporter makes its own in a worker thread): the simulated miner
 * for --demo (started here), the rigs of --rigs, else what discovery found. Same warnings and errors as buildSession.
 */
export async function resolveSessionTargets(
	plan: SessionPlan,
	warn: (line: string) => void,
): Promise<{targets: SessionTarget[]; demo: DemoMiner | null}> {
	if (plan.demo) {
		const {startDemoMiner, startDemoProxy} = await import('./session.js');
		const {target, ...demo} = plan.demoProxy === true ? await startDemoProxy() : await startDemoMiner();
		return {targets: [target], demo};
	}

	const result = plan.rigsFile === undefined ? await findTargets(plan, plan.urls) : await rigsResult(plan, plan.rigsFile);
	if (result.targets.length === 0) throw new NothingToWatchError(formatNoneFound(result).join('\n'));
	for (const line of [...result.warnings, ...result.problems]) warn(line);
	return {
		targets: result.targets.map((target) => ({
			url: target.url,
			token: target.token,
			name: target.name,
			notes: target.notes,
			kind: target.kind,
			tokenFrom: borrowedTokenOf(target) ?? undefined,
			tokenRefused: target.tokenRefused,
		})),
		demo: null,
	};
}

/** A target's kind, where one is known. */
function kindOf(kind: 'miner' | 'proxy' | undefined): {readonly kind?: 'miner' | 'proxy'} {
	return kind === undefined ? {} : {kind};
}

/**
 * What `rigtop --where` reports: the miners a session with these options watches (the rigs of --rigs and any URL
 * given with them; else the addresses given, --config or the running processes), each with where it and its token
 * came from. A rigs file (or a rig's token file) that cannot be used is bad usage, as when watching.
 */
export async function whereResult(plan: SessionPlan): Promise<DiscoveryResult> {
	if (plan.rigsFile !== undefined) return rigsResult(plan, plan.rigsFile);
	return resolveTargets(discoveryInput(plan, plan.urls));
}

/**
 * The rigs of the file that the words name (a rig's name, as the file gives it: every command that takes an address
 * takes it), in the file's order, and the other words, which are addresses; every rig when no word is a name. A word
 * is matched against the names first, so a rig named `3` or `x:1` is that rig, not an address. A word that is neither
 * a rig's name nor an address is bad usage, saying the names there are.
 */
export function namedRigs(
	rigs: readonly RigEntry[],
	words: readonly string[],
	file: string,
): {readonly rigs: readonly RigEntry[]; readonly urls: readonly string[]} {
	const isName = (word: string) => rigs.some((rig) => rig.name === word);
	const names = words.filter(isName);
	const urls = words.filter((word) => !isName(word));
	for (const word of urls) {
		if (isMinerAddress(word)) continue;
		const known = rigs.flatMap((rig) => (rig.name === undefined ? [] : [jsonText(rig.name)]));
		const shown = known.length <= 12 ? known.join(', ') : `${known.slice(0, 12).join(', ')} and ${known.length - 12} more`;
		const listed = known.length === 0 ? 'it names no rig' : `its rigs are ${shown}`;
		const command = closestCommand(word);
		const typo = command === null ? '' : ` (or did you mean 'rigtop ${command}'?)`;
		throw new UsageError(`${jsonText(word.slice(0, 60))} is no address (host:port) and no rig of --rigs ${file}: ${listed}${typo}`);
	}

	if (names.length === 0) return {rigs, urls};
	return {rigs: rigs.filter((rig) => rig.name !== undefined && names.includes(rig.name)), urls};
}

/**
 * The miners of --rigs, in the file's order (those named on the command line, when a word names one: namedRigs), then
 * any URL also given on the command line. A rig
 * with a tokenFile uses that token; the others (and the URLs) go through discovery like URL
 * arguments: the token given to rigtop, else that of the local miner listening on the port.
 */
async function rigsResult(plan: SessionPlan, rigsFile: string): Promise<DiscoveryResult> {
	const file = path.resolve(rigsFile);
	const {rigs, urls} = namedRigs(await readRigsFile(rigsFile), plan.urls, file);
	const warnings: string[] = [];
	const problems: string[] = [];
	const own = new Map<RigEntry, string | null>();
	// What is found about one rig (its token file, its token going out in clear) is noted on it too.
	const notes = new Map<RigEntry, string[]>();
	const note = (rig: RigEntry, line: string) => {
		notes.set(rig, [...(notes.get(rig) ?? []), line]);
		warnings.push(line);
	};

	for (const rig of rigs) if (rig.tokenFile !== undefined) own.set(rig, await readRigToken(rig, (line) => note(rig, line)));
	const rest = [...rigs.filter((rig) => rig.tokenFile === undefined).map((rig) => rig.url), ...urls];
	const found = new Map<string, Target>();
	if (rest.length > 0) {
		const result = await findTargets(plan, rest);
		warnings.push(...result.warnings);
		problems.push(...result.problems);
		for (const target of result.targets) found.set(target.url, target);
	}

	const warnCleartext = createCleartextTokenWarner();
	const targets: Target[] = rigs.map((rig, index) => {
		const discovered = found.get(rig.url);
		const token = own.has(rig) ? (own.get(rig) ?? null) : (discovered?.token ?? null);
		if (own.has(rig)) {
			const warning = warnCleartext(rig.url, token);
			if (warning) note(rig, warning);
		}

		const tokenSource: Source | null = own.has(rig) && token !== null ? {kind: 'rigs-file', detail: `tokenFile ${rig.tokenFile}`} : null;
		const rigNotes = [...(discovered?.notes ?? []), ...(notes.get(rig) ?? [])];
		return {
			url: rig.url,
			token,
			...(rig.name === undefined ? {} : {name: rig.name}),
			// The file's word, else what discovery found (a local xmrig-proxy process).
			...kindOf(rig.kind ?? discovered?.kind),
			provenance: {
				url: {kind: 'rigs-file', detail: `--rigs ${file}, rig ${index + 1}`},
				token: tokenSource ?? discovered?.provenance.token ?? null,
			},
			...(rigNotes.length > 0 ? {notes: rigNotes} : {}),
			...(own.has(rig) || discovered?.tokenRefused === undefined ? {} : {tokenRefused: discovered.tokenRefused}),
		};
	});
	for (const [url, target] of found) if (!targets.some((other) => other.url === url)) targets.push(target);
	return {targets, warnings, problems, lookedAt: [`--rigs ${file}`]};
}
