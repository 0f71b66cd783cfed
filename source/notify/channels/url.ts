import {createHash} from 'node:crypto';
import {NotifyUsageError} from './errors.js';

/**
 * A notify URL split by hand: Apprise's forms are not all URLs Node's parser takes (a Telegram bot token holds a ':'
 * where a port would be), so the scheme, the user part, the host part, the path's segments and the query are cut
 * apart here, each decoded. Nothing here is ever printed but `scheme` and, for forms whose host is a host, `host`.
 */
export type UrlParts = {
	/** Lowercased. */
	readonly scheme: string;
	readonly user: string | undefined;
	readonly password: string | undefined;
	/** The host part as written, a port included (for tgram:// it is the bot token: never shown). */
	readonly hostPort: string;
	/** The path's segments, decoded, empty ones dropped. */
	readonly segments: readonly string[];
	/** The raw path (from the first '/' after the host, without the query). */
	readonly rawPath: string;
	readonly query: URLSearchParams;
	/** The raw query, without '?', keeping '+' as written (Apprise's `+Header=value`). */
	readonly rawQuery: string;
	readonly whole: string;
};

const SCHEME = /^([a-z][a-z0-9+.-]{0,30}):\/\//i;

/** The scheme of a URL when it has one that can be shown (letters, digits, + . -), else undefined. */
export function schemeOf(url: string): string | undefined {
	return SCHEME.exec(url.trim())?.[1]?.toLowerCase();
}

function decode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** Splits a URL; throws a NotifyUsageError naming only the scheme when it is not one. */
export function splitUrl(url: string, what: string): UrlParts {
	const whole = url.trim();
	const match = SCHEME.exec(whole);
	if (!match?.[1]) throw new NotifyUsageError(`${what}: not a URL (it must look like SCHEME://…)`);
	const scheme = match[1].toLowerCase();
	if (/\s/.test(whole)) throw new NotifyUsageError(`${what} ${scheme}://…: a URL holds no spaces`);
	let rest = whole.slice(match[0].length);
	const hash = rest.indexOf('#');
	if (hash >= 0) rest = rest.slice(0, hash);
	const questionMark = rest.indexOf('?');
	const rawQuery = questionMark >= 0 ? rest.slice(questionMark + 1) : '';
	if (questionMark >= 0) rest = rest.slice(0, questionMark);
	const slash = rest.indexOf('/');
	let authority = slash >= 0 ? rest.slice(0, slash) : rest;
	const rawPath = slash >= 0 ? rest.slice(slash) : '';
	let user: string | undefined;
	let password: string | undefined;
	const at = authority.lastIndexOf('@');
	if (at >= 0) {
		const userInfo = authority.slice(0, at);
		authority = authority.slice(at + 1);
		const colon = userInfo.indexOf(':');
		user = decode(colon >= 0 ? userInfo.slice(0, colon) : userInfo);
		if (colon >= 0) password = decode(userInfo.slice(colon + 1));
	}
	const segments = rawPath
		.split('/')
		.filter((segment) => segment !== '')
		.map(decode);
	// URLSearchParams turns '+' into a space; keep it as written for `+Header=value`.
	const query = new URLSearchParams(rawQuery.replaceAll('+', '%2B'));
	return {scheme, user, password, hostPort: authority, segments, rawPath, query, rawQuery, whole};
}

/** host[:port] checked as a host (letters, digits, dots, dashes, or a bracketed IPv6) and a port 1–65535. */
export function checkHost(parts: UrlParts, what: string): {host: string; port: number | undefined} {
	const match = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?)(?::(\d{1,5}))?$/i.exec(
		parts.hostPort,
	);
	if (!match?.[1]) throw new NotifyUsageError(`${what} ${parts.scheme}://…: the host is not a host name or address`);
	const port = match[5] === undefined ? undefined : Number(match[5]);
	if (port !== undefined && (port < 1 || port > 65_535))
		throw new NotifyUsageError(`${what} ${parts.scheme}://…: the port is out of range`);
	return {host: match[1].toLowerCase(), port};
}

/** scheme://host[:port]: what may be shown of a URL whose host is a host. */
export function shownHost(scheme: string, parts: UrlParts): string {
	const {host, port} = checkHost(parts, 'notify URL');
	return `${scheme}://${host}${port === undefined ? '' : `:${port}`}`;
}

/** The channel's id: a hash of the whole URL (the outbox's key; no secret can be read back from it). */
export function urlId(url: string): string {
	return createHash('sha256').update(url.trim()).digest('hex').slice(0, 16);
}

/** A query's yes/no ("yes", "true", "1", "on"). */
export function isYes(value: string | null): boolean {
	return value !== null && /^(1|y|yes|true|on)$/i.test(value.trim());
}
