/**
 * Config writes: PUT/POST of a whole document, the watcher's delayed apply, what an applied document
 * changes (auth, port, API on/off, pool, CPU threads), the file on disk, and outside edits.
 */
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator, type SimOptions, type Simulator} from '../../source/sim/simulator.js';
import {manualClock, parseCapture, rawRequest, waitFor} from './helpers.js';
import {freePort, refused} from '../helpers/raw-server.js';

const started: Simulator[] = [];
const dirs: string[] = [];

afterEach(async () => {
	await Promise.all(started.splice(0).map((sim) => sim.stop()));
	for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true});
});

const TOKEN = 'put-token';
const AUTH = {Authorization: `Bearer ${TOKEN}`};
const JSON_AUTH = {...AUTH, 'Content-Type': 'application/json'};

async function sim(options: SimOptions = {}): Promise<Simulator> {
	const server = await startSimulator({token: TOKEN, restricted: false, seed: 11, ...options});
	started.push(server);
	return server;
}

function edit(text: string, key: string, from: string, to: string): string {
	const before = `"${key}": ${from}`;
	if (!text.includes(before)) throw new Error(`${before} not in document`);
	return text.replace(before, `"${key}": ${to}`);
}

async function put(server: Simulator, body: string, method = 'PUT', urlPath = '/1/config'): Promise<number> {
	const response = await fetch(`${server.url}${urlPath}`, {method, headers: JSON_AUTH, body});
	await response.arrayBuffer();
	return response.status;
}

async function getConfig(server: Simulator, port = server.port): Promise<string> {
	const response = await fetch(`http://127.0.0.1:${port}/1/config`, {headers: AUTH});
	expect(response.status).toBe(200);
	return response.text();
}

async function summary(server: Simulator): Promise<Record<string, unknown>> {
	return (await (await fetch(`${server.url}/1/summary`, {headers: AUTH})).json()) as Record<string, unknown>;
}

describe('PUT /1/config with the watcher on (default)', () => {
	it('answers 204 at once, stores the file, and applies it ~applyDelayMs later', async () => {
		const server = await sim({applyDelayMs: 300});
		const original = server.configText();
		const changed = edit(original, 'donate-level', '1', '2');
		expect(await put(server, changed)).toBe(204);
		expect(server.fileText()).toBe(changed);
		expect(server.configText()).toBe(original);
		expect(await getConfig(server)).toBe(original);
		expect((await summary(server))['donate_level']).toBe(1);
		await waitFor(() => server.configText() === changed, 3000, 'apply');
		expect(await getConfig(server)).toBe(changed);
		expect((await summary(server))['donate_level']).toBe(2);
	});

	it('serves back exactly the text that was PUT, comments and all', async () => {
		const server = await sim({applyDelayMs: 5});
		const commented = `// edited by hand\n${server.configText().replace('"retries": 5,', '"retries": 5, /* was 5 */')}`;
		expect(await put(server, commented)).toBe(204);
		await waitFor(() => server.configText() === commented, 3000, 'apply');
		expect(await getConfig(server)).toBe(commented);
	});

	it('also takes POST /1/config and PUT /2/config', async () => {
		const server = await sim({applyDelayMs: 5});
		// Both edits from the document as it was: the first may have applied before the second is sent.
		const original = server.configText();
		expect(await put(server, edit(original, 'retries', '5', '6'), 'POST')).toBe(204);
		expect(await put(server, edit(original, 'retries', '5', '7'), 'PUT', '/2/config')).toBe(204);
		await waitFor(() => server.configText().includes('"retries": 7'), 3000, 'apply');
	});

	it('debounces: several PUTs within the delay apply the last file once', async () => {
		const server = await sim({applyDelayMs: 150});
		const first = edit(server.configText(), 'donate-level', '1', '3');
		const second = edit(server.configText(), 'donate-level', '1', '4');
		expect(await put(server, first)).toBe(204);
		expect(await put(server, second)).toBe(204);
		await waitFor(() => server.configText() === second, 3000, 'apply');
		expect(server.fileText()).toBe(second);
	});

	it('refuses bad documents with 400 and keeps everything', async () => {
		const server = await sim({applyDelayMs: 5});
		const original = server.configText();
		const cases: [string, unknown][] = [
			['{"colors": true,, "cpu": [1,2,3]', {error: 'Missing a name for object member.', status: 400}],
			['', {status: 400, error: 'BAD_REQUEST'}],
			['{}', {status: 400, error: 'BAD_REQUEST'}],
			['[1, 2]', {status: 400, error: 'BAD_REQUEST'}],
			['{"pools": [{"url": "pool.example.org:443", "enabled": false}]}', {status: 400, error: 'BAD_REQUEST'}],
			['{"pools": [{"url": "ftp://pool.example.org:21"}]}', {status: 400, error: 'BAD_REQUEST'}],
			['   ', {error: 'The document is empty.', status: 400}],
		];
		for (const [body, expected] of cases) {
			const raw = await rawRequest(server.port, {method: 'PUT', path: '/1/config', headers: JSON_AUTH, body});
			const answer = parseCapture(raw);
			expect(answer.status, body).toBe(400);
			expect(JSON.parse(answer.body), body).toEqual(expected);
		}
		expect(server.fileText()).toBe(original);
		expect(server.configText()).toBe(original);
	});

	it('takes a minimal document with one pool, and its missing http section turns the API off', async () => {
		const server = await sim({applyDelayMs: 5});
		const port = server.port;
		expect(await put(server, '{"pools": [{"url": "pool.example.org:3333"}]}')).toBe(204);
		await waitFor(() => refused(port), 3000, 'API off');
		expect(server.listening).toBe(false);
		// Someone fixes the file by hand: the API comes back on the same port.
		server.setConfigText(
			JSON.stringify({http: {enabled: true, port: 0, 'access-token': TOKEN, restricted: false}, pools: [{url: 'pool.example.org:3333'}]}),
		);
		await server.settled();
		expect(server.port).toBe(port);
		expect((await summary(server))['donate_level']).toBe(1);
	});
});

