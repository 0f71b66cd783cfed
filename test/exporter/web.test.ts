import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import bcrypt from 'bcryptjs';
import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from 'vitest';
import {UsageError} from '../../source/session/errors.js';
import {writeExposition, type Format} from '../../source/exporter/exposition.js';
import {minerFamilies} from '../../source/exporter/families.js';
import {startMetricsServer, targetPath, type MetricsServer} from '../../source/exporter/server.js';
import {prepareServing} from '../../source/exporter/serve.js';
import {readWebConfig, type WebConfig} from '../../source/exporter/web-config.js';
import {bcryptHash, HTPASSWD_HASH, makeCertificate, type Certificate} from './helpers/web.js';

const render = (format: Format) => writeExposition([minerFamilies.up], [['xmrig_up{miner="a",url="http://a:1"} 1\n']], format);

let dir = '';
let server: Certificate;
let client: Certificate;
let hash = '';
beforeAll(() => {
	dir = mkdtempSync(path.join(tmpdir(), 'rigtop-web-'));
	server = makeCertificate(dir, 'server');
	client = makeCertificate(dir, 'client', 'scraper');
	hash = bcryptHash('prometheus', 's3cret pass');
});
afterAll(() => {
	if (dir) rmSync(dir, {recursive: true, force: true});
});

const servers: MetricsServer[] = [];
afterEach(async () => {
	vi.restoreAllMocks();
	await Promise.all(servers.splice(0).map(async (running) => running.close()));
});

async function serve(web: WebConfig | null, token: string | null = null): Promise<MetricsServer> {
	const running = await startMetricsServer({listen: [{host: '127.0.0.1', port: 0, loopback: true}], token, web, render});
	servers.push(running);
	return running;
}

function config(name: string, text: string): string {
	const file = path.join(dir, name);
	writeFileSync(file, text);
	return file;
}

type Answer = {status: number; headers: Record<string, string | string[] | undefined>; body: string};

async function get(url: string, options: https.RequestOptions = {}): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const outgoing = https.request(url, {ca: server.cert, ...options}, (response) => {
			let body = '';
			response.on('data', (chunk: Buffer) => (body += chunk.toString()));
			response.on('end', () => resolve({status: response.statusCode ?? 0, headers: response.headers, body}));
		});
		outgoing.on('error', reject);
		outgoing.end();
	});
}

