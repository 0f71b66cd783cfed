import {chmod, copyFile, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {borrowedTokenOf} from '../../source/discovery/borrowed-token.js';
import {resolveTargets, type DiscoveryInput, type DiscoveryResult} from '../../source/discovery/discover.js';
import {formatNoneFound, formatWhere} from '../../source/discovery/where.js';
import {asUnprivileged, makeFakeProc, type FakeProc, type FakeProcess, type FakeSocket} from './fake-proc.js';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'xmrig-configs');

let work: string;
let home: string;
let fake: FakeProc | null;

beforeEach(async () => {
	work = await mkdtemp(path.join(tmpdir(), 'rigtop-discover-'));
	// The fake miners run as uid 1000 and may read the configs they name (lending.ts), as real ones do.
	await chmod(work, 0o755);
	home = path.join(work, 'home');
	await mkdir(home);
	fake = null;
});
afterEach(async () => {
	await fake?.remove();
	await rm(work, {recursive: true, force: true});
});

async function writeJson(file: string, value: unknown): Promise<string> {
	await mkdir(path.dirname(file), {recursive: true});
	await writeFile(file, JSON.stringify(value, null, 4));
	return file;
}

function minerConfig(http: Record<string, unknown>): Record<string, unknown> {
	return {api: {id: null, 'worker-id': null}, http, pools: [{url: 'pool.example.org:3333', user: 'wallet', enabled: true}]};
}

async function procWith(processes: readonly FakeProcess[], sockets: readonly FakeSocket[] = []): Promise<string> {
	fake = await makeFakeProc(processes, sockets);
	return fake.root;
}

/** Every test result goes through this: the tokens must never leak into anything shown. */
async function discover(input: DiscoveryInput, secrets: readonly string[] = []): Promise<DiscoveryResult> {
	// rigtop runs as uid 1000 here, the fake miners' own user, unless a test says otherwise.
	const result = await resolveTargets({homeDir: home, cwd: work, passwdPath: path.join(work, 'no-passwd'), selfUid: 1000, ...input});
	const shown = JSON.stringify([result.warnings, result.problems, result.lookedAt, result.targets.map((target) => target.provenance)]);
	const printed = formatWhere(result).join('\n');
	for (const secret of secrets) {
		expect(shown).not.toContain(secret);
		expect(printed).not.toContain(secret);
	}
	return result;
}

