import fs from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {NotifyUsageError} from '../../../source/notify/channels/errors.js';
import {parseHeartbeat} from '../../../source/notify/channels/heartbeat.js';
import {readNotifySources} from '../../../source/notify/channels/sources.js';
import {startService, type RunningService} from '../../helpers/notify-services.js';

/** The notify file (a real file: its mode and owner checked as ssh checks a key), RIGTOP_NOTIFY, and the heartbeat. */

const SECRET = 'S3cr3tT0k3nXyZ';
const TG = `123456789:AAH${SECRET}abcdefghij`;

let dir: string;
beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rigtop-notify-'));
});
afterEach(() => {
	fs.rmSync(dir, {recursive: true, force: true});
});

function writeFile(text: string, mode = 0o600): string {
	const file = path.join(dir, 'notify');
	fs.writeFileSync(file, text);
	fs.chmodSync(file, mode);
	return file;
}

function refusal(make: () => unknown): string {
	try {
		make();
	} catch (error) {
		expect(error).toBeInstanceOf(NotifyUsageError);
		const {message} = error as Error;
		expect(message).not.toContain(SECRET);
		expect(message).not.toContain('\n');
		return message;
	}
	throw new Error('not refused');
}

const FILE = [
	'# rigtop notify channels',
	'',
	`ntfys://tk_${SECRET}@ntfy.example.org/rigs`,
	`   tgram://${TG}/-100123   `,
	'# heartbeat below',
	`heartbeat https://hc-ping.com/${SECRET}-uuid`,
	`ntfys://tk_${SECRET}@ntfy.example.org/rigs`,
	'',
].join('\n');

describe('readNotifySources', () => {
	it('reads the file: comments and blanks skipped, the same URL once, its heartbeat', () => {
		const sources = readNotifySources({file: writeFile(FILE)});
		expect(sources.channels.map((channel) => channel.shown)).toEqual(['ntfys://ntfy.example.org', 'tgram://api.telegram.org']);
		expect(sources.heartbeat).toMatchObject({kind: 'healthchecks', shown: 'https://hc-ping.com'});
	});

	it.each([0o600, 0o400, 0o700])('takes a file of mode %o', (mode) => {
		expect(readNotifySources({file: writeFile(FILE, mode)}).channels).toHaveLength(2);
	});

	it.each([
		[0o640, '0640'],
		[0o604, '0604'],
		[0o666, '0666'],
		[0o620, '0620'],
	])('refuses a file of mode %o, saying the chmod to run', (mode, shown) => {
		const file = writeFile(FILE, mode);
		expect(refusal(() => readNotifySources({file}))).toBe(
			`notify file ${file}: others may read it (mode ${shown}); it holds tokens: run chmod 600 ${file}`,
		);
	});

	it('refuses a file that is not there or not a file', () => {
		expect(refusal(() => readNotifySources({file: path.join(dir, 'none')}))).toMatch(/notify file .*none: no such file/);
		expect(refusal(() => readNotifySources({file: dir}))).toMatch(/not a regular file/);
	});

	it("refuses another user's file", () => {
		// As root, a file given to nobody (65534); as a user, a system file of root's.
		let file = writeFile(FILE);
		if (process.getuid?.() === 0) fs.chownSync(file, 65_534, 65_534);
		else file = '/etc/passwd';
		expect(fs.statSync(file).uid).not.toBe(process.getuid?.());
		expect(refusal(() => readNotifySources({file}))).toBe(
			`notify file ${file}: belongs to another user (uid ${fs.statSync(file).uid}); it holds tokens, so it must be your own`,
		);
	});

	it('names the file and the line of a bad URL, never the URL', () => {
		const file = writeFile(['# first', `ntfy://ntfy.example.org/rigs`, `tgram://${SECRET}/42`].join('\n'));
		expect(refusal(() => readNotifySources({file}))).toBe(
			`${file} line 3: notify URL tgram://…: the bot token must look like 123456:ABC… (from @BotFather)`,
		);
		const unknown = writeFile(`\n\nwebhook://${SECRET}@x/y`);
		expect(refusal(() => readNotifySources({file: unknown}))).toMatch(
			new RegExp(`^${unknown} line 3: notify URL webhook://…: unknown scheme \\(forms known: `),
		);
		const spaced = writeFile(`ntfy://a.example/t ${SECRET}`);
		expect(refusal(() => readNotifySources({file: spaced}))).toBe(`${spaced} line 1: one URL a line (this line holds spaces)`);
		const twoBeats = writeFile(`heartbeat https://hc-ping.com/${SECRET}\nheartbeat https://hc-ping.com/${SECRET}2`);
		expect(refusal(() => readNotifySources({file: twoBeats}))).toBe(`${twoBeats} line 2: a second heartbeat (the first is on line 1)`);
		const badBeat = writeFile(`heartbeat ftp://${SECRET}`);
		expect(refusal(() => readNotifySources({file: badBeat}))).toBe(
			`${badBeat} line 1: heartbeat URL ftp://…: a heartbeat is an http:// or https:// ping URL`,
		);
	});

	it('reads RIGTOP_NOTIFY (whitespace between URLs), --notify and --heartbeat, which wins over the file', () => {
		const sources = readNotifySources({
			file: writeFile(FILE),
			env: {RIGTOP_NOTIFY: `  ntfy://rigs${SECRET}\n\tdiscord://112233445566/${SECRET}abcdefghij  `},
			urls: [`gotify://g.example.org/A${SECRET}`],
			heartbeat: `https://kuma.example.org/api/push/${SECRET}?status=up&msg=OK&ping=`,
		});
		expect(sources.channels.map((channel) => channel.service)).toEqual(['ntfy', 'telegram', 'ntfy', 'discord', 'gotify']);
		expect(sources.heartbeat).toMatchObject({kind: 'uptime-kuma', shown: 'https://kuma.example.org'});
		expect(refusal(() => readNotifySources({env: {RIGTOP_NOTIFY: `ntfy://ok x://${SECRET}`}}))).toMatch(
			/^RIGTOP_NOTIFY \(URL 2 of 2\): notify URL x:\/\/…: unknown scheme/,
		);
		expect(refusal(() => readNotifySources({urls: ['ntfy://ok', `https://evil.example/${SECRET}`]}))).toMatch(
			/^--notify \(the 2nd\): notify URL https:\/\/evil\.example is no service rigtop knows/,
		);
		expect(readNotifySources({env: {}}).channels).toEqual([]);
	});
});

