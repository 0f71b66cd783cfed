/**
 * From what the user said (URLs, --token-file, RIGTOP_TOKEN, --token, --config) to the miners to talk
 * to: the one place the dashboard, --once, --where, --rigs and `rigtop config` hand it to discovery.
 */
import {resolveTargets} from '../discovery/discover.js';
import type {DiscoveryInput, DiscoveryResult} from '../discovery/types.js';
import {UsageError} from './errors.js';

/** The options that say which miner and which token (a RunPlan has them, and so does `rigtop config`). */
export type TargetOptions = {
	readonly tokenFile: string | undefined;
	/** The value of RIGTOP_TOKEN. */
	readonly tokenEnv: string | undefined;
	readonly tokenFlag: string | undefined;
	/** --config: the miner's own config file. */
	readonly configPath: string | undefined;
};

/** Where discovery looks on this machine (the process table, home, passwd), for tests. */
export type DiscoveryPlaces = Pick<DiscoveryInput, 'procRoot' | 'homeDir' | 'cwd' | 'passwdPath' | 'selfPid'>;

export function discoveryInput(options: TargetOptions, urls: readonly string[], places: DiscoveryPlaces = {}): DiscoveryInput {
	return {
		urls,
		...(options.tokenFile === undefined ? {} : {tokenFile: options.tokenFile}),
		...(options.tokenEnv === undefined ? {} : {tokenEnv: options.tokenEnv}),
		...(options.tokenFlag === undefined ? {} : {tokenFlag: options.tokenFlag}),
		...(options.configPath === undefined ? {} : {configPath: options.configPath}),
		...places,
	};
}

/**
 * The miners at these URLs (with none: --config, else the XMRig processes on this machine), with their
 * tokens. A --token-file that cannot be read is the user's typo, not something to carry on without:
 * UsageError. Everything else discovery has to say is in the result.
 */
export async function findTargets(options: TargetOptions, urls: readonly string[], places: DiscoveryPlaces = {}): Promise<DiscoveryResult> {
	const result = await resolveTargets(discoveryInput(options, urls, places));
	const tokenFileProblem =
		options.tokenFile === undefined ? undefined : result.problems.find((problem) => problem.includes('--token-file'));
	if (tokenFileProblem) throw new UsageError(tokenFileProblem);
	return result;
}
