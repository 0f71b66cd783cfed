import http from 'node:http';
import type {AddressInfo} from 'node:net';

/**
 * Loopback servers that answer as each notification service's documented API does, recording what they received:
 * the tests' ntfy, Telegram, Discord, Slack, Pushover, Gotify, JSON webhook, Alertmanager and heartbeat endpoints.
 *
 *   const ntfy = await startService('ntfy', {faults: [500, 500]});   // two failures, then answers as ntfy does
 *   parseChannel(`ntfy://127.0.0.1:${port}/topic`) … or parseChannel(url, {...DEFAULT_BASES, telegram: tg.url})
 *   ntfy.received[2].json  // what the third request carried
 *   await ntfy.close();
 *
 * A good request gets the service's own success (status and body); a malformed one its 400 (or 404 for a path the
 * service does not have). `faults` is played first, one entry per request: a status (answered with the service's
 * own error body; a 429 with `retryAfter`), or 'hang' (the request is read and never answered).
 */

export type ServiceName = 'ntfy' | 'telegram' | 'discord' | 'slack' | 'pushover' | 'gotify' | 'json' | 'alertmanager' | 'heartbeat';

export type Fault = number | 'hang';

export type ServiceOptions = {
	/** Played in order, one per request; then the service answers normally. */
	readonly faults?: readonly Fault[];
	/** A 429's Retry-After header (seconds or an HTTP date); default '7'. Given, a 408's and a 5xx's too. */
	readonly retryAfter?: string;
	/** When set, requests must carry this Authorization header (401 without one, 403 with another): ntfy, json, alertmanager. */
	readonly authorization?: string;
	/** The loopback port to listen on (a channel down, then up again at its URL); default a free one. */
	readonly port?: number;
};

export type ReceivedRequest = {
	readonly method: string;
	/** The path without the query. */
	readonly path: string;
	readonly query: URLSearchParams;
	/** Header names lowercased. */
	readonly headers: Readonly<Record<string, string>>;
	readonly body: string;
	/** The body as JSON, or as a form's fields for a form body; undefined when neither. */
	readonly json: unknown;
	/** The status answered (0: hung). */
	status: number;
};

export type RunningService = {
	readonly service: ServiceName;
	/** http://127.0.0.1:PORT (no trailing slash). */
	readonly url: string;
	readonly port: number;
	readonly received: ReceivedRequest[];
	close(): Promise<void>;
};

type Answer = {readonly status: number; readonly body?: unknown; readonly headers?: Record<string, string>};

const STATUS_TEXT = (status: number): string => http.STATUS_CODES[status] ?? 'Error';

/** The service's own error body for a status. */
function errorBody(service: ServiceName, status: number): unknown {
	const text = STATUS_TEXT(status);
	switch (service) {
		case 'ntfy':
			return {code: status * 100 + 1, http: status, error: text.toLowerCase()};
		case 'telegram':
			return {
				ok: false,
				error_code: status,
				description: status === 429 ? 'Too Many Requests: retry after 7' : text,
				...(status === 429 ? {parameters: {retry_after: 7}} : {}),
			};
		case 'discord':
			return status === 429
				? {message: 'You are being rate limited.', retry_after: 7, global: false}
				: {message: status === 404 ? 'Unknown Webhook' : text, code: 0};
		case 'slack':
			return status === 404 ? 'no_service' : status === 403 ? 'invalid_token' : status === 410 ? 'channel_is_archived' : text.toLowerCase();
		case 'pushover':
			return {status: 0, errors: [text.toLowerCase()], request: 'fake'};
		case 'gotify':
			return {error: text, errorCode: status, errorDescription: text.toLowerCase()};
		case 'alertmanager':
			return {code: status, message: text.toLowerCase()};
		default:
			return text;
	}
}

function parseBody(headers: http.IncomingHttpHeaders, body: string): unknown {
	const type = headers['content-type'] ?? '';
	if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return undefined;
	}
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

