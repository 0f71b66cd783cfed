import net from 'node:net';
import {afterEach, describe, expect, it} from 'vitest';
import {DEFAULT_BASES, type ServiceBases} from '../../../source/notify/channels/channel.js';
import {retryAfterMs} from '../../../source/notify/channels/http.js';
import {parseChannel} from '../../../source/notify/channels/parse.js';
import type {Channel, Delivery} from '../../../source/notify/types.js';
import {startService, type Fault, type RunningService, type ServiceName} from '../../helpers/notify-services.js';
import {resolvedNotice, troubleNotice} from './notices.js';

/**
 * Each channel's request, checked by a loopback server answering as its service's documented API does, and each
 * answer read into a Delivery: 2xx ok, 408/429/5xx/no answer/refused retried, 429's wait kept, other 4xx not retried
 * with a reason naming the fix and never the URL's secret.
 */

const SECRET = 'S3cr3tT0k3nXyZ';
const TG = `123456789:AAH${SECRET}abcdefghij`;
const PO_USER = `u${SECRET}abcdefghijklmn0`;
const PO_TOKEN = `a${SECRET}abcdefghijklmn0`;

const running: RunningService[] = [];
afterEach(async () => {
	await Promise.all(running.splice(0).map(async (service) => service.close()));
});

async function start(service: ServiceName, faults: readonly Fault[] = [], retryAfter?: string): Promise<RunningService> {
	const started = await startService(service, {faults, ...(retryAfter === undefined ? {} : {retryAfter})});
	running.push(started);
	return started;
}

const bases = (service: RunningService): ServiceBases => ({
	ntfy: service.url,
	telegram: service.url,
	discord: service.url,
	slack: service.url,
	pushover: service.url,
});

/** Each service's URL pointing at the loopback server. */
const urlOf: Record<Exclude<ServiceName, 'heartbeat'>, (service: RunningService) => string> = {
	ntfy: (service) => `ntfy://user:${SECRET}@127.0.0.1:${service.port}/rigs?tags=farm`,
	telegram: () => `tgram://${TG}/-1001234567`,
	discord: () => `https://discord.com/api/webhooks/112233445566/${SECRET}abcdefghij`,
	slack: () => `slack://T0AAAAAAA/B0BBBBBBB/${SECRET}cccc`,
	pushover: () => `pover://${PO_USER}@${PO_TOKEN}`,
	gotify: (service) => `gotify://127.0.0.1:${service.port}/A${SECRET}`,
	json: (service) => `json://127.0.0.1:${service.port}/hook/${SECRET}?+X-Token=${SECRET}`,
	alertmanager: (service) => `http://127.0.0.1:${service.port}/api/v2/alerts`,
};

async function channelFor(name: Exclude<ServiceName, 'heartbeat'>, faults: readonly Fault[] = [], retryAfter?: string) {
	const service = await start(name, faults, retryAfter);
	return {service, channel: parseChannel(urlOf[name](service), bases(service))};
}

const send = async (channel: Channel, notice = troubleNotice(), signal = AbortSignal.timeout(10_000)) => channel.send(notice, signal);

function expectNoSecret(delivery: Delivery): void {
	if (!delivery.ok) {
		expect(delivery.reason).not.toContain(SECRET);
		expect(delivery.reason).not.toContain('127.0.0.1');
		expect(delivery.reason).not.toContain('-1001234567');
		expect(delivery.reason).not.toContain('\n');
	}
}

