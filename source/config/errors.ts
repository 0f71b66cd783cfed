/**
 * What went wrong reading or writing a miner's config, and the fix, in plain words. Maps MinerError
 * (by kind/status, never by reason text) and the config engine's own failures. A 403 means either a
 * wrong token or restricted mode; the two are told apart by whether a summary read works.
 */
import {isMinerError} from '../miner/errors.js';
import type {MinerError} from '../miner/errors.js';
import {BackupError} from './backups.js';
import {ConfigParseError} from './document.js';
import {SECRET_MASK, SUMMARY_ENDPOINT} from './types.js';
import type {ConfigClient, JsonValue} from './types.js';

/** Which config layout the miner has: `http` (2.15.1+) or the single `api` section (before 2.15). */
export type ApiLayout = 'http' | 'api';

export type ConfigProblemKind =
	| 'unauthorized'
	| 'wrong-token'
	| 'restricted'
	| 'forbidden'
	| 'unsupported-media-type'
	| 'rejected'
	| 'unreachable'
	| 'timeout'
	| 'backup'
	| 'not-json'
	/** A batch was cancelled before this rig's PUT (source/batch/). */
	| 'cancelled'
	| 'other';

export type ConfigProblem = {
	readonly kind: ConfigProblemKind;
	/** What happened. */
	readonly message: string;
	/** What to do about it. */
	readonly fix: string;
	/** Extra text safe to show, e.g. the miner's own 400 message. */
	readonly detail: string | null;
};

export type ProblemContext = {
	/** Reading the config (GET) or changing it (PUT). */
	readonly operation: 'read' | 'write';
	readonly layout?: ApiLayout | null;
	/** For a 403: whether a summary read with the same token works (yes → restricted mode; no → wrong token). */
	readonly summaryReadable?: boolean | null;
	/** Whether rigtop sent a token. */
	readonly tokenGiven?: boolean | null;
	/** What was being done, for the message ("pause it"); default "read its config" or "change its config". */
	readonly doing?: string;
};

/** The config layout a document has, or null when it has neither API section. */
export function layoutOf(config: JsonValue | undefined): ApiLayout | null {
	if (config === null || typeof config !== 'object' || Array.isArray(config)) return null;
	const object = config as {readonly [key: string]: JsonValue};
	if (Object.hasOwn(object, 'http')) return 'http';
	const api = object['api'];
	if (api && typeof api === 'object' && !Array.isArray(api) && ('port' in api || 'access-token' in api || 'restricted' in api))
		return 'api';
	return null;
}

/** The config layout of a miner version: the `http` section arrived in 2.15.1. Null when the version does not parse. */
export function layoutForVersion(version: string | null | undefined): ApiLayout | null {
	const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version ?? '');
	if (!match) return null;
	const [major, minor, patch] = match.slice(1).map(Number) as [number, number, number];
	if (major !== 2) return major > 2 ? 'http' : 'api';
	if (minor !== 15) return minor > 15 ? 'http' : 'api';
	return patch >= 1 ? 'http' : 'api';
}

function key(layout: ApiLayout | null | undefined, name: 'restricted' | 'access-token'): string {
	if (layout === 'api') return `api.${name}`;
	if (layout === 'http') return `http.${name}`;
	return `http.${name} (api.${name} on miners before 2.15)`;
}

/**
 * Replaces any of the given secret values found in a text with the mask. Values shorter than 4
 * characters are left alone (a pool pass "x" is no secret, and masking it would garble words).
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
	let clean = text;
	for (const secret of secrets) if (secret.length >= 4) clean = clean.split(secret).join(SECRET_MASK);
	return clean;
}

/** A problem as one line: "what happened (detail) — fix". */
export function problemLine(problem: ConfigProblem): string {
	return `${problemText(problem)} — ${problem.fix}`;
}

/** What went wrong without the fix, for a place that shows the fix on a line of its own ("fix: …"). */
export function problemText(problem: ConfigProblem): string {
	const detail = problem.detail ? ` (${problem.detail})` : '';
	return `${problem.message}${detail}`;
}

/** Maps an error from reading or writing the config to a plain-words problem (no network calls). */
export function describeConfigError(error: unknown, context: ProblemContext): ConfigProblem {
	const {operation} = context;
	const doing = context.doing ?? (operation === 'read' ? 'read its config' : 'change its config');
	if (error instanceof BackupError) {
		return {kind: 'backup', message: error.message, fix: 'nothing was sent to the miner; its config is unchanged', detail: null};
	}

	if (error instanceof ConfigParseError) {
		return {
			kind: 'not-json',
			message: `the miner's config could not be read: ${error.message}`,
			fix: 'check that the address is an XMRig miner; nothing was changed',
			detail: null,
		};
	}

	if (!isMinerError(error)) {
		const text = error instanceof Error ? error.message : String(error);
		return {kind: 'other', message: `could not ${doing}: ${text}`, fix: 'try again; nothing else is known', detail: null};
	}

	return describeMinerError(error, context, doing);
}