const basic = (user: string, password: string) => ({Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`});

/** Writes `request` on a plain TCP connection and reads until the server closes it. */
async function raw(port: number, request: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
		let text = '';
		socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
		socket.on('close', () => resolve(text));
		socket.on('error', reject);
	});
}

describe('--web.config.file', () => {
	it('reads the exporter-toolkit format: TLS files beside it, bcrypt users, headers', async () => {
		const file = config(
			'web.yml',
			[
				'tls_server_config:',
				'  cert_file: server.crt',
				`  key_file: ${server.keyFile}`,
				'  min_version: TLS13',
				'http_server_config:',
				'  http2: true',
				'  headers:',
				'    Strict-Transport-Security: max-age=31536000',
				'basic_auth_users:',
				`  prometheus: ${hash}`,
				`  grafana: '${HTPASSWD_HASH}'`,
				'',
			].join('\n'),
		);
		const web = await readWebConfig(file);
		expect(web.tls).toEqual({
			cert: server.cert,
			key: server.key,
			clientAuth: 'NoClientCert',
			clientCa: null,
			minVersion: 'TLSv1.3',
			maxVersion: null,
		});
		expect(web.users).toEqual({prometheus: hash, grafana: HTPASSWD_HASH});
		expect(web.headers).toEqual({'Strict-Transport-Security': 'max-age=31536000'});
		// An empty file, or a TLS section without certificate: plain HTTP, as exporter-toolkit has it.
		expect(await readWebConfig(config('empty.yml', ''))).toEqual({tls: null, users: {}, headers: {}});
		expect((await readWebConfig(config('users.yml', `tls_server_config: {}\nbasic_auth_users:\n  a: ${hash}\n`))).tls).toBeNull();
	});

	it('refuses what it cannot do with one line naming the file and the key', async () => {
		const cases: Array<[string, RegExp]> = [
			['tls_server_config:\n  certfile: server.crt\n', /: unknown key tls_server_config\.certfile$/],
			['basic_auth_user:\n  a: b\n', /: unknown key basic_auth_user$/],
			['tls_server_config:\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n', /tls_server_config\.cipher_suites is not done by rigtop/],
			[
				'basic_auth_users:\n  prometheus: s3cret\n',
				/basic_auth_users\.prometheus is not a bcrypt hash: make one with htpasswd -nBC 10 "prometheus"$/,
			],
			['tls_server_config:\n  cert_file: server.crt\n', /tls_server_config needs key_file/],
			['tls_server_config:\n  cert_file: nope.crt\n  key_file: server.key\n', /tls_server_config\.cert_file \S+nope\.crt: no such file$/],
			[
				'tls_server_config:\n  cert_file: server.crt\n  key_file: client.key\n',
				/the certificate and key cannot be used: .*key values mismatch/,
			],
			[
				'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS14\n',
				/min_version "TLS14": one of TLS10, TLS11, TLS12, TLS13$/,
			],
			[
				'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: RequireAndVerifyClientCert\n',
				/needs client_ca_file$/,
			],
			['http_server_config:\n  headers:\n    Server: rigtop\n', /http_server_config\.headers\.Server cannot be set/],
			['basic_auth_users: [a, b]\n', /basic_auth_users must be a mapping/],
			['a: 1\na: 2\n', /not valid YAML at line 2, column 1: Map keys must be unique/],
		];
		for (const [text, message] of cases) {
			const file = config('bad.yml', text);
			const problem = await readWebConfig(file).catch((error: unknown) => error);
			expect(problem).toBeInstanceOf(UsageError);
			expect((problem as Error).message).toMatch(new RegExp(`^--web\\.config\\.file ${file.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `));
			expect((problem as Error).message).toMatch(message);
			expect((problem as Error).message).not.toContain('\n');
		}

		await expect(readWebConfig(path.join(dir, 'missing.yml'))).rejects.toThrow(/missing\.yml: no such file$/);
	});
});

describe('serving with --web.config.file', () => {
	it('warns when the network can read /metrics, or would carry passwords in clear; not when TLS protects them', async () => {
		const warningsFor = async (text: string, listen: string[]) => {
			const warnings: string[] = [];
			const prepared = await prepareServing(
				{listen, flag: '--listen', tokenFile: undefined, webConfigFile: config('serve.yml', text)},
				(line) => warnings.push(line),
			);
			return {prepared, warnings};
		};

		const users = `basic_auth_users:\n  prometheus: ${hash}\n`;
		const clear = await warningsFor(users, ['127.0.0.1:0', ':0']);
		expect(clear.prepared.listen.map((address) => address.host)).toEqual(['127.0.0.1', '']);
		expect(clear.warnings).toEqual([
			'--listen :0 can be reached from other machines and basic auth passwords cross the network in clear text: add tls_server_config to --web.config.file',
		]);
		expect((await warningsFor(users, ['127.0.0.1:0'])).warnings).toEqual([]);
		const secured = await warningsFor(`tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n${users}`, [':0']);
		expect(secured.warnings).toEqual([]);
		expect(secured.prepared.web?.tls?.cert).toBe(server.cert);
		expect((await warningsFor('', [':0'])).warnings[0]).toMatch(
			/^--listen :0 can be reached from other machines and \/metrics is not protected/,
		);
	});
});

describe('the metrics server with TLS and basic auth', () => {
	const webOf = async (text: string) => readWebConfig(config('web.yml', text));
	const full = () =>
		webOf(
			`tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nhttp_server_config:\n  headers:\n    X-Frame-Options: deny\nbasic_auth_users:\n  prometheus: ${hash}\n  grafana: '${HTPASSWD_HASH}'\n`,
		);

	it('serves HTTPS; refuses a missing or wrong password with 401 and WWW-Authenticate, on every path', async () => {
		const running = await serve(await full());
		expect(running.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/metrics$/);
		for (const headers of [{}, basic('prometheus', 'wrong'), basic('nobody', 's3cret pass'), {Authorization: 'Bearer s3cret pass'}]) {
			const refused = await get(running.url, {headers});
			expect(refused.status).toBe(401);
			expect(refused.headers['www-authenticate']).toBe('Basic realm="rigtop", charset="UTF-8"');
			expect(refused.body).not.toContain('xmrig_up');
			expect(refused.body).not.toContain('s3cret');
		}

		expect((await get(running.url.replace('/metrics', '/'))).status).toBe(401);
		const allowed = await get(running.url, {headers: basic('prometheus', 's3cret pass')});
		expect(allowed.status).toBe(200);
		expect(allowed.body).toBe(render('text'));
		expect(allowed.headers['x-frame-options']).toBe('deny');
		// The hash htpasswd made, as node_exporter's users have it.
		expect((await get(running.url, {headers: basic('grafana', 'correct horse')})).status).toBe(200);
	});

	it('compares a right password with bcrypt once, then remembers it', async () => {
		const running = await serve(await full());
		const compare = vi.spyOn(bcrypt, 'compare');
		for (let scrape = 0; scrape < 3; scrape++) {
			expect((await get(running.url, {headers: basic('prometheus', 's3cret pass')})).status).toBe(200);
		}

		expect(compare).toHaveBeenCalledTimes(1);
		expect((await get(running.url, {headers: basic('prometheus', 's3cret pasS')})).status).toBe(401);
		expect(compare).toHaveBeenCalledTimes(2);
	});

	it('a flood of wrong passwords is refused without queueing a comparison for each; the remembered one still gets in', async () => {
		const running = await serve(await full());
		expect((await get(running.url, {headers: basic('prometheus', 's3cret pass')})).status).toBe(200);
		// Each comparison held a second, as a slow machine makes a cost-10 bcrypt: the 30 guesses arrive while the first
		// ones still wait, whatever this machine's speed (without the hold, a fast one finished them as they came).
		const original = bcrypt.compare.bind(bcrypt);
		const compare = vi.spyOn(bcrypt, 'compare').mockImplementation(async (password: string, hashed: string) => {
			await new Promise((resolve) => setTimeout(resolve, 1000));
			return original(password, hashed);
		});
		const guesses = await Promise.all(
			Array.from({length: 30}, async (_, index) => get(running.url, {headers: basic('prometheus', `guess ${index}`)})),
		);
		expect(guesses.map((answer) => answer.status)).toEqual(Array.from({length: 30}, () => 401));
		expect(compare.mock.calls.length).toBeLessThan(30);
		expect((await get(running.url, {headers: basic('prometheus', 's3cret pass')})).status).toBe(200);
	});

	it('takes the bearer token or a user when both are set, each challenge named', async () => {
		const running = await serve(await full(), 'token-9f8e');
		const refused = await get(running.url);
		expect(refused.headers['www-authenticate']).toBe('Basic realm="rigtop", charset="UTF-8", Bearer realm="rigtop"');
		expect((await get(running.url, {headers: {Authorization: 'Bearer token-9f8e'}})).status).toBe(200);
		expect((await get(running.url, {headers: basic('prometheus', 's3cret pass')})).status).toBe(200);
	});

	it('answers plain HTTP on the TLS port with 400 and closes, as Go does', async () => {
		const running = await serve(await full());
		const answer = await raw(running.port, 'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n');
		expect(answer).toMatch(/^HTTP\/1\.0 400 Bad Request\r\n/);
		expect(answer).toContain('Client sent an HTTP request to an HTTPS server.');
	});

	it('basic auth without TLS works over plain HTTP', async () => {
		const running = await serve(await webOf(`basic_auth_users:\n  prometheus: ${hash}\n`));
		expect(running.url).toMatch(/^http:\/\//);
		const auth = basic('prometheus', 's3cret pass').Authorization;
		expect(await raw(running.port, `GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 401 /);
		expect(await raw(running.port, `GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nConnection: close\r\n\r\n`)).toMatch(
			/^HTTP\/1\.1 200 [^]*xmrig_up\{/,
		);
	});

	it('client_auth_type RequireAndVerifyClientCert: only a client with a certificate of client_ca_file gets in', async () => {
		const running = await serve(
			await webOf(
				'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: client.crt\n',
			),
		);
		await expect(get(running.url)).rejects.toThrow();
		const other = makeCertificate(dir, 'other', 'intruder');
		await expect(get(running.url, {cert: other.cert, key: other.key})).rejects.toThrow();
		expect((await get(running.url, {cert: client.cert, key: client.key})).status).toBe(200);
	});

	it('refuses a TLS version below min_version', async () => {
		const running = await serve(await webOf('tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS13\n'));
		await expect(get(running.url, {maxVersion: 'TLSv1.2'})).rejects.toThrow();
		const socket = tls.connect({port: running.port, host: '127.0.0.1', ca: server.cert, servername: 'localhost'});
		await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
		expect(socket.getProtocol()).toBe('TLSv1.3');
		socket.destroy();
	});
});

