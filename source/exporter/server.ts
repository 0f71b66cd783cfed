import http from 'node:http';
import https from 'node:https';
import net, {type AddressInfo} from 'node:net';
import type {TLSSocket} from 'node:tls';
import {promisify} from 'node:util';
import {constants as zlibConstants, gzip} from 'node:zlib';
import {CONTENT_TYPES, negotiateFormat, type Format} from './exposition.js';
import {createAuthorizer, type Authorizer} from './auth.js';
import {CONNECTION_LIMITS, createConnectionGuard, type ConnectionLimits} from './connections.js';
import {hostPortText, type ListenAddress} from './listen.js';
import type {TlsSettings, WebConfig} from './web-config.js';

/**
 * The metrics endpoint: GET (or HEAD) /metrics answers at once from what the collector holds, in the Prometheus text
 * format or OpenMetrics (the scraper's Accept header decides), gzipped when the scraper accepts it, as Prometheus does.
 * With a token, /metrics wants `Authorization: Bearer TOKEN` (Prometheus: `authorization: {credentials_file: …}`);
 * with --web.config.file's basic_auth_users, every path wants a user's password (auth.ts); its tls_server_config
 * makes it HTTPS. `/` is a short page that links /metrics. Who holds connections is connections.ts's to decide.
 */

export type MetricsServerOptions = {
	/** One or more addresses, each bound. */
	readonly listen: readonly ListenAddress[];
	/** The bearer token /metrics wants; null: none. */
	readonly token: string | null;
	/** --web.config.file: TLS, basic auth users, headers; null: plain HTTP, no users. */
	readonly web?: WebConfig | null;
	readonly render: (format: Format) => string;
	/** The connection limits (tests make them small). */
	readonly limits?: ConnectionLimits;
	/** Whether every miner has had its first poll (`/-/ready`); absent: always. */
	readonly ready?: () => boolean;
	/** rigtop's version, on the landing page. */
	readonly version?: string;
};

export type MetricsServer = {
	/** `http(s)://host:port/metrics` of the first address as bound (the real port when 0 was asked). */
	readonly url: string;
	/** The same for every address, as really bound (`:9189` binds `[::]:9189` where the machine has IPv6). */
	readonly urls: readonly string[];
	readonly port: number;
	/**
	 * The token, users, headers and certificates as read again (SIGHUP): new connections and requests get them. The
	 * addresses stay bound as they are, and TLS cannot be turned on or off this way (an Error says so; nothing changes).
	 */
	update(settings: {readonly token: string | null; readonly web: WebConfig | null}): void;
	close(): Promise<void>;
};

const gzipAsync = promisify(gzip);

/** `/`: what this is, its version, and where to go. */
function landingPage(version: string | undefined): string {
	const shown = version === undefined ? '' : ` ${version.replaceAll(/[^\w.+-]/g, '')}`;
	return `<!doctype html>
<html><head><meta charset="utf-8"><title>rigtop exporter</title></head>
<body><h1>rigtop exporter${shown}</h1><p>XMRig miners' metrics for Prometheus: <a href="/metrics">/metrics</a></p>
<p><a href="/-/healthy">/-/healthy</a> <a href="/-/ready">/-/ready</a></p></body></html>
`;
}

/** What Go's net/http answers to plain HTTP on a TLS port (and closes). */
const PLAIN_ON_TLS =
	'HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nClient sent an HTTP request to an HTTPS server.\n';

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

