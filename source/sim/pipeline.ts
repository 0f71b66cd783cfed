/**
 * XMRig's request pipeline, step for step, for each server generation:
 *
 * 2.15.1+ (src/base/api/Httpd.cpp onHttpData): OPTIONS → 200 empty; GET /favicon.ico → bare 404;
 * a method other than DELETE/GET/HEAD/POST/PUT → 405; auth → 401/403; non-GET while restricted → 403;
 * non-GET whose Content-Type is not exactly application/json → 415; then exact-string routing.
 *
 * 2.6–2.15.0 libmicrohttpd (src/common/api/Httpd.cpp, HttpRequest.cpp): OPTIONS → 200; not GET/PUT → 405;
 * auth (a header is ignored without a token); non-GET while restricted-or-tokenless → 403; PUT with the
 * wrong Content-Type → 415; body over 32 KiB → 413; every GET path but /1/config and /1/threads answers
 * the summary; PUT /1/config → 200 whatever happens. Error answers there have empty bodies.
 */
import {writeFileSync} from 'node:fs';
import type {Answer} from './api-server.js';
import {atLeast, reasonPhrase, type DialectInfo} from './dialect.js';
import type {WireRequest, WireResponse} from './http-wire.js';
import {isJsonObject, parseRapidJson, type ParsedJson} from './json-reader.js';
import {writeJson, type JsonObject, type JsonValue} from './json-writer.js';
import {backends, dmi, legacyThreads, summary, type PayloadContext} from './payloads.js';

/** One request as a simulator logged it (its `requests`, for tests): method, path, headers, body and the status sent. */
export type SimRequest = {method: string; path: string; headers: Record<string, string>; body: string; status: number};

/** The requests a simulator keeps, newest last. */
const MAX_REQUESTS = 1000;

/** handleRequest, logging the request and the status it got in `log` (the newest MAX_REQUESTS kept). */
export function handleLogged(host: PipelineHost, request: WireRequest, log: SimRequest[]): Answer | null {
	const answer = handleRequest(host, request);
	log.push({
		method: request.method,
		path: request.target,
		headers: Object.fromEntries(request.headers),
		body: request.body.toString('utf8'),
		status: answer?.response.status ?? 0,
	});
	if (log.length > MAX_REQUESTS) log.splice(0, log.length - MAX_REQUESTS);
	return answer;
}

/** Saves an accepted document as the config file when there is one; false when it cannot be written. */
export function saveConfigFile(configPath: string | undefined, text: string): boolean {
	if (configPath === undefined) return true;
	try {
		writeFileSync(configPath, text);
		return true;
	} catch {
		return false;
	}
}

export type PutOutcome = {readonly ok: true; readonly after?: () => void} | {readonly ok: false; readonly parseError: string | null};

/** What the pipeline needs from the simulated miner (or proxy). */
export type PipelineHost = {
	readonly info: DialectInfo;
	/** The API settings in force now. */
	auth(): {readonly token: string | null; readonly restricted: boolean};
	/** Brings the rig up to now and returns what the payload builders need (the miner's routes). */
	payloadContext(): PayloadContext;
	/**
	 * When present, answers every GET but the config in place of the miner's routes (the proxy's ApiRouter):
	 * the document for the path, or null for 404.
	 */
	getDocument?(target: string): JsonValue | null;
	/** The config document text currently applied. */
	configText(): string;
	/** A PUT/POST of a whole config document. */
	putConfig(text: string): PutOutcome;
	/** JSON-RPC methods: true when the method exists. */
	rpc(method: string): boolean;
	/** Send JSON-RPC answers twice, as XMRig 5.5.1+ may (code reading, unverified). */
	readonly duplicateRpcAnswers: boolean;
};

/** Request methods llhttp knows; anything else is a parse error and the connection is dropped. */
const LLHTTP_METHODS = new Set([
	'DELETE',
	'GET',
	'HEAD',
	'POST',
	'PUT',
	'CONNECT',
	'OPTIONS',
	'TRACE',
	'COPY',
	'LOCK',
	'MKCOL',
	'MOVE',
	'PROPFIND',
	'PROPPATCH',
	'SEARCH',
	'UNLOCK',
	'BIND',
	'REBIND',
	'UNBIND',
	'ACL',
	'REPORT',
	'MKACTIVITY',
	'CHECKOUT',
	'MERGE',
	'M-SEARCH',
	'NOTIFY',
	'SUBSCRIBE',
	'UNSUBSCRIBE',
	'PATCH',
	'PURGE',
	'MKCALENDAR',
	'LINK',
	'UNLINK',
	'SOURCE',
	'QUERY',
]);
const API_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'POST', 'PUT']);
/** libmicrohttpd-era upload buffer (src/common/api/HttpBody.h): 32768 bytes, one kept for the terminator. */
const LEGACY_MAX_BODY = 32767;

