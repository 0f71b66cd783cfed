import type {Channel} from '../types.js';
import {alertmanagerChannel, isAlertmanagerPath} from './alertmanager.js';
import {DEFAULT_BASES, type ServiceBases} from './channel.js';
import {NotifyUsageError} from './errors.js';
import {gotifyChannel} from './gotify.js';
import {jsonChannel} from './json.js';
import {ntfyChannel} from './ntfy.js';
import {pushoverChannel} from './pushover.js';
import {telegramChannel} from './telegram.js';
import {schemeOf, splitUrl, type UrlParts} from './url.js';
import {discordChannel, slackChannel} from './webhooks.js';

/** The forms rigtop knows, as every refusal names them (docs/notify-channels.md has each in full). */
export const KNOWN_FORMS =
	'ntfy://TOPIC, ntfy(s)://[USER:PASS@|TOKEN@]HOST/TOPIC, https://ntfy.sh/TOPIC, tgram://BOT_TOKEN/CHAT_ID, ' +
	'https://api.telegram.org/botTOKEN/sendMessage?chat_id=ID, discord://ID/TOKEN, https://discord.com/api/webhooks/ID/TOKEN, ' +
	'slack://A/B/C, https://hooks.slack.com/services/A/B/C, pover://USER_KEY@APP_TOKEN, ' +
	'https://api.pushover.net/1/messages.json?token=…&user=…, gotify(s)://HOST/APP_TOKEN, json(s)://HOST/PATH, ' +
	'http(s)://HOST:9093/api/v2/alerts, alertmanager(s)://HOST:PORT';

const DISCORD_HOSTS = new Set(['discord.com', 'discordapp.com', 'canary.discord.com', 'ptb.discord.com']);

/** What an https (or http) URL is, by its host or, for Alertmanager, its path. */
function webUrl(parts: UrlParts, bases: ServiceBases): Channel {
	const host = parts.hostPort.toLowerCase();
	const shownScheme = `${parts.scheme}://`;
	if (isAlertmanagerPath(parts.segments)) return alertmanagerChannel(parts);
	if (parts.scheme === 'https') {
		if (host === 'ntfy.sh') return ntfyChannel(parts, bases.ntfy);
		if (host === 'api.telegram.org') return telegramChannel(parts, bases.telegram);
		if (DISCORD_HOSTS.has(host)) return discordChannel(parts, bases.discord);
		if (host === 'hooks.slack.com') return slackChannel(parts, bases.slack);
		if (host === 'api.pushover.net') return pushoverChannel(parts, bases.pushover);
	}
	// The host of an http(s) URL is a host: it may be shown (its path and query may hold the secret).
	const shownHost = /^[-a-z0-9.:[\]]{1,255}$/.test(host) ? host : '…';
	throw new NotifyUsageError(`notify URL ${shownScheme}${shownHost} is no service rigtop knows (forms known: ${KNOWN_FORMS})`);
}

/**
 * A notify URL as a Channel. Throws a NotifyUsageError, one line naming the forms known and never the URL's secret
 * parts, for an unknown scheme, an https URL of no known service or a malformed URL. `bases` points the hosted
 * services elsewhere (the tests' loopback servers); rigtop itself never passes it.
 */
export function parseChannel(url: string, bases: ServiceBases = DEFAULT_BASES): Channel {
	const scheme = schemeOf(url);
	if (scheme === undefined) throw new NotifyUsageError(`notify URL: not a URL (forms known: ${KNOWN_FORMS})`);
	const parts = splitUrl(url, 'notify URL');
	switch (scheme) {
		case 'ntfy':
		case 'ntfys':
			return ntfyChannel(parts, bases.ntfy);
		case 'tgram':
			return telegramChannel(parts, bases.telegram);
		case 'discord':
			return discordChannel(parts, bases.discord);
		case 'slack':
			return slackChannel(parts, bases.slack);
		case 'pover':
			return pushoverChannel(parts, bases.pushover);
		case 'gotify':
		case 'gotifys':
			return gotifyChannel(parts);
		case 'json':
		case 'jsons':
			return jsonChannel(parts);
		case 'alertmanager':
		case 'alertmanagers':
			return alertmanagerChannel(parts);
		case 'http':
		case 'https':
			return webUrl(parts, bases);
		default:
			throw new NotifyUsageError(`notify URL ${scheme}://…: unknown scheme (forms known: ${KNOWN_FORMS})`);
	}
}