function describeMinerError(error: MinerError, context: ProblemContext, doing: string): ConfigProblem {
	const {layout, tokenGiven, summaryReadable, operation} = context;
	const token = key(layout, 'access-token');
	switch (error.kind) {
		case 'unauthorized': {
			let fix: string;
			if (tokenGiven === true) {
				fix =
					`the miner has no access token set, so it refuses requests that carry one: set ${token} in the miner's config ` +
					'(restricted mode off needs one), or drop the token you gave';
			} else if (tokenGiven === false) {
				fix = `the miner wants its access token: pass the value of ${token} with --token-file or RIGTOP_TOKEN`;
			} else {
				fix =
					`either the miner wants its access token (the value of ${token}: pass it with --token-file or RIGTOP_TOKEN), ` +
					"or it has none set and refuses a request that carries one (drop the token, or set one in the miner's config)";
			}

			return {kind: 'unauthorized', message: `the miner refused to let rigtop ${doing} (401)`, fix, detail: null};
		}

		case 'forbidden': {
			const restricted = key(layout, 'restricted');
			if (summaryReadable === true) {
				return {
					kind: 'restricted',
					message: `the miner is in restricted mode: it shows its status but does not let anyone ${doing} through the API (403)`,
					fix: `set ${restricted} to false in the miner's config file (with ${token} set to a token) and restart the miner`,
					detail: null,
				};
			}

			if (summaryReadable === false) {
				return {
					kind: 'wrong-token',
					message: `the miner refused rigtop's token (403)`,
					fix: `use the value of ${token} from the miner's config (with --token-file or RIGTOP_TOKEN)`,
					detail: null,
				};
			}

			return {
				kind: 'forbidden',
				message: `the miner refused to let rigtop ${doing} (403)`,
				fix: `either the token is wrong (use the value of ${token}) or the miner is in restricted mode (set ${restricted} to false in its config and restart it)`,
				detail: null,
			};
		}

		case 'unsupported-media-type':
			return {
				kind: 'unsupported-media-type',
				message: `the miner refused the request body type (415); nothing was changed`,
				fix:
					'rigtop sends Content-Type: application/json exactly; if a proxy sits between rigtop and the miner it may rewrite ' +
					'that header: connect to the miner directly, else please report a rigtop bug',
				detail: null,
			};
		case 'bad-request':
			// A JSON-RPC error in an HTTP 200 answer (POST /json_rpc: pause, resume): the call was refused, no config was
			// sent; the miner's own message (cleaned by the client) says why.
			if (error.status === 200) {
				return {
					kind: 'rejected',
					message: `the miner refused to ${doing}${error.detail ? `: ${error.detail}` : ''} (a JSON-RPC error; nothing was changed)`,
					fix: 'its message says why; a miner whose API has no pause or resume answers "Method not found" (-32601): use p or r in its console',
					detail: null,
				};
			}

			return {
				kind: 'rejected',
				message:
					operation === 'write' ? 'the miner rejected the new config (400); nothing was changed' : 'the miner rejected the request (400)',
				fix: operation === 'write' ? 'check the values you set: the miner needs at least one enabled pool with a valid url' : error.hint,
				detail: error.detail,
			};
		case 'unreachable':
		case 'timeout':
			return {kind: error.kind, message: `could not ${doing}: ${error.message}`, fix: error.hint, detail: null};
		default:
			return {kind: 'other', message: `could not ${doing}: ${error.message}`, fix: error.hint, detail: error.detail};
	}
}

/** Reads the summary to learn whether the token works at all, and the miner's version. */
export async function probeSummary(
	client: ConfigClient,
	signal?: AbortSignal,
): Promise<{readable: boolean | null; version: string | null}> {
	try {
		const summary = await client.getJson(SUMMARY_ENDPOINT, signal);
		const version =
			summary && typeof summary === 'object' && 'version' in summary && typeof summary.version === 'string' ? summary.version : null;
		return {readable: true, version};
	} catch (error) {
		if (isMinerError(error) && (error.kind === 'forbidden' || error.kind === 'unauthorized')) return {readable: false, version: null};
		return {readable: null, version: null};
	}
}

/**
 * Like describeConfigError, and for a 403 first reads the summary to tell restricted mode (summary
 * works) from a wrong token (summary refused too), and the miner's version for the key names.
 */
export async function explainConfigError(
	error: unknown,
	context: ProblemContext & {readonly client: ConfigClient; readonly signal?: AbortSignal},
): Promise<ConfigProblem> {
	if (isMinerError(error) && error.kind === 'forbidden' && context.summaryReadable == null) {
		const probe = await probeSummary(context.client, context.signal);
		return describeConfigError(error, {
			...context,
			summaryReadable: probe.readable,
			layout: context.layout ?? layoutForVersion(probe.version),
		});
	}

	return describeConfigError(error, context);
}
