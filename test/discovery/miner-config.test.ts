import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {apiSettingsFromDocument, parseConfigText, readConfigFile, readMinerConfig} from '../../source/discovery/miner-config.js';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'xmrig-configs');
const TOKEN = 'testtoken';

let dir: string;
beforeAll(async () => {
	dir = await mkdtemp(path.join(tmpdir(), 'rigtop-config-'));
});
afterAll(async () => {
	await rm(dir, {recursive: true, force: true});
});

async function configFile(name: string, text: string): Promise<string> {
	const file = path.join(dir, name);
	await writeFile(file, text);
	return file;
}

function expectNoToken(texts: readonly string[], token: string) {
	for (const text of texts) expect(text).not.toContain(token);
}

describe('real config files, current layout (6.26 and 2.16)', () => {
	it.each(['v6.26', 'v2.16'])('%s main config: API on, token set, unrestricted', async (version) => {
		const settings = await readMinerConfig(path.join(fixtures, version, 'config_main_as_written.json'));
		const port = version === 'v6.26' ? 18_090 : 18_091;
		expect(settings).toMatchObject({
			layout: 'current',
			url: `http://127.0.0.1:${port}`,
			host: '127.0.0.1',
			bindHost: '127.0.0.1',
			port,
			token: TOKEN,
			tokenSet: true,
			restricted: false,
			apiEnabled: true,
			problems: [],
		});
	});

	it('6.26 restricted config with a token: no problems', async () => {
		const settings = await readMinerConfig(path.join(fixtures, 'v6.26', 'config_restricted_as_written.json'));
		expect(settings).toMatchObject({token: TOKEN, tokenSet: true, restricted: true, problems: []});
	});

	it('the shipped default (no token, restricted): usable for reading, no problems', async () => {
		const settings = await readMinerConfig(path.join(fixtures, 'v6.26', 'config_restricted-notoken_as_written.json'));
		expect(settings).toMatchObject({token: null, tokenSet: false, restricted: true, apiEnabled: true, problems: []});
	});

	it.each(['v6.26', 'v2.16'])('%s no token + restricted false: explains the 401 for everything', async (version) => {
		const settings = await readMinerConfig(path.join(fixtures, version, 'config_notoken-unrestricted_as_written.json'));
		expect(settings.tokenSet).toBe(false);
		expect(settings.restricted).toBe(false);
		expect(settings.issues.map((issue) => issue.kind)).toEqual(['no-token-unrestricted']);
		expect(settings.problems[0]).toMatch(/401 to every request/);
		expect(settings.problems[0]).toMatch(/Set an access token/);
	});

	it('the file the miner rewrote after a token change carries the new token', async () => {
		const settings = await readMinerConfig(path.join(fixtures, 'v6.26', 'config_main_on_disk_at_end.json'));
		expect(settings).toMatchObject({token: 'newtoken', restricted: true});
	});
});

describe('real config files, older layout (2.14)', () => {
	it('api.port, token and restricted from the single "api" section; listens on all interfaces', async () => {
		const settings = await readMinerConfig(path.join(fixtures, 'v2.14', 'config_main_as_written.json'));
		expect(settings).toMatchObject({
			layout: 'older',
			url: 'http://127.0.0.1:18092',
			bindHost: '0.0.0.0',
			port: 18_092,
			token: TOKEN,
			tokenSet: true,
			restricted: false,
			apiEnabled: true,
		});
		expect(settings.issues.map((issue) => issue.kind)).toEqual(['older-layout']);
		expect(settings.problems[0]).toMatch(/3\.0 and later ignore it/);
		expectNoToken(settings.problems, TOKEN);
	});

	it('no token + restricted false in the older layout: 2.15–2.16 answer 401, older allow reading', async () => {
		const settings = await readMinerConfig(path.join(fixtures, 'v2.14', 'config_notoken-unrestricted_as_written.json'));
		expect(settings.issues.map((issue) => issue.kind)).toEqual(['older-layout', 'no-token-unrestricted']);
		expect(settings.problems[1]).toMatch(/2\.15–2\.16 then answer 401/);
	});

	it('api.ipv6 true → [::1]', () => {
		const settings = apiSettingsFromDocument({api: {port: 8080, 'access-token': null, ipv6: true, restricted: true}}, 'x.json');
		expect(settings).toMatchObject({url: 'http://[::1]:8080', host: '[::1]', bindHost: '::'});
	});

	it('api.port 0 turns the older API off', () => {
		const settings = apiSettingsFromDocument({api: {port: 0, 'access-token': 'secret-older'}}, 'old.json');
		expect(settings).toMatchObject({apiEnabled: false, url: null, layout: 'older', tokenSet: true});
		expect(settings.issues[0]?.kind).toBe('api-off');
		expect(settings.problems[0]).toMatch(/"api"."port" is 0/);
		expectNoToken(settings.problems, 'secret-older');
	});
});

