import {request} from 'node:http';
import {gunzipSync} from 'node:zlib';
import {afterEach, describe, expect, it} from 'vitest';
import {familyHeader, negotiateFormat, writeExposition, type Format} from '../../source/exporter/exposition.js';
import {minerFamilies, processFamilies} from '../../source/exporter/families.js';
import {parseListen} from '../../source/exporter/listen.js';
import {startMetricsServer, type MetricsServer} from '../../source/exporter/server.js';
import {UsageError} from '../../source/session/errors.js';

/** What Prometheus 2.x sends (scrape.go acceptHeader) and what curl sends. */
const PROMETHEUS_ACCEPT =
	'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

type Answer = {status: number; headers: Record<string, string | string[] | undefined>; body: Buffer};

async function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const outgoing = request(url, {method, headers}, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => resolve({status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks)}));
		});
		outgoing.on('error', reject);
		outgoing.end();
	});
}

const servers: MetricsServer[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map(async (server) => server.close()));
});

const up = minerFamilies.up;
const shares = minerFamilies.sharesGood;
/** One source's sample lines for the two families below, by family index. */
const lines = [['xmrig_up{miner="a",url="http://a:1"} 1\n', 'xmrig_shares_good_total{miner="a"} 5\n']];
const render = (format: Format) => writeExposition([up, shares], lines, format);

async function serve(token: string | null = null): Promise<MetricsServer> {
	const server = await startMetricsServer({listen: [{host: '127.0.0.1', port: 0, loopback: true}], token, render});
	servers.push(server);
	return server;
}

describe('the exposition formats', () => {
	it('writes a counter as foo_total in the text format and as the family foo in OpenMetrics, with # EOF', () => {
		expect(render('text')).toBe(
			[
				familyHeader(up, 'text'),
				'xmrig_up{miner="a",url="http://a:1"} 1\n',
				'# HELP xmrig_shares_good_total Shares the pool accepted (since the miner started).\n# TYPE xmrig_shares_good_total counter\n',
				'xmrig_shares_good_total{miner="a"} 5\n',
			].join(''),
		);
		const openMetrics = render('openmetrics');
		expect(openMetrics).toContain('# TYPE xmrig_shares_good counter\nxmrig_shares_good_total{miner="a"} 5\n');
		expect(openMetrics.endsWith('# EOF\n')).toBe(true);
		expect(render('text')).not.toContain('# EOF');
	});

	it('leaves out a family no miner has a sample of', () => {
		expect(writeExposition([up, processFamilies.miners], [['x 1\n', '']], 'text')).not.toContain('xmrig_exporter_miners');
	});

	it('answers OpenMetrics to Prometheus and the text format to anything that does not prefer OpenMetrics', () => {
		expect(negotiateFormat(PROMETHEUS_ACCEPT)).toBe('openmetrics');
		expect(negotiateFormat('application/openmetrics-text')).toBe('openmetrics');
		expect(negotiateFormat('*/*')).toBe('text');
		expect(negotiateFormat(undefined)).toBe('text');
		expect(negotiateFormat('text/plain;version=0.0.4')).toBe('text');
		expect(negotiateFormat('application/openmetrics-text;version=1.0.0;q=0.2,text/plain;q=0.9')).toBe('text');
		expect(negotiateFormat('application/openmetrics-text;version=1.0.0;q=0')).toBe('text');
		expect(negotiateFormat('application/openmetrics-text;version=2.0.0')).toBe('text');
	});
});

describe('--listen / --metrics addresses', () => {
	it('reads HOST:PORT, [IPv6]:PORT and :PORT, and knows loopback from the rest', () => {
		expect(parseListen('127.0.0.1:9189', '--listen')).toEqual({host: '127.0.0.1', port: 9189, loopback: true});
		expect(parseListen('localhost:0', '--listen')).toEqual({host: 'localhost', port: 0, loopback: true});
		expect(parseListen('[::1]:9189', '--listen')).toEqual({host: '::1', port: 9189, loopback: true});
		expect(parseListen(':9189', '--listen')).toEqual({host: '', port: 9189, loopback: false});
		expect(parseListen('0.0.0.0:9189', '--metrics')).toEqual({host: '0.0.0.0', port: 9189, loopback: false});
		expect(parseListen('10.0.0.5:9189', '--listen').loopback).toBe(false);
		expect(parseListen('rig-01.lan:9189', '--listen').loopback).toBe(false);
	});

	it('refuses anything else with a usage error naming the flag', () => {
		for (const bad of ['9189', '127.0.0.1', '127.0.0.1:99999', 'http://127.0.0.1:9189', '[127.0.0.1]:9189', '::1:9189', 'a b:1']) {
			expect(() => parseListen(bad, '--metrics')).toThrow(UsageError);
			expect(() => parseListen(bad, '--metrics')).toThrow(/^--metrics /);
		}
	});
});

describe('the metrics server', () => {
	it('serves GET /metrics in the format asked for, gzipped when accepted', async () => {
		const server = await serve();
		const plain = await get(server.url);
		expect(plain.status).toBe(200);
		expect(plain.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
		expect(plain.body.toString()).toBe(render('text'));

		const scraped = await get(server.url, {Accept: PROMETHEUS_ACCEPT, 'Accept-Encoding': 'gzip'});
		expect(scraped.headers['content-type']).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
		expect(scraped.headers['content-encoding']).toBe('gzip');
		expect(gunzipSync(scraped.body).toString()).toBe(render('openmetrics'));
	});

	it('answers HEAD without a body, 404 elsewhere, 405 for other methods, and a page at /', async () => {
		const server = await serve();
		const head = await get(server.url, {}, 'HEAD');
		expect(head.status).toBe(200);
		expect(head.body.length).toBe(0);
		expect((await get(server.url.replace('/metrics', '/nope'))).status).toBe(404);
		const post = await get(server.url, {}, 'POST');
		expect(post.status).toBe(405);
		expect(post.headers['allow']).toBe('GET, HEAD');
		const page = await get(server.url.replace('/metrics', '/'));
		expect(page.status).toBe(200);
		expect(page.body.toString()).toContain('href="/metrics"');
	});

	it('with a token, wants Authorization: Bearer TOKEN and never echoes it', async () => {
		const token = 'metrics-secret-7f3a9c';
		const server = await serve(token);
		for (const headers of [{}, {Authorization: 'Bearer wrong'}, {Authorization: `Basic ${token}`}, {Authorization: `Bearer ${token}x`}]) {
			const refused = await get(server.url, headers);
			expect(refused.status).toBe(401);
			expect(refused.headers['www-authenticate']).toBe('Bearer realm="rigtop"');
			expect(refused.body.toString()).not.toContain(token);
			expect(refused.body.toString()).not.toContain('xmrig_up');
		}

		const allowed = await get(server.url, {Authorization: `Bearer ${token}`});
		expect(allowed.status).toBe(200);
		expect(allowed.body.toString()).toBe(render('text'));
		expect((await get(server.url, {Authorization: `bearer  ${token}`})).status).toBe(200);
		// The landing page says nothing worth a token.
		expect((await get(server.url.replace('/metrics', '/'))).status).toBe(200);
	});

	it('says in one line why it cannot listen', async () => {
		const first = await serve();
		await expect(
			startMetricsServer({listen: [{host: '127.0.0.1', port: first.port, loopback: true}], token: null, render}),
		).rejects.toThrow(`cannot listen on 127.0.0.1:${first.port}: the address is already in use (another exporter?)`);
	});
});
