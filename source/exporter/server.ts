import {createHash, timingSafeEqual} from 'node:crypto';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {promisify} from 'node:util';
import {constants as zlibConstants, gzip} from 'node:zlib';
import {CONTENT_TYPES, negotiateFormat, type Format} from './exposition.js';
import {hostPortText, type ListenAddress} from './listen.js';

/**
 * The metrics endpoint: GET (or HEAD) /metrics answers at once from what the collector holds, in the Prometheus text
 * format or OpenMetrics (the scraper's Accept header decides), gzipped when the scraper accepts it, as Prometheus does.
 * With a token, /metrics wants `Authorization: Bearer TOKEN` (Prometheus: `authorization: {credentials_file: …}`);
 * the token is compared in constant time and never written anywhere. `/` is a short page that links /metrics.
 */

export type MetricsServerOptions = {
	readonly listen: ListenAddress;
	/** The bearer token /metrics wants; null: none. */
	readonly token: string | null;
	readonly render: (format: Format) => string;
	/** Whether every miner has had its first poll (`/-/ready`); absent: always. */
	readonly ready?: () => boolean;
	/** rigtop's version, on the landing page. */
	readonly version?: string;
};

export type MetricsServer = {
	/** `http://host:port/metrics` as bound (the real port when 0 was asked). */
	readonly url: string;
	readonly port: number;
	close(): Promise<void>;
};

const gzipAsync = promisify(gzip);

/** Scrapes answered at once; more wait for a connection (a Prometheus server keeps one per target). */
const MAX_CONNECTIONS = 64;

/** `/`: what this is, its version, and where to go. */
function landingPage(version: string | undefined): string {
	const shown = version === undefined ? '' : ` ${version.replaceAll(/[^\w.+-]/g, '')}`;
	return `<!doctype html>
<html><head><meta charset="utf-8"><title>rigtop exporter</title></head>
<body><h1>rigtop exporter${shown}</h1><p>XMRig miners' metrics for Prometheus: <a href="/metrics">/metrics</a></p>
<p><a href="/-/healthy">/-/healthy</a> <a href="/-/ready">/-/ready</a></p></body></html>
`;
}

function digest(text: string): Buffer {
	return createHash('sha256').update(text).digest();
}

/** Whether the request carries the bearer token (compared in constant time, whatever its length). */
function authorized(header: string | undefined, expected: Buffer | null): boolean {
	if (expected === null) return true;
	const match = /^bearer\s+(.+)$/i.exec(header?.trim() ?? '');
	return match !== null && timingSafeEqual(digest(match[1]!.trim()), expected);
}

function acceptsGzip(header: string | undefined): boolean {
	if (header === undefined) return false;
	return header.split(',').some((part) => {
		const [coding = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
		const q = parameters.find((parameter) => parameter.startsWith('q='));
		return (coding === 'gzip' || coding === 'x-gzip') && (q === undefined || Number.parseFloat(q.slice(2)) > 0);
	});
}

function answer(response: http.ServerResponse, status: number, body: string, headers: http.OutgoingHttpHeaders = {}): void {
	const bytes = Buffer.from(body);
	response.writeHead(status, {'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': bytes.length, ...headers});
	response.end(response.req.method === 'HEAD' ? undefined : bytes);
}

async function serveMetrics(
	request: http.IncomingMessage,
	response: http.ServerResponse,
	options: MetricsServerOptions,
	token: Buffer | null,
) {
	if (!authorized(request.headers.authorization, token)) {
		answer(response, 401, 'unauthorized: /metrics wants the bearer token given to rigtop with --metrics-token-file\n', {
			'WWW-Authenticate': 'Bearer realm="rigtop"',
		});
		return;
	}

	const format = negotiateFormat(request.headers.accept);
	const text = options.render(format);
	const headers: http.OutgoingHttpHeaders = {
		'Content-Type': CONTENT_TYPES[format],
		'Cache-Control': 'no-store',
		Vary: 'Accept, Accept-Encoding',
	};
	let body = Buffer.from(text);
	if (acceptsGzip(request.headers['accept-encoding'])) {
		body = await gzipAsync(body, {level: zlibConstants.Z_BEST_SPEED});
		headers['Content-Encoding'] = 'gzip';
	}

	headers['Content-Length'] = body.length;
	response.writeHead(200, headers);
	response.end(request.method === 'HEAD' ? undefined : body);
}

function handle(request: http.IncomingMessage, response: http.ServerResponse, options: MetricsServerOptions, token: Buffer | null): void {
	const path = (request.url ?? '/').split('?')[0];
	if (request.method !== 'GET' && request.method !== 'HEAD') {
		answer(response, 405, 'method not allowed: GET /metrics\n', {Allow: 'GET, HEAD'});
		return;
	}

	if (path === '/metrics') {
		serveMetrics(request, response, options, token).catch(() => {
			if (!response.headersSent) answer(response, 500, 'could not write the metrics\n');
			else response.destroy();
		});
		return;
	}

	// As Prometheus's own: healthy while it answers, ready once every miner has been polled once.
	if (path === '/-/healthy') {
		answer(response, 200, 'rigtop exporter is Healthy.\n');
		return;
	}

	if (path === '/-/ready') {
		if (options.ready?.() ?? true) answer(response, 200, 'rigtop exporter is Ready.\n');
		else answer(response, 503, 'Service Unavailable: the first poll of every miner has not finished\n');
		return;
	}

	if (path === '/') {
		const bytes = Buffer.from(landingPage(options.version));
		response.writeHead(200, {'Content-Type': 'text/html; charset=utf-8', 'Content-Length': bytes.length});
		response.end(request.method === 'HEAD' ? undefined : bytes);
		return;
	}

	answer(response, 404, 'not found: the metrics are at /metrics\n');
}

/** Why a listen failed, in plain words. */
function listenProblem(error: NodeJS.ErrnoException): string {
	switch (error.code) {
		case 'EADDRINUSE':
			return 'the address is already in use (another exporter?)';
		case 'EACCES':
			return 'permission denied (ports below 1024 need privileges)';
		case 'EADDRNOTAVAIL':
			return 'this machine has no such address';
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return 'the host name does not resolve';
		default:
			return error.code ?? error.message;
	}
}

/** Binds and serves; rejects with a one-line Error when the address cannot be bound. */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
	const token = options.token === null ? null : digest(options.token);
	const server = http.createServer({requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 65_000}, (request, response) => {
		handle(request, response, options, token);
	});
	server.maxConnections = MAX_CONNECTIONS;
	const {host, port} = options.listen;
	await new Promise<void>((resolve, reject) => {
		const failed = (error: NodeJS.ErrnoException) => {
			reject(new Error(`cannot listen on ${hostPortText(host, port)}: ${listenProblem(error)}`));
		};

		server.once('error', failed);
		server.listen({host: host === '' ? undefined : host, port}, () => {
			server.off('error', failed);
			resolve();
		});
	});
	const bound = (server.address() as AddressInfo).port;
	return {
		url: `http://${hostPortText(host === '' ? '' : host, bound)}/metrics`,
		port: bound,
		async close() {
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};
}
