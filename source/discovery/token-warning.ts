/**
 * The one warning about the access token: sending it in clear (plain HTTP) to a host that is not
 * this machine. XMRig's API has no encryption unless built and configured with TLS, so anyone on the
 * network path can read the token. Shown once per host.
 */

import {isIP} from 'node:net';
import {normalizeIpv6} from './address.js';

function hostnameOf(urlOrHost: string): string {
	try {
		return new URL(urlOrHost.includes('://') ? urlOrHost : `http://${urlOrHost}`).hostname;
	} catch {
		return urlOrHost;
	}
}

/** Whether a URL (or bare host) points at this machine: localhost, 127.0.0.0/8, ::1 (also IPv4-mapped). */
export function isLoopbackHost(urlOrHost: string): boolean {
	let host = hostnameOf(urlOrHost).toLowerCase();
	if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	if (isIP(host) === 4) return host.startsWith('127.');
	if (isIP(host) === 6) {
		const normalized = normalizeIpv6(host);
		if (normalized === '::1') return true;
		const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(normalized);
		return mapped?.[1] ? mapped[1].startsWith('127.') : false;
	}
	return false;
}

/** The warning for sending a token to this URL, or null when it is safe (loopback, or HTTPS). */
export function cleartextTokenWarning(url: string): string | null {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return null;
	}
	if (parsed.protocol !== 'http:' || isLoopbackHost(url)) return null;
	const port = parsed.port || '80';
	return (
		`The access token will be sent to ${parsed.host} without encryption (plain HTTP): anyone on the network path can read it. ` +
		`Use this only on a network you trust, or reach the miner through an SSH tunnel (ssh -L ${port}:127.0.0.1:${port} RIG, ` +
		`then rigtop http://127.0.0.1:${port}).`
	);
}

/** A warner that gives the clear-text warning the first time a token is about to go to each host, then null. */
export function createCleartextTokenWarner(): (url: string, token: string | null) => string | null {
	const warned = new Set<string>();
	return (url, token) => {
		if (token === null) return null;
		const warning = cleartextTokenWarning(url);
		if (warning === null) return null;
		const host = hostnameOf(url);
		if (warned.has(host)) return null;
		warned.add(host);
		return warning;
	};
}
