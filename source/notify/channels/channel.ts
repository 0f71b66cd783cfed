import type {Channel, Delivery, Notice, Priority} from '../types.js';
import {failed} from './http.js';
import {urlId} from './url.js';

/** The hosted services' base URLs: a parameter of each channel's factory (tests point them at loopback). */
export type ServiceBases = {
	readonly ntfy: string;
	readonly telegram: string;
	readonly discord: string;
	readonly slack: string;
	readonly pushover: string;
};

export const DEFAULT_BASES: ServiceBases = {
	ntfy: 'https://ntfy.sh',
	telegram: 'https://api.telegram.org',
	discord: 'https://discord.com',
	slack: 'https://hooks.slack.com',
	pushover: 'https://api.pushover.net',
};

/** The base without a trailing '/'. */
export function trimBase(base: string): string {
	return base.replace(/\/+$/, '');
}

/** Builds a Channel whose send never throws, whatever its request maker does. */
export function makeChannel(
	service: string,
	shown: string,
	url: string,
	send: (notice: Notice, signal: AbortSignal) => Promise<Delivery>,
	refresh?: Channel['refresh'],
): Channel {
	const channel: Channel = {
		service,
		shown,
		id: urlId(url),
		async send(notice, signal) {
			try {
				return await send(notice, signal);
			} catch (error) {
				return failed(service, error);
			}
		},
	};
	if (!refresh) return channel;
	return {
		...channel,
		async refresh(open, signal) {
			try {
				return await refresh(open, signal);
			} catch (error) {
				return failed(service, error);
			}
		},
	};
}

/** The priority's rank 0–3 (low … urgent). */
export function rank(priority: Priority): 0 | 1 | 2 | 3 {
	return priority === 'low' ? 0 : priority === 'default' ? 1 : priority === 'high' ? 2 : 3;
}
