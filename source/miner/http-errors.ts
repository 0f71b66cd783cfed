import {MinerError} from './errors.js';

/**
 * Mapping HTTP statuses and socket failures to MinerError. Statuses are mapped from the code alone (reason phrases
 * changed in XMRig 6.23). Messages never hold the token or the URL (the caller knows which miner it asked).
 */

/** The MinerError for a non-2xx answer. `detail` is the miner's own (already sanitized) text, used for 400. */
export function statusError(status: number, path: string, detail: string | null): MinerError {
	switch (status) {
		case 400:
			return new MinerError('bad-request', `the miner rejected ${path} (HTTP 400)`, {status, detail});
		case 401:
			return new MinerError('unauthorized', `not authorized (HTTP 401)`, {status});
		case 403:
			return new MinerError('forbidden', `forbidden (HTTP 403)`, {status});
		case 404:
			return new MinerError('not-found', `${path} not found (HTTP 404)`, {status});
		case 405:
			return new MinerError('method-not-allowed', `method not allowed on ${path} (HTTP 405)`, {status});
		case 413:
			return new MinerError('too-large', `the miner refused the request as too large (HTTP 413)`, {status});
		case 415:
			return new MinerError('unsupported-media-type', `unsupported media type (HTTP 415)`, {status});
		default:
			return status >= 500 && status <= 599
				? new MinerError('server-error', `server error (HTTP ${status})`, {status})
				: new MinerError('server-error', `unexpected answer (HTTP ${status})`, {status});
	}
}

const unreachableCodes: Readonly<Record<string, string>> = {
	ECONNREFUSED: 'connection refused',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host name lookup failed',
	EAI_FAIL: 'host name lookup failed',
	EAI_NONAME: 'host not found',
	EHOSTUNREACH: 'host unreachable',
	EHOSTDOWN: 'host is down',
	ENETUNREACH: 'network unreachable',
	ENETDOWN: 'network is down',
	EADDRNOTAVAIL: 'address not available',
	ECONNRESET: 'connection reset',
	ECONNABORTED: 'connection aborted',
	EPIPE: 'connection closed',
	CLOSED_BEFORE_ANSWER: 'connection closed before an answer',
};

const timeoutCodes: Readonly<Record<string, string>> = {
	CONNECT_TIMEOUT: 'connect timed out',
	ETIMEDOUT: 'connect timed out',
	HEADERS_TIMEOUT: 'no answer (timed out waiting for headers)',
	BODY_TIMEOUT: 'the answer stalled (timed out reading the body)',
};

function errorCode(error: unknown): string | null {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
		const code = (current as {code?: unknown}).code;
		if (typeof code === 'string' && code !== '') {
			return code;
		}

		current = (current as {cause?: unknown}).cause;
	}

	return null;
}

/**
 * The MinerError for a request that failed without a (complete) answer. `afterHeaders`: the status line and headers
 * had arrived, so a dropped connection means the answer was cut short rather than never given.
 */
export function networkError(error: unknown, afterHeaders: boolean): MinerError {
	if (error instanceof MinerError) {
		return error;
	}

	const code = errorCode(error);
	const name = error instanceof Error ? error.name : '';
	if (code !== null && code in timeoutCodes) {
		return new MinerError('timeout', timeoutCodes[code]!, {cause: error});
	}

	if (name === 'HTTPParserError' || code?.startsWith('HPE_')) {
		return new MinerError('incompatible', 'the answer is not valid HTTP', {cause: error});
	}

	if (code === 'CUT_SHORT' || (afterHeaders && code !== null && code in unreachableCodes)) {
		return new MinerError('bad-payload', 'the answer was cut short (the connection closed mid-answer)', {cause: error});
	}

	if (code !== null && code in unreachableCodes) {
		return new MinerError('unreachable', unreachableCodes[code]!, {cause: error});
	}

	return new MinerError('unreachable', code === null ? 'the request failed' : `the request failed (${code})`, {cause: error});
}
