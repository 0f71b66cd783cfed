/**
 * The built `rigtop exporter` as a service facing a network: a scrape answered while hundreds of idle, silent and
 * dripping connections are held; TLS and basic auth from a node_exporter web config, scraped by a real Prometheus;
 * `--web.listen-address`, several addresses and the log line naming what was really bound; the absolute-form target.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSimulator, type Simulator} from '../../source/sim/simulator.js';
import {eventually, startPrometheus} from '../exporter/helpers/prometheus.js';
import {bcryptHash, makeCertificate, type Certificate} from '../exporter/helpers/web.js';
import {CLI, cliIsBuilt} from './helpers/tmux.js';

let dir = '';
let sim: Simulator;
let certificate: Certificate;
const children: ChildProcess[] = [];

beforeAll(async () => {
	if (!cliIsBuilt()) throw new Error('dist/cli.js is missing: run npm run build first (npm test does)');
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-e2e-web-'));
	certificate = makeCertificate(dir);
	sim = await startSimulator({dialect: '6', warm: true, workerId: 'web-rig'});
});

afterAll(async () => {
	await Promise.all(
		children.map(async (child) => {
			if (child.exitCode !== null || child.signalCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		}),
	);
	await sim?.stop();
	if (dir) rmSync(dir, {recursive: true, force: true});
});

type Exporter = {child: ChildProcess; urls: string[]; log: () => string};

/** Starts the built exporter; resolves with the URLs of its "serving" line. */
async function startExporter(args: readonly string[]): Promise<Exporter> {
	const env = {...process.env};
	delete env['CI'];
	const child = spawn('node', [CLI, 'exporter', ...args, '--interval', '1', sim.url], {env, stdio: ['ignore', 'ignore', 'pipe']});
	children.push(child);
	let log = '';
	return new Promise((resolve, reject) => {
		child.stderr!.on('data', (chunk: Buffer) => {
			log += chunk.toString();
			const match = /serving (.+): 1 miner,/.exec(log);
			if (match) resolve({child, urls: match[1]!.split(' and '), log: () => log});
		});
		child.once('exit', (code) => reject(new Error(`rigtop exporter exited (${code}) before serving:\n${log}`)));
	});
}

type Answer = {status: number; headers: Record<string, string | string[] | undefined>; body: string};

