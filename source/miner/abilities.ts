/**
 * What a miner lets rigtop do besides reading its status, from what it says about itself (version,
 * dialect, kind, `restricted`) and whether rigtop has its token — so the screens offer only what can work
 * and say why the rest cannot, in one line, before anything is sent. The facts (docs: the research notes
 * on XMRig's HTTP API):
 * - `POST /json_rpc` pause and resume exist from XMRig 2.99.6-beta; never in 2.x before that or in the
 *   2.x GPU miners (XMRig-NVIDIA, XMRig-AMD); xmrig-proxy has the endpoint but no methods.
 * - `GET /1/config` exists from 2.6.0-beta1 (2.4 and 2.5 answer every path with the summary); in xmrig-proxy
 *   from 2.5.0 (its CHANGELOG), GET and PUT as on the miner.
 * - Both are refused (403) while the miner is restricted (`http.restricted`, or `api.restricted` before
 *   2.15.1), and a miner is always restricted without an access token (2.x treats a missing token as
 *   restricted; 2.15.1+ refuses everything when unrestricted without one): without the token rigtop can
 *   read the status and nothing else.
 */
import type {MinerSnapshot} from './model.js';

/** Why a capability is missing (one line), or null when the miner offers it. */
export type Refusal = string | null;

/** "XMRig 2.14.4", "XMRig-NVIDIA 2.14.5", "xmrig-proxy 6.26.0" (the program's own name): the miner by its product name and version. */
export function minerProduct(snapshot: Pick<MinerSnapshot, 'kind' | 'version'>): string {
	const {kind, version} = snapshot;
	const product = kind === 'nvidia' ? 'XMRig-NVIDIA' : kind === 'amd' ? 'XMRig-AMD' : kind === 'proxy' ? 'xmrig-proxy' : 'XMRig';
	return version === null ? product : `${product} ${version}`;
}

function versionAtLeast(version: string | null, minimum: readonly [number, number, number]): boolean | null {
	const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version ?? '');
	if (!match) return null;
	const parts = match.slice(1).map(Number);
	for (let index = 0; index < 3; index++) {
		const have = parts[index] ?? 0;
		const want = minimum[index] ?? 0;
		if (have !== want) return have > want;
	}

	return true;
}

/**
 * The config key that restricts the API on this miner ("http.restricted", or "api.restricted" before 2.15.1; in
 * xmrig-proxy before 3.0, whose API settings changed in v3: xmrig-proxy#345).
 */
function restrictedKey(snapshot: Pick<MinerSnapshot, 'kind' | 'version'>): string {
	const httpSince: readonly [number, number, number] = snapshot.kind === 'proxy' ? [3, 0, 0] : [2, 15, 1];
	return versionAtLeast(snapshot.version, httpSince) === false ? 'api.restricted' : 'http.restricted';
}

/** What rigtop knows besides the snapshot. */
export type AbilityContext = {
	/** Whether rigtop sends an access token to this miner. */
	readonly tokenGiven: boolean;
};

/** What the abilities are read from: what the miner says it is. */
export type AbilityFacts = Pick<MinerSnapshot, 'kind' | 'version' | 'dialect' | 'restricted'>;

/** The refusal every write through the API shares: restricted mode, or no token. */
function apiWritesRefused(snapshot: AbilityFacts, context: AbilityContext, doing: string): Refusal {
	if (snapshot.restricted === true) return `the miner's API is restricted: ${doing} needs ${restrictedKey(snapshot)} false and a token`;
	if (!context.tokenGiven) return `${doing} needs the miner's access token: --token-file or RIGTOP_TOKEN`;
	return null;
}

/** Whether pause and resume (`POST /json_rpc`) can work on this miner. */
export function controlRefusal(snapshot: AbilityFacts, context: AbilityContext): Refusal {
	const product = minerProduct(snapshot);
	if (snapshot.kind === 'proxy') return `${product} has no pause or resume in its API (its JSON-RPC has no methods)`;
	const gpuFork = snapshot.kind === 'nvidia' || snapshot.kind === 'amd';
	const v1 = snapshot.dialect === 'v1' || snapshot.dialect === 'v1-summary-only';
	if (gpuFork || v1 || versionAtLeast(snapshot.version, [2, 99, 6]) === false) {
		return `${product} has no pause or resume in its API (they came in XMRig 2.99.6)`;
	}

	return apiWritesRefused(snapshot, context, 'pausing');
}

/** Whether the config can be read (and so viewed and changed) through the API. */
export function configRefusal(snapshot: AbilityFacts, context: AbilityContext): Refusal {
	if (snapshot.kind === 'proxy') {
		if (versionAtLeast(snapshot.version, [2, 5, 0]) === false) {
			return `${minerProduct(snapshot)} has no config in its API (that came in xmrig-proxy 2.5)`;
		}

		return apiWritesRefused(snapshot, context, 'reading its config');
	}

	if (snapshot.dialect === 'v1-summary-only' || versionAtLeast(snapshot.version, [2, 6, 0]) === false) {
		return `${minerProduct(snapshot)} has no config in its API (that came in XMRig 2.6)`;
	}

	return apiWritesRefused(snapshot, context, 'reading its config');
}