/** The token as the bytes XMRig compares, seen through the latin1 header decoding used on the wire. */
function wireToken(token: string): string {
	return Buffer.from(token, 'utf8').toString('latin1');
}

/** Httpd::auth (2.15.1+): 200, 401 or 403. */
export function authStatus(header: string | undefined, token: string | null, restricted: boolean): 200 | 401 | 403 {
	if (header === undefined) return !restricted || token !== null ? 401 : 200;
	if (token === null) return 401;
	const expected = wireToken(token);
	if (header.length < 8 || expected.length !== header.length - 7 || !header.startsWith('Bearer ')) return 403;
	return header.slice(7) === expected ? 200 : 403;
}

/** HttpRequest::auth (libmicrohttpd era): without a token any header is ignored. */
export function legacyAuthStatus(header: string | undefined, token: string | null): 200 | 401 | 403 {
	if (token === null) return 200;
	if (header === undefined) return 401;
	const expected = wireToken(token);
	if (header.length < 8 || expected.length !== header.length - 7 || !header.startsWith('Bearer ')) return 403;
	return header.slice(7) === expected ? 200 : 403;
}

function byteLength(text: string): number {
	return Buffer.byteLength(text, 'utf8');
}

/** HttpApiResponse::end (2.15.1+): CORS, then Connection, Content-Length and Content-Type as XMRig's sorted header map emits them. */
function apiResponse(info: DialectInfo, status: number, body: string | null): WireResponse {
	const headers: [string, string][] = [
		['Access-Control-Allow-Headers', 'Authorization, Content-Type'],
		['Access-Control-Allow-Methods', info.corsMethods],
		['Access-Control-Allow-Origin', '*'],
		['Connection', 'close'],
	];
	if (body !== null && body !== '') {
		headers.push(['Content-Length', String(byteLength(body))], ['Content-Type', 'application/json']);
	}
	return {status, reason: reasonPhrase(info, status), headers, body: body === '' ? null : body};
}

function jsonAnswer(info: DialectInfo, status: number, doc: JsonValue): Answer {
	return {response: apiResponse(info, status, writeJson(doc, info.json))};
}

/** An error answer: `{"status": N, "error": "<reason>"}`, or the given members first (as XMRig adds the missing ones after). */
function errorAnswer(info: DialectInfo, status: number, members: JsonObject = {}): Answer {
	const doc: JsonObject = {...members};
	const withStatus = 'status' in doc ? doc : {...doc, status};
	const full = 'error' in withStatus ? withStatus : {...withStatus, error: reasonPhrase(info, status)};
	return jsonAnswer(info, status, full);
}

/** libmicrohttpd answers: Content-Type always, CORS "GET, PUT", Content-Length always (0 for the empty error bodies). */
function legacyResponse(info: DialectInfo, status: number, body: string | null): Answer {
	const text = body ?? '';
	return {
		response: {
			status,
			reason: reasonPhrase(info, status),
			headers: [
				['Content-Type', 'application/json'],
				['Access-Control-Allow-Origin', '*'],
				['Access-Control-Allow-Methods', info.corsMethods],
				['Access-Control-Allow-Headers', 'Authorization, Content-Type'],
				['Connection', 'close'],
				['Content-Length', String(byteLength(text))],
			],
			body: text === '' ? null : text,
		},
	};
}

export function handleRequest(host: PipelineHost, request: WireRequest): Answer | null {
	return host.info.newServer ? handleModern(host, request) : handleLegacy(host, request);
}

