/**
 * Replays the request sequences recorded against real XMRig 6.26 and 2.16 builds (index.tsv of each
 * capture folder) against the simulator set up the same way, and compares each answer with the capture:
 * the status always; every byte for answers whose content does not depend on the rig (errors, 204,
 * OPTIONS, favicon, JSON-RPC, the config document); headers and document shape for live JSON.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {startSimulator, type SimOptions, type Simulator} from '../../source/sim/simulator.js';
import {authorization, fixture, keyPaths, manualClock, parseCapture, rawRequest, readIndex, waitFor, type IndexRow} from './helpers.js';

let sim: Simulator | null = null;

afterEach(async () => {
	await sim?.stop();
	sim = null;
});

const frozen = (): Pick<SimOptions, 'clock'> => ({clock: manualClock().clock});

function requestBody(folder: string, row: IndexRow, port: number, capturedPort: number): string | undefined {
	if (row.bodyFile === null) return undefined;
	// Request bodies live in v6.26/requests (2.16 was sent the same JSON-RPC bodies); config bodies name the captured port.
	const local = `${folder.split('/')[0]}/requests/${row.bodyFile}`;
	let text: string;
	try {
		text = fixture(local);
	} catch {
		text = fixture(`v6.26/requests/${row.bodyFile}`);
	}
	return text.replaceAll(`"port": ${capturedPort}`, `"port": ${port}`);
}

async function send(server: Simulator, folder: string, row: IndexRow, token: string, capturedPort: number): Promise<string> {
	const headers: Record<string, string> = {};
	const auth = authorization(row.auth, token);
	if (auth !== null) headers['Authorization'] = auth;
	if (row.contentType !== null) headers['Content-Type'] = row.contentType;
	const body = requestBody(folder, row, server.port, capturedPort);
	return rawRequest(server.port, {method: row.method, path: row.path, headers, ...(body === undefined ? {} : {body})});
}

/** Compares one simulated answer with its capture, as strictly as the answer's content allows. */
function compare(folder: string, row: IndexRow, raw: string): void {
	const ours = parseCapture(raw);
	expect(ours.status, `${folder}/${row.name} status`).toBe(row.status);
	const theirs = parseCapture(fixture(`${folder}/${row.name}.txt`));
	if (row.method === 'HEAD') {
		// curl -i does not read a body after HEAD; the headers (with the Content-Length of the unread body) must match.
		expect(ours.head, row.name).toBe(theirs.head);
		return;
	}
	const live = ours.status === 200 && !row.path.endsWith('/config') && row.method === 'GET';
	if (!live) {
		expect(ours.raw, `${folder}/${row.name}`).toBe(theirs.raw);
		return;
	}
	const withoutLength = (headers: Capture['headers']): string[] =>
		headers.filter(([name]) => name !== 'Content-Length').map(([n, v]) => `${n}: ${v}`);
	expect(withoutLength(ours.headers), row.name).toEqual(withoutLength(theirs.headers));
	expect(keyPaths(JSON.parse(ours.body)), row.name).toEqual(keyPaths(JSON.parse(theirs.body)));
}

type Capture = ReturnType<typeof parseCapture>;

/**
 * A successful GET of the config. Before any PUT the simulator serves the very file the miner saved, so the
 * answer must equal the capture byte for byte. After a PUT it serves the document as sent (the real miner
 * re-writes it in its own layout): the text must be the body that was PUT, and mean the same as the capture.
 */
function checkConfigDocument(folder: string, row: IndexRow, raw: string, port: number, capturedPort: number): boolean {
	if (row.method !== 'GET' || !row.path.endsWith('/config') || row.status !== 200) return false;
	const ours = parseCapture(raw);
	const theirs = parseCapture(fixture(`${folder}/${row.name}.txt`));
	expect(ours.status, row.name).toBe(200);
	const body = ours.body.replaceAll(`"port": ${port}`, `"port": ${capturedPort}`);
	if (row.name.includes('after_put_modified')) {
		expect(body, row.name).toBe(fixture(`${folder}/requests/put_body_modified.json`));
		expect(JSON.parse(body), row.name).toEqual(JSON.parse(theirs.body));
	} else {
		expect(ours.raw.replace(/Content-Length: \d+/, '').replaceAll(`"port": ${port}`, `"port": ${capturedPort}`), row.name).toBe(
			theirs.raw.replace(/Content-Length: \d+/, ''),
		);
	}
	return true;
}

