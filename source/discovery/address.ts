/**
 * Host and URL helpers shared by discovery: which address to connect to for an address a miner binds
 * or listens on, and how to write it into a URL.
 */

import {isIP} from 'node:net';

/** IPv4 or IPv6 text without brackets, for isIP(). */
function unbracket(host: string): string {
	return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Whether XMRig can bind this `http.host`: it takes IP addresses only, never names. */
export function isIpAddress(host: string): boolean {
	return isIP(unbracket(host)) !== 0;
}

/**
 * The host to connect to for a bind or listen address, as it goes into a URL:
 * `0.0.0.0` (all IPv4 interfaces) → `127.0.0.1`; `::` (all interfaces) → `[::1]`; an IPv4-mapped
 * IPv6 address → its IPv4 form; other IPv6 addresses in brackets; names and IPv4 addresses as they are.
 */
export function connectHost(bindHost: string): string {
	const host = unbracket(bindHost.trim());
	if (host === '' || host === '0.0.0.0') return '127.0.0.1';
	if (isIP(host) === 6) {
		const normalized = normalizeIpv6(host);
		if (normalized === '::') return '[::1]';
		const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(normalized);
		if (mapped?.[1]) return connectHost(mapped[1]);
		return `[${normalized}]`;
	}
	return host;
}

/** Compressed lower-case form of an IPv6 address (`0:0:0:0:0:0:0:1` → `::1`). */
export function normalizeIpv6(address: string): string {
	try {
		const hostname = new URL(`http://[${unbracket(address)}]/`).hostname;
		const text = hostname.slice(1, -1);
		// WHATWG URLs print IPv4-mapped addresses in hex (::ffff:7f00:1); use the dotted form.
		const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(text);
		if (hexMapped?.[1] && hexMapped[2]) {
			const high = Number.parseInt(hexMapped[1], 16);
			const low = Number.parseInt(hexMapped[2], 16);
			return `::ffff:${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
		}
		return text;
	} catch {
		return address.toLowerCase();
	}
}

/** `http://HOST:PORT` for a connect host as returned by connectHost (IPv6 already bracketed). */
export function httpUrl(host: string, port: number): string {
	const bracketed = isIP(host) === 6 ? `[${host}]` : host;
	return `http://${bracketed}:${port}`;
}
