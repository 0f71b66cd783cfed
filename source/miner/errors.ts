/**
 * Typed errors for everything that can go wrong talking to a miner. Each carries a one-line reason
 * and the fix in plain words. Status-code errors are mapped from the code alone: reason phrases
 * changed in XMRig 6.23 ("Not Found" → "NOT_FOUND"), so text is never matched.
 *
 * No message ever contains the access token.
 */

export type MinerErrorKind =
	/** Connection refused, host unreachable, DNS failure, reset before an answer. */
	| 'unreachable'
	/** Connect, header, body or overall deadline passed. */
	| 'timeout'
	/** 401: no token given while the miner has one, or a token sent to a miner that has none. */
	| 'unauthorized'
	/** 403: wrong token, or (for config and writes) the miner is in restricted mode. */
	| 'forbidden'
	/** 404 on an endpoint the dialect needs. */
	| 'not-found'
	/** 405 */
	| 'method-not-allowed'
	/** 415: Content-Type was not exactly application/json. */
	| 'unsupported-media-type'
	/** 400 (the miner's message is in `detail`). */
	| 'bad-request'
	/** 413, or a body over rigtop's cap. */
	| 'too-large'
	/** 5xx or any other unexpected status. */
	| 'server-error'
	/** 200 with a body that is not JSON (or truncated, or nested too deep). */
	| 'bad-payload'
	/** 200 with JSON that is not what an XMRig miner sends for that path. */
	| 'incompatible';

export class MinerError extends Error {
	override readonly name = 'MinerError';
	readonly kind: MinerErrorKind;
	/** HTTP status, when the miner answered. */
	readonly status: number | null;
	/** What to do about it, in plain words. */
	readonly hint: string;
	/** Extra text safe to show (e.g. the miner's 400 message). Never holds the token. */
	readonly detail: string | null;
	/** Whether the next poll may well succeed (network trouble, a truncated body) or needs the user (auth, wrong thing). */
	readonly transient: boolean;

	constructor(
		kind: MinerErrorKind,
		message: string,
		options: {status?: number | null; hint?: string; detail?: string | null; transient?: boolean; cause?: unknown} = {},
	) {
		super(message, options.cause === undefined ? undefined : {cause: options.cause});
		this.kind = kind;
		this.status = options.status ?? null;
		this.hint = options.hint ?? defaultHint(kind);
		this.detail = options.detail ?? null;
		this.transient = options.transient ?? defaultTransient(kind);
	}

	/** One line for `--once` output and the status bar: "reason — fix". */
	oneLine(): string {
		const detail = this.detail ? ` (${this.detail})` : '';
		return `${this.message}${detail} — ${this.hint}`;
	}
}

function defaultTransient(kind: MinerErrorKind): boolean {
	switch (kind) {
		case 'unreachable':
		case 'timeout':
		case 'server-error':
		case 'bad-payload':
			return true;
		default:
			return false;
	}
}

export function defaultHint(kind: MinerErrorKind): string {
	switch (kind) {
		case 'unreachable':
			return 'check that XMRig is running and its HTTP API is on (http.enabled true, and the host and port you gave)';
		case 'timeout':
			return 'the miner did not answer in time; check the host and port, or whether the machine is overloaded';
		case 'unauthorized':
			return 'the miner wants a token: pass --token-file or RIGTOP_TOKEN with http.access-token; if you gave one, the miner has none set, so drop it';
		case 'forbidden':
			return 'the token is wrong: use the value of http.access-token (api.access-token before 2.15)';
		case 'not-found':
			return 'this does not look like an XMRig HTTP API at that address; check the port';
		case 'method-not-allowed':
			return 'this miner does not accept that request';
		case 'unsupported-media-type':
			return 'the miner refused the request body type; this is a rigtop bug, please report it';
		case 'bad-request':
			return 'the miner rejected the request; see its message';
		case 'too-large':
			return 'the answer is far larger than any XMRig answer; check that the address is a miner';
		case 'server-error':
			return 'the server at that address failed; check that it is XMRig and that it is healthy';
		case 'bad-payload':
			return 'the answer came broken; rigtop retries';
		case 'incompatible':
			return 'the answer is not what an XMRig miner sends; check that the address is a miner';
	}
}

export function isMinerError(value: unknown): value is MinerError {
	return value instanceof MinerError;
}