async function get(url: string, options: https.RequestOptions = {}): Promise<Answer> {
	const module = url.startsWith('https:') ? https : await import('node:http');
	return new Promise((resolve, reject) => {
		const outgoing = module.request(url, {ca: certificate.cert, timeout: 10_000, ...options}, (response) => {
			let body = '';
			response.on('data', (chunk: Buffer) => (body += chunk.toString()));
			response.on('end', () => resolve({status: response.statusCode ?? 0, headers: response.headers, body}));
		});
		outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer from ${url} within 10 s`)));
		outgoing.on('error', reject);
		outgoing.end();
	});
}

/** Writes `request` on a connection (TLS when `secure`) and reads until the server closes it. */
async function exchange(port: number, request: string, secure = false): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = secure
			? tls.connect({port, host: '127.0.0.1', ca: certificate.cert}, () => socket.write(request))
			: net.connect(port, '127.0.0.1', () => socket.write(request));
		let text = '';
		socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
		socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
		socket.on('close', () => resolve(text));
		socket.on('error', reject);
	});
}

const portOf = (url: string) => Number(new URL(url).port);
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('rigtop exporter under a flood of connections', () => {
	it('answers every scrape while hundreds of idle, silent and dripping connections are held', async () => {
		const tokenFile = path.join(dir, 'metrics-token');
		writeFileSync(tokenFile, 'flood-token-31c9\n', {mode: 0o600});
		const exporter = await startExporter(['--listen', '127.0.0.1:0', '--metrics-token-file', tokenFile]);
		const port = portOf(exporter.urls[0]!);
		await eventually(
			async () =>
				(await get(exporter.urls[0]!, {headers: {Authorization: 'Bearer flood-token-31c9'}})).body.includes('xmrig_up{') ? true : undefined,
			15_000,
			'the first scrape',
		);

		// 300 connections at any time (the exporter keeps 256): 190 from 12 addresses of 127/8, a third idle after one
		// request, a third silent, a third dripping a byte a second; 80 idle and silent from one address (past its 64);
		// 30 silent from the scraper's own 127.0.0.1. Whatever the exporter closes is opened again until the scrapes
		// are done, so the pressure stays on.
		const kinds = ['idle', 'silent', 'drip'] as const;
		let flooding = true;
		let open = 0;
		let mostOpen = 0;
		const closedByServer = {idle: 0, silent: 0, drip: 0};
		const sockets = new Set<net.Socket>();
		const timers = new Set<NodeJS.Timeout>();
		const hold = (kind: (typeof kinds)[number], from: string) => {
			const socket = net.connect({port, host: '127.0.0.1', localAddress: from});
			sockets.add(socket);
			let connected = false;
			socket.on('error', () => undefined);
			// Read (and drop) what comes, so that the server's close is seen.
			socket.resume();
			socket.once('connect', () => {
				connected = true;
				open++;
				mostOpen = Math.max(mostOpen, open);
				if (kind === 'idle') socket.write('GET / HTTP/1.1\r\nHost: flood\r\n\r\n');
				if (kind === 'drip') {
					socket.write('GET /metrics HTTP/1.1\r\nX-Drip: ');
					const drip = setInterval(() => socket.write('a'), 1000);
					timers.add(drip);
					socket.once('close', () => clearInterval(drip));
				}
			});
			socket.once('close', () => {
				sockets.delete(socket);
				if (connected) open--;
				if (!flooding) return;
				closedByServer[kind]++;
				const again = setTimeout(() => {
					timers.delete(again);
					if (flooding) hold(kind, from);
				}, 250);
				timers.add(again);
			});
		};

		for (let index = 0; index < 190; index++) hold(kinds[index % 3]!, `127.0.${10 + (index % 3)}.${1 + (index % 4)}`);
		for (let index = 0; index < 80; index++) hold(index % 2 === 0 ? 'silent' : 'idle', '127.0.20.1');
		for (let index = 0; index < 30; index++) hold('silent', '127.0.0.1');

		const statuses: number[] = [];
		try {
			// Ten scrapes a second apart: the silent and dripping ones reach their header deadline twice meanwhile.
			for (let round = 0; round < 10; round++) {
				await new Promise((resolve) => setTimeout(resolve, 1000));
				// A new connection each time: the hardest case (a scraper whose connection was closed must get a new one).
				const scrape = await get(exporter.urls[0]!, {headers: {Authorization: 'Bearer flood-token-31c9'}, timeout: 5000, agent: false});
				expect(scrape.body).toContain('xmrig_up{miner=');
				statuses.push(scrape.status);
			}
		} finally {
			flooding = false;
			for (const timer of timers) clearTimeout(timer);
			for (const socket of sockets) socket.destroy();
		}

		expect(statuses).toEqual(Array.from({length: 10}, () => 200));
		// The flood was real: most of the 300 were connected at once; the exporter closed every silent and dripping
		// one (header deadline: 63 + 40 + 30 silent, 63 dripping), and idle ones that had to make way.
		expect(mostOpen).toBeGreaterThan(250);
		expect(closedByServer.silent).toBeGreaterThanOrEqual(133);
		expect(closedByServer.drip).toBeGreaterThanOrEqual(63);
		expect(closedByServer.idle).toBeGreaterThan(0);
		expect(exporter.child.exitCode).toBeNull();
	}, 120_000);
});

describe('rigtop exporter with --web.config.file', () => {
	let exporter: Exporter;
	let hash = '';
	beforeAll(async () => {
		hash = bcryptHash('prometheus', 'correct horse');
		const webConfig = path.join(dir, 'web.yml');
		writeFileSync(
			webConfig,
			`tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  prometheus: ${hash}\n`,
		);
		exporter = await startExporter(['--web.listen-address', '127.0.0.1:0', '--web.config.file', webConfig]);
	});

	it('serves HTTPS with basic auth: 401 and WWW-Authenticate without the password, metrics with it', async () => {
		expect(exporter.urls).toHaveLength(1);
		expect(exporter.urls[0]).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/metrics$/);
		for (const authorization of [undefined, basic('prometheus', 'wrong horse'), basic('grafana', 'correct horse')]) {
			const refused = await get(exporter.urls[0]!, {headers: authorization === undefined ? {} : {Authorization: authorization}});
			expect(refused.status).toBe(401);
			expect(refused.headers['www-authenticate']).toBe('Basic realm="rigtop", charset="UTF-8"');
		}

		const scraped = await eventually(
			async () => {
				const answer = await get(exporter.urls[0]!, {headers: {Authorization: basic('prometheus', 'correct horse')}});
				return answer.body.includes('xmrig_up{') ? answer : undefined;
			},
			15_000,
			'metrics over HTTPS with the password',
		);
		expect(scraped.status).toBe(200);
	});

	it('answers plain HTTP on its TLS port with 400 at once instead of hanging', async () => {
		const answer = await exchange(portOf(exporter.urls[0]!), 'GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
		expect(answer).toMatch(/^HTTP\/1\.0 400 Bad Request\r\n[^]*Client sent an HTTP request to an HTTPS server\.\n$/);
	});

	it('serves GET https://host/metrics (the absolute form) like GET /metrics', async () => {
		const port = portOf(exporter.urls[0]!);
		const answer = await exchange(
			port,
			`GET https://127.0.0.1:${port}/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic('prometheus', 'correct horse')}\r\nConnection: close\r\n\r\n`,
			true,
		);
		expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*xmrig_up\{miner=/);
	});

	it('a real Prometheus scrapes it through TLS and basic auth; a wrong password is its 401', async () => {
		const target = new URL(exporter.urls[0]!).host;
		const job = (name: string, password: string) => [
			`  - job_name: ${name}`,
			'    scheme: https',
			'    tls_config:',
			'      ca_file: ca.crt',
			'    basic_auth:',
			'      username: prometheus',
			`      password: '${password}'`,
			'    static_configs:',
			`      - targets: ['${target}']`,
		];
		const prometheus = await startPrometheus(
			[
				'global:',
				'  scrape_interval: 1s',
				'scrape_configs:',
				...job('rigtop-tls', 'correct horse'),
				...job('rigtop-wrong', 'wrong horse'),
				'',
			].join('\n'),
			{'ca.crt': certificate.cert},
		);
		try {
			const instant = async (query: string) =>
				(await prometheus.api<{result: Array<{metric: Record<string, string>; value: [number, string]}>}>('query', {query})).result;
			const up = await eventually(
				async () => {
					const result = await instant('xmrig_up{job="rigtop-tls"}');
					return result.length === 1 && result[0]!.value[1] === '1' ? result : undefined;
				},
				30_000,
				'xmrig_up scraped through TLS and basic auth',
			);
			expect(up[0]!.metric['miner']).toBeDefined();
			expect((await instant('up{job="rigtop-tls"}')).map((sample) => sample.value[1])).toEqual(['1']);
			expect((await instant('count(xmrig_hashrate_hashes_per_second{job="rigtop-tls"})'))[0]?.value[1]).toBe('3');
			const wrong = await eventually(
				async () => {
					const data = await prometheus.api<{activeTargets: Array<{labels: Record<string, string>; health: string; lastError: string}>}>(
						'targets',
					);
					const found = data.activeTargets.find((item) => item.labels['job'] === 'rigtop-wrong');
					// Down with its 401: on a loaded machine a scrape can also end at Prometheus's own 1 s timeout first.
					return found?.health === 'down' && found.lastError.includes('401') ? found : undefined;
				},
				30_000,
				'the target with the wrong password to be down with a 401',
			);
			expect(wrong.lastError).toMatch(/401/);
			expect(await instant('xmrig_up{job="rigtop-wrong"}')).toEqual([]);
		} finally {
			await prometheus.stop();
		}

		// Neither the password nor its hash ever reaches the log.
		expect(exporter.log()).not.toContain('correct horse');
		expect(exporter.log()).not.toContain(hash);
	}, 90_000);

	it('refuses a web config with an unknown key, naming it, exit 2', async () => {
		const bad = path.join(dir, 'bad-web.yml');
		writeFileSync(bad, 'tls_server_config:\n  certfile: server.crt\n');
		const env = {...process.env};
		delete env['CI'];
		const child = spawn('node', [CLI, 'exporter', '--web.config.file', bad, sim.url], {env, stdio: ['ignore', 'ignore', 'pipe']});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const code = await new Promise((resolve) => child.once('exit', resolve));
		expect(code).toBe(2);
		expect(stderr).toBe(`rigtop: --web.config.file ${bad}: unknown key tls_server_config.certfile\nRun rigtop --help for usage.\n`);
	});
});

