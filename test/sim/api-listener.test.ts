/**
 * The API listener both simulators share (source/sim/api-listener.ts), through each kind's real socket: a PUT of
 * the config that moves http.port and changes the access token, then the new port answers to the new token only
 * and the old port is closed; a stop and start after the move stay on the new port; a port taken by someone else
 * leaves the API down.
 */
import net from 'node:net';
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator} from '../../source/sim/simulator.js';
import {freePort, refused} from '../helpers/raw-server.js';
import {parseCapture, rawRequest, waitFor} from './helpers.js';

type Sim = {
	readonly url: string;
	readonly port: number;
	readonly listening: boolean;
	stop(): Promise<void>;
	start(): Promise<void>;
	settled(): Promise<void>;
	configText(): string;
};

const TOKEN = 'listener-token';
const started: Sim[] = [];
const servers: net.Server[] = [];

afterEach(async () => {
	await Promise.all(started.splice(0).map((sim) => sim.stop()));
	await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

const KINDS: readonly (readonly [string, () => Promise<Sim>])[] = [
	['miner', () => startSimulator({token: TOKEN, restricted: false, seed: 3, applyDelayMs: 5})],
	['proxy', () => startSimulator({kind: 'proxy', token: TOKEN, restricted: false, seed: 3, lifeEvents: false, applyDelayMs: 5})],
];

async function status(port: number, method: string, token: string, body?: string): Promise<number> {
	const headers: Record<string, string> = {Authorization: `Bearer ${token}`};
	if (body !== undefined) headers['Content-Type'] = 'application/json';
	return parseCapture(await rawRequest(port, {method, path: '/1/config', headers, ...(body === undefined ? {} : {body})})).status;
}

/** The document with http.port and http.access-token replaced (both as the simulator wrote them). */
function moved(text: string, fromPort: number, toPort: number, token: string): string {
	const portKey = `"port": ${fromPort}`;
	const tokenKey = `"access-token": "${TOKEN}"`;
	expect(text).toContain(portKey);
	expect(text).toContain(tokenKey);
	return text.replace(portKey, `"port": ${toPort}`).replace(tokenKey, `"access-token": "${token}"`);
}

describe.each(KINDS)('the %s API listener after a PUT of the config', (_kind, start) => {
	it('moves to the new http.port with the new token: the old port is closed, the old token refused', async () => {
		const sim = await start();
		started.push(sim);
		const oldPort = sim.port;
		const newPort = await freePort();
		const next = moved(sim.configText(), oldPort, newPort, 'new-token');
		// The answer to the PUT itself still goes out on the old port.
		expect(await status(oldPort, 'PUT', TOKEN, next)).toBe(204);
		await waitFor(() => sim.port === newPort && sim.listening, 3000, 'rebind');
		await sim.settled();
		expect(sim.url).toBe(`http://127.0.0.1:${newPort}`);
		expect(await refused(oldPort)).toBe(true);
		expect(await status(newPort, 'GET', 'new-token')).toBe(200);
		expect(await status(newPort, 'GET', TOKEN)).toBe(403);
		expect(sim.configText()).toBe(next);

		// A stop and start after the move listen on the new port again, not the first one.
		await sim.stop();
		expect(await refused(newPort)).toBe(true);
		await sim.start();
		expect(sim.port).toBe(newPort);
		expect(await status(newPort, 'GET', 'new-token')).toBe(200);
		expect(await refused(oldPort)).toBe(true);
	});

	it('leaves the API down when the new port is taken, keeping the new token', async () => {
		const sim = await start();
		started.push(sim);
		const oldPort = sim.port;
		const taken = net.createServer();
		servers.push(taken);
		await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
		const takenPort = (taken.address() as net.AddressInfo).port;
		expect(await status(oldPort, 'PUT', TOKEN, moved(sim.configText(), oldPort, takenPort, 'new-token'))).toBe(204);
		await waitFor(() => refused(oldPort), 3000, 'old port closed');
		await sim.settled();
		expect(sim.listening).toBe(false);
		expect(sim.port).toBe(oldPort);
	});
});
