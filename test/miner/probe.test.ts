import {createServer, type Server} from 'node:net';
import {afterEach, describe, expect, it} from 'vitest';
import {portIsOpen} from '../../source/miner/probe.js';

let server: Server | null = null;

afterEach(async () => {
	await new Promise<void>((resolve) => {
		if (server) server.close(() => resolve());
		else resolve();
	});
	server = null;
});

async function listen(): Promise<number> {
	server = createServer((socket) => socket.destroy());
	await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	if (typeof address !== 'object' || address === null) throw new Error('no address');
	return address.port;
}

describe('portIsOpen', () => {
	it('is true where something accepts connections, false once it has closed', async () => {
		const port = await listen();
		expect(await portIsOpen(`http://127.0.0.1:${port}`, 1000)).toBe(true);
		await new Promise<void>((resolve) => server!.close(() => resolve()));
		server = null;
		expect(await portIsOpen(`http://127.0.0.1:${port}`, 1000)).toBe(false);
	});

	it('is false at once when its signal is aborted', async () => {
		const port = await listen();
		const controller = new AbortController();
		controller.abort();
		expect(await portIsOpen(`http://127.0.0.1:${port}`, 1000, controller.signal)).toBe(false);
	});

	it('takes bracketed IPv6 addresses', async () => {
		server = createServer((socket) => socket.destroy());
		const listening = await new Promise<boolean>((resolve) => {
			server!.once('error', () => resolve(false));
			server!.listen(0, '::1', () => resolve(true));
		});
		if (!listening) {
			server = null;
			return; // no IPv6 loopback on this machine
		}

		const address = server.address();
		const port = typeof address === 'object' && address ? address.port : 0;
		expect(await portIsOpen(`http://[::1]:${port}`, 1000)).toBe(true);
	});
});
