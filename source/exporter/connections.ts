import type {Socket} from 'node:net';

/**
 * Who holds the metrics endpoint's connections, so that no client, with or without credentials, can keep a scrape
 * from being answered. Every slot can be taken back from a client that is not being answered right now:
 *
 * - A new connection must send a whole request's headers within `headerMs` (5 s) of connecting (TLS handshake
 *   included), or it is closed: silent and dripping clients cannot sit on a slot. Node's own headersTimeout covers
 *   the later requests of a kept-alive connection (server.ts).
 * - A kept-alive connection between requests is idle; it is closed after `idleMs` without a request.
 * - At most `maxConnections` (256) connections. When a new one comes at the limit, the oldest idle connection is
 *   closed for it, else the oldest one still waiting for its first request; when every slot is answering a request
 *   right now, the new one is refused (a request takes milliseconds).
 * - One remote address (an IPv6 /64) holds at most `perAddress` (a quarter of the slots); past that, its own oldest
 *   idle or waiting connection makes way, or the new one is refused.
 * - A reserve: the last `reserve` slots go only to addresses holding fewer than `lightAddress` connections (a
 *   Prometheus server holds one per target). An address holding more that comes at the limit takes the slot of a
 *   connection of such an address, never of a light one, so a flood from a few addresses never closes a scraper's
 *   connection, and the scraper always finds a slot.
 */

export type ConnectionLimits = {
	readonly maxConnections: number;
	readonly perAddress: number;
	readonly reserve: number;
	readonly lightAddress: number;
	readonly headerMs: number;
	readonly idleMs: number;
};

export const CONNECTION_LIMITS: ConnectionLimits = {
	maxConnections: 256,
	perAddress: 64,
	reserve: 32,
	lightAddress: 4,
	headerMs: 5000,
	idleMs: 65_000,
};

type Entry = {
	readonly socket: Socket;
	readonly address: string;
	/** Requests begun on it; 0: still waiting for the first one's headers. */
	requests: number;
	/** Requests begun and not yet answered. */
	active: number;
	/** When it last became idle (its last answer was sent). */
	idleSince: number;
	timer: NodeJS.Timeout | undefined;
};

/** The key of a TCP connection, the same for a TLS socket and the plain socket under it. */
function connectionKey(socket: Socket): string {
	return `${socket.localAddress}|${socket.localPort}|${socket.remoteAddress}|${socket.remotePort}`;
}

/**
 * Who a client is, for the per-address rules: its IPv4 address (an IPv4 client of a dual-stack listener shows as
 * ::ffff:a.b.c.d), or its IPv6 /64, since one IPv6 host commonly holds a whole /64.
 */
export function clientOf(address: string): string {
	if (address.toLowerCase().startsWith('::ffff:') && address.includes('.')) return address.slice(7);
	if (!address.includes(':')) return address;
	const [head = '', tail] = address.toLowerCase().split('::');
	const front = head === '' ? [] : head.split(':');
	const back = tail === undefined || tail === '' ? [] : tail.split(':');
	const groups = tail === undefined ? front : [...front, ...Array.from({length: 8 - front.length - back.length}, () => '0'), ...back];
	return `${groups
		.slice(0, 4)
		.map((group) => Number.parseInt(group || '0', 16).toString(16))
		.join(':')}::/64`;
}

function remoteOf(socket: Socket): string {
	return clientOf(socket.remoteAddress ?? '');
}

export type ConnectionGuard = {
	/** Takes a new connection, closing another for it if need be; false (and the socket destroyed) when refused. */
	admit(socket: Socket): boolean;
	/** A request's headers have arrived on this socket (plain or TLS). */
	requestStarted(socket: Socket): void;
	/** That request has been answered (or abandoned). */
	requestEnded(socket: Socket): void;
	/** How many connections are held now, and by how many addresses. */
	counts(): {connections: number; addresses: number};
	/** Closes every connection. */
	closeAll(): void;
};