let ids = 0;

/** What the service answers a request that is not a scripted fault. */
function answer(service: ServiceName, request: ReceivedRequest, options: ServiceOptions): Answer {
	const {method, path, json} = request;
	const auth = request.headers.authorization;
	if (options.authorization !== undefined && auth !== options.authorization)
		return {status: auth === undefined ? 401 : 403, body: errorBody(service, auth === undefined ? 401 : 403)};
	const bad = (status = 400): Answer => ({status, body: errorBody(service, status)});
	switch (service) {
		case 'ntfy': {
			// POST / with JSON {topic, message…}, or POST|PUT /TOPIC with the message as the body.
			if (method !== 'POST' && method !== 'PUT') return bad(405);
			const topic = path === '/' ? (isObject(json) ? json.topic : undefined) : path.slice(1);
			if (typeof topic !== 'string' || !/^[-_A-Za-z0-9]{1,64}$/.test(topic)) return bad();
			const priority = isObject(json) ? json.priority : undefined;
			if (priority !== undefined && !(typeof priority === 'number' && priority >= 1 && priority <= 5)) return bad();
			const message = path === '/' && isObject(json) ? json.message : request.body;
			return {status: 200, body: {id: `m${++ids}`, time: Math.floor(Date.now() / 1000), event: 'message', topic, message}};
		}
		case 'telegram': {
			const match = /^\/bot(\d+:[-_A-Za-z0-9]+)\/sendMessage$/.exec(path);
			if (!match) return {status: 404, body: {ok: false, error_code: 404, description: 'Not Found'}};
			if (!isObject(json) || json.chat_id === undefined || json.chat_id === '')
				return {status: 400, body: {ok: false, error_code: 400, description: 'Bad Request: chat_id is empty'}};
			if (!nonEmpty(json.text)) return {status: 400, body: {ok: false, error_code: 400, description: 'Bad Request: message text is empty'}};
			return {
				status: 200,
				body: {ok: true, result: {message_id: ++ids, chat: {id: json.chat_id}, date: Math.floor(Date.now() / 1000), text: json.text}},
			};
		}
		case 'discord': {
			if (!/^\/api\/webhooks\/\d+\/[-_A-Za-z0-9]+$/.test(path)) return {status: 404, body: {message: 'Unknown Webhook', code: 10_015}};
			if (method !== 'POST') return bad(405);
			if (!isObject(json)) return {status: 400, body: {message: 'Cannot send an empty message', code: 50_006}};
			const embeds = Array.isArray(json.embeds) ? json.embeds : [];
			if (!nonEmpty(json.content) && embeds.length === 0)
				return {status: 400, body: {message: 'Cannot send an empty message', code: 50_006}};
			if (typeof json.content === 'string' && json.content.length > 2000)
				return {status: 400, body: {content: ['Must be 2000 or fewer in length.']}};
			return request.query.get('wait') === 'true' ? {status: 200, body: {id: String(++ids), content: json.content}} : {status: 204};
		}
		case 'slack': {
			if (!/^\/services\/[A-Za-z0-9]+\/[A-Za-z0-9]+\/[A-Za-z0-9]+$/.test(path)) return {status: 404, body: 'no_service'};
			if (json === undefined) return {status: 400, body: 'invalid_payload'};
			if (!isObject(json) || (!nonEmpty(json.text) && !Array.isArray(json.blocks))) return {status: 400, body: 'no_text'};
			return {status: 200, body: 'ok'};
		}
		case 'pushover': {
			if (path !== '/1/messages.json') return {status: 404, body: {status: 0, errors: ['not found'], request: 'fake'}};
			const fields = isObject(json) ? json : {};
			const errors: Record<string, string> = {};
			if (typeof fields.token !== 'string' || !/^[A-Za-z0-9]{30}$/.test(fields.token)) errors.token = 'invalid';
			if (typeof fields.user !== 'string' || !/^[A-Za-z0-9]{30}$/.test(fields.user)) errors.user = 'invalid';
			if (!nonEmpty(fields.message)) errors.message = 'cannot be blank';
			const priority = fields.priority === undefined ? 0 : Number(fields.priority);
			if (!Number.isInteger(priority) || priority < -2 || priority > 2) errors.priority = 'invalid';
			if (Object.keys(errors).length > 0)
				return {
					status: 400,
					body: {...errors, errors: Object.entries(errors).map(([field, what]) => `${field} ${what}`), status: 0, request: 'fake'},
				};
			return {status: 200, body: {status: 1, request: `r${++ids}`}};
		}
		case 'gotify': {
			if (!path.endsWith('/message')) return {status: 404, body: errorBody(service, 404)};
			const token = request.headers['x-gotify-key'] ?? request.query.get('token');
			if (!token)
				return {
					status: 401,
					body: {
						error: 'Unauthorized',
						errorCode: 401,
						errorDescription: 'you need to provide a valid access token or user credentials to access this api',
					},
				};
			if (!isObject(json) || !nonEmpty(json.message))
				return {status: 400, body: {error: 'Bad Request', errorCode: 400, errorDescription: "Field 'message' is required"}};
			const priority = json.priority ?? 0;
			if (typeof priority !== 'number' || !Number.isInteger(priority)) return bad();
			return {
				status: 200,
				body: {id: ++ids, appid: 1, message: json.message, title: json.title ?? '', priority, date: new Date().toISOString()},
			};
		}
		case 'json':
			return json === undefined ? bad() : {status: 200, body: {}};
		case 'alertmanager': {
			if (path !== '/api/v2/alerts') return {status: 404, body: errorBody(service, 404)};
			if (method !== 'POST') return bad(405);
			const valid =
				Array.isArray(json) && json.every((alert) => isObject(alert) && isObject(alert.labels) && Object.keys(alert.labels).length > 0);
			return valid ? {status: 200} : {status: 400, body: {code: 400, message: 'invalid alerts'}};
		}
		case 'heartbeat':
			return method === 'GET' || method === 'POST' || method === 'HEAD' ? {status: 200, body: 'OK'} : bad(405);
	}
}

