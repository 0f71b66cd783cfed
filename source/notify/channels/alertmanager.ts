import {EVENT_KINDS, type Severity} from '../../monitor/event-kinds.js';
import type {Channel, Notice, NoticeRig, OpenTrouble} from '../types.js';
import {makeChannel} from './channel.js';
import {NotifyUsageError} from './errors.js';
import {basicAuth, deliver, jsonPost} from './http.js';
import {checkHost, shownHost, type UrlParts} from './url.js';

/**
 * Prometheus Alertmanager (its API v2, POST /api/v2/alerts): rigtop's troubles as alerts, one per rig of a notice,
 * so a user who has one gets its routing, grouping, silences and receivers. Labels: alertname (the trouble), rig,
 * instance (the miner's host:port), severity (critical, warning, info), worker when a proxy's worker is meant;
 * annotations summary and description; startsAt; endsAt when the rig's trouble ended (a resolved or collapsed notice).
 * Forms: http(s)://HOST[:PORT][/PREFIX]/api/v2/alerts (known by its path), alertmanager://HOST[:PORT][/PREFIX] (http),
 * alertmanagers://… (https); USER:PASS@ for basic auth. Alertmanager resolves by itself an alert it has not heard of
 * for resolve_timeout (5 min by default): `refresh` posts the open troubles again, as firing.
 */

/** News and tests have no all-clear: their alerts end by themselves after this. */
const NEWS_LASTS_MS = 5 * 60_000;

export function alertSeverity(severity: Severity): 'critical' | 'warning' | 'info' {
	return severity === 'error' ? 'critical' : severity === 'warn' ? 'warning' : 'info';
}

const RANK: Readonly<Record<Severity, number>> = {info: 0, warn: 1, error: 2};

/**
 * The severity of a trouble as the catalogue gives the events that begin it (the worst of them), so that its alert has
 * the same labels firing and resolved (the all-clear's own severity is 'info': Alertmanager would take it for
 * another alert); undefined for a kind the catalogue does not know.
 */
export function troubleSeverity(trouble: string): Severity | undefined {
	let worst: Severity | undefined;
	for (const row of Object.values(EVENT_KINDS) as ReadonlyArray<{readonly begins?: string; readonly severity: Severity | null}>) {
		if (row.begins !== trouble || row.severity === null) continue;
		if (worst === undefined || RANK[row.severity] > RANK[worst]) worst = row.severity;
	}
	return worst;
}

/** The miner's host:port, as Prometheus' `instance` label is. */
export function instanceOf(url: string): string {
	try {
		const parsed = new URL(url);
		const port = parsed.port || (parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : '');
		return port
			? `${parsed.hostname.includes(':') ? `[${parsed.hostname.replace(/^\[|\]$/g, '')}]` : parsed.hostname}:${port}`
			: parsed.host;
	} catch {
		return url;
	}
}

export type PostableAlert = {
	labels: Record<string, string>;
	annotations: Record<string, string>;
	startsAt: string;
	endsAt?: string;
};

function rigKey(rig: NoticeRig): string {
	return `${rig.url}\u0000${rig.worker ?? ''}\u0000${rig.since}`;
}

function alertOf(rig: NoticeRig, trouble: string, severity: Severity, description: string, endsAt?: number): PostableAlert {
	const labels: Record<string, string> = {
		alertname: trouble,
		rig: rig.rig,
		instance: instanceOf(rig.url),
		severity: alertSeverity(severity),
	};
	if (rig.worker !== undefined) labels.worker = rig.worker;
	return {
		labels,
		annotations: {summary: `${rig.rig}${rig.worker === undefined ? '' : ` (${rig.worker})`}: ${rig.message}`, description},
		startsAt: new Date(rig.since).toISOString(),
		...(endsAt === undefined ? {} : {endsAt: new Date(endsAt).toISOString()}),
	};
}

/** An alert's severity: the catalogue's for its trouble, else what it was first sent with, else the notice's. */
function severity(trouble: string, sentWith: Severity | undefined, fallback: Severity = 'warn'): Severity {
	return troubleSeverity(trouble) ?? sentWith ?? fallback;
}

