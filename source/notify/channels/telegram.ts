import type {Channel} from '../types.js';
import {makeChannel, trimBase} from './channel.js';
import {NotifyUsageError} from './errors.js';
import {cut, deliver, jsonPost, plainText} from './http.js';
import {isYes, type UrlParts} from './url.js';

/**
 * Telegram (https://core.telegram.org/bots/api#sendmessage): POST /bot<TOKEN>/sendMessage with {chat_id, text,
 * disable_notification} — silent for the all-clears (priority 'low'). Forms: tgram://BOT_TOKEN/CHAT_ID and
 * https://api.telegram.org/botBOT_TOKEN/sendMessage?chat_id=CHAT_ID (one chat per URL); query silent=yes makes every
 * message silent.
 */

const BOT_TOKEN = /^\d{1,20}:[-_A-Za-z0-9]{10,}$/;
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,})$/;

export function telegramChannel(parts: UrlParts, base: string): Channel {
	let token: string | undefined;
	let chat: string | undefined;
	let shown: string;
	if (parts.scheme === 'https') {
		shown = 'https://api.telegram.org';
		const [first, second] = parts.segments;
		token = first?.startsWith('bot') ? first.slice(3) : undefined;
		if (second !== undefined && second !== 'sendMessage') token = undefined;
		chat = parts.query.get('chat_id') ?? undefined;
		if (!token || parts.segments.length > 2)
			throw new NotifyUsageError(`notify URL ${shown}: expected ${shown}/botTOKEN/sendMessage?chat_id=CHAT_ID`);
	} else {
		shown = 'tgram://api.telegram.org';
		token = parts.user ? `${parts.user}:${parts.password ?? ''}@${parts.hostPort}` : parts.hostPort;
		// A bare token is NUMBER:SECRET, which a URL reads as host:port; tgram://bot123:abc/… is accepted too.
		if (token.startsWith('bot')) token = token.slice(3);
		chat = parts.segments[0];
		if (parts.segments.length > 1) throw new NotifyUsageError('notify URL tgram://…: one chat per URL (tgram://BOT_TOKEN/CHAT_ID)');
	}
	if (!BOT_TOKEN.test(token))
		throw new NotifyUsageError(`notify URL ${parts.scheme}://…: the bot token must look like 123456:ABC… (from @BotFather)`);
	if (!chat || !CHAT_ID.test(chat))
		throw new NotifyUsageError(`notify URL ${parts.scheme}://…: give the chat id (a number, or @channelname)`);
	const silentAlways = isYes(parts.query.get('silent'));
	const botToken = token;
	const chatId = chat;
	const url = `${trimBase(base)}/bot${botToken}/sendMessage`;
	return makeChannel('telegram', shown, parts.whole, async (notice, signal) =>
		deliver(
			'telegram',
			jsonPost(url, {
				chat_id: chatId,
				text: cut(plainText(notice), 4096),
				disable_notification: silentAlways || notice.priority === 'low',
				link_preview_options: {is_disabled: true},
			}),
			signal,
			(status, body) =>
				status === 401 || status === 404
					? 'check the bot token'
					: status === 403
						? 'the bot was blocked or removed from the chat'
						: status === 400
							? /chat not found/i.test(body)
								? 'check the chat id (chat not found)'
								: 'check the chat id'
							: undefined,
		),
	);
}