describe('the heartbeat', () => {
	let service: RunningService | undefined;
	afterEach(async () => {
		await service?.close();
		service = undefined;
	});

	it('healthchecks style: GET the URL while well, URL/fail while a trouble is open', async () => {
		service = await startService('heartbeat');
		const beat = parseHeartbeat(`${service.url}/ping/${SECRET}`);
		expect(beat.shown).toBe(`http://127.0.0.1:${service.port}`);
		expect(await beat.ping({well: true}, AbortSignal.timeout(10_000))).toMatchObject({ok: true, status: 200});
		expect(await beat.ping({well: false, message: 'rig-03 down'}, AbortSignal.timeout(10_000))).toMatchObject({ok: true});
		expect(service.received.map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /ping/${SECRET}`,
			`GET /ping/${SECRET}/fail`,
		]);
	});

	it('Uptime Kuma: status=up&msg=OK, then status=down with the trouble', async () => {
		service = await startService('heartbeat');
		const beat = parseHeartbeat(`${service.url}/api/push/${SECRET}?status=up&msg=OK&ping=`);
		expect(beat.kind).toBe('uptime-kuma');
		await beat.ping({well: true}, AbortSignal.timeout(10_000));
		await beat.ping({well: false, message: '2 rigs down:\nrig-03, rig-07'}, AbortSignal.timeout(10_000));
		const [up, down] = service.received;
		expect(up?.path).toBe(`/api/push/${SECRET}`);
		expect(Object.fromEntries(up?.query ?? [])).toEqual({status: 'up', msg: 'OK', ping: ''});
		expect(Object.fromEntries(down?.query ?? [])).toEqual({status: 'down', msg: '2 rigs down: rig-03, rig-07', ping: ''});
	});

	it("reads a failure as one: a 5xx is retried, healthchecks' 'OK (not found)' is not", async () => {
		service = await startService('heartbeat', {faults: [502]});
		const beat = parseHeartbeat(`${service.url}/${SECRET}`);
		const failed = await beat.ping({well: true}, AbortSignal.timeout(10_000));
		expect(failed).toMatchObject({ok: false, retry: true, status: 502});
		expect(JSON.stringify(failed)).not.toContain(SECRET);
		// A server answering 200 "OK (not found)", as hc-ping.com does for an unknown UUID.
		const server = http.createServer((_request, response) => response.end('OK (not found)'));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const {port} = server.address() as AddressInfo;
			const delivery = await parseHeartbeat(`http://127.0.0.1:${port}/${SECRET}`).ping({well: true}, AbortSignal.timeout(10_000));
			expect(delivery).toMatchObject({
				ok: false,
				retry: false,
				status: 200,
				reason: 'heartbeat: 200 ok: no check has this ping URL: check it',
			});
		} finally {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	it('refuses what is no ping URL', () => {
		expect(refusal(() => parseHeartbeat(`tgram://${SECRET}`))).toMatch(/a heartbeat is an http/);
		expect(refusal(() => parseHeartbeat('https://hc-ping.com/'))).toMatch(/give the check's ping URL/);
		expect(refusal(() => parseHeartbeat(`https://me:${SECRET}@hc-ping.com/x`))).toMatch(/holds no user or password/);
	});
});
