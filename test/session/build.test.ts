import {chmod, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {buildSession, namedRigs, whereResult} from '../../source/session/build.js';
import {formatWhere} from '../../source/discovery/where.js';
import type {RunPlan} from '../../source/commands/command.js';
import type {Session} from '../../source/session/session.js';

let dir = '';
let session: Session | null = null;
afterEach(async () => {
	await session?.close();
	session = null;
	if (dir) await rm(dir, {recursive: true, force: true});
	dir = '';
});

/** A live run's plan as the CLI makes it for `--rigs FILE`: no history, no token and no config given. */
function rigsPlan(rigsFile: string): RunPlan {
	return {
		mode: 'live',
		demo: false,
		rigsFile,
		urls: [],
		history: false,
		intervalMs: 2000,
		pausedAlertMs: 600_000,
		tokenFile: undefined,
		tokenFlag: undefined,
		tokenEnv: undefined,
		configPath: undefined,
	} as unknown as RunPlan;
}

describe('--rigs: what is found about one rig is noted on it', () => {
	test("a rig's token file others can read and its token going out in clear are that rig's notes, not the others'", async () => {
		dir = await mkdtemp(path.join(tmpdir(), 'rigtop-build-session-'));
		const token = path.join(dir, 'garage.token');
		await writeFile(token, 'garage-secret-token\n');
		await chmod(token, 0o644);
		const rigs = path.join(dir, 'rigs.json');
		await writeFile(
			rigs,
			JSON.stringify([
				{name: 'attic', url: '127.0.0.1:18081'},
				{name: 'garage', url: '10.0.0.7:18088', tokenFile: 'garage.token'},
			]),
		);
		const plan = rigsPlan(rigs);
		const warned: string[] = [];
		session = await buildSession(plan, (line) => warned.push(line));
		const [attic, garage] = session.miners;
		expect(attic?.target.notes ?? []).toEqual([]);
		expect(garage?.target.notes).toEqual([
			expect.stringMatching(/^rig garage: tokenFile can be read by other users \(mode \d+\): chmod 600 \//),
			expect.stringMatching(/sent to 10\.0\.0\.7:18088 without encryption/),
		]);
		// Everything is still said on stderr before the screen starts, and nothing holds the token.
		for (const note of garage?.target.notes ?? []) expect(warned).toContain(note);
		expect(JSON.stringify(warned)).not.toContain('garage-secret-token');
	});
});

describe('--rigs with an xmrig-proxy', () => {
	test('a rig of kind "proxy" is a proxy in --where and in the session before it answers', async () => {
		dir = await mkdtemp(path.join(tmpdir(), 'rigtop-build-session-'));
		const rigs = path.join(dir, 'rigs.json');
		await writeFile(
			rigs,
			JSON.stringify([
				{name: 'attic', url: '127.0.0.1:18681'},
				{name: 'front', url: '127.0.0.1:18682', kind: 'proxy'},
			]),
		);
		const plan = rigsPlan(rigs);
		const where = formatWhere(await whereResult(plan));
		expect(where[0]).toBe('rigtop will monitor 1 miner and 1 xmrig-proxy:');
		expect(where).toContain('  attic  http://127.0.0.1:18681');
		expect(where).toContain('  front  http://127.0.0.1:18682  (xmrig-proxy)');
		session = await buildSession(plan, () => {});
		expect(session.miners.map((miner) => miner.target.kind)).toEqual([undefined, 'proxy']);
	});
});

describe('namedRigs: a word is a rig of the file by its name first, an address only when no rig is called so', () => {
	const rigs = [
		{name: '1', url: 'http://10.0.0.1:8080', tokenFile: undefined},
		{name: '2', url: 'http://10.0.0.2:8080', tokenFile: undefined},
		{name: '3', url: 'http://10.0.0.3:8080', tokenFile: undefined},
		{name: 'x:1', url: 'http://10.0.0.4:8080', tokenFile: undefined},
		{name: 'histroy', url: 'http://10.0.0.5:8080', tokenFile: undefined},
	];
	test('rigs named 3, x:1 or like a command are those rigs, not 127.0.0.1:3, x:1 or a typo', () => {
		expect(namedRigs(rigs, ['3'], 'rigs.json')).toEqual({rigs: [rigs[2]], urls: []});
		expect(namedRigs(rigs, ['x:1', '1'], 'rigs.json')).toEqual({rigs: [rigs[0], rigs[3]], urls: []});
		expect(namedRigs(rigs, ['histroy'], 'rigs.json')).toEqual({rigs: [rigs[4]], urls: []});
		// A word no rig is called is an address, beside the named rigs.
		expect(namedRigs(rigs, ['2', '10.0.0.9:8080'], 'rigs.json')).toEqual({rigs: [rigs[1]], urls: ['10.0.0.9:8080']});
		expect(namedRigs(rigs, ['4'], 'rigs.json')).toEqual({rigs, urls: ['4']});
		expect(() => namedRigs(rigs, ['gamma'], 'rigs.json')).toThrow(/"gamma" is no address \(host:port\) and no rig of --rigs rigs\.json/);
		expect(() => namedRigs(rigs.slice(0, 3), ['confg'], 'rigs.json')).toThrow(/or did you mean 'rigtop config'\?/);
	});
});