describe('rigtop exporter listen addresses', () => {
	it('--web.listen-address and --listen, several; :PORT binds every interface and the log names what was bound', async () => {
		const ipv6 = await new Promise<boolean>((resolve) => {
			const probe = net.createServer();
			probe.once('error', () => resolve(false));
			probe.listen({host: '::1', port: 0}, () => probe.close(() => resolve(true)));
		});
		const exporter = await startExporter(['--web.listen-address', ':0', '--listen', '127.0.0.1:0']);
		expect(exporter.urls).toHaveLength(2);
		const [every, loopback] = exporter.urls as [string, string];
		expect(every).toMatch(ipv6 ? /^http:\/\/\[::\]:\d+\/metrics$/ : /^http:\/\/0\.0\.0\.0:\d+\/metrics$/);
		expect(loopback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
		// Nothing protects it, and it is reachable from other machines: said once.
		expect(exporter.log()).toMatch(
			/^ts=\S+Z level=warn msg="--listen :0 can be reached from other machines and \/metrics is not protected/m,
		);

		const port = portOf(every);
		const urls = [`http://127.0.0.1:${port}/metrics`, loopback, ...(ipv6 ? [`http://[::1]:${port}/metrics`] : [])];
		for (const url of urls) {
			const answer = await eventually(
				async () => {
					const got = await get(url);
					return got.body.includes('xmrig_up{') ? got : undefined;
				},
				15_000,
				`metrics at ${url}`,
			);
			expect(answer.status).toBe(200);
		}

		// The absolute form over plain HTTP, as a proxy would send it.
		const loopbackPort = portOf(loopback);
		const answer = await exchange(
			loopbackPort,
			`GET http://127.0.0.1:${loopbackPort}/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
		);
		expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*xmrig_up\{miner=/);
	});
});