async function serveMetrics(request: http.IncomingMessage, response: http.ServerResponse, options: MetricsServerOptions) {
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

/** The path of the request target, in origin form (`/metrics?x`) or absolute form (`http://host:9189/metrics`). */
export function targetPath(target: string | undefined): string {
	const url = target ?? '/';
	if (/^https?:\/\//i.test(url)) {
		try {
			return new URL(url).pathname;
		} catch {
			return '';
		}
	}

	return url.split('?')[0]!;
}

async function handle(request: http.IncomingMessage, response: http.ServerResponse, options: MetricsServerOptions, auth: Authorizer) {
	for (const [name, value] of Object.entries(options.web?.headers ?? {})) response.setHeader(name, value);
	const path = targetPath(request.url);
	if (request.method !== 'GET' && request.method !== 'HEAD') {
		answer(response, 405, 'method not allowed: GET /metrics\n', {Allow: 'GET, HEAD'});
		return;
	}

	// The bearer token guards /metrics; basic auth users (as with exporter-toolkit) every path.
	const users = Object.keys(options.web?.users ?? {}).length > 0;
	if ((path === '/metrics' || users) && !(await auth.check(request.headers.authorization))) {
		const wanted = [
			users ? 'a user and password of --web.config.file' : '',
			options.token === null ? '' : 'the bearer token of --metrics-token-file',
		]
			.filter(Boolean)
			.join(' or ');
		answer(response, 401, `unauthorized: ${path === '/metrics' ? '/metrics' : 'this exporter'} wants ${wanted}\n`, {
			'WWW-Authenticate': auth.challenges.length === 1 ? auth.challenges[0] : [...auth.challenges],
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

	if (path === '/metrics') {
		await serveMetrics(request, response, options);
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

/** `host:port` of a bound socket, IPv6 in brackets: `[::]:9189` for every interface of a dual-stack machine. */
export function boundText(address: AddressInfo): string {
	return address.family === 'IPv6' ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`;
}

/**
 * Binds every address and serves; rejects with a one-line Error when one cannot be bound (and closes those that
 * were). Each listener is a plain TCP server whose connections go through the connection guard (connections.ts)
 * before the HTTP (or HTTPS) server sees them; over TLS, a first byte that is not a TLS handshake gets Go's answer
 * (400 "Client sent an HTTP request to an HTTPS server") and the connection is closed.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
	const limits = options.limits ?? CONNECTION_LIMITS;
	const guard = createConnectionGuard(limits);
	// What a reload may change (update below): read at each request, so a reload takes effect at the next one.
	let current: MetricsServerOptions = options;
	let auth = createAuthorizer({token: options.token, users: options.web?.users ?? {}});
	let tlsSettings = options.web?.tls ?? null;
	const serverOptions: http.ServerOptions = {
		// Later requests of a kept-alive connection: their headers within headerMs of their first byte (Node checks
		// every connectionsCheckingInterval); the first request's own deadline is the guard's.
		headersTimeout: limits.headerMs,
		requestTimeout: limits.headerMs * 2,
		connectionsCheckingInterval: Math.min(1000, limits.headerMs),
		keepAliveTimeout: limits.idleMs,
	};
	const onRequest = (request: http.IncomingMessage, response: http.ServerResponse) => {
		const socket = request.socket;
		guard.requestStarted(socket);
		response.once('close', () => guard.requestEnded(socket));
		handle(request, response, current, auth).catch(() => {
			if (!response.headersSent) answer(response, 500, 'could not write the metrics\n');
			else response.destroy();
		});
	};

	const server: http.Server =
		tlsSettings === null
			? http.createServer(serverOptions, onRequest)
			: https.createServer({...serverOptions, ...httpsOptions(tlsSettings)}, onRequest);
	if (tlsSettings !== null) server.on('secureConnection', (socket: TLSSocket) => tlsSettings && checkClientCert(socket, tlsSettings));
	// The HTTP server is handed its connections and never listens itself; Node runs its header and request timeout
	// checks (connectionsCheckingInterval) only from a server's 'listening' event, so that is given it here.
	server.emit('listening');

	const listeners: net.Server[] = [];
	const urls: string[] = [];
	let port = 0;
	const closeListeners = async () => {
		await Promise.all(listeners.map(async (listener) => new Promise<void>((resolve) => listener.close(() => resolve()))));
	};

	const stopServer = () => {
		guard.closeAll();
		server.closeAllConnections();
		// Clears Node's timeout checks; the server was never bound, so it reports that, which does not matter here.
		server.close(() => undefined);
	};

	for (const address of options.listen) {
		const listener = net.createServer({allowHalfOpen: true, noDelay: true}, (socket) => {
			socket.on('error', () => socket.destroy());
			if (!guard.admit(socket)) return;
			if (tlsSettings === null) {
				server.emit('connection', socket);
				return;
			}

			// The first bytes say whether it speaks TLS (a handshake record starts with 0x16).
			socket.once('data', (chunk: Buffer) => {
				socket.pause();
				if (chunk[0] === 0x16) {
					socket.unshift(chunk);
					server.emit('connection', socket);
				} else {
					socket.end(PLAIN_ON_TLS);
				}
			});
		});
		try {
			await listenOn(listener, address);
		} catch (error) {
			await closeListeners();
			stopServer();
			throw error;
		}

		listeners.push(listener);
		const bound = listener.address() as AddressInfo;
		if (urls.length === 0) port = bound.port;
		urls.push(`${tlsSettings === null ? 'http' : 'https'}://${boundText(bound)}/metrics`);
	}

	return {
		url: urls[0]!,
		urls,
		port,
		update(settings) {
			const tls = settings.web?.tls ?? null;
			if ((tls === null) !== (tlsSettings === null)) {
				throw new Error(`TLS cannot be turned ${tls === null ? 'off' : 'on'} by a reload: restart the exporter`);
			}

			if (tls !== null) (server as https.Server).setSecureContext(httpsOptions(tls));
			auth = createAuthorizer({token: settings.token, users: settings.web?.users ?? {}});
			tlsSettings = tls;
			current = {...current, token: settings.token, web: settings.web};
		},
		async close() {
			const closed = closeListeners();
			stopServer();
			await closed;
		},
	};
}

async function listenOn(listener: net.Server, address: ListenAddress): Promise<void> {
	const {host, port} = address;
	await new Promise<void>((resolve, reject) => {
		const failed = (error: NodeJS.ErrnoException) => {
			reject(new Error(`cannot listen on ${hostPortText(host, port)}: ${listenProblem(error)}`));
		};

		listener.once('error', failed);
		listener.listen({host: host === '' ? undefined : host, port}, () => {
			listener.off('error', failed);
			resolve();
		});
	});
}

function httpsOptions(settings: TlsSettings): https.ServerOptions {
	return {
		cert: settings.cert,
		key: settings.key,
		ca: settings.clientCa ?? undefined,
		minVersion: settings.minVersion,
		maxVersion: settings.maxVersion ?? undefined,
		requestCert: settings.clientAuth !== 'NoClientCert',
		rejectUnauthorized: settings.clientAuth === 'RequireAndVerifyClientCert',
	};
}

/** client_auth_type's rules that Node's requestCert and rejectUnauthorized do not carry out themselves. */
function checkClientCert(socket: TLSSocket, settings: TlsSettings): void {
	const given = Object.keys(socket.getPeerCertificate()).length > 0;
	if (settings.clientAuth === 'RequireAnyClientCert' && !given) socket.destroy();
	if (settings.clientAuth === 'VerifyClientCertIfGiven' && given && !socket.authorized) socket.destroy();
}
