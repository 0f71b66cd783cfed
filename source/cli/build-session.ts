import {formatNoneFound} from '../discovery/where.js';
import {NothingToWatchError} from './errors.js';
import type {RunPlan} from './options.js';
import {createCleartextTokenWarner} from '../discovery/token-warning.js';
import {readRigsFile, readRigToken, type RigEntry} from './rigs-file.js';
import type {Session, SessionTarget} from './session.js';
import {findTargets} from './targets.js';
import type {Simulator} from '../sim/simulator.js';

/**
 * Builds the session: the simulated miner for --demo, else what discovery found. Warnings go to
 * `warn` (stderr, before the dashboard takes the screen). A token file that cannot be read, or an
 * address that is not one, is bad usage; finding no miner at all is NothingToWatchError.
 */
export async function buildSession(plan: RunPlan, warn: (line: string) => void): Promise<Session> {
	return withHistory(await buildBareSession(plan, warn), plan, warn);
}

/** The session with history recorded (source/history/attach.ts), unless --no-history; a store that fails only warns. */
async function withHistory(session: Session, plan: RunPlan, warn: (line: string) => void): Promise<Session> {
	if (!plan.history) return session;
	try {
		const {attachHistory} = await import('../history/attach.js');
		return attachHistory(session, plan, warn);
	} catch (error) {
		warn(`history off: ${error instanceof Error ? error.message : String(error)}`);
		return session;
	}
}

async function buildBareSession(plan: RunPlan, warn: (line: string) => void): Promise<Session> {
	// The session's code (HTTP client, monitor, simulator) loads while discovery reads files.
	const loading = import('./session.js');
	loading.catch(() => undefined); // awaited below; a failure must not go unhandled when discovery throws first
	const {targets, demo} = await resolveSessionTargets(plan, warn);
	const {createSession} = await loading;
	return createSession(targets, plan.intervalMs, demo, {pausedAlertMs: plan.pausedAlertMs});
}

/** The simulated miner of --demo and the folder it keeps its state in (removed when the session closes). */
export type DemoMiner = {readonly simulator: Simulator; readonly stateDir: string};

/**
 * What a session watches, without making it (rigtop exporter makes its own in a worker thread): the simulated miner
 * for --demo (started here), the rigs of --rigs, else what discovery found. Same warnings and errors as buildSession.
 */
export async function resolveSessionTargets(
	plan: RunPlan,
	warn: (line: string) => void,
): Promise<{targets: SessionTarget[]; demo: DemoMiner | null}> {
	if (plan.demo) {
		const {startDemoMiner} = await import('./session.js');
		const {simulator, target, stateDir} = await startDemoMiner();
		return {targets: [target], demo: {simulator, stateDir}};
	}

	if (plan.rigsFile !== undefined) return {targets: await rigsTargets(plan, plan.rigsFile, warn), demo: null};
	const result = await findTargets(plan, plan.urls);
	if (result.targets.length === 0) throw new NothingToWatchError(formatNoneFound(result).join('\n'));
	for (const line of [...result.warnings, ...result.problems]) warn(line);
	return {
		targets: result.targets.map((target) => ({url: target.url, token: target.token, name: target.name, notes: target.notes})),
		demo: null,
	};
}

/**
 * The targets of --rigs, in the file's order, then any URL also given on the command line. A rig
 * with a tokenFile uses that token; the others (and the URLs) go through discovery like URL
 * arguments: the token given to rigtop, else that of the local miner listening on the port.
 */
async function rigsTargets(plan: RunPlan, rigsFile: string, warn: (line: string) => void): Promise<SessionTarget[]> {
	const rigs = await readRigsFile(rigsFile);
	const own = new Map<RigEntry, string | null>();
	// What is found about one rig (its token file, its token going out in clear) is noted on it too.
	const notes = new Map<RigEntry, string[]>();
	const note = (rig: RigEntry, line: string) => {
		notes.set(rig, [...(notes.get(rig) ?? []), line]);
		warn(line);
	};

	for (const rig of rigs) if (rig.tokenFile !== undefined) own.set(rig, await readRigToken(rig, (line) => note(rig, line)));
	const rest = [...rigs.filter((rig) => rig.tokenFile === undefined).map((rig) => rig.url), ...plan.urls];
	const found = new Map<string, {token: string | null; notes: readonly string[] | undefined}>();
	if (rest.length > 0) {
		const result = await findTargets(plan, rest);
		for (const line of [...result.warnings, ...result.problems]) warn(line);
		for (const target of result.targets) found.set(target.url, {token: target.token, notes: target.notes});
	}

	const warnCleartext = createCleartextTokenWarner();
	const targets: SessionTarget[] = [];
	for (const rig of rigs) {
		const token = own.has(rig) ? (own.get(rig) ?? null) : (found.get(rig.url)?.token ?? null);
		if (own.has(rig)) {
			const warning = warnCleartext(rig.url, token);
			if (warning) note(rig, warning);
		}

		const rigNotes = [...(found.get(rig.url)?.notes ?? []), ...(notes.get(rig) ?? [])];
		targets.push({url: rig.url, token, name: rig.name, ...(rigNotes.length > 0 ? {notes: rigNotes} : {})});
	}

	for (const [url, {token, notes: urlNotes}] of found) {
		if (!targets.some((target) => target.url === url)) targets.push({url, token, notes: urlNotes});
	}

	return targets;
}
