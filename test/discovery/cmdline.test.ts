import {describe, expect, it} from 'vitest';
import {describeCommand, getoptLong, parseXmrigCommandLine} from '../../source/discovery/cmdline.js';

describe('getopt_long like XMRig', () => {
	it('reads --flag value, --flag=value, -c value and -cvalue', () => {
		for (const argv of [
			['xmrig', '--config', '/a.json'],
			['xmrig', '--config=/a.json'],
			['xmrig', '-c', '/a.json'],
			['xmrig', '-c/a.json'],
			['xmrig', '--conf', '/a.json'], // an unambiguous prefix
		]) {
			expect(parseXmrigCommandLine(argv).configPaths).toEqual(['/a.json']);
		}
	});

	it('an option value is never read as an option (-p -c is a password "-c")', () => {
		const parsed = parseXmrigCommandLine(['xmrig', '-o', 'pool:3333', '-p', '-c', '--http-port', '8080']);
		expect(parsed.configPaths).toEqual([]);
		expect(parsed.api.httpPort).toBe(8080);
	});

	it('grouped short flags: -kc FILE', () => {
		expect(parseXmrigCommandLine(['xmrig', '-kc', 'cfg.json']).configPaths).toEqual(['cfg.json']);
	});

	it('non-options are skipped and options after them still count; -- ends the options', () => {
		const parsed = parseXmrigCommandLine(['node', '/tmp/x/xmrig', '-c', 'a.json', 'stray', '--http-port=1', '--', '--http-port=2']);
		expect(parsed.configPaths).toEqual(['a.json']);
		expect(parsed.api.httpPort).toBe(1);
	});

	it('unknown and ambiguous long options are skipped without eating the next word', () => {
		const options = getoptLong(['xmrig', '--no-such-flag', '-c', 'a.json', '--http', 'x']);
		expect(options.map((option) => option.name)).toEqual(['config']);
	});

	it('a no-value option given =value is an error XMRig ignores', () => {
		expect(parseXmrigCommandLine(['xmrig', '--http-no-restricted=1']).api.httpNoRestricted).toBeUndefined();
	});

	it('xmrig-proxy short options differ (-b takes a value there)', () => {
		expect(parseXmrigCommandLine(['xmrig-proxy', '-b', '0.0.0.0:3333', '-c', 'p.json']).configPaths).toEqual(['p.json']);
	});
});

describe('API settings and the config chain', () => {
	it('reads all HTTP API options, numbers like strtol', () => {
		const parsed = parseXmrigCommandLine([
			'./xmrig',
			'--http-host=0.0.0.0',
			'--http-port',
			'18088abc',
			'--http-access-token=s3cret',
			'--http-no-restricted',
		]);
		expect(parsed.api).toEqual({httpHost: '0.0.0.0', httpPort: 18_088, httpToken: 's3cret', httpNoRestricted: true});
		expect(parsed.httpOptionGiven).toBe(true);
		expect(parsed.layers).toEqual([
			{kind: 'options', doc: {http: {host: '0.0.0.0', port: 18_088, 'access-token': 's3cret', restricted: false, enabled: true}}},
		]);
	});

	it('older options: --api-port, --api-access-token, --api-ipv6, --api-no-restricted', () => {
		const parsed = parseXmrigCommandLine(['xmrig', '--api-port=4444', '--api-access-token', 'old', '--api-ipv6', '--api-no-restricted']);
		expect(parsed.api).toEqual({apiPort: 4444, apiToken: 'old', apiIpv6: true, apiNoRestricted: true});
		expect(parsed.httpOptionGiven).toBe(false);
		expect(parsed.layers).toEqual([{kind: 'options', doc: {api: {port: 4444, 'access-token': 'old', ipv6: true, restricted: false}}}]);
	});

	it('layers in XMRig order: options before -c, the file, options after (http.enabled lands in the last)', () => {
		const parsed = parseXmrigCommandLine(['xmrig', '--http-port=1', '-c', 'a.json', '-o', 'pool:3333', '--http-access-token=t']);
		expect(parsed.layers).toEqual([
			{kind: 'options', doc: {http: {port: 1}}},
			{kind: 'config-file', path: 'a.json'},
			{kind: 'options', doc: {pools: [{url: 'pool:3333'}], http: {'access-token': 't', enabled: true}}},
		]);
		expect(parsed.hasPool).toBe(true);
	});

	it('--data-dir / -d, in both forms', () => {
		expect(parseXmrigCommandLine(['xmrig', '--data-dir', '/srv/x']).dataDir).toBe('/srv/x');
		expect(parseXmrigCommandLine(['xmrig', '--data-dir=/srv/y']).dataDir).toBe('/srv/y');
		expect(parseXmrigCommandLine(['xmrig', '-d', '/srv/z']).dataDir).toBe('/srv/z');
		expect(parseXmrigCommandLine(['xmrig']).dataDir).toBeNull();
	});
});