describe('what an applied document changes', () => {
	it('a new token: the old one gets 403, the new one works', async () => {
		const server = await sim({applyDelayMs: 5});
		expect(await put(server, edit(server.configText(), 'access-token', `"${TOKEN}"`, '"other"'))).toBe(204);
		await waitFor(() => server.configText() === server.fileText(), 3000, 'apply');
		expect((await fetch(`${server.url}/1/summary`, {headers: AUTH})).status).toBe(403);
		expect((await fetch(`${server.url}/1/summary`, {headers: {Authorization: 'Bearer other'}})).status).toBe(200);
	});

	it('restricted true: config and writes are forbidden from then on', async () => {
		const server = await sim({applyDelayMs: 5});
		const text = edit(server.configText(), 'restricted', 'false', 'true');
		expect(await put(server, text)).toBe(204);
		await waitFor(() => server.configText() === text, 3000, 'apply');
		expect((await fetch(`${server.url}/1/config`, {headers: AUTH})).status).toBe(403);
		expect(await put(server, text)).toBe(403);
		expect((await summary(server))['restricted']).toBe(true);
	});

	it('a new http.port: the API moves there', async () => {
		const server = await sim({applyDelayMs: 5});
		const oldPort = server.port;
		const newPort = await freePort();
		expect(await put(server, edit(server.configText(), 'port', String(oldPort), String(newPort)))).toBe(204);
		await waitFor(() => server.port === newPort && server.listening, 3000, 'rebind');
		expect(server.url).toBe(`http://127.0.0.1:${newPort}`);
		expect(await refused(oldPort)).toBe(true);
		expect(await getConfig(server, newPort)).toContain(`"port": ${newPort}`);
	});

	it('a new pool: the connection starts over on it (plain TCP, no TLS)', async () => {
		const clock = manualClock();
		const server = await sim({applyDelayMs: 5, clock: clock.clock, warm: true});
		const before = (await summary(server))['connection'] as Record<string, unknown>;
		expect(before['pool']).toBe('pool.example.org:443');
		expect(before['tls']).toBe('TLSv1.3');
		const text = server
			.configText()
			.replace('"url": "pool.example.org:443"', '"url": "stratum+tcp://10.0.0.5:3333"')
			.replace('"tls": true', '"tls": false');
		expect(await put(server, text)).toBe(204);
		await waitFor(() => server.configText() === text, 3000, 'apply');
		clock.advance(5);
		const after = (await summary(server))['connection'] as Record<string, unknown>;
		expect(after).toMatchObject({pool: '10.0.0.5:3333', ip: '10.0.0.5', uptime: 5, tls: null, 'tls-fingerprint': null});
	});

	it('cpu.huge-pages false: threads restart (windows null again) without huge pages', async () => {
		const clock = manualClock();
		const server = await sim({applyDelayMs: 5, clock: clock.clock, warm: true, threads: 2});
		const backendsBefore = (await (await fetch(`${server.url}/2/backends`, {headers: AUTH})).json()) as [
			{hashrate: unknown[]; hugepages: number[]},
		];
		expect(backendsBefore[0].hashrate.every((v) => typeof v === 'number')).toBe(true);
		expect(backendsBefore[0].hugepages).toEqual([1170, 1170]);
		const text = edit(server.configText(), 'huge-pages', 'true', 'false');
		expect(await put(server, text)).toBe(204);
		await waitFor(() => server.configText() === text, 3000, 'apply');
		const backendsAfter = (await (await fetch(`${server.url}/2/backends`, {headers: AUTH})).json()) as [
			{hashrate: unknown[]; hugepages: number[]},
		];
		expect(backendsAfter[0].hashrate).toEqual([null, null, null]);
		expect(backendsAfter[0].hugepages).toEqual([0, 1170]);
		clock.advance(12);
		const later = (await (await fetch(`${server.url}/2/backends`, {headers: AUTH})).json()) as [{hashrate: (number | null)[]}];
		expect(later[0].hashrate[0]).toBeGreaterThan(0);
		expect(later[0].hashrate[1]).toBeNull();
	});

	it('cpu.rx cut from four threads to one: threads restart, every window null again, then a quarter of the rate', async () => {
		const clock = manualClock();
		const server = await sim({applyDelayMs: 5, clock: clock.clock, warm: true, threads: 4});
		const before = ((await summary(server))['hashrate'] as {total: number[]; highest: number}).total;
		expect(before.every((rate) => rate > 4000)).toBe(true);
		const doc = JSON.parse(server.configText()) as {cpu: Record<string, unknown>};
		expect(doc.cpu['rx']).toEqual([0, 1, 2, 3]);
		doc.cpu['rx'] = [0];
		const text = JSON.stringify(doc, null, 4);
		expect(await put(server, text)).toBe(204);
		await waitFor(() => server.configText() === text, 3000, 'apply');
		const reset = (await summary(server))['hashrate'] as {total: unknown[]; highest: number};
		expect(reset.total).toEqual([null, null, null]);
		clock.advance(12);
		const later = ((await summary(server))['hashrate'] as {total: (number | null)[]}).total;
		expect(later[1]).toBeNull();
		expect(later[0]! / before[0]!).toBeGreaterThan(0.2);
		expect(later[0]! / before[0]!).toBeLessThan(0.3);
		const backends = (await (await fetch(`${server.url}/2/backends`, {headers: AUTH})).json()) as [{threads: unknown[]}];
		expect(backends[0].threads).toHaveLength(1);
	});

	it('cpu.enabled false: no CPU threads, totals 0.0', async () => {
		const server = await sim({applyDelayMs: 5, clock: manualClock().clock, warm: true});
		const text = server.configText().replace('"cpu": {\n        "enabled": true', '"cpu": {\n        "enabled": false');
		expect(text).not.toBe(server.configText());
		expect(await put(server, text)).toBe(204);
		await waitFor(() => server.configText() === text, 3000, 'apply');
		const backends = (await (await fetch(`${server.url}/2/backends`, {headers: AUTH})).json()) as [Record<string, unknown>];
		expect(backends[0]['enabled']).toBe(false);
		expect(backends[0]).not.toHaveProperty('threads');
		expect(((await summary(server))['hashrate'] as {total: unknown}).total).toEqual([0, 0, 0]);
	});
});