function handleModern(host: PipelineHost, request: WireRequest): Answer | null {
	const {info} = host;
	const {method, target, headers} = request;
	if (!LLHTTP_METHODS.has(method)) return null;
	if (method === 'OPTIONS') return {response: apiResponse(info, 200, null)};
	if (method === 'GET' && target === '/favicon.ico') {
		return {response: {status: 404, reason: reasonPhrase(info, 404), headers: [['Connection', 'close']], body: null}};
	}
	if (!API_METHODS.has(method)) return errorAnswer(info, 405);
	const {token, restricted} = host.auth();
	const auth = authStatus(headers.get('authorization'), token, restricted);
	if (auth !== 200) return errorAnswer(info, auth);
	if (method !== 'GET') {
		if (restricted) return errorAnswer(info, 403);
		if (headers.get('content-type') !== 'application/json') return errorAnswer(info, 415);
	}

	const modern = info.modern;
	const isConfigPath = target === '/1/config' || (modern && target === '/2/config');
	if (method === 'GET' && host.getDocument) {
		if (isConfigPath) return restricted ? errorAnswer(info, 403) : {response: apiResponse(info, 200, host.configText())};
		const doc = host.getDocument(target);
		return doc === null ? errorAnswer(info, 404) : jsonAnswer(info, 200, doc);
	}
	if (method === 'GET') {
		if (target === '/1/summary' || target === '/api.json') return jsonAnswer(info, 200, summary(host.payloadContext(), 1));
		if (modern && target === '/2/summary') return jsonAnswer(info, 200, summary(host.payloadContext(), 2));
		if (modern && target === '/2/backends') return jsonAnswer(info, 200, backends(host.payloadContext()));
		if (info.dialect === '2' && target === '/1/threads') return jsonAnswer(info, 200, legacyThreads(host.payloadContext()));
		if (modern && target === '/2/dmi' && atLeast(info.version, '6.8.0')) return jsonAnswer(info, 200, dmi());
		if (isConfigPath) {
			if (restricted) return errorAnswer(info, 403);
			return {response: apiResponse(info, 200, host.configText())};
		}
		return errorAnswer(info, 404);
	}
	const body = request.body.toString('utf8');
	if ((method === 'PUT' || method === 'POST') && isConfigPath) {
		const outcome = host.putConfig(body);
		if (!outcome.ok) return errorAnswer(info, 400, outcome.parseError === null ? {} : {error: outcome.parseError});
		return {response: apiResponse(info, 204, null), ...(outcome.after ? {after: outcome.after} : {})};
	}
	if (modern && method === 'POST' && target === '/json_rpc') return jsonRpc(host, body);
	return errorAnswer(info, 404);
}

/** POST /json_rpc: always HTTP 200 with a JSON-RPC 2.0 envelope (HttpApiRequest.cpp). */
function jsonRpc(host: PipelineHost, body: string): Answer {
	const {info} = host;
	let parsed: ParsedJson = null;
	let envelope: JsonObject;
	const finish = (key: 'result' | 'error', value: JsonObject): JsonObject => ({
		[key]: value,
		jsonrpc: '2.0',
		id: isJsonObject(parsed) ? (parsed['id'] ?? null) : null,
	});
	const parsedBody = body === '' ? null : parseRapidJson(body, {doubles: true});
	if (parsedBody && !parsedBody.ok) {
		envelope = finish('error', {code: -32700, message: 'Parse error'});
	} else {
		parsed = parsedBody ? parsedBody.value : null;
		const method = isJsonObject(parsed) && typeof parsed['method'] === 'string' ? parsed['method'] : '';
		if (method === '') envelope = finish('error', {code: -32600, message: 'Invalid Request'});
		else if (host.rpc(method)) envelope = finish('result', {status: 'OK'});
		else envelope = finish('error', {code: -32601, message: 'Method not found'});
	}
	const answer = jsonAnswer(info, 200, envelope);
	return host.duplicateRpcAnswers ? {...answer, repeat: 2} : answer;
}

function handleLegacy(host: PipelineHost, request: WireRequest): Answer | null {
	const {info} = host;
	const {method, headers} = request;
	// libmicrohttpd hands the handler the path without the query string.
	const path = request.target.split('?')[0] ?? request.target;
	if (method === 'OPTIONS') return legacyResponse(info, 200, null);
	if (method !== 'GET' && method !== 'PUT') return legacyResponse(info, 405, null);
	const {token, restricted: configured} = host.auth();
	const auth = legacyAuthStatus(headers.get('authorization'), token);
	if (auth !== 200) return legacyResponse(info, auth, null);
	const restricted = configured || token === null;
	if (method === 'GET') {
		if (path === '/1/config') return restricted ? legacyResponse(info, 403, null) : legacyResponse(info, 200, host.configText());
		if (path === '/1/threads') return legacyResponse(info, 200, writeJson(legacyThreads(host.payloadContext()), info.json));
		return legacyResponse(info, 200, writeJson(summary(host.payloadContext(), 1), info.json));
	}
	if (restricted) return legacyResponse(info, 403, null);
	if (headers.get('content-type') !== 'application/json') return legacyResponse(info, 415, null);
	if (request.body.length > LEGACY_MAX_BODY) return legacyResponse(info, 413, null);
	if (path !== '/1/config') return legacyResponse(info, 404, null);
	// 2.x ignored the reload result: 200 whether or not the document was taken.
	const outcome = host.putConfig(request.body.toString('utf8'));
	return {...legacyResponse(info, 200, null), ...(outcome.ok && outcome.after ? {after: outcome.after} : {})};
}
