import type {Channel, Priority} from '../types.js';
import {makeChannel} from './channel.js';
import {NotifyUsageError} from './errors.js';
import {cut, deliver, jsonPost} from './http.js';
import {checkHost, shownHost, type UrlParts} from './url.js';

/**
 * Gotify (https://gotify.net/api-docs, POST /message): {title, message, priority 0–10} with the application's token
 * in X-Gotify-Key. Forms: gotify://HOST[:PORT][/PATH]/APP_TOKEN (http), gotifys://… (https); query priority (0–10 or
 * low/moderate/normal/high/emergency) sets every message's.
 */

const TOKEN = /^[-_.A-Za-z0-9]{5,128}$/;
const NAMED: Readonly<Record<string, number>> = {low: 1, moderate: 3, normal: 5, default: 5, high: 8, emergency: 10};

export function gotifyPriority(priority: Priority): number {
	return {low: 2, default: 5, high: 8, urgent: 10}[priority];
}

export function gotifyChannel(parts: UrlParts): Channel {
	const {host, port} = checkHost(parts, 'notify URL');
	const shown = shownHost(parts.scheme, parts);
	const token = parts.segments.at(-1);
	if (!token || !TOKEN.test(token)) throw new NotifyUsageError(`notify URL ${shown}: expected ${parts.scheme}://HOST[/PATH]/APP_TOKEN`);
	const path = parts.segments
		.slice(0, -1)
		.map((segment) => encodeURIComponent(segment))
		.join('/');
	const priorityText = parts.query.get('priority');
	let fixed: number | undefined;
	if (priorityText !== null) {
		fixed = /^(10|\d)$/.test(priorityText) ? Number(priorityText) : NAMED[priorityText.toLowerCase()];
		if (fixed === undefined)
			throw new NotifyUsageError(`notify URL ${shown}: priority is 0–10 (or low, moderate, normal, high, emergency)`);
	}
	const url = `${parts.scheme === 'gotifys' ? 'https' : 'http'}://${host}${port === undefined ? '' : `:${port}`}/${path ? `${path}/` : ''}message`;
	return makeChannel('gotify', shown, parts.whole, async (notice, signal) =>
		deliver(
			'gotify',
			jsonPost(
				url,
				{title: cut(notice.title, 250), message: notice.body || notice.title, priority: fixed ?? gotifyPriority(notice.priority)},
				{'x-gotify-key': token},
			),
			signal,
			(status) =>
				status === 401 || status === 403 ? 'check the application token' : status === 404 ? 'check the server and its path' : undefined,
		),
	);
}