describe('request targets', () => {
	it('reads the absolute form as its path', () => {
		expect(targetPath('/metrics?x=1')).toBe('/metrics');
		expect(targetPath('http://127.0.0.1:9189/metrics')).toBe('/metrics');
		expect(targetPath('HTTP://rig:9189/metrics?a')).toBe('/metrics');
		expect(targetPath('https://[::1]:9189/')).toBe('/');
	});

	it('GET http://host/metrics is served like GET /metrics', async () => {
		const running = await serve(null);
		const answer = await raw(
			running.port,
			`GET http://127.0.0.1:${running.port}/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
		);
		expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
		expect(answer.endsWith(render('text'))).toBe(true);
	});
});

describe('a reload (SIGHUP) of the web config', () => {
	it('takes new users, token and certificate at the next request; TLS cannot be turned off; nothing changes then', async () => {
		const first = await readWebConfig(
			config(
				'reload-1.yml',
				`tls_server_config:\n  cert_file: ${server.certFile}\n  key_file: ${server.keyFile}\nbasic_auth_users:\n  prometheus: ${hash}\n`,
			),
		);
		const running = await serve(first);
		expect((await get(running.url, {headers: basic('prometheus', 's3cret pass')})).status).toBe(200);

		const other = makeCertificate(dir, 'other');
		const next = await readWebConfig(
			config(
				'reload-2.yml',
				`tls_server_config:\n  cert_file: ${other.certFile}\n  key_file: ${other.keyFile}\nbasic_auth_users:\n  scraper: ${bcryptHash('scraper', 'new pass')}\n`,
			),
		);
		running.update({token: null, web: next});
		// On new connections: the old user is refused, the new one served, over the new certificate (the old CA no longer
		// verifies it).
		expect((await get(running.url, {agent: false, ca: other.cert, headers: basic('prometheus', 's3cret pass')})).status).toBe(401);
		expect((await get(running.url, {agent: false, ca: other.cert, headers: basic('scraper', 'new pass')})).status).toBe(200);
		await expect(get(running.url, {agent: false, headers: basic('scraper', 'new pass')})).rejects.toThrow();

		expect(() => running.update({token: null, web: null})).toThrow('TLS cannot be turned off by a reload: restart the exporter');
		expect((await get(running.url, {agent: false, ca: other.cert, headers: basic('scraper', 'new pass')})).status).toBe(200);
	});
});
