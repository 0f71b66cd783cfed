import {resolveTargets} from '../discovery/discover.js';
import type {DiscoveryResult} from '../discovery/types.js';
import {formatNoneFound} from '../discovery/where.js';
import {UsageError} from '../miner/target.js';
import type {RunPlan} from './options.js';
import {createSession, startDemoMiner, type Session} from './session.js';

/** Thrown when there is nothing to watch; the message is the whole multi-line explanation. */
export class NothingToWatchError extends Error {
	override readonly name = 'NothingToWatchError';
}

/** Finds what to watch: explicit URLs and tokens, else --config, else the XMRig processes on this machine. */
export async function discover(plan: RunPlan): Promise<DiscoveryResult> {
	return resolveTargets({
		urls: plan.urls,
		...(plan.tokenFile === undefined ? {} : {tokenFile: plan.tokenFile}),
		...(plan.tokenEnv === undefined ? {} : {tokenEnv: plan.tokenEnv}),
		...(plan.tokenFlag === undefined ? {} : {tokenFlag: plan.tokenFlag}),
		...(plan.configPath === undefined ? {} : {configPath: plan.configPath}),
	});
}

/**
 * Builds the session: the simulated miner for --demo, else what discovery found. Warnings go to
 * `warn` (stderr, before the dashboard takes the screen). A token file that cannot be read, or an
 * address that is not one, is bad usage; finding no miner at all is NothingToWatchError.
 */
export async function buildSession(plan: RunPlan, warn: (line: string) => void): Promise<Session> {
	if (plan.demo) {
		const {simulator, target} = await startDemoMiner();
		return createSession([target], plan.intervalMs, simulator);
	}

	const result = await discover(plan);
	// A token file that cannot be read is the user's typo, not something to carry on without.
	const tokenFileProblem = plan.tokenFile === undefined ? undefined : result.problems.find((problem) => problem.includes('--token-file'));
	if (tokenFileProblem) throw new UsageError(tokenFileProblem);
	if (result.targets.length === 0) throw new NothingToWatchError(formatNoneFound(result).join('\n'));
	for (const line of [...result.warnings, ...result.problems]) warn(line);
	return createSession(
		result.targets.map((target) => ({url: target.url, token: target.token, name: target.name})),
		plan.intervalMs,
	);
}
