import net from 'node:net';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {clientOf, type ConnectionLimits} from '../../source/exporter/connections.js';
import {writeExposition, type Format} from '../../source/exporter/exposition.js';
import {minerFamilies} from '../../source/exporter/families.js';
import {startMetricsServer, type MetricsServer} from '../../source/exporter/server.js';

/**
 * The connection guard with small limits, through a real server on loopback. Clients come from different loopback
 * addresses (127.0.0.2, …: the whole of 127/8 is this machine) so the per-address rules are exercised for real.
 */

const render = (format: Format) => writeExposition([minerFamilies.up], [['xmrig_up{miner="a",url="http://a:1"} 1\n']], format);

const LIMITS: ConnectionLimits = {maxConnections: 8, perAddress: 4, reserve: 2, lightAddress: 2, headerMs: 1000, idleMs: 60_000};

const servers: MetricsServer[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
	for (const socket of sockets.splice(0)) socket.destroy();
	await Promise.all(servers.splice(0).map(async (running) => running.close()));
});

async function serve(limits: ConnectionLimits = LIMITS): Promise<MetricsServer> {
	const running = await startMetricsServer({listen: [{host: '127.0.0.1', port: 0, loopback: true}], token: null, render, limits});
	servers.push(running);
	return running;
}

type Client = {socket: net.Socket; closed: Promise<void>; isClosed: () => boolean; answers: () => string};

async function connect(port: number, from: string): Promise<Client> {
	const socket = net.connect({port, host: '127.0.0.1', localAddress: from});
	sockets.push(socket);
	let text = '';
	let closed = false;
	socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
	socket.on('error', () => undefined);
	const closedPromise = new Promise<void>((resolve) => socket.once('close', () => ((closed = true), resolve())));
	await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
	return {socket, closed: closedPromise, isClosed: () => closed, answers: () => text};
}

const REQUEST = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';

/** A connection that made one request, read the answer and stays open (kept alive). */
async function idle(port: number, from: string): Promise<Client> {
	const client = await connect(port, from);
	client.socket.write(REQUEST);
	while (!client.answers().includes('</html>')) await new Promise((resolve) => setTimeout(resolve, 10));
	return client;
}

async function scrape(port: number): Promise<number> {
	const client = await connect(port, '127.0.0.1');
	client.socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
	await client.closed;
	return Number(/^HTTP\/1\.1 (\d+)/.exec(client.answers())?.[1] ?? 0);
}

const settle = async () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * Waits until exactly the expected clients are closed (on a loaded machine a close can take longer than a fixed pause),
 * then lets the server settle and checks again: no other client is closed after them.
 */
async function expectClosed(clients: Client[], expected: boolean[]): Promise<void> {
	await vi.waitFor(() => expect(clients.map((client) => client.isClosed())).toEqual(expected), {timeout: 5000, interval: 10});
	await settle();
	expect(clients.map((client) => client.isClosed())).toEqual(expected);
}

describe('the connection guard', () => {
	it('counts an IPv4 client by its address and an IPv6 one by its /64', () => {
		expect(clientOf('10.0.0.5')).toBe('10.0.0.5');
		expect(clientOf('::ffff:10.0.0.5')).toBe('10.0.0.5');
		expect(clientOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
		expect(clientOf('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
		expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
		expect(clientOf('::1')).toBe('0:0:0:0::/64');
		expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
	});

	it('a connection that sends no request is closed after the header deadline', async () => {
		const running = await serve();
		const silent = await connect(running.port, '127.0.0.2');
		await silent.closed;
		// Closed by the guard (no answer) or, when Node's own headers timeout checks first under load, with its 408.
		expect(silent.answers()).toMatch(/^(?:|HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*)$/);
	});

	it('a drip after a kept-alive request is closed (its headers must come within the deadline)', async () => {
		const running = await serve();
		const client = await idle(running.port, '127.0.0.2');
		client.socket.write('GET / HTTP/1.1\r\nX-Slow: ');
		const drip = setInterval(() => client.socket.write('a'), 200);
		try {
			await client.closed;
		} finally {
			clearInterval(drip);
		}

		expect(client.answers()).toContain('408 Request Timeout');
	});

	it('at the limit, the oldest idle connection makes way for a new one', async () => {
		const running = await serve();
		const held: Client[] = [];
		for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']) {
			for (let index = 0; index < 2; index++) held.push(await idle(running.port, from));
		}

		expect(await scrape(running.port)).toBe(200);
		await expectClosed(held, [true, false, false, false, false, false, false, false]);
	});

	it('one address holds at most its share: its own oldest waiting connection makes way', async () => {
		const running = await serve();
		const mine: Client[] = [];
		for (let index = 0; index < 5; index++) mine.push(await connect(running.port, '127.0.0.2'));
		await expectClosed(mine, [true, false, false, false, false]);
	});

	it('the reserve: a crowded address takes a slot only from a crowded one, never from a scraper', async () => {
		const running = await serve();
		// The scraper's kept-alive connection (its address holds one: light), then a flood from two crowded addresses.
		const scraper = await idle(running.port, '127.0.0.1');
		const flood: Client[] = [];
		for (let index = 0; index < 4; index++) flood.push(await connect(running.port, '127.0.0.2'));
		for (let index = 0; index < 4; index++) flood.push(await connect(running.port, '127.0.0.3'));
		// Past 6 held (8 slots less the reserve of 2), a crowded address's newcomer closes the oldest waiting connection
		// of a crowded address: 127.0.0.2's first two.
		await expectClosed(flood, [true, true, false, false, false, false, false, false]);
		expect(scraper.isClosed()).toBe(false);
		expect(await scrape(running.port)).toBe(200);
		expect(scraper.isClosed()).toBe(false);
	});

	it('the scrape is answered while every slot is held by idle, silent and dripping connections', async () => {
		const running = await serve({...LIMITS, maxConnections: 12, perAddress: 3});
		const held: Client[] = [];
		const drips: NodeJS.Timeout[] = [];
		try {
			for (let index = 0; index < 4; index++) held.push(await idle(running.port, `127.0.1.${index + 1}`));
			for (let index = 0; index < 4; index++) held.push(await connect(running.port, `127.0.2.${index + 1}`));
			for (let index = 0; index < 4; index++) {
				const client = await connect(running.port, `127.0.3.${index + 1}`);
				client.socket.write('GET /metrics HTTP/1.1\r\n');
				drips.push(setInterval(() => client.socket.write('X'), 200));
				held.push(client);
			}

			for (let round = 0; round < 3; round++) expect(await scrape(running.port)).toBe(200);
		} finally {
			for (const drip of drips) clearInterval(drip);
		}
	});
});