describe('each channel sends its service its documented request', () => {
	it('ntfy: a JSON publish to the root with topic, title, message, priority 4 and tags, basic auth', async () => {
		const {service, channel} = await channelFor('ntfy');
		const delivery = await send(channel);
		expect(delivery).toMatchObject({ok: true, status: 200});
		const [request] = service.received;
		expect(request?.method).toBe('POST');
		expect(request?.path).toBe('/');
		expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`user:${SECRET}`).toString('base64')}`);
		expect(request?.json).toEqual({
			topic: 'rigs',
			title: '2 rigs down: rig-03, rig-07',
			message: 'rig-03: down: connection refused\nrig-07: down: no answer',
			priority: 4,
			tags: ['rotating_light', 'farm'],
		});
		await send(channel, resolvedNotice());
		expect(service.received[1]?.json).toMatchObject({priority: 2, tags: ['white_check_mark', 'farm']});
	});

	it('ntfy: a token as the user part is a bearer token; a priority in the URL wins', async () => {
		const service = await start('ntfy');
		const channel = parseChannel(`ntfy://tk_${SECRET}@127.0.0.1:${service.port}/rigs?priority=max&title=farm`);
		expect(await send(channel, resolvedNotice())).toMatchObject({ok: true});
		expect(service.received[0]?.headers.authorization).toBe(`Bearer tk_${SECRET}`);
		expect(service.received[0]?.json).toMatchObject({priority: 5, title: 'farm: 2 rigs back up'});
	});

	it('telegram: sendMessage with chat_id and text; the all-clear silent', async () => {
		const {service, channel} = await channelFor('telegram');
		expect(await send(channel)).toMatchObject({ok: true, status: 200});
		expect(await send(channel, resolvedNotice())).toMatchObject({ok: true});
		expect(service.received[0]?.path).toBe(`/bot${TG}/sendMessage`);
		expect(service.received[0]?.json).toMatchObject({
			chat_id: '-1001234567',
			text: '2 rigs down: rig-03, rig-07\nrig-03: down: connection refused\nrig-07: down: no answer',
			disable_notification: false,
		});
		expect(service.received[1]?.json).toMatchObject({disable_notification: true});
	});

	it('discord: content and an embed, mentions off', async () => {
		const {service, channel} = await channelFor('discord');
		expect(await send(channel)).toMatchObject({ok: true, status: 204});
		expect(service.received[0]?.path).toBe(`/api/webhooks/112233445566/${SECRET}abcdefghij`);
		const body = service.received[0]?.json as {
			content: string;
			embeds: Array<{description: string; color: number}>;
			allowed_mentions: unknown;
		};
		expect(body.content).toBe('2 rigs down: rig-03, rig-07');
		expect(body.embeds[0]?.description).toContain('rig-07: down: no answer');
		expect(body.allowed_mentions).toEqual({parse: []});
	});

	it('slack: {text}, its markup characters escaped', async () => {
		const {service, channel} = await channelFor('slack');
		expect(await send(channel, troubleNotice({title: 'rig <a&b> down', body: ''}))).toMatchObject({ok: true, status: 200});
		expect(service.received[0]?.path).toBe(`/services/T0AAAAAAA/B0BBBBBBB/${SECRET}cccc`);
		expect(service.received[0]?.json).toEqual({text: '*rig &lt;a&amp;b&gt; down*'});
	});

	it('pushover: a form with token, user, title, message and priority 1, −1 for an all-clear', async () => {
		const {service, channel} = await channelFor('pushover');
		expect(await send(channel)).toMatchObject({ok: true, status: 200});
		expect(await send(channel, resolvedNotice())).toMatchObject({ok: true});
		expect(service.received[0]?.path).toBe('/1/messages.json');
		expect(service.received[0]?.json).toMatchObject({token: PO_TOKEN, user: PO_USER, title: '2 rigs down: rig-03, rig-07', priority: '1'});
		expect(service.received[1]?.json).toMatchObject({priority: '-1'});
	});

	it('gotify: /message with X-Gotify-Key and priority 8, 2 for an all-clear', async () => {
		const {service, channel} = await channelFor('gotify');
		expect(await send(channel)).toMatchObject({ok: true, status: 200});
		expect(await send(channel, resolvedNotice())).toMatchObject({ok: true});
		expect(service.received[0]?.path).toBe('/message');
		expect(service.received[0]?.headers['x-gotify-key']).toBe(`A${SECRET}`);
		expect(service.received[0]?.json).toMatchObject({title: '2 rigs down: rig-03, rig-07', priority: 8});
		expect(service.received[1]?.json).toMatchObject({priority: 2});
	});

	it("json: Apprise's body plus rigtop's fields, the URL's headers, method and field edits", async () => {
		const {service, channel} = await channelFor('json');
		expect(await send(channel)).toMatchObject({ok: true, status: 200});
		const [request] = service.received;
		expect(request?.method).toBe('POST');
		expect(request?.path).toBe(`/hook/${SECRET}`);
		expect(request?.headers['x-token']).toBe(SECRET);
		expect(request?.json).toEqual({
			version: '1.0',
			title: '2 rigs down: rig-03, rig-07',
			message: 'rig-03: down: connection refused\nrig-07: down: no answer',
			type: 'failure',
			attachments: [],
			key: 'k-down-1',
			kind: 'trouble',
			trouble: 'down',
			severity: 'error',
			priority: 'high',
			at: '2026-12-08T02:10:30.000Z',
			rigs: [
				{rig: 'rig-03', url: 'http://10.0.0.3:8080', since: '2026-12-08T02:10:00.000Z', message: 'down: connection refused'},
				{rig: 'rig-07', url: 'http://10.0.0.7:8080', since: '2026-12-08T02:10:02.000Z', message: 'down: no answer'},
			],
		});
		const edited = parseChannel(`json://127.0.0.1:${service.port}/in?method=PUT&:message=text&:attachments=&:source=rigtop&room=7`);
		expect(await send(edited, resolvedNotice())).toMatchObject({ok: true});
		const second = service.received[1];
		expect(second?.method).toBe('PUT');
		expect(second?.query.get('room')).toBe('7');
		expect(second?.json).toMatchObject({text: 'rig-03: was down 30m\nrig-07: was down 29m', type: 'success', source: 'rigtop'});
		expect(second?.json).not.toHaveProperty('message');
		expect(second?.json).not.toHaveProperty('attachments');
	});

	it('alertmanager: one alert per rig with its labels, annotations and startsAt; endsAt when resolved', async () => {
		const {service, channel} = await channelFor('alertmanager');
		expect(
			await send(
				channel,
				troubleNotice({
					rigs: [...troubleNotice().rigs, {rig: 'proxy', url: 'http://[::1]:3333', worker: 'w-1', since: 5, message: 'worker gone'}],
				}),
			),
		).toMatchObject({ok: true, status: 200});
		expect(await send(channel, resolvedNotice())).toMatchObject({ok: true});
		const [firing, resolved] = service.received.map((request) => request.json as Array<Record<string, unknown>>);
		expect(service.received[0]?.path).toBe('/api/v2/alerts');
		expect(firing).toHaveLength(3);
		expect(firing?.[0]).toEqual({
			labels: {alertname: 'down', rig: 'rig-03', instance: '10.0.0.3:8080', severity: 'critical'},
			annotations: {
				summary: 'rig-03: down: connection refused',
				description: '2 rigs down: rig-03, rig-07\nrig-03: down: connection refused\nrig-07: down: no answer',
			},
			startsAt: '2026-12-08T02:10:00.000Z',
		});
		expect(firing?.[2]).toMatchObject({
			labels: {alertname: 'down', rig: 'proxy', instance: '[::1]:3333', worker: 'w-1', severity: 'critical'},
		});
		// The same labels as when firing (the all-clear's own severity, info, would make it another alert).
		expect(resolved?.[1]).toEqual({
			labels: {alertname: 'down', rig: 'rig-07', instance: '10.0.0.7:8080', severity: 'critical'},
			annotations: expect.anything(),
			startsAt: '2026-12-08T02:10:02.000Z',
			endsAt: '2026-12-08T02:40:00.000Z',
		});
	});

	it('alertmanager: a trouble the catalogue does not know resolves with the severity it fired with', async () => {
		const {service, channel} = await channelFor('alertmanager');
		await send(channel, troubleNotice({trouble: 'made-up-trouble', severity: 'warn'}));
		await send(channel, resolvedNotice({trouble: 'made-up-trouble'}));
		const [firing, resolved] = service.received.map((request) => request.json as Array<{labels: Record<string, string>}>);
		expect(firing?.[0]?.labels.severity).toBe('warning');
		expect(resolved?.map((alert) => alert.labels)).toEqual(firing?.map((alert) => alert.labels));
	});

	it('alertmanager: refresh posts the open troubles again as firing, with the labels they were sent with', async () => {
		const {service, channel} = await channelFor('alertmanager');
		await send(channel);
		const open = troubleNotice().rigs;
		expect(await channel.refresh?.(open, AbortSignal.timeout(10_000))).toMatchObject({ok: true});
		expect(await channel.refresh?.([{...open[0]!, trouble: 'pool-lost', severity: 'warn'}], AbortSignal.timeout(10_000))).toMatchObject({
			ok: true,
		});
		const [, refreshed, given] = service.received.map(
			(request) => request.json as Array<{labels: Record<string, string>; endsAt?: string}>,
		);
		expect(refreshed?.map((alert) => alert.labels)).toEqual([
			{alertname: 'down', rig: 'rig-03', instance: '10.0.0.3:8080', severity: 'critical'},
			{alertname: 'down', rig: 'rig-07', instance: '10.0.0.7:8080', severity: 'critical'},
		]);
		expect(refreshed?.every((alert) => alert.endsAt === undefined)).toBe(true);
		expect(given?.[0]?.labels).toMatchObject({alertname: 'pool-lost', severity: 'warning'});
	});
});