describe('the file on disk and the watcher', () => {
	it('watch:false applies before answering', async () => {
		const server = await sim({watch: false, applyDelayMs: 60_000});
		const text = edit(server.configText(), 'donate-level', '1', '5');
		expect(await put(server, text)).toBe(204);
		expect(server.configText()).toBe(text);
	});

	it('a document saying "watch": false is applied at once too', async () => {
		const server = await sim({applyDelayMs: 60_000});
		const text = edit(server.configText(), 'watch', 'true', 'false');
		expect(await put(server, text)).toBe(204);
		expect(server.configText()).toBe(text);
	});

	it('writes each accepted PUT to configPath; an unwritable file still answers 204 and applies in memory', async () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'rigtop-sim-'));
		dirs.push(dir);
		const file = path.join(dir, 'config.json');
		const server = await sim({configPath: file, applyDelayMs: 5});
		const text = edit(server.configText(), 'donate-level', '1', '2');
		expect(await put(server, text)).toBe(204);
		expect(readFileSync(file, 'utf8')).toBe(text);
		await waitFor(() => server.configText() === text, 3000, 'apply');

		const broken = await sim({configPath: path.join(dir, 'missing-dir', 'config.json'), applyDelayMs: 60_000});
		const other = edit(broken.configText(), 'donate-level', '1', '3');
		expect(await put(broken, other)).toBe(204);
		expect(broken.configText()).toBe(other);
		expect(broken.fileText()).not.toBe(other);
	});

	it('an outside edit that XMRig cannot load is ignored, as "reloading failed"', async () => {
		const server = await sim();
		const original = server.configText();
		server.setConfigText('{"broken": ');
		expect(server.fileText()).toBe('{"broken": ');
		expect(server.configText()).toBe(original);
		expect((await summary(server))['donate_level']).toBe(1);
	});

	it('a restart picks up a file the watcher has not applied yet', async () => {
		const server = await sim({applyDelayMs: 60_000});
		const text = edit(server.configText(), 'donate-level', '1', '4');
		expect(await put(server, text)).toBe(204);
		expect(server.configText()).not.toBe(text);
		server.restartMiner();
		expect(server.configText()).toBe(text);
		expect((await summary(server))['donate_level']).toBe(4);
	});
});

