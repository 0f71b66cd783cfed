import type {Channel, Notice} from '../types.js';
import {makeChannel} from './channel.js';
import {NotifyUsageError} from './errors.js';
import {basicAuth, deliver} from './http.js';
import {checkHost, shownHost, type UrlParts} from './url.js';

/**
 * The generic JSON webhook, Apprise's json:// (http) and jsons:// (https): json://[USER:PASS@]HOST[:PORT]/PATH.
 * Query: method (POST, PUT or PATCH), `+Header=value` (a request header), `:field=name` (rename a field of the body),
 * `:field=` (drop it), `:field=value` for a field the body lacks (add it as that text); any other parameter goes to the
 * server in the URL's query. The body is Apprise's JSON ({version, title, message, type, attachments}) plus rigtop's
 * fields (key, kind, trouble, severity, priority, at, rigs): docs/notify-channels.md.
 */

const METHODS = new Set(['POST', 'PUT', 'PATCH']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;

/** Apprise's notification type of a notice. */
function appriseType(notice: Notice): 'info' | 'success' | 'warning' | 'failure' {
	if (notice.kind === 'resolved') return 'success';
	if (notice.kind === 'info' || notice.kind === 'test' || notice.kind === 'collapsed') return 'info';
	return notice.severity === 'error' ? 'failure' : notice.severity === 'warn' ? 'warning' : 'info';
}

/** The webhook's body of a notice, before the URL's `:field` edits. */
export function jsonBody(notice: Notice): Record<string, unknown> {
	return {
		version: '1.0',
		title: notice.title,
		message: notice.body || notice.title,
		type: appriseType(notice),
		attachments: [],
		key: notice.key,
		kind: notice.kind,
		trouble: notice.trouble,
		severity: notice.severity,
		priority: notice.priority,
		at: new Date(notice.at).toISOString(),
		rigs: notice.rigs.map((rig) => ({
			rig: rig.rig,
			url: rig.url,
			...(rig.worker === undefined ? {} : {worker: rig.worker}),
			since: new Date(rig.since).toISOString(),
			...(rig.until === undefined ? {} : {until: new Date(rig.until).toISOString()}),
			message: rig.message,
		})),
	};
}

export function jsonChannel(parts: UrlParts): Channel {
	const {host, port} = checkHost(parts, 'notify URL');
	const shown = shownHost(parts.scheme, parts);
	let method = 'POST';
	const headers: Record<string, string> = {'content-type': 'application/json'};
	const edits: Array<[string, string]> = [];
	const forward = new URLSearchParams();
	for (const pair of parts.rawQuery.split('&')) {
		if (!pair) continue;
		const equals = pair.indexOf('=');
		const rawName = equals >= 0 ? pair.slice(0, equals) : pair;
		const rawValue = equals >= 0 ? pair.slice(equals + 1) : '';
		const decode = (text: string): string => {
			try {
				return decodeURIComponent(text.replaceAll('+', ' '));
			} catch {
				return text;
			}
		};
		if (rawName.startsWith('+')) {
			const name = decode(rawName.slice(1));
			if (!HEADER_NAME.test(name)) throw new NotifyUsageError(`notify URL ${shown}: a +Header name holds only letters, digits and - _ .`);
			headers[name.toLowerCase()] = decode(rawValue);
		} else if (rawName.startsWith(':')) {
			edits.push([decode(rawName.slice(1)), decode(rawValue)]);
		} else if (rawName.toLowerCase() === 'method') {
			method = decode(rawValue).toUpperCase();
			if (!METHODS.has(method)) throw new NotifyUsageError(`notify URL ${shown}: method is POST, PUT or PATCH`);
		} else forward.append(decode(rawName), decode(rawValue));
	}
	if (parts.user !== undefined) headers.authorization = basicAuth(parts.user, parts.password ?? '');
	const query = forward.toString();
	const url = `${parts.scheme === 'jsons' ? 'https' : 'http'}://${host}${port === undefined ? '' : `:${port}`}${parts.rawPath || '/'}${query ? `?${query}` : ''}`;
	return makeChannel('json', shown, parts.whole, async (notice, signal) => {
		const body = jsonBody(notice);
		for (const [field, value] of edits) {
			if (field in body) {
				const was = body[field];
				delete body[field];
				if (value) body[value] = was;
			} else if (value) body[field] = value;
		}
		return deliver('json', {url, method, headers, body: JSON.stringify(body)}, signal);
	});
}