/**
 * The alerts of one notice (one per rig; a test notice is one alert of its own). `known` is the severity a rig's
 * trouble was first sent with, for a kind the catalogue does not know.
 */
export function alertsOf(notice: Notice, known?: (rig: NoticeRig) => Severity | undefined): PostableAlert[] {
	const description = notice.body ? `${notice.title}\n${notice.body}` : notice.title;
	const news = notice.kind === 'info' || notice.kind === 'test';
	if (notice.rigs.length === 0)
		return [
			{
				labels: {alertname: notice.trouble, rig: 'rigtop', severity: alertSeverity(notice.severity)},
				annotations: {summary: notice.title, description},
				startsAt: new Date(notice.at).toISOString(),
				endsAt: new Date(notice.at + NEWS_LASTS_MS).toISOString(),
			},
		];
	return notice.rigs.map((rig) => {
		const endsAt = rig.until ?? (notice.kind === 'resolved' ? notice.at : news ? notice.at + NEWS_LASTS_MS : undefined);
		return alertOf(rig, notice.trouble, severity(notice.trouble, known?.(rig)), description, endsAt);
	});
}

const API_PATH = ['api', 'v2', 'alerts'];

/** Whether an http(s) URL is Alertmanager's alerts API (its path ends /api/v2/alerts). */
export function isAlertmanagerPath(segments: readonly string[]): boolean {
	return segments.length >= 3 && segments.slice(-3).join('/') === API_PATH.join('/');
}

export function alertmanagerChannel(parts: UrlParts): Channel {
	const {host, port} = checkHost(parts, 'notify URL');
	const shown = shownHost(parts.scheme, parts);
	const secure = parts.scheme === 'https' || parts.scheme === 'alertmanagers';
	const prefix = (isAlertmanagerPath(parts.segments) ? parts.segments.slice(0, -3) : parts.segments).map((segment) =>
		encodeURIComponent(segment),
	);
	if (parts.scheme.startsWith('alertmanager') && isAlertmanagerPath(parts.segments) === false && parts.segments.includes('api'))
		throw new NotifyUsageError(`notify URL ${shown}: give the server (alertmanager://HOST:9093) or its full API path (…/api/v2/alerts)`);
	const url = `${secure ? 'https' : 'http'}://${host}${port === undefined ? '' : `:${port}`}/${[...prefix, ...API_PATH].join('/')}`;
	const headers: Record<string, string> = parts.user === undefined ? {} : {authorization: basicAuth(parts.user, parts.password ?? '')};
	/** What each open trouble was sent as, so a refresh without them posts the same labels. */
	const sent = new Map<string, {trouble: string; severity: Severity}>();
	const fix = (status: number): string | undefined =>
		status === 400 ? 'Alertmanager refused the alerts' : status === 404 ? 'check the API path (…/api/v2/alerts)' : undefined;
	const post = async (alerts: PostableAlert[], signal: AbortSignal) => deliver('alertmanager', jsonPost(url, alerts, headers), signal, fix);
	return makeChannel(
		'alertmanager',
		shown,
		parts.whole,
		async (notice, signal) => {
			const firing = notice.kind === 'trouble' || notice.kind === 'repeat' || notice.kind === 'flapping';
			const alerts = alertsOf(notice, (rig) => (firing ? notice.severity : sent.get(rigKey(rig))?.severity));
			for (const rig of notice.rigs) {
				if (rig.until === undefined && firing) sent.set(rigKey(rig), {trouble: notice.trouble, severity: notice.severity});
				else sent.delete(rigKey(rig));
			}
			return post(alerts, signal);
		},
		async (open: readonly OpenTrouble[], signal) => {
			const alerts = open.map((rig) => {
				const known = sent.get(rigKey(rig));
				const trouble = rig.trouble ?? known?.trouble ?? 'rigtop';
				return alertOf(rig, trouble, severity(trouble, known?.severity, rig.severity), rig.message);
			});
			return post(alerts, signal);
		},
	);
}