describe('API states users trip on', () => {
	it('no "http" section: the API is off, with how to turn it on', () => {
		const settings = apiSettingsFromDocument({api: {id: null, 'worker-id': 'rig'}, pools: []}, '/etc/xmrig.json');
		expect(settings).toMatchObject({layout: 'none', apiEnabled: false, url: null, tokenSet: false});
		expect(settings.problems[0]).toContain('/etc/xmrig.json has no "http" section');
		expect(settings.problems[0]).toContain('"enabled": true');
		expect(settings.problems[0]).toContain('--http-port=18088');
	});

	it('http.enabled false: off, and the token is still reported as set', () => {
		const settings = apiSettingsFromDocument({http: {enabled: false, port: 8080, 'access-token': 'abcdef'}}, 'c.json');
		expect(settings).toMatchObject({apiEnabled: false, url: null, tokenSet: true});
		expect(settings.problems[0]).toMatch(/"http"."enabled" is false/);
		expectNoToken(settings.problems, 'abcdef');
	});

	it('a missing "enabled" counts as false (XMRig default)', () => {
		expect(apiSettingsFromDocument({http: {port: 8080}}, 'c.json').apiEnabled).toBe(false);
	});

	it('port 0: random port, no URL, explains that the running miner is needed', () => {
		const settings = apiSettingsFromDocument({http: {enabled: true, host: '127.0.0.1', port: 0}}, 'c.json');
		expect(settings).toMatchObject({apiEnabled: true, url: null, port: 0});
		expect(settings.issues.map((issue) => issue.kind)).toEqual(['random-port']);
	});

	it('an empty token counts as set, and explains why every request fails', () => {
		const settings = apiSettingsFromDocument({http: {enabled: true, port: 8080, 'access-token': ''}}, 'c.json');
		expect(settings).toMatchObject({token: '', tokenSet: true});
		expect(settings.issues.map((issue) => issue.kind)).toEqual(['empty-token']);
		expect(settings.problems[0]).toMatch(/empty string.*counts that as a token that is set/);
	});

	it('host 0.0.0.0 → 127.0.0.1, :: → [::1], IPv6 bracketed, IPv4-mapped unwrapped', () => {
		const url = (host: string) => apiSettingsFromDocument({http: {enabled: true, host, port: 18088}}, 'c.json').url;
		expect(url('0.0.0.0')).toBe('http://127.0.0.1:18088');
		expect(url('::')).toBe('http://[::1]:18088');
		expect(url('fe80::1')).toBe('http://[fe80::1]:18088');
		expect(url('0:0:0:0:0:0:0:1')).toBe('http://[::1]:18088');
		expect(url('::ffff:192.168.1.5')).toBe('http://192.168.1.5:18088');
		expect(url('192.168.1.5')).toBe('http://192.168.1.5:18088');
	});

	it('a host name is flagged: XMRig binds only IP addresses', () => {
		const settings = apiSettingsFromDocument({http: {enabled: true, host: 'localhost', port: 18088}}, 'c.json');
		expect(settings.issues.map((issue) => issue.kind)).toEqual(['host-not-ip']);
	});

	it('wrong types count as missing, like XMRig (port as a string → 0, restricted as a string → true)', () => {
		const settings = apiSettingsFromDocument({http: {enabled: true, port: '8080', restricted: 'no', 'access-token': 42}}, 'c.json');
		expect(settings).toMatchObject({port: 0, restricted: true, tokenSet: false, url: null});
	});

	it('port 65536 wraps to 0 and larger ports are ignored, as in Http::setPort', () => {
		expect(apiSettingsFromDocument({http: {enabled: true, port: 65_536}}, 'c.json').port).toBe(0);
		expect(apiSettingsFromDocument({http: {enabled: true, port: 70_000}}, 'c.json').port).toBe(0);
	});

	it('both layouts: "http" wins (3.0+), with a note about 2.15–2.16', () => {
		const settings = apiSettingsFromDocument({api: {port: 9999}, http: {enabled: true, port: 18088}}, 'c.json');
		expect(settings.url).toBe('http://127.0.0.1:18088');
		expect(settings.issues.map((issue) => issue.kind)).toEqual(['both-layouts']);
	});
});

describe('parsing like rapidjson', () => {
	it('allows comments and trailing commas', async () => {
		const file = await configFile(
			'comments.json',
			'// my rig\n{\n  /* api */ "http": {"enabled": true, "port": 18088, "access-token": "commented-token",},\n  "pools": [{"url": "p:3333"},],\n}\n',
		);
		const settings = await readMinerConfig(file);
		expect(settings).toMatchObject({url: 'http://127.0.0.1:18088', token: 'commented-token'});
	});

	it('the first of two equal keys counts', () => {
		const parsed = parseConfigText('{"http": {"enabled": true, "port": 1111}, "http": {"enabled": true, "port": 2222}}');
		expect(parsed.ok && apiSettingsFromDocument(parsed.doc, 'c').port).toBe(1111);
	});

	it('a "__proto__" key is a plain key', () => {
		const parsed = parseConfigText('{"__proto__": {"port": 1}, "http": {"port": 2}}');
		expect(parsed.ok && Object.keys(parsed.doc)).toEqual(['__proto__', 'http']);
		expect(parsed.ok && Object.getPrototypeOf(parsed.doc)).toBe(Object.prototype);
	});

	it('invalid JSON: line and column, never the content', async () => {
		const file = await configFile('broken.json', '{\n  "http": {"access-token": "leaky-secret" "port": 1}\n}');
		const read = await readConfigFile(file);
		expect(read.ok).toBe(false);
		expect(!read.ok && read.reason).toBe('invalid');
		expect(!read.ok && read.message).toMatch(/not valid JSON at line 2, column \d+/);
		expect(!read.ok && read.message).not.toContain('leaky-secret');
		const settings = await readMinerConfig(file);
		expect(settings.apiEnabled).toBe(false);
		expect(settings.issues[0]?.kind).toBe('unreadable');
	});

	it('a JSON array or an empty file is not a config', () => {
		expect(parseConfigText('[1, 2]').ok).toBe(false);
		expect(parseConfigText('').ok).toBe(false);
	});

	it('a missing file says so', async () => {
		const read = await readConfigFile(path.join(dir, 'nope.json'));
		expect(read).toMatchObject({ok: false, reason: 'missing'});
	});
});