export function createConnectionGuard(limits: ConnectionLimits = CONNECTION_LIMITS): ConnectionGuard {
	/** In the order they connected. */
	const entries = new Map<string, Entry>();
	const held = new Map<string, number>();

	const drop = (key: string, entry: Entry) => {
		if (entries.get(key) !== entry) return;
		entries.delete(key);
		clearTimeout(entry.timer);
		const left = (held.get(entry.address) ?? 1) - 1;
		if (left === 0) held.delete(entry.address);
		else held.set(entry.address, left);
	};

	const close = (key: string, entry: Entry) => {
		drop(key, entry);
		entry.socket.destroy();
	};

	const arm = (key: string, entry: Entry, ms: number, expired: () => boolean) => {
		clearTimeout(entry.timer);
		entry.timer = setTimeout(() => {
			if (expired()) close(key, entry);
		}, ms);
		entry.timer.unref();
	};

	/** The connection to close for a newcomer among those `eligible`: the oldest idle, else the oldest still waiting. */
	const victim = (eligible: (entry: Entry) => boolean): [string, Entry] | undefined => {
		let idle: [string, Entry] | undefined;
		let waiting: [string, Entry] | undefined;
		for (const pair of entries) {
			const entry = pair[1];
			if (entry.active > 0 || !eligible(entry)) continue;
			if (entry.requests === 0) waiting ??= pair;
			else if (idle === undefined || entry.idleSince < idle[1].idleSince) idle = pair;
		}

		return idle ?? waiting;
	};

	const heavy = (entry: Entry) => (held.get(entry.address) ?? 0) >= limits.lightAddress;

	/** The HTTP layer's socket (the TLS one over a TLS listener) → its connection's key, taken while it is open. */
	const keys = new WeakMap<Socket, string>();
	const lookup = (socket: Socket): [string, Entry] | undefined => {
		let key = keys.get(socket);
		if (key === undefined) {
			key = connectionKey(socket);
			keys.set(socket, key);
			const entry = entries.get(key);
			if (entry !== undefined) socket.once('close', () => drop(key!, entry));
		}

		const entry = entries.get(key);
		return entry === undefined ? undefined : [key, entry];
	};

	return {
		admit(socket) {
			const address = remoteOf(socket);
			const mine = held.get(address) ?? 0;
			let make: [string, Entry] | undefined | null = null;
			if (mine >= limits.perAddress) {
				make = victim((entry) => entry.address === address);
			} else {
				const light = mine < limits.lightAddress;
				const limit = light ? limits.maxConnections : limits.maxConnections - limits.reserve;
				if (entries.size >= limit) make = victim(heavy) ?? (light ? victim(() => true) : undefined);
			}

			if (make === undefined) {
				socket.destroy();
				return false;
			}

			if (make !== null) close(...make);
			const key = connectionKey(socket);
			const entry: Entry = {socket, address, requests: 0, active: 0, idleSince: 0, timer: undefined};
			entries.set(key, entry);
			held.set(address, (held.get(address) ?? 0) + 1);
			arm(key, entry, limits.headerMs, () => entry.requests === 0);
			socket.once('close', () => drop(key, entry));
			return true;
		},
		requestStarted(socket) {
			const found = lookup(socket);
			if (found === undefined) return;
			const entry = found[1];
			entry.requests++;
			entry.active++;
			clearTimeout(entry.timer);
			entry.timer = undefined;
		},
		requestEnded(socket) {
			const found = lookup(socket);
			if (found === undefined) return;
			const [key, entry] = found;
			entry.active = Math.max(0, entry.active - 1);
			if (entry.active > 0) return;
			entry.idleSince = performance.now();
			const requests = entry.requests;
			arm(key, entry, limits.idleMs, () => entry.active === 0 && entry.requests === requests);
		},
		counts: () => ({connections: entries.size, addresses: held.size}),
		closeAll() {
			for (const [key, entry] of [...entries]) close(key, entry);
		},
	};
}