describe('the answers, read into a Delivery', () => {
	const services = Object.keys(urlOf) as Array<keyof typeof urlOf>;

	it.each(services)('%s: 500, 500, then its success', async (name) => {
		const {service, channel} = await channelFor(name, [500, 503]);
		const first = await send(channel);
		const second = await send(channel);
		const third = await send(channel);
		expect(first).toMatchObject({ok: false, retry: true, status: 500});
		expect(second).toMatchObject({ok: false, retry: true, status: 503});
		expect(third).toMatchObject({ok: true});
		for (const delivery of [first, second]) expectNoSecret(delivery);
		expect(service.received).toHaveLength(3);
	});

	it.each(services)('%s: 408 and 429 are retried, 429 with its Retry-After', async (name) => {
		const {channel} = await channelFor(name, [408, 429]);
		expect(await send(channel)).toMatchObject({ok: false, retry: true, status: 408});
		const limited = await send(channel);
		expect(limited).toMatchObject({ok: false, retry: true, status: 429, retryAfterMs: 7000});
		expectNoSecret(limited);
	});

	it.each(services)('%s: a 503 with Retry-After is retried after it (RFC 9110), one without at the outbox’s own pace', async (name) => {
		const {channel} = await channelFor(name, [503, 500], '2');
		expect(await send(channel)).toMatchObject({ok: false, retry: true, status: 503, retryAfterMs: 2000});
		expect(await send(channel)).toMatchObject({ok: false, retry: true, status: 500, retryAfterMs: 2000});
		const {channel: plain} = await channelFor(name, [503]);
		const delivery = await send(plain);
		expect(delivery).toMatchObject({ok: false, retry: true, status: 503});
		expect(delivery).not.toHaveProperty('retryAfterMs');
	});

	it.each(services)('%s: 401, 403 and 404 are not retried, and the reason names a fix and no secret', async (name) => {
		const {channel} = await channelFor(name, [401, 403, 404]);
		for (const status of [401, 403, 404]) {
			const delivery = await send(channel);
			expect(delivery).toMatchObject({ok: false, retry: false, status});
			if (delivery.ok) continue;
			expect(delivery.reason).toMatch(new RegExp(`^${channel.service}: ${status} [a-z ]+: .+`));
			expectNoSecret(delivery);
		}
	});

	it('the fixes each service is known for', async () => {
		const expected: Array<[keyof typeof urlOf, number, string]> = [
			['ntfy', 403, "ntfy: 403 forbidden: check the topic's access"],
			['telegram', 401, 'telegram: 401 unauthorized: check the bot token'],
			['discord', 404, 'discord: 404 not found: the webhook was deleted'],
			['slack', 404, 'slack: 404 not found: the webhook was removed (no_service)'],
			['gotify', 401, 'gotify: 401 unauthorized: check the application token'],
			['alertmanager', 404, 'alertmanager: 404 not found: check the API path (…/api/v2/alerts)'],
		];
		for (const [name, status, reason] of expected) {
			const {channel} = await channelFor(name, [status]);
			expect(await send(channel)).toMatchObject({ok: false, retry: false, reason});
		}
	});

	it("the service's own refusals are not retried: a wrong path's 404, Telegram's 400 for an empty text", async () => {
		const service = await start('pushover');
		const channel = parseChannel(`pover://${PO_USER}@${PO_TOKEN}`, {...DEFAULT_BASES, pushover: `${service.url}/wrong`});
		const notFound = await send(channel);
		expect(notFound).toMatchObject({ok: false, retry: false, status: 404});
		const tg = await start('telegram');
		const telegram = parseChannel(`tgram://${TG}/42`, bases(tg));
		expect(await send(telegram, troubleNotice({title: '', body: ''}))).toMatchObject({ok: false, retry: false, status: 400});
	});

	it("a server that wants other credentials: ntfy's 401 without, 403 with the wrong ones", async () => {
		const service = await startService('ntfy', {authorization: 'Bearer tk_right'});
		running.push(service);
		const without = await send(parseChannel(`ntfy://127.0.0.1:${service.port}/rigs`));
		const wrong = await send(parseChannel(`ntfy://tk_${SECRET}@127.0.0.1:${service.port}/rigs`));
		const right = await send(parseChannel(`ntfy://tk_right@127.0.0.1:${service.port}/rigs`));
		expect(without).toMatchObject({
			ok: false,
			retry: false,
			reason: 'ntfy: 401 unauthorized: check the user and password or the access token',
		});
		expect(wrong).toMatchObject({ok: false, retry: false, reason: "ntfy: 403 forbidden: check the topic's access"});
		expect(right).toMatchObject({ok: true, status: 200});
		expectNoSecret(wrong);
	});

	it('a hang is given up at the signal, to be retried', async () => {
		const {channel} = await channelFor('ntfy', ['hang']);
		const delivery = await send(channel, troubleNotice(), AbortSignal.timeout(300));
		expect(delivery).toMatchObject({ok: false, retry: true, reason: 'ntfy: no answer in time'});
		expect(delivery.ok || delivery.status).toBeFalsy();
	});

	it('a refused connection is retried, and says so without the address', async () => {
		const server = net.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const {port} = server.address() as net.AddressInfo;
		await new Promise<void>((resolve) => server.close(() => resolve()));
		const delivery = await send(parseChannel(`gotify://127.0.0.1:${port}/A${SECRET}`));
		expect(delivery).toMatchObject({ok: false, retry: true, reason: 'gotify: connection refused'});
		expectNoSecret(delivery);
	});

	it('a signal already spent sends nothing', async () => {
		const {service, channel} = await channelFor('slack');
		expect(await send(channel, troubleNotice(), AbortSignal.abort())).toMatchObject({ok: false, retry: true});
		expect(service.received).toHaveLength(0);
	});

	it('Retry-After as an HTTP date', async () => {
		const when = new Date(Date.now() + 60_000).toUTCString();
		const {channel} = await channelFor('discord', [429], when);
		const delivery = await send(channel);
		expect(delivery.ok).toBe(false);
		if (delivery.ok) return;
		expect(delivery.retryAfterMs).toBeGreaterThan(50_000);
		expect(delivery.retryAfterMs).toBeLessThanOrEqual(60_000);
		expect(retryAfterMs('120')).toBe(120_000);
		expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.UTC(2015, 9, 21, 7, 27, 0))).toBe(60_000);
		expect(retryAfterMs('soon')).toBeUndefined();
	});
});