describe('auth and routing matrix of each API mode (replayed captures)', () => {
	const modes: {folder: string; options: SimOptions}[] = [
		{folder: 'v6.26/restricted', options: {dialect: '6', token: 'testtoken', restricted: true}},
		{folder: 'v6.26/restricted-notoken', options: {dialect: '6', token: null, restricted: true}},
		{folder: 'v6.26/notoken-unrestricted', options: {dialect: '6', token: null, restricted: false}},
		{folder: 'v2.16/restricted', options: {dialect: '2', token: 'testtoken', restricted: true, threads: 1}},
		{folder: 'v2.16/restricted-notoken', options: {dialect: '2', token: null, restricted: true, threads: 1}},
		{folder: 'v2.16/notoken-unrestricted', options: {dialect: '2', token: null, restricted: false, threads: 1}},
	];
	for (const {folder, options} of modes) {
		it(`answers every ${folder} request as the real miner did`, async () => {
			sim = await startSimulator({...options, ...frozen(), seed: 1});
			const rows = readIndex(`${folder}/index.tsv`);
			expect(rows.length).toBeGreaterThan(30);
			for (const row of rows) compare(folder, row, await send(sim, folder, row, 'testtoken', 0));
		});
	}
});

describe('full capture sessions, in order (PUTs, token change, restricted switch)', () => {
	it('6.26: replays the main session', async () => {
		const folder = 'v6.26';
		sim = await startSimulator({
			dialect: '6',
			configText: fixture('v6.26/configs/config_main_as_autosaved_on_start.json'),
			port: 0,
			applyDelayMs: 400, // as XMRig's watcher (~0.5 s): the read "immediately after" must come first, even on a loaded machine
			...frozen(),
			seed: 2,
		});
		let token = 'testtoken';
		for (const row of readIndex(`${folder}/index.tsv`)) {
			if (!row.name.includes('immediately')) {
				const server = sim;
				await waitFor(() => server.configText() === server.fileText(), 2000, `config applied before ${row.name}`);
				await server.settled();
			}
			const raw = await send(sim, folder, row, token, 18090);
			if (row.name === 'get_1_config_immediately_after_put_modified') {
				// The real miner applies `colors` while parsing, before its watcher reloads the rest; the simulator
				// serves the stored document, so only the not-yet-applied rest is compared here.
				const ours = parseCapture(raw);
				expect(ours.status).toBe(200);
				expect(ours.body).toContain('"print-time": 60');
				expect(ours.body).toContain('"huge-pages": true');
				continue;
			}
			if (checkConfigDocument(folder, row, raw, sim.port, 18090)) continue;
			compare(folder, row, raw);
			// The capture sent the old token once more after the change (403), then the new one.
			if (row.name === 'get_1_summary_old_token_after_token_change') token = 'newtoken';
		}
	});

	it('2.16: replays the main session', async () => {
		const folder = 'v2.16';
		sim = await startSimulator({
			dialect: '2',
			configText: fixture('v2.16/configs/config_main_as_autosaved_on_start.json'),
			port: 0,
			applyDelayMs: 20,
			threads: 1,
			...frozen(),
			seed: 3,
		});
		for (const row of readIndex(`${folder}/index.tsv`)) {
			if (!row.name.includes('immediately')) {
				const server = sim;
				await waitFor(() => server.configText() === server.fileText(), 2000, `config applied before ${row.name}`);
			}
			const raw = await send(sim, folder, row, 'testtoken', 18091);
			if (row.name === 'get_1_config_immediately_after_put_modified') {
				expect(parseCapture(raw).status).toBe(200);
				expect(parseCapture(raw).body).toContain('"print-time": 60');
				continue;
			}
			if (checkConfigDocument(folder, row, raw, sim.port, 18091)) continue;
			compare(folder, row, raw);
		}
	});

	it('6.26 watch:false: the PUT is applied before the 204', async () => {
		sim = await startSimulator({dialect: '6', token: 'testtoken', restricted: false, watch: false, applyDelayMs: 60_000, ...frozen()});
		const body = fixture('v6.26/watch-false/requests/put_body_modified.json').replaceAll('"port": 18090', `"port": ${sim.port}`);
		const raw = await rawRequest(sim.port, {
			method: 'PUT',
			path: '/1/config',
			headers: {Authorization: 'Bearer testtoken', 'Content-Type': 'application/json'},
			body,
		});
		expect(raw).toBe(fixture('v6.26/watch-false/put_1_config_modified.txt'));
		expect(sim.configText()).toBe(body);
	});
});
