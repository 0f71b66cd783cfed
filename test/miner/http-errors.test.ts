import {describe, expect, it} from 'vitest';
import {MinerError} from '../../source/miner/errors.js';
import {networkError, statusError} from '../../source/miner/http-errors.js';

/** An error as Node's net/dns layer or the client's exchange (http-exchange.ts) raise it: a message and a `code`. */
function systemError(code: string, message = `connect ${code} 10.0.0.9:8080`): Error {
	return Object.assign(new Error(message), {code});
}

describe('statusError', () => {
	it.each([
		[400, 'bad-request', false],
		[401, 'unauthorized', false],
		[403, 'forbidden', false],
		[404, 'not-found', false],
		[405, 'method-not-allowed', false],
		[413, 'too-large', false],
		[415, 'unsupported-media-type', false],
		[500, 'server-error', true],
		[502, 'server-error', true],
		[599, 'server-error', true],
		[301, 'server-error', true],
		[418, 'server-error', true],
	] as const)('HTTP %i → %s', (status, kind, transient) => {
		const error = statusError(status, '/2/summary', null);
		expect(error).toBeInstanceOf(MinerError);
		expect(error.kind).toBe(kind);
		expect(error.status).toBe(status);
		expect(error.transient).toBe(transient);
		expect(error.message).toContain(String(status));
	});

	it('keeps the detail of a 400 only', () => {
		expect(statusError(400, '/1/config', 'Invalid value.').detail).toBe('Invalid value.');
	});
});

describe('networkError', () => {
	it.each([
		['ECONNREFUSED', 'unreachable', 'connection refused'],
		['ENOTFOUND', 'unreachable', 'host not found'],
		['EAI_AGAIN', 'unreachable', 'host name lookup failed'],
		['EHOSTUNREACH', 'unreachable', 'host unreachable'],
		['ENETUNREACH', 'unreachable', 'network unreachable'],
		['ECONNRESET', 'unreachable', 'connection reset'],
		['CLOSED_BEFORE_ANSWER', 'unreachable', 'connection closed before an answer'],
		['ETIMEDOUT', 'timeout', 'connect timed out'],
		['CONNECT_TIMEOUT', 'timeout', 'connect timed out'],
		['HEADERS_TIMEOUT', 'timeout', 'no answer (timed out waiting for headers)'],
		['BODY_TIMEOUT', 'timeout', 'the answer stalled (timed out reading the body)'],
		['HPE_INVALID_CONSTANT', 'incompatible', 'the answer is not valid HTTP'],
		['CUT_SHORT', 'bad-payload', 'the answer was cut short (the connection closed mid-answer)'],
		['EWEIRD', 'unreachable', 'the request failed (EWEIRD)'],
	])('%s → %s "%s"', (code, kind, message) => {
		const error = networkError(systemError(code), false);
		expect(error.kind).toBe(kind);
		expect(error.message).toBe(message);
		expect(error.message).not.toContain('10.0.0.9');
	});

	it('finds the code on a wrapped cause', () => {
		const wrapped = new TypeError('fetch failed', {cause: systemError('ECONNREFUSED')});
		expect(networkError(wrapped, false).message).toBe('connection refused');
	});

	it('calls a connection lost after the headers a cut-short answer', () => {
		expect(networkError(systemError('CLOSED_BEFORE_ANSWER'), true).kind).toBe('bad-payload');
		expect(networkError(systemError('ECONNRESET'), true).kind).toBe('bad-payload');
	});

	it('passes a MinerError through and maps anything else to unreachable', () => {
		const original = new MinerError('too-large', 'big');
		expect(networkError(original, true)).toBe(original);
		expect(networkError('a string', false).kind).toBe('unreachable');
		expect(networkError(null, false).message).toBe('the request failed');
	});
});
