import {inspect} from 'node:util';
import {describe, expect, it} from 'vitest';
import {NotifyUsageError} from '../../../source/notify/channels/errors.js';
import {KNOWN_FORMS, parseChannel} from '../../../source/notify/channels/parse.js';

/** Every form rigtop takes, what it is shown as, and every way one is refused — never with its secret in the message. */

const SECRET = 'S3cr3tT0k3nXyZ';
const TG = `123456789:AAH${SECRET}abcdefghij`;
const PO_USER = `u${SECRET}abcdefghijklmn0`;
const PO_TOKEN = `a${SECRET}abcdefghijklmn0`;

const accepted: Array<[url: string, service: string, shown: string]> = [
	[`ntfy://alerts${SECRET}`, 'ntfy', 'ntfy://ntfy.sh'],
	[`ntfys://alerts${SECRET}`, 'ntfy', 'ntfys://ntfy.sh'],
	[`ntfy://ntfy.example.org/alerts${SECRET}`, 'ntfy', 'ntfy://ntfy.example.org'],
	[`ntfys://user:${SECRET}@ntfy.example.org:8443/alerts?priority=high&tags=pick,rig`, 'ntfy', 'ntfys://ntfy.example.org:8443'],
	[`ntfys://tk_${SECRET}@ntfy.example.org/alerts`, 'ntfy', 'ntfys://ntfy.example.org'],
	[`ntfy://127.0.0.1:8080/alerts?token=tk_${SECRET}`, 'ntfy', 'ntfy://127.0.0.1:8080'],
	[`https://ntfy.sh/alerts${SECRET}`, 'ntfy', 'https://ntfy.sh'],
	[`tgram://${TG}/-1001234567`, 'telegram', 'tgram://api.telegram.org'],
	[`tgram://bot${TG}/@mychannel`, 'telegram', 'tgram://api.telegram.org'],
	[`https://api.telegram.org/bot${TG}/sendMessage?chat_id=42`, 'telegram', 'https://api.telegram.org'],
	[`discord://112233445566/${SECRET}abcdefghij`, 'discord', 'discord://discord.com'],
	[`discord://rigtop@112233445566/${SECRET}abcdefghij`, 'discord', 'discord://discord.com'],
	[`https://discord.com/api/webhooks/112233445566/${SECRET}abcdefghij`, 'discord', 'https://discord.com'],
	[`https://discordapp.com/api/webhooks/112233445566/${SECRET}abcdefghij`, 'discord', 'https://discordapp.com'],
	[`slack://T0AAAAAAA/B0BBBBBBB/${SECRET}cccc`, 'slack', 'slack://hooks.slack.com'],
	[`slack://T0AAAAAAA/B0BBBBBBB/${SECRET}cccc/#general`, 'slack', 'slack://hooks.slack.com'],
	[`https://hooks.slack.com/services/T0AAAAAAA/B0BBBBBBB/${SECRET}cccc`, 'slack', 'https://hooks.slack.com'],
	[`pover://${PO_USER}@${PO_TOKEN}`, 'pushover', 'pover://api.pushover.net'],
	[`pover://${PO_USER}@${PO_TOKEN}/phone?priority=high`, 'pushover', 'pover://api.pushover.net'],
	[`https://api.pushover.net/1/messages.json?token=${PO_TOKEN}&user=${PO_USER}`, 'pushover', 'https://api.pushover.net'],
	[`gotify://gotify.example.org/A${SECRET}`, 'gotify', 'gotify://gotify.example.org'],
	[`gotifys://gotify.example.org:8443/sub/path/A${SECRET}?priority=8`, 'gotify', 'gotifys://gotify.example.org:8443'],
	[`json://hooks.example.org/rigtop/${SECRET}`, 'json', 'json://hooks.example.org'],
	[`jsons://me:${SECRET}@hooks.example.org:8443/in?method=PUT&+X-Token=${SECRET}&:message=text`, 'json', 'jsons://hooks.example.org:8443'],
	['http://am.example.org:9093/api/v2/alerts', 'alertmanager', 'http://am.example.org:9093'],
	[`https://ops:${SECRET}@am.example.org/alertmanager/api/v2/alerts`, 'alertmanager', 'https://am.example.org'],
	['alertmanager://127.0.0.1:9093', 'alertmanager', 'alertmanager://127.0.0.1:9093'],
	['alertmanagers://am.example.org', 'alertmanager', 'alertmanagers://am.example.org'],
];

