/**
 * Where a miner's HTTP API lives, and turning what a user typed into one canonical base URL.
 */
import {cleanText} from '../text/clean.js';

/** The address of one miner's API and the access token to send (null: send no Authorization header). */
export type MinerTarget = {readonly url: string; readonly token: string | null};

/**
 * An address or a token that cannot be used to reach a miner (not host:port, a path or a password in
 * it, a token that cannot go in an HTTP header). The message says what is wrong and never holds the
 * token; the CLI treats it as bad usage.
 */
export class TargetError extends Error {
	override readonly name = 'TargetError';
}

const defaultHost = '127.0.0.1';

/**
 * 'host:port', 'http://host:port', '[::1]:8080', ':8080' or '8080' → 'http://host:port' (no trailing slash, no path).
 * A missing host means 127.0.0.1. The port is required: XMRig has no default API port. Throws TargetError.
 */
export function normalizeMinerUrl(input: string): string {
	const text = input.trim();
	if (text === '') {
		throw new TargetError('no miner address given: use host:port, e.g. 127.0.0.1:8080');
	}

	// Spaces, controls (C0, DEL, C1), invisible characters and look-alike letters (cleanText would change it): no
	// address has them, and the messages below quote the host.
	if (/\s/u.test(text) || cleanText(text, text.length) !== text) {
		throw new TargetError('the miner address holds spaces, control or invisible characters, or look-alike letters; use host:port');
	}

	const scheme = /^([a-z][a-z\d+.-]*):\/\//iu.exec(text);
	if (scheme) {
		const name = scheme[1]!.toLowerCase();
		if (name === 'https') {
			throw new TargetError(
				'rigtop talks plain HTTP to the miner (XMRig answers plain HTTP on its API port even with TLS on); use http://host:port or host:port',
			);
		}

		if (name !== 'http') {
			throw new TargetError(`unsupported scheme "${name}://" in the miner address; use host:port or http://host:port`);
		}
	}

	let rest = scheme ? text.slice(scheme[0].length) : text;
	if (/^\d+$/u.test(rest)) {
		rest = `${defaultHost}:${rest}`;
	} else if (rest.startsWith(':')) {
		rest = `${defaultHost}${rest}`;
	}

	if (rest.includes('@')) {
		throw new TargetError('put no user name or token in the miner address; pass the token with --token-file or RIGTOP_TOKEN');
	}

	if (/[?#]/u.test(rest)) {
		throw new TargetError('the miner address must not have a query or fragment; use host:port');
	}

	const slash = rest.indexOf('/');
	if (slash !== -1) {
		if (rest.slice(slash) !== '/') {
			throw new TargetError('the miner address must not have a path (rigtop adds /2/summary and friends itself); use host:port');
		}

		rest = rest.slice(0, slash);
	}

	// A bare IPv6 address with a port cannot be told apart from one without: require brackets.
	if (!rest.startsWith('[') && (rest.match(/:/gu) ?? []).length > 1) {
		throw new TargetError('put an IPv6 address in brackets, e.g. [::1]:8080');
	}

	const portMatch = /:(\d*)$/u.exec(rest);
	if (!portMatch || portMatch[1] === '' || rest.endsWith(']')) {
		throw new TargetError('the miner address needs a port (XMRig has no default API port), e.g. 127.0.0.1:8080');
	}

	const port = Number(portMatch[1]);
	if (!Number.isInteger(port) || port < 1 || port > 65_535) {
		throw new TargetError(`port ${portMatch[1]} is out of range (1–65535)`);
	}

	const host = rest.slice(0, portMatch.index);
	if (host === '') {
		throw new TargetError('the miner address has no host; use host:port');
	}

	let url: URL;
	try {
		url = new URL(`http://${host}:${port}/`);
	} catch {
		throw new TargetError(`"${host}" is not a valid host name or address`);
	}

	if (url.hostname === '' || !(url.hostname.startsWith('[') || /^[a-z\d._-]+$/u.test(url.hostname))) {
		throw new TargetError(`"${host}" is not a valid host name or address`);
	}

	// The URL parser drops a port equal to the scheme default; put it back so the base URL always names it.
	return `http://${url.hostname}:${port}`;
}

/** A word written as a URL (scheme://…): an address typed wrong, never a rig's name. */
export function looksLikeUrl(word: string): boolean {
	return /^[a-z][a-z0-9+.-]*:\/\//i.test(word);
}

/** Whether a word is a miner's address (host:port or a URL) rather than a rig's name (session/build.ts, namedRigs). */
export function isMinerAddress(word: string): boolean {
	try {
		normalizeMinerUrl(word);
		return true;
	} catch (error) {
		if (error instanceof TargetError) return false;
		throw error;
	}
}
