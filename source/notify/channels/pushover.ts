import type {Channel, Priority} from '../types.js';
import {makeChannel, trimBase} from './channel.js';
import {NotifyUsageError} from './errors.js';
import {cut, deliver} from './http.js';
import type {UrlParts} from './url.js';

/**
 * Pushover (https://pushover.net/api): POST /1/messages.json, form-encoded token, user, title, message, priority
 * (−1 quiet for the all-clears, 0, 1 high: bypasses quiet hours), timestamp, device. Forms: pover://USER_KEY@APP_TOKEN[/DEVICE]
 * and https://api.pushover.net/1/messages.json?token=APP_TOKEN&user=USER_KEY[&device=DEVICE]; query priority
 * (−2…1 or lowest/low/normal/high) sets every message's.
 */

const KEY = /^[A-Za-z0-9]{30}$/;
const DEVICE = /^[A-Za-z0-9_-]{1,25}$/;
const NAMED: Readonly<Record<string, number>> = {lowest: -2, low: -1, normal: 0, default: 0, high: 1};

export function pushoverPriority(priority: Priority): -1 | 0 | 1 {
	return priority === 'low' ? -1 : priority === 'default' ? 0 : 1;
}

export function pushoverChannel(parts: UrlParts, base: string): Channel {
	let user: string | undefined;
	let token: string | undefined;
	let device: string | undefined;
	let shown: string;
	if (parts.scheme === 'https') {
		shown = 'https://api.pushover.net';
		token = parts.query.get('token') ?? undefined;
		user = parts.query.get('user') ?? undefined;
		device = parts.query.get('device') ?? undefined;
	} else {
		shown = 'pover://api.pushover.net';
		user = parts.user;
		token = parts.hostPort;
		device = parts.segments[0];
		if (parts.segments.length > 1)
			throw new NotifyUsageError('notify URL pover://…: one device per URL (pover://USER_KEY@APP_TOKEN/DEVICE)');
	}
	if (!user || !KEY.test(user) || !token || !KEY.test(token))
		throw new NotifyUsageError(
			`notify URL ${parts.scheme}://…: expected the user key and the application token (30 letters and digits each)`,
		);
	if (device !== undefined && !DEVICE.test(device))
		throw new NotifyUsageError(`notify URL ${parts.scheme}://…: the device name is 1–25 letters, digits, '-' or '_'`);
	const priorityText = parts.query.get('priority');
	let fixed: number | undefined;
	if (priorityText !== null) {
		fixed = /^(-2|-1|0|1)$/.test(priorityText) ? Number(priorityText) : NAMED[priorityText.toLowerCase()];
		if (fixed === undefined)
			throw new NotifyUsageError(`notify URL ${parts.scheme}://…: priority is -2, -1, 0 or 1 (lowest, low, normal, high)`);
	}
	const url = `${trimBase(base)}/1/messages.json`;
	const appToken = token;
	const userKey = user;
	return makeChannel('pushover', shown, parts.whole, async (notice, signal) => {
		const form = new URLSearchParams({
			token: appToken,
			user: userKey,
			title: cut(notice.title, 250),
			message: cut(notice.body || notice.title, 1024),
			priority: String(fixed ?? pushoverPriority(notice.priority)),
			timestamp: String(Math.floor(notice.at / 1000)),
		});
		if (device) form.set('device', device);
		return deliver(
			'pushover',
			{url, headers: {'content-type': 'application/x-www-form-urlencoded'}, body: form.toString()},
			signal,
			(status, body) => {
				if (status !== 400) return undefined;
				if (/"token"\s*:\s*"invalid"/.test(body)) return 'check the application token';
				if (/"user"\s*:\s*"invalid"/.test(body)) return 'check the user key';
				return 'check the user key and application token';
			},
		);
	});
}
