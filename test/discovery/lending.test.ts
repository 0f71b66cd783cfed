/**
 * Which token a discovered process may be sent (issue 36, item 2): the permission judgement (a process's ids from its
 * /proc status against a file's owner, group and mode), who holds a port, and the lending rule, with fake /proc status
 * texts and fake stat results; then discovery over a fake /proc tree with processes of other users.
 */
import {chmod, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {resolveTargets, type DiscoveryInput} from '../../source/discovery/discover.js';
import {
	judgeLending,
	mayReadFile,
	permits,
	portHolder,
	userNameOf,
	type FileMode,
	type LendingInput,
} from '../../source/discovery/lending.js';
import {parseCredentials, type Credentials, type ProcProcess} from '../../source/discovery/proc.js';
import {formatWhere} from '../../source/discovery/where.js';
import {asUnprivileged, makeFakeProc, type FakeProc, type FakeProcess, type FakeSocket} from './fake-proc.js';

/** A /proc/PID/status as Linux 6.x writes it (abridged), for a process of bob (1001) in groups 1001, 27 and 998. */
const BOB_STATUS = [
	'Name:\txmrig',
	'Umask:\t0022',
	'State:\tS (sleeping)',
	'Tgid:\t4242',
	'Pid:\t4242',
	'PPid:\t1',
	'Uid:\t1001\t1001\t1001\t1001',
	'Gid:\t1001\t1001\t1001\t1001',
	'FDSize:\t64',
	'Groups:\t27 998 1001 ',
	'VmPeak:\t  123456 kB',
	'',
].join('\n');

function ids(status: string): Credentials {
	const parsed = parseCredentials(status);
	if (!parsed) throw new Error('no Uid line');
	return parsed;
}

const bob = ids(BOB_STATUS);
const root = ids('Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t\n');
const file = (uid: number, gid: number, mode: number): FileMode => ({uid, gid, mode});

describe('parseCredentials (/proc/PID/status)', () => {
	it('reads the four uids and gids and the supplementary groups', () => {
		expect(bob).toEqual({uid: 1001, euid: 1001, suid: 1001, fsuid: 1001, gid: 1001, egid: 1001, fsgid: 1001, groups: [27, 998, 1001]});
		expect(ids('Uid:\t1000\t0\t0\t0\nGid:\t1000\t1000\t1000\t50\nGroups:\t\n')).toMatchObject({
			uid: 1000,
			euid: 0,
			fsuid: 0,
			fsgid: 50,
			groups: [],
		});
		expect(parseCredentials('Name:\tx\n')).toBeNull();
		expect(parseCredentials(null)).toBeNull();
	});
});

describe('permits: the kernel’s permission check for a process’s ids', () => {
	it('the owner by the owner bits only', () => {
		expect(permits(bob, file(1001, 0, 0o600), 4)).toBe(true);
		expect(permits(bob, file(1001, 0, 0o200), 4)).toBe(false);
		// An owner without the owner bit is refused even though others may read (the classes do not add up).
		expect(permits(bob, file(1001, 1001, 0o044), 4)).toBe(false);
	});

	it('the group by its filesystem gid or a supplementary group', () => {
		expect(permits(bob, file(0, 1001, 0o640), 4)).toBe(true);
		expect(permits(bob, file(0, 998, 0o640), 4)).toBe(true);
		expect(permits(bob, file(0, 27, 0o600), 4)).toBe(false);
		expect(permits(bob, file(0, 5000, 0o640), 4)).toBe(false);
		expect(permits({...bob, groups: []}, file(0, 998, 0o640), 4)).toBe(false);
		// A member of the group is judged by the group bits, not the others'.
		expect(permits(bob, file(0, 998, 0o604), 4)).toBe(false);
	});

	it('everyone else by the other bits; search is the x bit', () => {
		expect(permits(bob, file(0, 0, 0o644), 4)).toBe(true);
		expect(permits(bob, file(0, 0, 0o640), 4)).toBe(false);
		expect(permits(bob, file(0, 0, 0o755), 1)).toBe(true);
		expect(permits(bob, file(0, 0, 0o750), 1)).toBe(false);
	});

	it('the filesystem uid decides, not the real one', () => {
		const dropped = ids('Uid:\t0\t1001\t1001\t1001\nGid:\t0\t1001\t1001\t1001\nGroups:\t\n');
		expect(permits(dropped, file(0, 0, 0o600), 4)).toBe(false);
		const raised = ids('Uid:\t1001\t0\t0\t0\nGid:\t1001\t1001\t1001\t1001\nGroups:\t\n');
		expect(permits(raised, file(0, 0, 0o600), 4)).toBe(true);
	});

	it('root reads and searches anything', () => {
		expect(permits(root, file(1001, 1001, 0o000), 4)).toBe(true);
		expect(permits(root, file(1001, 1001, 0o700), 1)).toBe(true);
	});
});

describe('mayReadFile: the file and every directory above it', () => {
	const modes: Record<string, FileMode> = {
		'/': file(0, 0, 0o755),
		'/etc': file(0, 0, 0o755),
		'/etc/xmrig': file(0, 0, 0o755),
		'/etc/xmrig/open.json': file(0, 0, 0o644),
		'/etc/xmrig/secret.json': file(0, 0, 0o600),
		'/root': file(0, 0, 0o700),
		'/root/open.json': file(0, 0, 0o644),
	};
	const statOf = async (name: string): Promise<FileMode> => {
		const mode = modes[name];
		if (!mode) throw Object.assign(new Error('ENOENT'), {code: 'ENOENT'});
		return mode;
	};

	it('readable, unreadable, in a directory it may not search, and missing', async () => {
		expect(await mayReadFile(bob, '/etc/xmrig/open.json', statOf)).toBe(true);
		expect(await mayReadFile(bob, '/etc/xmrig/secret.json', statOf)).toBe(false);
		expect(await mayReadFile(bob, '/root/open.json', statOf)).toBe(false);
		expect(await mayReadFile(bob, '/etc/xmrig/gone.json', statOf)).toBe(false);
		expect(await mayReadFile(root, '/root/open.json', statOf)).toBe(true);
	});
});

function processOf(credentials: Credentials, over: Partial<ProcProcess> = {}): ProcProcess {
	return {
		pid: 4242,
		comm: 'xmrig',
		argv: ['xmrig'],
		exe: null,
		cwd: '/',
		uid: credentials.uid,
		credentials,
		listenRows: [{family: 4, address: '127.0.0.1', port: 18_999, state: 0x0a, uid: credentials.euid, inode: 7}],
		listening: [{family: 4, address: '127.0.0.1', port: 18_999, inode: 7}],
		listeningByOwner: null,
		notes: [],
		...over,
	};
}

function lend(over: Partial<LendingInput>) {
	return judgeLending({
		process: processOf(bob),
		port: 18_999,
		explicit: null,
		own: null,
		selfUid: 0,
		ownerName: 'user bob',
		shownPort: ':18999',
		...over,
	});
}

describe('portHolder', () => {
	it('at the address connected to: its own, a wildcard, localhost', () => {
		const on = (address: string) =>
			processOf(bob, {
				listening: [{family: 4, address, port: 18_999, inode: 7}],
				listenRows: [{family: 4, address, port: 18_999, state: 0x0a, uid: 1001, inode: 7}],
			});
		expect(portHolder(on('0.0.0.0'), 18_999, '127.0.0.1')).toEqual({kind: 'process'});
		expect(portHolder(on('::'), 18_999, '[::1]')).toEqual({kind: 'process'});
		expect(portHolder(on('::1'), 18_999, 'localhost')).toEqual({kind: 'process'});
		expect(portHolder(on('192.168.1.5'), 18_999, '127.0.0.1')).toEqual({kind: 'none'});
		expect(portHolder(on('0.0.0.0'), 18_999, '[::1]')).toEqual({kind: 'none'});
	});

	it('in rigtop’s own network namespace: its socket there, or elsewhere (a container’s loopback)', () => {
		const row = processOf(bob).listenRows[0]!;
		expect(portHolder(processOf(bob), 18_999, '127.0.0.1', [row])).toEqual({kind: 'process'});
		expect(portHolder(processOf(bob), 18_999, '127.0.0.1', [])).toEqual({kind: 'elsewhere'});
		// Another's socket on that port where rigtop connects.
		expect(portHolder(processOf(bob), 18_999, '127.0.0.1', [{...row, inode: 99, uid: 1002}])).toEqual({kind: 'elsewhere'});
		expect(lend({explicit: 'mine', selfUid: 1001, reached: []}).refused).toBe(
			'process 4242 listens on :18999 in another network namespace (a container?), not where rigtop connects; not sending your token',
		);
	});

	it('its own socket; a socket of its user when its fds are hidden; another’s; none', () => {
		expect(portHolder(processOf(bob), 18_999)).toEqual({kind: 'process'});
		const hidden = processOf(bob, {listening: null});
		expect(portHolder(hidden, 18_999)).toEqual({kind: 'same-user'});
		expect(portHolder(processOf(bob, {listening: null, listenRows: [{...hidden.listenRows[0]!, uid: 1002}]}), 18_999)).toEqual({
			kind: 'other',
			uid: 1002,
		});
		expect(portHolder(processOf(bob, {listening: []}), 18_999)).toEqual({kind: 'other', uid: 1001});
		expect(portHolder(processOf(bob, {listening: [], listenRows: []}), 18_999)).toEqual({kind: 'none'});
	});
});

describe('judgeLending', () => {
	it('the user’s token: to a process of the user or of root, not to another user’s', () => {
		expect(lend({explicit: 'mine', selfUid: 1001})).toEqual({send: 'explicit', refused: null});
		expect(lend({explicit: 'mine', process: processOf(root)})).toEqual({send: 'explicit', refused: null});
		expect(lend({explicit: 'mine', selfUid: 1000})).toEqual({
			send: null,
			refused: 'process 4242 of user bob listens on :18999; not sending your token',
		});
		// One id of another user is enough to refuse (a process started as root that set only its effective uid).
		const mixed = ids('Uid:\t0\t1001\t0\t1001\nGid:\t0\t0\t0\t0\nGroups:\t\n');
		expect(lend({explicit: 'mine', process: processOf(mixed)}).send).toBeNull();
	});

	it('the user’s token to another user’s process whose own readable config holds that same token (a dedicated xmrig user)', () => {
		const own = {token: 'mine', from: 'file' as const, path: '/home/xmrig/config.json', ownerReads: true};
		expect(lend({explicit: 'mine', selfUid: 1000, own})).toEqual({send: 'explicit', refused: null});
		expect(lend({explicit: 'mine', selfUid: 1000, own: {...own, ownerReads: false}}).send).toBeNull();
		expect(lend({explicit: 'mine', selfUid: 1000, own: {...own, token: 'other'}}).send).toBeNull();
		expect(lend({explicit: 'mine', selfUid: 1000, own: {token: 'mine', from: 'cmdline'}}).send).toBe('explicit');
	});

	it('a config file’s token only when its owner may read that file; a command line’s token is its own', () => {
		const own = {token: 'theirs', from: 'file' as const, path: '/root/secret.json', ownerReads: false};
		expect(lend({own})).toEqual({
			send: null,
			refused: 'process 4242 of user bob names /root/secret.json, which its user cannot read; not lending the token in it',
		});
		expect(lend({own: {...own, ownerReads: true}})).toEqual({send: 'own', refused: null});
		expect(lend({own: {token: 'cli', from: 'cmdline'}})).toEqual({send: 'own', refused: null});
		// One no HTTP header can carry is said on its row, not a reason to stop watching every miner.
		expect(lend({own: {token: 'tok\u001B]0;x\u0007', from: 'cmdline'}})).toEqual({
			send: null,
			refused: "process 4242's token holds characters an HTTP header cannot carry (printable ASCII only); not sending it",
		});
		expect(lend({})).toEqual({send: null, refused: null});
	});

	it('no token to a port the process does not hold, or that no process rigtop sees holds', () => {
		const own = {token: 'cli', from: 'cmdline' as const};
		const stranger = lend({own, process: processOf(bob, {listening: [], listenRows: [{...processOf(bob).listenRows[0]!, uid: 1002}]})});
		expect(stranger).toEqual({send: null, refused: ':18999 is held by a socket of uid 1002, not by process 4242; not sending its token'});
		const hidden = lend({explicit: 'mine', selfUid: 1001, process: processOf(bob, {listening: null, listenRows: []})});
		expect(hidden.send).toBeNull();
		expect(hidden.refused).toMatch(
			/^rigtop sees no socket listening on :18999 \(hidden from it, or in another namespace\); not sending your token/,
		);
	});

	it('names a user from passwd, else by uid', () => {
		expect(userNameOf('root:x:0:0:root:/root:/bin/sh\nbob:x:1001:1001::/home/bob:/bin/sh\n', 1001)).toBe('user bob');
		expect(userNameOf('root:x:0:0:root:/root:/bin/sh\n', 1001)).toBe('uid 1001');
		expect(userNameOf(null, 7)).toBe('uid 7');
	});
});

describe('discovery over a fake /proc with processes of other users', () => {
	let work: string;
	let fake: FakeProc | null = null;
	beforeEach(async () => {
		work = await mkdtemp(path.join(tmpdir(), 'rigtop-lending-'));
		await chmod(work, 0o755);
		await writeFile(path.join(work, 'passwd'), 'root:x:0:0:root:/root:/bin/sh\nbob:x:1002:1002::/home/bob:/bin/sh\n');
	});
	afterEach(async () => {
		await fake?.remove();
		fake = null;
		await rm(work, {recursive: true, force: true});
	});

	async function discover(processes: readonly FakeProcess[], sockets: readonly FakeSocket[], input: DiscoveryInput) {
		fake = await makeFakeProc(processes, sockets);
		return resolveTargets({
			homeDir: path.join(work, 'home'),
			cwd: work,
			passwdPath: path.join(work, 'passwd'),
			selfUid: 1000,
			procRoot: fake.root,
			...input,
		});
	}

	async function config(name: string, token: string, mode: number): Promise<string> {
		const dir = path.join(work, 'etc');
		await mkdir(dir, {recursive: true});
		const file = path.join(dir, name);
		const body = {http: {enabled: true, host: '127.0.0.1', port: 18_999, 'access-token': token}, pools: [{url: 'pool:3333'}]};
		await writeFile(file, JSON.stringify(body), {mode});
		await chmod(file, mode);
		return file;
	}

	const impostor = (argv: string[]): FakeProcess => ({
		pid: 4242,
		comm: 'xmrig',
		argv,
		exe: '/usr/bin/python3',
		cwd: '/',
		uid: 1002,
		socketInodes: [7],
	});
	const socket: FakeSocket = {address: '127.0.0.1', port: 18_999, inode: 7, uid: 1002};

	it('the user’s token is not sent to another user’s process; it is listed, with why, in --where too', async () => {
		const tokenFile = path.join(work, 'tok.txt');
		await writeFile(tokenFile, 'users-token\n', {mode: 0o600});
		const result = await discover([impostor(['xmrig', '--http-port=18999'])], [socket], {tokenFile});
		expect(result.targets).toMatchObject([{url: 'http://127.0.0.1:18999', token: null}]);
		const why = 'process 4242 of user bob listens on :18999; not sending your token';
		expect(result.warnings).toContain(why);
		expect(result.targets[0]?.notes).toContain(why);
		expect(formatWhere(result)).toContain(`    token    not sent: ${why}`);
		// Not sent, so no talk of the 401 a token would get from a miner that sets none.
		expect(result.warnings.join('\n')).not.toMatch(/sets no access token/);
	});

	it('a root-only config named by another user’s process lends it nothing, with a URL given or not', async () => {
		const secret = await config('secret.json', 'root-secret', 0o600);
		for (const urls of [[], ['127.0.0.1:18999']]) {
			const result = await discover([impostor(['xmrig', `--config=${secret}`])], [socket], {urls});
			expect(result.targets).toMatchObject([{url: 'http://127.0.0.1:18999', token: null}]);
			expect(result.warnings).toContain(
				`process 4242 of user bob names ${secret}, which its user cannot read; not lending the token in it`,
			);
			await fake?.remove();
			fake = null;
		}
	});

	it('a process whose own token no HTTP header can carry is listed without it; discovery goes on for the others', async () => {
		const hostile = {...impostor(['xmrig', '--http-port=18999', '--http-access-token=tok\u001B[2J\u009B31m']), uid: 1000};
		const plain: FakeProcess = {
			...impostor(['xmrig', '--http-port=18998', '--http-access-token=plain']),
			pid: 4243,
			uid: 1000,
			socketInodes: [8],
		};
		const result = await discover(
			[hostile, plain],
			[
				{...socket, uid: 1000},
				{address: '127.0.0.1', port: 18_998, inode: 8, uid: 1000},
			],
			{},
		);
		expect(result.targets).toMatchObject([
			{url: 'http://127.0.0.1:18998', token: 'plain'},
			{url: 'http://127.0.0.1:18999', token: null},
		]);
		expect(result.warnings.join('\n')).toMatch(/process 4242's token holds characters an HTTP header cannot carry/);
	});

	it('a dedicated user’s miner whose own readable config holds the user’s token gets it', async () => {
		const own = await config('xmrig.json', 'shared-token', 0o644);
		const result = await discover([impostor(['xmrig', '-c', own])], [socket], {tokenEnv: 'shared-token'});
		expect(result.targets).toMatchObject([{url: 'http://127.0.0.1:18999', token: 'shared-token', provenance: {token: {kind: 'env'}}}]);
	});

	it('an address given without a token: not the token of a miner that listens on that port at another address', async () => {
		const tokenFile = path.join(work, 'tok.txt');
		await writeFile(tokenFile, 'users-token\n', {mode: 0o600});
		const miner: FakeProcess = {
			pid: 500,
			comm: 'xmrig',
			argv: ['xmrig', '--http-host=192.168.1.5', '--http-port=18999', '--http-access-token=miners-token'],
			exe: '/opt/xmrig/xmrig',
			cwd: '/',
			uid: 1000,
			socketInodes: [50],
		};
		const sockets = [{address: '192.168.1.5', port: 18_999, inode: 50, uid: 1000}, socket];
		const borrowed = await discover([miner, impostor(['python3', 'grab.py'])], sockets, {urls: ['127.0.0.1:18999']});
		expect(borrowed.targets).toMatchObject([{url: 'http://127.0.0.1:18999', token: null}]);
		expect(borrowed.warnings).toContain('127.0.0.1:18999 is held by a socket of uid 1002, not by process 500; not sending its token');
		// Found by itself, at its own address, it has its own token.
		await fake?.remove();
		const own = await discover([miner], sockets.slice(0, 1), {});
		expect(own.targets).toMatchObject([{url: 'http://192.168.1.5:18999', token: 'miners-token'}]);
	});

	it('an address given without a token: the process seen holding it lends, not one that only says that port', async () => {
		const cli = (pid: number, uid: number, token: string, hideFds: boolean): FakeProcess => ({
			pid,
			comm: 'xmrig',
			argv: ['xmrig', '--http-port=18999', `--http-access-token=${token}`],
			exe: '/opt/xmrig/xmrig',
			cwd: '/',
			uid,
			socketInodes: [pid],
			hideFds,
		});
		const result = await asUnprivileged(async () =>
			discover(
				[cli(100, 1002, 'says-token', true), cli(200, 1000, 'holds-token', false)],
				[{address: '127.0.0.1', port: 18_999, inode: 200, uid: 1000}],
				{
					urls: ['127.0.0.1:18999'],
				},
			),
		);
		expect(result.targets).toMatchObject([{url: 'http://127.0.0.1:18999', token: 'holds-token'}]);
	});

	it('an address and a token both given: sent as today, whoever listens there', async () => {
		const result = await discover([impostor(['xmrig', '--http-port=18999'])], [socket], {urls: ['127.0.0.1:18999'], tokenEnv: 'mine'});
		expect(result.targets).toMatchObject([{url: 'http://127.0.0.1:18999', token: 'mine'}]);
	});
});
