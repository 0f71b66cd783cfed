/**
 * End to end on the real /proc: a real child process named `xmrig` (a `#!node` script, so the
 * kernel calls it xmrig) reads its config like XMRig, listens on a random port (`"port": 0`), and
 * discovery must find that port and the token from its config — then the API answers with it.
 * Two stand-ins: the project's simulated miner (source/sim/main.ts, bundled here with esbuild as
 * scripts/build.mjs does) and a tiny node:http server that reads the config the same way.
 */

import {spawn, type ChildProcess} from 'node:child_process';
import {chmod, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {request} from 'node:http';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {build} from 'esbuild';
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {resolveTargets} from '../../source/discovery/discover.js';
import {formatWhere} from '../../source/discovery/where.js';

const TOKEN = 'e2e-token-7f3a9c';
const onLinux = process.platform === 'linux';

/**
 * A stand-in for xmrig: `-c PATH` / `--config=PATH`, else config.json beside itself; serves
 * GET /1/summary behind the Bearer token; prints XMRig's startup line once listening.
 */
const STAND_IN = String.raw`
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const args = process.argv.slice(2);
let file = path.join(__dirname, 'config.json');
for (let i = 0; i < args.length; i++) {
	if (args[i] === '-c' || args[i] === '--config') file = path.resolve(args[++i]);
	else if (args[i].startsWith('--config=')) file = path.resolve(args[i].slice(9));
}
const config = JSON.parse(fs.readFileSync(file, 'utf8')).http;
const server = http.createServer((req, res) => {
	const ok = config['access-token'] === null || req.headers.authorization === 'Bearer ' + config['access-token'];
	res.writeHead(ok ? 200 : 401, {'Content-Type': 'application/json', Connection: 'close'});
	res.end(ok ? JSON.stringify({worker_id: 'stand-in', version: '6.26.0'}) : '{"status":401,"error":"UNAUTHORIZED"}');
});
server.listen(config.port, config.host, () => process.stdout.write('HTTP API ' + config.host + ':' + server.address().port + '\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

let dir: string;
let child: ChildProcess | null;

beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), 'rigtop-e2e-discovery-'));
	child = null;
});
afterEach(async () => {
	if (child && child.exitCode === null) {
		const exited = new Promise((resolve) => child?.once('exit', resolve));
		child.kill('SIGTERM');
		await exited;
	}
	await rm(dir, {recursive: true, force: true});
});

/** Writes `<dir>/xmrig` (a `#!node` script with `body`) and config.json (port 0), starts `./xmrig ARGS` in dir. */
async function startXmrig(body: string, args: readonly string[], config: unknown = defaultConfig()): Promise<number> {
	const script = path.join(dir, 'xmrig');
	await writeFile(script, `#!${process.execPath}\n${body}`);
	await chmod(script, 0o755);
	await writeFile(path.join(dir, 'config.json'), JSON.stringify(config, null, 4));
	const started = spawn('./xmrig', [...args], {cwd: dir, stdio: ['ignore', 'pipe', 'inherit']});
	child = started;
	return new Promise<number>((resolve, reject) => {
		let output = '';
		started.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const match = /HTTP API 127\.0\.0\.1:(\d+)/.exec(output);
			if (match?.[1]) resolve(Number(match[1]));
		});
		started.once('exit', (code) => reject(new Error(`xmrig stand-in exited early (${code})`)));
		started.once('error', reject);
	});
}

function defaultConfig(): unknown {
	return {http: {enabled: true, host: '127.0.0.1', port: 0, 'access-token': TOKEN, restricted: true}, pools: [{url: 'pool.invalid:3333'}]};
}

async function startStandIn(args: readonly string[]): Promise<number> {
	return startXmrig(STAND_IN, args);
}

function get(url: string, token: string | null, apiPath = '/1/summary'): Promise<number> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string> = token === null ? {} : {Authorization: `Bearer ${token}`};
		const req = request(`${url}${apiPath}`, {headers}, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
		req.end();
	});
}

