import type {Channel, Notice, Priority} from '../types.js';
import {makeChannel, trimBase} from './channel.js';
import {NotifyUsageError} from './errors.js';
import {basicAuth, cut, deliver, jsonPost} from './http.js';
import {checkHost, shownHost, type UrlParts} from './url.js';

/**
 * ntfy (https://docs.ntfy.sh/publish/): a JSON publish to the server's root ({topic, title, message, priority, tags}).
 * Forms: ntfy://TOPIC and ntfys://TOPIC (ntfy.sh), ntfy://[USER:PASS@|TOKEN@]HOST[:PORT]/TOPIC (http),
 * ntfys://… (https), https://ntfy.sh/TOPIC; query: priority (1–5 or min/low/default/high/max/urgent: every notice at
 * it), tags (comma list, added to rigtop's), title (put before each notice's title), token (an access token), auth
 * (basic|token: how a lone user part is sent).
 */

const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;

const NAMED: Readonly<Record<string, number>> = {min: 1, low: 2, default: 3, normal: 3, high: 4, max: 5, urgent: 5, emergency: 5};

/** rigtop's priority → ntfy's 1–5. */
export function ntfyPriority(priority: Priority): number {
	return {low: 2, default: 3, high: 4, urgent: 5}[priority];
}

function kindTags(notice: Notice): string[] {
	if (notice.kind === 'resolved') return ['white_check_mark'];
	if (notice.kind === 'test') return ['test_tube'];
	if (notice.kind === 'info' || notice.kind === 'collapsed') return ['information_source'];
	return [notice.severity === 'error' ? 'rotating_light' : 'warning'];
}

export type NtfyConfig = {
	readonly server: string;
	readonly topic: string;
	readonly priority: number | undefined;
	readonly tags: readonly string[];
	readonly titlePrefix: string | undefined;
	readonly authorization: string | undefined;
};

export function parseNtfy(parts: UrlParts, cloudBase: string): {config: NtfyConfig; shown: string} {
	const what = `notify URL ${parts.scheme}://…`;
	const secure = parts.scheme === 'ntfys' || parts.scheme === 'https';
	let server: string;
	let topic: string | undefined;
	let shown: string;
	if (parts.scheme === 'https') {
		topic = parts.segments[0];
		server = cloudBase;
		shown = 'https://ntfy.sh';
		if (parts.segments.length !== 1) throw new NotifyUsageError(`notify URL https://ntfy.sh: expected https://ntfy.sh/TOPIC`);
	} else if (parts.segments.length === 0) {
		// ntfy://TOPIC: the public server.
		topic = parts.hostPort;
		server = cloudBase;
		shown = `${parts.scheme}://ntfy.sh`;
	} else {
		if (parts.segments.length !== 1) throw new NotifyUsageError(`${what}: one topic per URL (ntfy://HOST/TOPIC)`);
		const {host, port} = checkHost(parts, 'notify URL');
		server = `${secure ? 'https' : 'http'}://${host}${port === undefined ? '' : `:${port}`}`;
		topic = parts.segments[0];
		shown = shownHost(parts.scheme, parts);
	}
	if (!topic || !TOPIC.test(topic)) throw new NotifyUsageError(`${what}: the topic must be 1–64 letters, digits, '-' or '_'`);
	const priorityText = parts.query.get('priority');
	let priority: number | undefined;
	if (priorityText !== null) {
		priority = /^[1-5]$/.test(priorityText) ? Number(priorityText) : NAMED[priorityText.toLowerCase()];
		if (priority === undefined) throw new NotifyUsageError(`${what}: priority is 1–5 or min, low, default, high, max`);
	}
	const tags = (parts.query.get('tags') ?? '')
		.split(',')
		.map((tag) => tag.trim())
		.filter(Boolean);
	const token = parts.query.get('token') ?? undefined;
	let authorization: string | undefined;
	if (token) authorization = `Bearer ${token}`;
	else if (parts.user !== undefined && parts.password !== undefined) authorization = basicAuth(parts.user, parts.password);
	else if (parts.user) {
		const auth = parts.query.get('auth')?.toLowerCase();
		if (auth === 'basic') throw new NotifyUsageError(`${what}: basic auth needs USER:PASSWORD@`);
		authorization = `Bearer ${parts.user}`;
	}
	const titlePrefix = parts.query.get('title') ?? undefined;
	return {config: {server: trimBase(server), topic, priority, tags, titlePrefix, authorization}, shown};
}

/** The JSON publish of a notice. */
export function ntfyBody(config: NtfyConfig, notice: Notice): Record<string, unknown> {
	const title = config.titlePrefix ? `${config.titlePrefix}: ${notice.title}` : notice.title;
	return {
		topic: config.topic,
		title: cut(title, 250),
		message: cut(notice.body || notice.title, 4000),
		priority: config.priority ?? ntfyPriority(notice.priority),
		tags: [...kindTags(notice), ...config.tags],
	};
}

export function ntfyChannel(parts: UrlParts, cloudBase: string): Channel {
	const {config, shown} = parseNtfy(parts, cloudBase);
	return makeChannel('ntfy', shown, parts.whole, async (notice, signal) =>
		deliver(
			'ntfy',
			jsonPost(`${config.server}/`, ntfyBody(config, notice), config.authorization ? {authorization: config.authorization} : {}),
			signal,
			(status) =>
				status === 401
					? 'check the user and password or the access token'
					: status === 403
						? "check the topic's access"
						: status === 404
							? 'check the server and topic'
							: undefined,
		),
	);
}