describe('explicit settings win', () => {
	it('URL + --token-file: used as given, nothing scanned', async () => {
		const tokenFile = path.join(work, 'token');
		await writeFile(tokenFile, 'file-token\n', {mode: 0o600});
		const result = await discover({urls: ['127.0.0.1:18090'], tokenFile, procRoot: '/nonexistent'}, ['file-token']);
		expect(result.targets).toEqual([
			{
				url: 'http://127.0.0.1:18090',
				token: 'file-token',
				provenance: {
					url: {kind: 'flag', detail: 'the address given on the command line'},
					token: {kind: 'flag', detail: `--token-file ${tokenFile}`},
				},
			},
		]);
		expect(result.warnings).toEqual([]);
	});

	it('token order: --token-file > RIGTOP_TOKEN > --token, with warnings', async () => {
		const tokenFile = path.join(work, 'token');
		await writeFile(tokenFile, 'from-file\r\n');
		await chmod(tokenFile, 0o644);
		const all = await discover({urls: ['h:1'], tokenFile, tokenEnv: 'from-env', tokenFlag: 'from-flag'}, [
			'from-file',
			'from-env',
			'from-flag',
		]);
		expect(all.targets[0]?.token).toBe('from-file');
		expect(all.warnings.join('\n')).toMatch(/can be read by other users \(mode 0644\)/);
		expect(all.warnings.join('\n')).toMatch(/--token puts the access token where every user/);
		expect(all.warnings.join('\n')).toMatch(/given 3 ways/);
		const envOverFlag = await discover({urls: ['h:1'], tokenEnv: 'from-env', tokenFlag: 'from-flag'});
		expect(envOverFlag.targets[0]?.token).toBe('from-env');
		expect(envOverFlag.targets[0]?.provenance.token).toEqual({kind: 'env', detail: 'RIGTOP_TOKEN'});
		const flagOnly = await discover({urls: ['h:1'], tokenEnv: '', tokenFlag: 'from-flag'});
		expect(flagOnly.targets[0]?.token).toBe('from-flag');
	});

	it('an unreadable --token-file is a problem, and the next source is used', async () => {
		const result = await discover({urls: ['h:1'], tokenFile: 'missing-token', tokenEnv: 'env-token'}, ['env-token']);
		expect(result.problems).toEqual([`cannot read --token-file ${path.join(work, 'missing-token')}: it does not exist`]);
		expect(result.targets[0]?.token).toBe('env-token');
	});

	it('a bad address is a problem in plain words; a path-less http URL is normalized', async () => {
		const result = await discover({urls: ['https://rig:1', 'http://rig-02:18088/']});
		expect(result.targets.map((target) => target.url)).toEqual(['http://rig-02:18088']);
		expect(result.problems[0]).toMatch(/plain HTTP/);
	});

	it('URL + --config: the config supplies the token, the URL the address', async () => {
		const config = path.join(fixtures, 'v6.26', 'config_restricted_as_written.json');
		const result = await discover({urls: ['192.168.1.50:18090'], configPath: config}, ['testtoken']);
		expect(result.targets[0]).toMatchObject({token: 'testtoken', provenance: {token: {kind: 'config-file', detail: `--config ${config}`}}});
	});

	it('a loopback URL without a token borrows the token of the local miner listening there', async () => {
		const config = await writeJson(
			path.join(work, 'opt', 'config.json'),
			minerConfig({enabled: true, port: 0, 'access-token': 'proc-token'}),
		);
		const procRoot = await procWith(
			[
				{
					pid: 900,
					comm: 'xmrig',
					argv: ['./xmrig', '-c', 'config.json'],
					exe: path.join(work, 'opt', 'xmrig'),
					cwd: path.dirname(config),
					socketInodes: [71],
				},
			],
			[{address: '127.0.0.1', port: 41_234, inode: 71}],
		);
		const result = await discover({urls: ['127.0.0.1:41234'], procRoot}, ['proc-token']);
		expect(result.targets[0]).toMatchObject({
			url: 'http://127.0.0.1:41234',
			token: 'proc-token',
			provenance: {token: {kind: 'config-file', detail: `${config} (the config of process 900)`}},
		});
	});

	it('only a running process’s token is borrowed: not one of a --config the user gave (review, finding 5)', async () => {
		const config = path.join(fixtures, 'v6.26', 'config_restricted_as_written.json');
		const withUrl = await discover({urls: ['192.168.1.50:18090'], configPath: config}, ['testtoken']);
		expect(withUrl.targets[0]?.token).toBe('testtoken');
		expect(borrowedTokenOf(withUrl.targets[0] ?? {token: null, provenance: {token: null}})).toBeNull();
		const alone = await discover({configPath: path.join(fixtures, 'v6.26', 'config_main_as_written.json'), procRoot: '/nonexistent'});
		expect(borrowedTokenOf(alone.targets[0] ?? {token: null, provenance: {token: null}})).toBeNull();
	});

	it('a running process’s token is borrowed, its config’s path said on one line without control characters', async () => {
		const dir = path.join(work, 'opt\u001b[2J\u001b]0;pwned\u0007\nrig');
		const config = await writeJson(path.join(dir, 'config.json'), minerConfig({enabled: true, port: 0, 'access-token': 'proc-token'}));
		const procRoot = await procWith(
			[{pid: 901, comm: 'xmrig', argv: ['./xmrig', '-c', 'config.json'], exe: path.join(dir, 'xmrig'), cwd: dir, socketInodes: [72]}],
			[{address: '127.0.0.1', port: 41_235, inode: 72}],
		);
		const result = await discover({urls: ['127.0.0.1:41235'], procRoot}, ['proc-token']);
		expect(result.targets[0]?.token).toBe('proc-token');
		const whose = borrowedTokenOf(result.targets[0] ?? {token: null, provenance: {token: null}});
		expect(whose).toMatch(/\(the config of process 901\)$/);
		expect([...(whose ?? '')].filter((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)).toEqual([]);
		expect(whose).toContain(path.join(work, 'opt'));
		expect(config).toContain('\u001b');
	});

	it('a token sent in clear to another host: one warning per host', async () => {
		const result = await discover({urls: ['10.0.0.7:18088', '10.0.0.7:18089', '127.0.0.1:18088'], tokenEnv: 'env-token'}, ['env-token']);
		expect(result.targets).toHaveLength(3);
		const clear = result.warnings.filter((warning) => warning.includes('without encryption'));
		expect(clear).toHaveLength(1);
		expect(clear[0]).toContain('10.0.0.7');
		// Noted on the first target it goes to in clear; the token given two ways is about no miner in particular.
		expect(result.targets.map((target) => target.notes ?? [])).toEqual([clear, [], []]);
	});
});

describe('--config', () => {
	it.each([
		['v6.26', 'config_main_as_written.json', 'http://127.0.0.1:18090'],
		['v2.16', 'config_main_as_written.json', 'http://127.0.0.1:18091'],
		['v2.14', 'config_main_as_written.json', 'http://127.0.0.1:18092'],
	])('%s %s → %s with its token', async (version, name, url) => {
		const configPath = path.join(fixtures, version, name);
		const result = await discover({configPath, procRoot: '/nonexistent'}, ['testtoken']);
		expect(result.targets).toEqual([
			{
				url,
				token: 'testtoken',
				provenance: {
					url: {kind: 'config-file', detail: `--config ${configPath}`},
					token: {kind: 'config-file', detail: `--config ${configPath}`},
				},
				// What is found about the miner's config file is noted on its target (shown under that rig).
				...(version === 'v2.14' ? {notes: [expect.stringMatching(/older "api" layout/)]} : {}),
			},
		]);
		if (version === 'v2.14') expect(result.warnings.join(' ')).toMatch(/older "api" layout/);
	});

	it("a relative --config is relative to rigtop's working directory; an explicit token beats the file's", async () => {
		await copyFile(path.join(fixtures, 'v6.26', 'config_main_as_written.json'), path.join(work, 'config.json'));
		const result = await discover({configPath: 'config.json', tokenEnv: 'override'}, ['override', 'testtoken']);
		expect(result.targets[0]).toMatchObject({token: 'override', provenance: {token: {kind: 'env'}}});
	});

	it('API off: no target, the reason and how to turn it on', async () => {
		const configPath = await writeJson(
			path.join(work, 'off.json'),
			minerConfig({enabled: false, port: 18088, 'access-token': 'off-token'}),
		);
		const result = await discover({configPath}, ['off-token']);
		expect(result.targets).toEqual([]);
		expect(result.problems.join('\n')).toMatch(/"enabled" is false/);
		expect(formatNoneFound(result).join('\n')).toMatch(/--http-port=18088 --http-access-token=…/);
	});

	it('no token + restricted false: found, and the 401 trap is explained', async () => {
		const configPath = path.join(fixtures, 'v6.26', 'config_notoken-unrestricted_as_written.json');
		const result = await discover({configPath});
		expect(result.targets[0]?.token).toBeNull();
		expect(result.problems.join('\n')).toMatch(/401 to every request/);
	});

	it('a token given to rigtop for a miner whose config has none: warned (XMRig answers 401)', async () => {
		const configPath = path.join(fixtures, 'v6.26', 'config_restricted-notoken_as_written.json');
		const result = await discover({configPath, tokenEnv: 'stray'}, ['stray']);
		expect(result.warnings.join('\n')).toMatch(/sets no access token, but rigtop was given one/);
	});

	it('port 0: the random port comes from the process running with that file', async () => {
		const dir = path.join(work, 'miner');
		const configPath = await writeJson(
			path.join(dir, 'config.json'),
			minerConfig({enabled: true, host: '0.0.0.0', port: 0, 'access-token': 'rnd-token'}),
		);
		const procRoot = await procWith(
			[
				{pid: 300, comm: 'xmrig', argv: ['./xmrig', '--config=config.json'], exe: path.join(dir, 'xmrig'), cwd: dir, socketInodes: [31]},
				{pid: 301, comm: 'xmrig', argv: ['./xmrig', '-c', '/elsewhere.json'], exe: '/other/xmrig', cwd: '/other', socketInodes: [32]},
			],
			[
				{address: '0.0.0.0', port: 45_001, inode: 31},
				{address: '127.0.0.1', port: 45_002, inode: 32},
			],
		);
		const result = await discover({configPath, procRoot}, ['rnd-token']);
		expect(result.targets).toHaveLength(1);
		expect(result.targets[0]).toMatchObject({
			url: 'http://127.0.0.1:45001',
			token: 'rnd-token',
			provenance: {token: {kind: 'config-file'}},
		});
		expect(result.targets[0]?.provenance.url.detail).toMatch(
			/^process 300 \(\.\/xmrig --config=config\.json\), listening on 0\.0\.0\.0:45001$/,
		);
		expect(result.problems).toEqual([]);
	});

	it('port 0 and no process uses the file: explains both', async () => {
		const configPath = await writeJson(path.join(work, 'zero.json'), minerConfig({enabled: true, port: 0}));
		const result = await discover({configPath, procRoot: await procWith([])});
		expect(result.targets).toEqual([]);
		expect(result.problems.join('\n')).toMatch(/"port" is 0/);
		expect(result.problems.join('\n')).toMatch(/no running XMRig process .* uses/);
	});
});

describe('running processes', () => {
	it('are listed by address (host, then port as a number), not in process-id order', async () => {
		const miner = (pid: number, host: string, port: number): FakeProcess => ({
			pid,
			comm: 'xmrig',
			argv: ['./xmrig', '--http-host', host, `--http-port=${port}`],
			exe: '/opt/xmrig/xmrig',
			cwd: '/',
			socketInodes: [pid],
		});
		const listed: [number, string, number][] = [
			[100, '127.0.0.1', 9000],
			[200, '127.0.0.1', 18_081],
			[300, '10.0.0.10', 80],
			[400, '127.0.0.1', 4048],
			[500, '10.0.0.9', 80],
		];
		const procRoot = await procWith(
			listed.map(([pid, host, port]) => miner(pid, host, port)),
			listed.map(([pid, host, port]) => ({address: host, port, inode: pid})),
		);
		const result = await discover({procRoot});
		expect(result.targets.map((target) => target.url)).toEqual([
			'http://10.0.0.9:80',
			'http://10.0.0.10:80',
			'http://127.0.0.1:4048',
			'http://127.0.0.1:9000',
			'http://127.0.0.1:18081',
		]);
	});

	it('command line options: port from the socket it listens on, token from its command line', async () => {
		const procRoot = await procWith(
			[
				{
					pid: 4100,
					comm: 'xmrig',
					argv: ['/opt/xmrig/xmrig', '-o', 'pool:3333', '--http-host', '::', '--http-port=0', '--http-access-token=cli-token'],
					exe: '/opt/xmrig/xmrig',
					cwd: '/',
					socketInodes: [41],
				},
			],
			[{address: '0:0:0:0:0:0:0:0', port: 39_999, inode: 41}],
		);
		const result = await discover({procRoot}, ['cli-token']);
		expect(result.targets).toEqual([
			{
				url: 'http://[::1]:39999',
				token: 'cli-token',
				provenance: {
					url: {
						kind: 'process',
						detail:
							'process 4100 (/opt/xmrig/xmrig -o pool:3333 --http-host :: --http-port=0 --http-access-token=••••), listening on [::]:39999',
					},
					token: {kind: 'process', detail: 'the command line of process 4100', borrowed: true},
				},
			},
		]);
	});

	it('-c relative to the process working directory; config port used when it is listened on', async () => {
		const dir = path.join(work, 'srv');
		const config = await writeJson(
			path.join(dir, 'conf', 'rig.json'),
			minerConfig({enabled: true, host: '127.0.0.1', port: 18088, 'access-token': 'rel-token'}),
		);
		const procRoot = await procWith(
			[{pid: 10, comm: 'xmrig', argv: ['./xmrig', '-c', 'conf/rig.json'], exe: path.join(dir, 'xmrig'), cwd: dir, socketInodes: [5, 6]}],
			[
				{address: '127.0.0.1', port: 18_088, inode: 5},
				{address: '127.0.0.1', port: 9, inode: 6, state: 0x06},
			],
		);
		const result = await discover({procRoot}, ['rel-token']);
		expect(result.targets).toMatchObject([
			{url: 'http://127.0.0.1:18088', token: 'rel-token', provenance: {token: {detail: `${config} (the config of process 10)`}}},
		]);
		expect(result.warnings).toEqual([]);
	});

	it('no -c: config.json beside the binary, as XMRig searches', async () => {
		const dir = path.join(work, 'xmrig-6.26.0');
		await mkdir(dir);
		await copyFile(path.join(fixtures, 'v6.26', 'config_restricted_as_written.json'), path.join(dir, 'config.json'));
		const procRoot = await procWith(
			[{pid: 20, comm: 'xmrig', argv: ['./xmrig'], exe: path.join(dir, 'xmrig'), cwd: '/', socketInodes: [7]}],
			[{address: '127.0.0.1', port: 18_090, inode: 7}],
		);
		const result = await discover({procRoot}, ['testtoken']);
		expect(result.targets).toMatchObject([{url: 'http://127.0.0.1:18090', token: 'testtoken'}]);
	});

	it("then ~/.xmrig.json and ~/.config/xmrig.json (the owner's home from passwd first)", async () => {
		const ownerHome = path.join(work, 'miner-home');
		await writeJson(
			path.join(ownerHome, '.config', 'xmrig.json'),
			minerConfig({enabled: true, port: 18100, 'access-token': 'owner-token'}),
		);
		await writeJson(path.join(home, '.xmrig.json'), minerConfig({enabled: true, port: 18100, 'access-token': 'my-token'}));
		const passwdPath = path.join(work, 'passwd');
		await writeFile(passwdPath, `root:x:0:0:root:/root:/bin/bash\nminer:x:1500:1500::${ownerHome}:/bin/sh\n`);
		const procRoot = await procWith(
			[{pid: 30, comm: 'xmrig', argv: ['xmrig'], exe: path.join(work, 'bin', 'xmrig'), cwd: '/', uid: 1500, socketInodes: [8]}],
			[{address: '127.0.0.1', port: 18_100, inode: 8, uid: 1500}],
		);
		const asOwner = await discover({procRoot, passwdPath}, ['owner-token', 'my-token']);
		expect(asOwner.targets[0]?.token).toBe('owner-token');
		const withoutPasswd = await discover({procRoot}, ['owner-token', 'my-token']);
		expect(withoutPasswd.targets[0]?.token).toBe('my-token');
	});

	it('XMRig\'s chain: options after -c replace the file\'s whole "http" section (its token is not used)', async () => {
		const dir = path.join(work, 'chain');
		await writeJson(path.join(dir, 'config.json'), minerConfig({enabled: true, port: 18088, 'access-token': 'file-token'}));
		const procRoot = await procWith(
			[
				{
					pid: 40,
					comm: 'xmrig',
					argv: ['./xmrig', '-c', 'config.json', '--http-port=18200'],
					exe: path.join(dir, 'xmrig'),
					cwd: dir,
					socketInodes: [9],
				},
			],
			[{address: '127.0.0.1', port: 18_200, inode: 9}],
		);
		const result = await discover({procRoot}, ['file-token']);
		expect(result.targets).toMatchObject([{url: 'http://127.0.0.1:18200', token: null, provenance: {token: null}}]);
	});

	it('any --http-* option makes XMRig (4.1+) add a final {"http": {"enabled": true}} layer, which replaces the file\'s section', async () => {
		// BaseTransform::finalize sets http.enabled in the LAST layer, after the -c file: the miner then
		// runs with a random port and no token, whatever the file says. The real port comes from /proc.
		const dir = path.join(work, 'chain2');
		await writeJson(path.join(dir, 'config.json'), minerConfig({enabled: true, port: 18088, 'access-token': 'file-token'}));
		const procRoot = await procWith(
			[
				{
					pid: 41,
					comm: 'xmrig',
					argv: ['./xmrig', '--http-access-token=early', '-c', 'config.json'],
					exe: path.join(dir, 'xmrig'),
					cwd: dir,
					socketInodes: [9],
				},
			],
			[{address: '127.0.0.1', port: 43_210, inode: 9}],
		);
		const result = await discover({procRoot}, ['file-token', 'early']);
		expect(result.targets).toMatchObject([{url: 'http://127.0.0.1:43210', token: null}]);
	});

	it('configured port not listened on but another is: the real one wins, with a warning', async () => {
		const dir = path.join(work, 'moved');
		await writeJson(path.join(dir, 'config.json'), minerConfig({enabled: true, port: 18088}));
		const procRoot = await procWith(
			[{pid: 50, comm: 'xmrig', argv: ['./xmrig'], exe: path.join(dir, 'xmrig'), cwd: dir, socketInodes: [11]}],
			[{address: '127.0.0.1', port: 18_099, inode: 11}],
		);
		const result = await discover({procRoot});
		expect(result.targets.map((target) => target.url)).toEqual(['http://127.0.0.1:18099']);
		expect(result.warnings.join('\n')).toMatch(/says port 18088, but it listens on 18099/);
	});

	it('several miners: all of them', async () => {
		const procRoot = await procWith(
			[
				{pid: 61, comm: 'xmrig', argv: ['xmrig', '-o', 'p:1', '--http-port=18001'], exe: '/a/xmrig', cwd: '/', socketInodes: [61]},
				{
					pid: 62,
					comm: 'xmrig-notls',
					argv: ['xmrig-notls', '-o', 'p:1', '--http-port=18002'],
					exe: '/b/xmrig-notls',
					cwd: '/',
					socketInodes: [62],
				},
			],
			[
				{address: '127.0.0.1', port: 18_001, inode: 61},
				{address: '127.0.0.1', port: 18_002, inode: 62},
			],
		);
		const result = await discover({procRoot});
		expect(result.targets.map((target) => target.url)).toEqual(['http://127.0.0.1:18001', 'http://127.0.0.1:18002']);
		const where = formatWhere(result).join('\n');
		expect(where).toMatch(/rigtop will monitor 2 miners/);
		expect(where).toMatch(/token {4}not set/);
	});

	it('a miner with its API off: why, and how to turn it on', async () => {
		const dir = path.join(work, 'quiet');
		await writeJson(path.join(dir, 'config.json'), {pools: [{url: 'p:3333'}], http: {enabled: false, port: 0, 'access-token': null}});
		const procRoot = await procWith([{pid: 70, comm: 'xmrig', argv: ['./xmrig'], exe: path.join(dir, 'xmrig'), cwd: dir}]);
		const result = await discover({procRoot});
		expect(result.targets).toEqual([]);
		expect(result.problems.join('\n')).toMatch(/process 70 \(\.\/xmrig\) does not listen on any TCP port: its HTTP API is off/);
		expect(result.problems.join('\n')).toMatch(/"http"."enabled" is false/);
		expect(result.lookedAt.join('\n')).toContain(`process 70 (./xmrig): config ${path.join(dir, 'config.json')}`);
	});

	it('a -c file that cannot be read is named', async () => {
		const procRoot = await procWith(
			[{pid: 71, comm: 'xmrig', argv: ['xmrig', '-c', '/gone/config.json'], exe: '/x/xmrig', cwd: '/', socketInodes: [1]}],
			[{address: '127.0.0.1', port: 18_300, inode: 1}],
		);
		const result = await discover({procRoot});
		expect(result.targets.map((target) => target.url)).toEqual(['http://127.0.0.1:18300']);
		expect(result.problems).toContain('process 71 was started with -c /gone/config.json, but /gone/config.json does not exist');
		expect(result.warnings.join('\n')).toMatch(/found no config it can read for this miner, so it knows no token/);
	});

	it("what is found about a process is noted on that process's targets, not on the first miner's", async () => {
		const procRoot = await procWith(
			[
				{pid: 81, comm: 'xmrig', argv: ['xmrig', '-o', 'p:1', '--http-port=18081'], exe: '/a/xmrig', cwd: '/', socketInodes: [81]},
				{
					pid: 86,
					comm: 'xmrig',
					argv: ['xmrig', '-c', '/gone/config.json', '--http-port=18086'],
					exe: '/b/xmrig',
					cwd: '/',
					socketInodes: [86],
				},
			],
			[
				{address: '127.0.0.1', port: 18_081, inode: 81},
				{address: '127.0.0.1', port: 18_086, inode: 86},
			],
		);
		const result = await discover({procRoot});
		expect(result.targets.map((target) => target.url)).toEqual(['http://127.0.0.1:18081', 'http://127.0.0.1:18086']);
		const [first, second] = result.targets;
		expect(first?.notes ?? []).toEqual([]);
		expect(second?.notes).toContain('process 86 was started with -c /gone/config.json, but /gone/config.json does not exist');
		// Everything noted is in the result's lists too (for stderr and --where).
		for (const note of second?.notes ?? []) expect([...result.warnings, ...result.problems]).toContain(note);
	});

	it("another user's miner (sockets hidden): the configured port, else the one port its user listens on, as a guess", async () => {
		await chmod(work, 0o755);
		const dir = path.join(work, 'other');
		await writeJson(path.join(dir, 'fixed.json'), minerConfig({enabled: true, port: 18_400}));
		await writeJson(path.join(dir, 'random.json'), minerConfig({enabled: true, port: 0}));
		const procRoot = await procWith(
			[
				{
					pid: 90,
					comm: 'xmrig',
					argv: ['./xmrig', '-c', 'fixed.json'],
					exe: path.join(dir, 'xmrig'),
					cwd: dir,
					uid: 1002,
					socketInodes: [91],
					hideFds: true,
				},
				{
					pid: 95,
					comm: 'xmrig',
					argv: ['./xmrig', '-c', 'random.json'],
					exe: path.join(dir, 'xmrig'),
					cwd: dir,
					uid: 1003,
					socketInodes: [96],
					hideFds: true,
				},
			],
			[
				{address: '127.0.0.1', port: 18_400, inode: 91, uid: 1002},
				{address: '127.0.0.1', port: 33_333, inode: 96, uid: 1003},
			],
		);
		const result = await asUnprivileged(() => discover({procRoot}));
		expect(result.targets.map((target) => [target.url, target.provenance.url.detail])).toEqual([
			['http://127.0.0.1:18400', `process 90 (./xmrig -c fixed.json), port 18400 from ${path.join(dir, 'fixed.json')}`],
			['http://127.0.0.1:33333', 'process 95 (./xmrig -c random.json): the only port its user listens on, 127.0.0.1:33333 (a guess)'],
		]);
		expect(result.warnings.join('\n')).toMatch(/belongs to another user/);
	});

	it('none found: what was looked at, and how to turn the API on', async () => {
		const procRoot = await procWith([{pid: 80, comm: 'bash', argv: ['-bash'], exe: '/bin/bash', cwd: '/'}]);
		const result = await discover({procRoot});
		expect(result.targets).toEqual([]);
		expect(result.lookedAt).toEqual(['no URL argument or --url', 'no --config', `2 processes in ${procRoot}, none of them XMRig`]);
		const text = formatNoneFound(result).join('\n');
		expect(text).toMatch(/^No XMRig miner to monitor\./);
		expect(text).toContain('"http": {"enabled": true, "host": "127.0.0.1", "port": 18088, "access-token": "…", "restricted": true}');
		expect(text).toContain('--http-port=18088 --http-access-token=…');
		expect(formatWhere(result)).toEqual(formatNoneFound(result));
	});

	it('no /proc: says process discovery is Linux-only', async () => {
		const result = await discover({procRoot: path.join(work, 'no-proc')});
		expect(result.lookedAt.join('\n')).toMatch(/works on Linux only/);
	});
});

describe('--where', () => {
	it('shows where each setting came from and never the token, not even its length', async () => {
		const configPath = path.join(fixtures, 'v6.26', 'config_main_as_written.json');
		const result = await discover({configPath}, ['testtoken']);
		const lines = formatWhere(result);
		expect(lines).toEqual([
			'rigtop will monitor 1 miner:',
			'  http://127.0.0.1:18090',
			`    address  config file: --config ${configPath}`,
			`    token    set (from config file: --config ${configPath})`,
		]);
		expect(lines.join('\n')).not.toMatch(/•{2,}|\b9\b/);
	});
});