function write(response: http.ServerResponse, result: Answer): void {
	const headers: Record<string, string> = {...result.headers};
	let text = '';
	if (result.body !== undefined) {
		text = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
		headers['content-type'] ??= typeof result.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
	}
	response.writeHead(result.status, headers);
	response.end(text);
}

/** Starts one service on a free loopback port. */
export async function startService(service: ServiceName, options: ServiceOptions = {}): Promise<RunningService> {
	const faults = [...(options.faults ?? [])];
	const received: ReceivedRequest[] = [];
	const hung = new Set<http.ServerResponse>();
	const server = http.createServer((incoming, response) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			const target = new URL(incoming.url ?? '/', 'http://127.0.0.1');
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(incoming.headers))
				if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
			const request: ReceivedRequest = {
				method: incoming.method ?? 'GET',
				path: target.pathname,
				query: target.searchParams,
				headers,
				body,
				json: parseBody(incoming.headers, body),
				status: 0,
			};
			received.push(request);
			const fault = faults.shift();
			if (fault === 'hang') {
				hung.add(response);
				return;
			}
			const result: Answer =
				fault === undefined
					? answer(service, request, options)
					: {
							status: fault,
							body: errorBody(service, fault),
							...(fault === 429 || (options.retryAfter !== undefined && (fault === 408 || fault >= 500))
								? {headers: {'retry-after': options.retryAfter ?? '7'}}
								: {}),
						};
			request.status = result.status;
			write(response, result);
		});
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		service,
		url: `http://127.0.0.1:${port}`,
		port,
		received,
		async close() {
			for (const response of hung) response.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
