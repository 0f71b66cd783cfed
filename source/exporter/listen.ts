import {isIP} from 'node:net';
import {UsageError} from '../session/errors.js';
import {jsonText} from '../text/json-out.js';

/** Where the metrics endpoint listens: `--listen` (exporter) or `--metrics` (live view). */
export type ListenAddress = {
	/** The host to bind; '' binds every interface. */
	readonly host: string;
	/** 0 picks a free port. */
	readonly port: number;
	/** Whether only this machine can reach it (127.0.0.0/8, ::1, localhost). */
	readonly loopback: boolean;
};

export const DEFAULT_LISTEN = '127.0.0.1:9189';

/**
 * Reads `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (every interface). Throws UsageError naming the flag for anything else:
 * an address the user did not write out is never chosen for them.
 */
export function parseListen(text: string, flag: string): ListenAddress {
	const value = text.trim();
	const bad = (why: string) =>
		new UsageError(`${flag} ${jsonText(text)}: ${why}; write HOST:PORT, e.g. ${DEFAULT_LISTEN} (or :PORT for every interface)`);
	const match = /^(?:\[([^\]]*)\]|([^:[\]]*)):(\d{1,5})$/.exec(value);
	if (!match) throw bad('not an address and port');
	const port = Number(match[3]);
	if (port > 65_535) throw bad('the port is above 65535');
	const bracketed = match[1];
	const host = (bracketed ?? match[2] ?? '').toLowerCase();
	if (bracketed !== undefined && isIP(host) !== 6) throw bad('only an IPv6 address goes in brackets');
	if (
		bracketed === undefined &&
		host !== '' &&
		isIP(host) === 0 &&
		!/^[a-z\d]([a-z\d-]*[a-z\d])?(\.[a-z\d]([a-z\d-]*[a-z\d])?)*$/.test(host)
	) {
		throw bad('not a host name or IP address');
	}

	return {host, port, loopback: isLoopback(host)};
}

function isLoopback(host: string): boolean {
	if (host === 'localhost' || host === '::1') return true;
	return isIP(host) === 4 && host.startsWith('127.');
}

/** `host:port` as asked for (IPv6 in brackets; every interface `:port`); the bound address is server.ts's boundText. */
export function hostPortText(host: string, port: number): string {
	return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}