describe('describeCommand', () => {
	it('masks token and password values in every form', () => {
		const text = describeCommand(
			[
				'/opt/xmrig/xmrig',
				'--http-access-token=tok-one',
				'--http-access-token',
				'tok-two',
				'--api-access-token=tok-three',
				'-ppassword1',
				'-p',
				'password2',
				'--userpass=u:password3',
				'--http-acc=tok-four',
				'-c',
				'/opt/xmrig/config.json',
			],
			{maxLength: 1000},
		);
		for (const secret of ['tok-one', 'tok-two', 'tok-three', 'password1', 'password2', 'password3', 'tok-four'])
			expect(text).not.toContain(secret);
		expect(text).toContain('--http-access-token=••••');
		expect(text).toContain('-c /opt/xmrig/config.json');
	});

	it('masks secret options inside one element too: sh -c "xmrig …", or a process that rewrote its title', () => {
		const wrapped = describeCommand(
			['sh', '-c', 'exec xmrig --http-access-token tok-five -o pool:3333 -p password4 --api-access-token=tok-six'],
			{
				maxLength: 1000,
			},
		);
		const retitled = describeCommand(['npm exec node xmrig-sim.js --http-port 19101 --http-access-token tok-seven', '', ''], {
			maxLength: 1000,
		});
		for (const secret of ['tok-five', 'password4', 'tok-six', 'tok-seven']) expect(wrapped + retitled).not.toContain(secret);
		expect(wrapped).toContain('-o pool:3333');
		expect(wrapped).toContain('--http-access-token ••••');
	});

	it('masks known secrets anywhere, quotes odd elements, and cuts long lines', () => {
		expect(describeCommand(['xmrig', 'stray-abc123-word'], {secrets: ['abc123']})).toBe('xmrig stray-••••-word');
		expect(describeCommand(['xmrig', 'a b', ''])).toBe('xmrig "a b" ""');
		const long = describeCommand(['xmrig', 'x'.repeat(200)], {maxLength: 40});
		expect(long).toHaveLength(40);
		expect(long.endsWith('…')).toBe(true);
	});

	it('splits a command line held in one element at ASCII spaces only: U+FEFF reaches cleanText and shows', () => {
		const wrapped = describeCommand(['sh', '-c', 'exec xmrig\uFEFF --http-port 1 --http-access-token tok-eight'], {maxLength: 1000});
		expect(wrapped).toContain('xmrig<FEFF> --http-port 1');
		expect(wrapped).toContain('--http-access-token ••••');
		expect(wrapped).not.toContain('tok-eight');
	});
});

describe('numbers read like strtol', () => {
	it('skips ASCII whitespace before a number, and nothing else (XMRig reads a port after a U+FEFF as 0)', () => {
		expect(parseXmrigCommandLine(['xmrig', '--http-port= \t18999']).api.httpPort).toBe(18_999);
		expect(parseXmrigCommandLine(['xmrig', '--http-port=\uFEFF18999']).api.httpPort).toBe(0);
		expect(parseXmrigCommandLine(['xmrig', '--http-port=\u00A018999']).api.httpPort).toBe(0);
	});
});
