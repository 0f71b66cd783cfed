/**
 * A real xmrig-proxy process on this machine (a stand-in named xmrig-proxy that serves its API and listens on a
 * `bind` port for miners, as the real one does): discovery gives its API address, never its bind port, and says it
 * is an xmrig-proxy in --where.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {chmod, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {resolveTargets} from '../../source/discovery/discover.js';
import {formatWhere} from '../../source/discovery/where.js';

const onLinux = process.platform === 'linux';
const TOKEN = 'proxy-token-5d1e';

/** Listens on its `bind` port (miners) and on http.port (its API, 0: a random one it prints as xmrig-proxy does). */
const STAND_IN = String.raw`
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');
const config = JSON.parse(fs.readFileSync(path.join(__dirname, 'config.json'), 'utf8'));
const [host, port] = config.bind[0].split(':');
const stratum = net.createServer((socket) => socket.end()).listen(Number(port), host);
const api = http.createServer((req, res) => {
	res.writeHead(200, {'Content-Type': 'application/json', Connection: 'close'});
	res.end(JSON.stringify({kind: 'proxy', version: '6.26.0'}));
});
api.listen(config.http.port, config.http.host, () => process.stdout.write('HTTP API ' + config.http.host + ':' + api.address().port + '\n'));
process.on('SIGTERM', () => { stratum.close(); api.close(() => process.exit(0)); });
`;

let dir: string;
let child: ChildProcess | null = null;

beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), 'rigtop-proxy-discovery-'));
});
afterEach(async () => {
	if (child && child.exitCode === null) {
		const exited = new Promise((resolve) => child?.once('exit', resolve));
		child.kill('SIGTERM');
		await exited;
	}
	child = null;
	await rm(dir, {recursive: true, force: true});
});

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

describe.runIf(onLinux)('an xmrig-proxy process found on this machine', () => {
	it('gives its API address, not its bind port, and --where says xmrig-proxy', async () => {
		const bind = await freePort();
		const script = path.join(dir, 'xmrig-proxy');
		await writeFile(script, `#!${process.execPath}\n${STAND_IN}`);
		await chmod(script, 0o755);
		const config = {
			bind: [`127.0.0.1:${bind}`],
			http: {enabled: true, host: '127.0.0.1', port: 0, 'access-token': TOKEN, restricted: true},
			pools: [{url: 'pool.invalid:3333', pass: 'pool-secret-9'}],
		};
		await writeFile(path.join(dir, 'config.json'), JSON.stringify(config, null, 4));
		const started = spawn('./xmrig-proxy', [], {cwd: dir, stdio: ['ignore', 'pipe', 'inherit']});
		child = started;
		const api = await new Promise<number>((resolve, reject) => {
			let output = '';
			started.stdout?.on('data', (chunk: Buffer) => {
				output += chunk.toString();
				const match = /HTTP API 127\.0\.0\.1:(\d+)/.exec(output);
				if (match?.[1]) resolve(Number(match[1]));
			});
			started.once('exit', (code) => reject(new Error(`xmrig-proxy stand-in exited early (${code})`)));
		});

		const result = await resolveTargets({homeDir: dir, cwd: dir});
		const mine = result.targets.filter((target) => target.provenance.url.detail.includes(`process ${started.pid}`));
		expect(mine.map((target) => target.url)).toEqual([`http://127.0.0.1:${api}`]);
		expect(mine[0]?.kind).toBe('proxy');
		expect(mine[0]?.token).toBe(TOKEN);
		const where = formatWhere({...result, targets: mine}).join('\n');
		expect(where).toContain(`http://127.0.0.1:${api}  (xmrig-proxy)`);
		expect(where).toMatch(/^rigtop will monitor 1 xmrig-proxy:/);
		expect(where).toContain('xmrig-proxy');
		expect(where).not.toContain(String(bind));
		expect(where).not.toContain(TOKEN);
		expect(where).not.toContain('pool-secret-9');

		// The address given on the command line: the proxy listening there says what it is too.
		const given = await resolveTargets({urls: [`127.0.0.1:${api}`], homeDir: dir, cwd: dir});
		expect(given.targets[0]?.kind).toBe('proxy');
	});
});