const refused: Array<[url: string, says: RegExp]> = [
	[`foo://${SECRET}@host/x`, /foo:\/\/…: unknown scheme/],
	[`mailto:${SECRET}@example.org`, /not a URL/],
	[`${SECRET}`, /not a URL/],
	[`https://example.org/${SECRET}`, /https:\/\/example\.org is no service rigtop knows/],
	[`http://ntfy.sh/${SECRET}`, /http:\/\/ntfy\.sh is no service/],
	[`ntfy://host.example/a/b${SECRET}`, /one topic per URL/],
	[`ntfy://bad!topic${SECRET}`, /topic must be/],
	[`ntfy://h.example/t?priority=${SECRET}`, /priority is 1–5/],
	[`https://ntfy.sh/`, /expected https:\/\/ntfy\.sh\/TOPIC/],
	[`tgram://${SECRET}/42`, /bot token must look like/],
	[`tgram://${TG}`, /give the chat id/],
	[`tgram://${TG}/42/43`, /one chat per URL/],
	[`https://api.telegram.org/bot${TG}/getMe?chat_id=1`, /expected https:\/\/api\.telegram\.org\/botTOKEN/],
	[`discord://${SECRET}`, /webhook's id/],
	[`https://discord.com/api/${SECRET}`, /expected https:\/\/discord\.com\/api\/webhooks\/ID\/TOKEN/],
	[`slack://A${SECRET}/B`, /three keys/],
	[`https://hooks.slack.com/${SECRET}`, /expected https:\/\/hooks\.slack\.com\/services/],
	[`pover://${PO_TOKEN}`, /user key and the application token/],
	[`pover://${PO_USER}@${PO_TOKEN}?priority=2`, /priority is -2, -1, 0 or 1/],
	[`gotify://gotify.example.org`, /APP_TOKEN/],
	[`gotify://gotify.example.org/A${SECRET}?priority=11`, /priority is 0–10/],
	[`json://bad_host!/${SECRET}`, /host is not a host name/],
	[`json://h.example:99999/${SECRET}`, /port is out of range/],
	[`json://h.example/x?method=GET&+X-Key=${SECRET}`, /method is POST, PUT or PATCH/],
	[`json://h.example/x?+Bad%20Header=${SECRET}`, /\+Header name/],
	[`json://h.example/ ${SECRET}`, /holds no spaces/],
];

describe('parseChannel', () => {
	it.each(accepted)('takes %s', (url, service, shown) => {
		const channel = parseChannel(url);
		expect(channel.service).toBe(service);
		expect(channel.shown).toBe(shown);
		expect(channel.shown).not.toContain(SECRET);
		expect(channel.id).toMatch(/^[0-9a-f]{16}$/);
		expect(channel.id).not.toContain(SECRET);
		// Whatever prints the channel (a log line, --json, an inspect in a debugger's console) finds no secret in it.
		expect(JSON.stringify(channel)).not.toContain(SECRET);
		expect(inspect(channel, {depth: 5, showHidden: true})).not.toContain(SECRET);
		expect(String(Object.keys(channel))).toBe(channel.refresh ? 'service,shown,id,send,refresh' : 'service,shown,id,send');
		expect(typeof channel.send).toBe('function');
		expect(channel.refresh === undefined).toBe(service !== 'alertmanager');
	});

	it('gives each URL its own id, and the same URL the same id', () => {
		const ids = accepted.map(([url]) => parseChannel(url).id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(parseChannel(accepted[0]![0]).id).toBe(ids[0]);
	});

	it.each(refused)('refuses %s', (url, says) => {
		let thrown: unknown;
		try {
			parseChannel(url);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NotifyUsageError);
		const message = (thrown as Error).message;
		expect(message).toMatch(says);
		expect(message).not.toContain(SECRET);
		expect(message).not.toContain('\n');
	});

	it('names the forms known when the scheme or the service is unknown', () => {
		expect(() => parseChannel('matrix://x/y')).toThrow(KNOWN_FORMS);
		expect(() => parseChannel('https://example.org/hook')).toThrow(KNOWN_FORMS);
		expect(() => parseChannel('example.org/hook')).toThrow(KNOWN_FORMS);
		for (const form of ['ntfy://', 'tgram://', 'discord://', 'slack://', 'pover://', 'gotify', 'json', '/api/v2/alerts'])
			expect(KNOWN_FORMS).toContain(form);
	});
});