describe('keys a miner does not know', () => {
	/** The 6.x document with a typo'd key in cpu, a junk top-level key, a junk pool key and a new thread profile. */
	function withStrangers(original: string): string {
		const typo = original.replace('"huge-pages": true,', '"huge-pages": true,\n        "hugepages": false,');
		const junk = typo.replace('"colors": true,', '"colors": true,\n    "junk": 1,');
		const pool = junk.replace('"nicehash": false,', '"nicehash": false,\n            "nicehahs": true,');
		const profile = pool.replace('"rx/arq": "rx/wow"', '"rx/arq": "rx/wow",\n        "rx/keva": "rx/wow"');
		expect(profile).not.toBe(pool);
		expect(pool).not.toBe(junk);
		expect(junk).not.toBe(typo);
		expect(typo).not.toBe(original);
		return profile;
	}

	for (const dialect of ['6', '5'] as const) {
		it(`${dialect}.x drops them from a PUT document: the config it serves and saves has everything else as sent`, async () => {
			const server = await sim({dialect, watch: false});
			const original = await getConfig(server);
			const sent = withStrangers(original);
			expect(await put(server, sent)).toBe(204);
			const served = await getConfig(server);
			expect(served).not.toContain('hugepages"');
			expect(served).not.toContain('"junk"');
			expect(served).not.toContain('nicehahs');
			// A thread profile (an algorithm's name) is a key XMRig keeps.
			expect(served).toContain('"rx/keva": "rx/wow"');
			expect(served).toBe(original.replace('"rx/arq": "rx/wow"', '"rx/arq": "rx/wow",\n        "rx/keva": "rx/wow"'));
			expect(server.fileText()).toBe(served);
		});
	}

	it('2.x keeps the document as sent', async () => {
		const server = await sim({dialect: '2', watch: false});
		const original = await getConfig(server);
		const sent = original.replace('"colors": true,', '"colors": true,\n    "junk": 1,');
		expect(sent).not.toBe(original);
		expect(await put(server, sent)).toBe(204);
		expect(await getConfig(server)).toBe(sent);
	});
});
