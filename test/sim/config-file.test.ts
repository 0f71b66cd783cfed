/**
 * The config document both simulators share (source/sim/config-file.ts), through each kind's real socket: a PUT is
 * written to the file at once and applied when the watcher has read it again; without the watcher, or when the
 * file cannot be written, it applies at once; an outside edit the program cannot load is ignored.
 */
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator} from '../../source/sim/simulator.js';
import {parseCapture, rawRequest, waitFor} from './helpers.js';

type Sim = {
	readonly port: number;
	stop(): Promise<void>;
	configText(): string;
	fileText(): string;
	setConfigText(text: string): void;
};

const TOKEN = 'file-token';
const started: Sim[] = [];
const dirs: string[] = [];

afterEach(async () => {
	await Promise.all(started.splice(0).map((sim) => sim.stop()));
	for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true});
});

type Options = {readonly configPath?: string; readonly applyDelayMs?: number};

const KINDS: readonly (readonly [string, (options: Options) => Promise<Sim>])[] = [
	['miner', async (options) => startSimulator({token: TOKEN, restricted: false, seed: 5, ...options})],
	['proxy', async (options) => startSimulator({kind: 'proxy', token: TOKEN, restricted: false, seed: 5, lifeEvents: false, ...options})],
];

function tempFile(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-sim-config-'));
	dirs.push(dir);
	return path.join(dir, 'config.json');
}

async function status(sim: Sim, method: string, token: string, body?: string): Promise<number> {
	const headers: Record<string, string> = {Authorization: `Bearer ${token}`};
	if (body !== undefined) headers['Content-Type'] = 'application/json';
	return parseCapture(await rawRequest(sim.port, {method, path: '/1/config', headers, ...(body === undefined ? {} : {body})})).status;
}

/** The document with a new access token and, when given, "watch" set. */
function changed(text: string, watch?: boolean): string {
	const token = `"access-token": "${TOKEN}"`;
	expect(text).toContain(token);
	expect(text).toContain('"watch": true');
	const next = text.replace(token, '"access-token": "next-token"');
	return watch === undefined ? next : next.replace('"watch": true', `"watch": ${watch}`);
}

describe.each(KINDS)('the %s config file', (_kind, startKind) => {
	const start = async (options: Options): Promise<Sim> => {
		const sim = await startKind(options);
		started.push(sim);
		return sim;
	};

	it('takes a PUT into the file at once and applies it when the watcher has read the file again', async () => {
		const file = tempFile();
		const sim = await start({configPath: file, applyDelayMs: 200});
		const old = sim.configText();
		const next = changed(old);
		expect(await status(sim, 'PUT', TOKEN, next)).toBe(204);
		expect(readFileSync(file, 'utf8')).toBe(next);
		expect(sim.fileText()).toBe(next);
		expect(sim.configText()).toBe(old);
		expect(await status(sim, 'GET', TOKEN)).toBe(200);
		await waitFor(() => sim.configText() === next, 3000, 'the watcher applied it');
		expect(await status(sim, 'GET', 'next-token')).toBe(200);
		expect(await status(sim, 'GET', TOKEN)).toBe(403);
	});

	it('applies a PUT at once with "watch": false in it, or when the file cannot be written', async () => {
		const unwatched = await start({configPath: tempFile(), applyDelayMs: 60_000});
		const next = changed(unwatched.configText(), false);
		expect(await status(unwatched, 'PUT', TOKEN, next)).toBe(204);
		expect(unwatched.configText()).toBe(next);
		expect(await status(unwatched, 'GET', 'next-token')).toBe(200);

		const unwritable = await start({configPath: path.join(tempFile(), 'no-such-folder', 'config.json'), applyDelayMs: 60_000});
		const old = unwritable.fileText();
		const inMemory = changed(unwritable.configText());
		expect(await status(unwritable, 'PUT', TOKEN, inMemory)).toBe(204);
		expect(unwritable.configText()).toBe(inMemory);
		expect(unwritable.fileText()).toBe(old);
	});

	it('ignores an outside edit it cannot load, keeping the old config; a good one applies at once', async () => {
		const sim = await start({applyDelayMs: 60_000});
		const old = sim.configText();
		sim.setConfigText('{"http": ');
		expect(sim.fileText()).toBe('{"http": ');
		expect(sim.configText()).toBe(old);
		expect(await status(sim, 'GET', TOKEN)).toBe(200);
		const next = changed(old);
		sim.setConfigText(next);
		expect(sim.configText()).toBe(next);
		expect(await status(sim, 'GET', 'next-token')).toBe(200);
	});
});