describe.runIf(onLinux)('a real miner process on this machine', () => {
	it('-c config.json with port 0: its real random port and the token from its config', async () => {
		const port = await startStandIn(['-c', 'config.json']);
		const result = await resolveTargets({homeDir: dir, cwd: dir});
		const target = result.targets.find((candidate) => candidate.url === `http://127.0.0.1:${port}`);
		expect(target).toBeDefined();
		expect(target?.token).toBe(TOKEN);
		expect(target?.provenance.url.detail).toMatch(
			new RegExp(`^process ${child?.pid} \\(.*xmrig -c config\\.json\\), listening on 127\\.0\\.0\\.1:${port}$`),
		);
		expect(target?.provenance.token).toEqual({
			kind: 'config-file',
			detail: `${path.join(dir, 'config.json')} (the config of process ${child?.pid})`,
			borrowed: true,
		});
		expect(await get(target?.url ?? '', target?.token ?? null)).toBe(200);
		expect(formatWhere(result).join('\n')).not.toContain(TOKEN);
	});

	it('no -c: config.json beside the binary', async () => {
		const port = await startStandIn([]);
		const result = await resolveTargets({homeDir: dir, cwd: '/'});
		const target = result.targets.find((candidate) => candidate.url === `http://127.0.0.1:${port}`);
		expect(target?.token).toBe(TOKEN);
		expect(await get(target?.url ?? '', target?.token ?? null)).toBe(200);
	});

	it('--config with port 0: the port comes from the process that runs with that file', async () => {
		const port = await startStandIn(['--config=config.json']);
		const result = await resolveTargets({configPath: path.join(dir, 'config.json'), homeDir: dir});
		expect(result.targets.map((target) => target.url)).toEqual([`http://127.0.0.1:${port}`]);
		expect(result.targets[0]?.token).toBe(TOKEN);
		expect(result.problems).toEqual([]);
	});
});

describe.runIf(onLinux)('the simulated miner (source/sim/main.ts) running as xmrig', () => {
	let bundleDir: string;
	let bundle: string;
	beforeAll(async () => {
		bundleDir = await mkdtemp(path.join(tmpdir(), 'rigtop-sim-bundle-'));
		bundle = path.join(bundleDir, 'xmrig-sim.mjs');
		await build({
			entryPoints: [path.join(import.meta.dirname, '..', '..', 'source', 'sim', 'main.ts')],
			outfile: bundle,
			bundle: true,
			platform: 'node',
			format: 'esm',
			target: 'node22',
			// jsonc-parser's UMD main has require()s esbuild cannot follow; its ESM build is what rigtop bundles too.
			mainFields: ['module', 'main'],
			logLevel: 'silent',
		});
	});
	afterAll(async () => {
		await rm(bundleDir, {recursive: true, force: true});
	});

	it('a real 6.26 config with "port": 0: discovery finds the random port and the config\'s token, and the sim accepts them', async () => {
		const fixture = path.join(import.meta.dirname, '..', 'fixtures', 'xmrig-configs', 'v6.26', 'config_restricted_as_written.json');
		const config = JSON.parse(await readFile(fixture, 'utf8')) as {http: Record<string, unknown>};
		config.http['port'] = 0;
		config.http['access-token'] = TOKEN;
		const port = await startXmrig(`import(${JSON.stringify(bundle)});`, ['-c', 'config.json'], config);
		const result = await resolveTargets({homeDir: dir, cwd: dir});
		const target = result.targets.find((candidate) => candidate.url === `http://127.0.0.1:${port}`);
		expect(target?.token).toBe(TOKEN);
		expect(target?.provenance.token?.detail).toBe(`${path.join(dir, 'config.json')} (the config of process ${child?.pid})`);
		expect(await get(target?.url ?? '', target?.token ?? null, '/2/summary')).toBe(200);
		expect(await get(target?.url ?? '', null, '/2/summary')).toBe(401);
	});
});
