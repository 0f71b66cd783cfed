import type {Delivery} from '../types.js';
import {NotifyUsageError} from './errors.js';
import {cut, deliver} from './http.js';
import {checkHost, shownHost, splitUrl, urlId} from './url.js';

/**
 * The dead man's switch (`--heartbeat URL`, or a `heartbeat URL` line of the notify file): pinged every interval, so
 * that someone else notices when the pings stop (rigtop, its machine or its network died). Two forms:
 * - healthchecks.io style (hc-ping.com, a self-hosted Healthchecks, Cronitor's and others' ping URLs): GET URL while
 *   rigtop and every watched rig are well, GET URL/fail while a trouble is open.
 * - Uptime Kuma's push URL (…/api/push/TOKEN?status=up&msg=OK&ping=): status=up&msg=OK while well, status=down&msg=
 *   (the trouble, one line) while not; known by its path.
 */

export type HeartbeatState = {
	/** true: rigtop and every watched rig are well; false: a trouble is open. */
	readonly well: boolean;
	/** What is wrong, one line (Uptime Kuma shows it); ignored when well. */
	readonly message?: string;
};

export type Heartbeat = {
	readonly kind: 'healthchecks' | 'uptime-kuma';
	/** scheme://host: the only part ever shown. */
	readonly shown: string;
	readonly id: string;
	/** One ping; never throws; bounded by the signal. */
	ping(state: HeartbeatState, signal: AbortSignal): Promise<Delivery>;
};

const KUMA_PATH = /\/api\/push\/[^/]+\/?$/;

export function parseHeartbeat(url: string): Heartbeat {
	const parts = splitUrl(url, 'heartbeat URL');
	if (parts.scheme !== 'http' && parts.scheme !== 'https')
		throw new NotifyUsageError(`heartbeat URL ${parts.scheme}://…: a heartbeat is an http:// or https:// ping URL`);
	checkHost(parts, 'heartbeat URL');
	const shown = shownHost(parts.scheme, parts);
	if (parts.user !== undefined) throw new NotifyUsageError(`heartbeat URL ${shown}: a ping URL holds no user or password`);
	const base = new URL(parts.whole);
	base.hash = '';
	const kuma = KUMA_PATH.test(base.pathname);
	if (!kuma && base.pathname.replace(/\/+$/, '') === '')
		throw new NotifyUsageError(`heartbeat URL ${shown}: give the check's ping URL (https://hc-ping.com/UUID, …/api/push/TOKEN)`);
	const notFound = (body: string): string | undefined =>
		/^OK \(not found\)/.test(body.trim())
			? 'no check has this ping URL: check it'
			: /"ok"\s*:\s*false/.test(body)
				? 'the monitor is not found or not active: check the push URL'
				: undefined;
	const fix = (status: number): string | undefined => (status === 404 ? 'no check has this ping URL: check it' : undefined);
	return {
		kind: kuma ? 'uptime-kuma' : 'healthchecks',
		shown,
		id: urlId(url),
		async ping(state, signal) {
			try {
				const target = new URL(base);
				if (kuma) {
					target.searchParams.set('status', state.well ? 'up' : 'down');
					target.searchParams.set(
						'msg',
						state.well ? 'OK' : cut((state.message ?? 'trouble').replace(/\s+/g, ' ').trim() || 'trouble', 200),
					);
				} else if (!state.well) target.pathname = `${target.pathname.replace(/\/+$/, '')}/fail`;
				return await deliver('heartbeat', {url: target.href, method: 'GET'}, signal, fix, notFound);
			} catch {
				return {ok: false, retry: false, ms: 0, reason: 'heartbeat: the ping could not be made'};
			}
		},
	};
}
