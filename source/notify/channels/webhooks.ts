import type {Channel, Notice} from '../types.js';
import {makeChannel, trimBase} from './channel.js';
import {NotifyUsageError} from './errors.js';
import {cut, deliver, jsonPost} from './http.js';
import type {UrlParts} from './url.js';

/**
 * Discord and Slack webhooks: the URL each service gives, pasted as it is, or Apprise's form of it.
 * Discord (https://discord.com/developers/docs/resources/webhook#execute-webhook): POST /api/webhooks/ID/TOKEN with
 * {content, embeds, allowed_mentions: {parse: []}} (a rig's name never pings anyone). Slack
 * (https://api.slack.com/messaging/webhooks): POST /services/A/B/C with {text}, '&', '<', '>' escaped.
 */

const DISCORD_ID = /^\d{5,30}$/;
const DISCORD_TOKEN = /^[-_A-Za-z0-9]{20,200}$/;
const SLACK_PART = /^[A-Za-z0-9]{5,64}$/;

/** An embed's colour: red for an error, orange for a warning, green for an all-clear, blue for news. */
function colour(notice: Notice): number {
	if (notice.kind === 'resolved') return 0x2e_cc_71;
	if (notice.kind === 'info' || notice.kind === 'test' || notice.kind === 'collapsed') return 0x34_98_db;
	return notice.severity === 'error' ? 0xe7_4c_3c : 0xe6_7e_22;
}

export function discordChannel(parts: UrlParts, base: string): Channel {
	let id: string | undefined;
	let token: string | undefined;
	let shown: string;
	if (parts.scheme === 'https') {
		const host = parts.hostPort.toLowerCase();
		shown = `https://${host}`;
		const [api, webhooks, first, second, ...more] = parts.segments;
		if (api !== 'api' || webhooks !== 'webhooks' || more.length > 0)
			throw new NotifyUsageError(`notify URL ${shown}: expected ${shown}/api/webhooks/ID/TOKEN`);
		[id, token] = [first, second];
	} else {
		shown = 'discord://discord.com';
		// discord://ID/TOKEN, or discord://BOTNAME@ID/TOKEN (Apprise's name for the poster).
		[id, token] = [parts.hostPort, parts.segments[0]];
		if (parts.segments.length > 1) throw new NotifyUsageError('notify URL discord://…: expected discord://WEBHOOK_ID/WEBHOOK_TOKEN');
	}
	if (!id || !DISCORD_ID.test(id) || !token || !DISCORD_TOKEN.test(token))
		throw new NotifyUsageError(`notify URL ${parts.scheme}://…: expected the webhook's id (digits) and token`);
	const username = parts.scheme === 'discord' && parts.user ? parts.user : (parts.query.get('botname') ?? undefined);
	const url = `${trimBase(base)}/api/webhooks/${id}/${token}`;
	return makeChannel('discord', shown, parts.whole, async (notice, signal) =>
		deliver(
			'discord',
			jsonPost(url, {
				...(username ? {username: cut(username, 80)} : {}),
				content: cut(notice.title, 2000),
				embeds: notice.body
					? [{description: cut(notice.body, 4096), color: colour(notice), timestamp: new Date(notice.at).toISOString()}]
					: [],
				allowed_mentions: {parse: []},
			}),
			signal,
			(status) => (status === 404 ? 'the webhook was deleted' : status === 401 || status === 403 ? "check the webhook's token" : undefined),
		),
	);
}

/** Slack's three characters that are markup (https://api.slack.com/reference/surfaces/formatting#escaping). */
export function slackEscape(text: string): string {
	return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function slackChannel(parts: UrlParts, base: string): Channel {
	let keys: readonly string[];
	let shown: string;
	if (parts.scheme === 'https') {
		shown = 'https://hooks.slack.com';
		const [services, ...rest] = parts.segments;
		if (services !== 'services') throw new NotifyUsageError(`notify URL ${shown}: expected ${shown}/services/A/B/C`);
		keys = rest;
	} else {
		shown = 'slack://hooks.slack.com';
		// slack://A/B/C, or slack://BOTNAME@A/B/C; a trailing #channel is Apprise's, ignored (the webhook has its channel).
		keys = [parts.hostPort, ...parts.segments].filter((key) => !key.startsWith('#'));
	}
	if (keys.length !== 3 || !keys.every((key) => SLACK_PART.test(key)))
		throw new NotifyUsageError(`notify URL ${parts.scheme}://…: expected the webhook's three keys (…/services/A/B/C)`);
	const url = `${trimBase(base)}/services/${keys.join('/')}`;
	return makeChannel('slack', shown, parts.whole, async (notice, signal) =>
		deliver(
			'slack',
			jsonPost(url, {text: cut(`*${slackEscape(notice.title)}*${notice.body ? `\n${slackEscape(notice.body)}` : ''}`, 39_000)}),
			signal,
			(status, body) =>
				status === 404
					? 'the webhook was removed (no_service)'
					: status === 410
						? 'the channel is archived'
						: status === 403
							? /invalid_token/.test(body)
								? 'the webhook was revoked (invalid_token)'
								: 'the workspace refused it (action_prohibited)'
							: undefined,
		),
	);
}
