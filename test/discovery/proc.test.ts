import {afterEach, describe, expect, it} from 'vitest';
import {decodeProcAddress, looksLikeXmrig, parseProcNetTcp, scanXmrigProcesses, splitCmdline} from '../../source/discovery/proc.js';
import {asUnprivileged, makeFakeProc, netTcpText, type FakeProc} from './fake-proc.js';

// Tables in the kernel's format; the two LISTEN rows of REAL_TCP were captured from a real little-endian kernel.
const REAL_TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1060 1 000000005d64ba2c 100 0 0 10 0
   1: 0100007F:A013 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 9576 1 0000000050abf8eb 100 0 0 10 0
   2: 0100007F:A013 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 9601 1 0000000050abf8eb 20 4 30 10 -1
`;
const REAL_TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:46A8 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 777 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000001000000:46A9 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 778 1 0000000000000000 100 0 0 10 0
   2: 0000000000000000FFFF00000100007F:46AA 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 779 1 0000000000000000 100 0 0 10 0
`;

describe('/proc/net/tcp parsing', () => {
	it('reads IPv4 rows: little-endian addresses, hex ports, state, uid, inode', () => {
		expect(parseProcNetTcp(REAL_TCP, 4, 'LE')).toEqual([
			{family: 4, address: '0.0.0.0', port: 2024, state: 0x0a, uid: 0, inode: 1060},
			{family: 4, address: '127.0.0.1', port: 40_979, state: 0x0a, uid: 0, inode: 9576},
			{family: 4, address: '127.0.0.1', port: 40_979, state: 0x01, uid: 1000, inode: 9601},
		]);
	});

	it('reads IPv6 rows: ::, ::1 and IPv4-mapped', () => {
		expect(parseProcNetTcp(REAL_TCP6, 6, 'LE').map((row) => [row.address, row.port, row.inode])).toEqual([
			['::', 18_088, 777],
			['::1', 18_089, 778],
			['::ffff:127.0.0.1', 18_090, 779],
		]);
	});

	it('big-endian kernels print addresses in network order', () => {
		expect(decodeProcAddress('7F000001', 'BE')).toBe('127.0.0.1');
		expect(decodeProcAddress('00000000000000000000000000000001', 'BE')).toBe('::1');
		expect(decodeProcAddress('0100007F', 'LE')).toBe('127.0.0.1');
		expect(decodeProcAddress('nothex', 'LE')).toBeNull();
	});

	it('skips the header, blank and malformed lines', () => {
		expect(parseProcNetTcp('garbage\n\n  7: zz:zz\n', 4, 'LE')).toEqual([]);
	});

	it('round-trips the fake tree writer', () => {
		const text = netTcpText([{address: '192.168.1.20', port: 18_088, inode: 5, uid: 1001}], 4);
		expect(parseProcNetTcp(text, 4, 'LE')).toEqual([{family: 4, address: '192.168.1.20', port: 18_088, state: 0x0a, uid: 1001, inode: 5}]);
	});
});

describe('recognising XMRig processes', () => {
	it('by comm, exe or argv[0], but not by files that mention xmrig', () => {
		expect(looksLikeXmrig({comm: 'xmrig', argv: ['/usr/bin/node', './xmrig'], exe: '/usr/bin/node'})).toBe(true);
		// Node 24 renames its main thread: the kernel name no longer says xmrig, the script still does.
		expect(looksLikeXmrig({comm: 'MainThread', argv: ['/opt/node24/bin/node', './xmrig'], exe: '/opt/node24/bin/node'})).toBe(true);
		expect(looksLikeXmrig({comm: 'MainThread', argv: ['/opt/node24/bin/node', 'server.js', 'xmrig'], exe: '/opt/node24/bin/node'})).toBe(
			false,
		);
		expect(looksLikeXmrig({comm: 'randomx-worker', argv: ['./xmrig-6.26.0/xmrig'], exe: null})).toBe(true);
		expect(looksLikeXmrig({comm: 'x', argv: [], exe: '/opt/XMRig/xmrig-notls (deleted)'})).toBe(true);
		expect(looksLikeXmrig({comm: 'tail', argv: ['tail', '-f', 'xmrig.log'], exe: '/usr/bin/tail'})).toBe(false);
		expect(looksLikeXmrig({comm: 'start-xmrig.sh', argv: ['/bin/sh', './start-xmrig.sh'], exe: '/bin/dash'})).toBe(false);
		expect(looksLikeXmrig({comm: 'vim', argv: ['vim', '/etc/xmrig/config.json'], exe: '/usr/bin/vim'})).toBe(false);
	});

	it('splits NUL-separated command lines', () => {
		expect(splitCmdline(Buffer.from('xmrig\0-c\0/a b.json\0'))).toEqual(['xmrig', '-c', '/a b.json']);
		expect(splitCmdline('')).toEqual([]);
	});
});

describe('scanning a /proc tree', () => {
	let fake: FakeProc | null = null;
	afterEach(async () => {
		await fake?.remove();
		fake = null;
	});

	it('finds XMRig processes with their cwd, exe, uid and only their own listening sockets', async () => {
		fake = await makeFakeProc(
			[
				{pid: 101, comm: 'sshd', argv: ['sshd: /usr/sbin/sshd -D'], exe: '/usr/sbin/sshd', cwd: '/', socketInodes: [900]},
				{
					pid: 4242,
					comm: 'xmrig',
					argv: ['./xmrig', '-c', 'config.json'],
					exe: '/opt/xmrig/xmrig (deleted)',
					cwd: '/opt/xmrig',
					uid: 1001,
					socketInodes: [500, 501, 502],
				},
			],
			[
				{address: '0.0.0.0', port: 22, inode: 900},
				{address: '127.0.0.1', port: 18_088, inode: 500, uid: 1001},
				{address: '0:0:0:0:0:0:0:0', port: 18_088, inode: 501, uid: 1001},
				{address: '10.0.0.5', port: 40_000, inode: 502, state: 0x01, uid: 1001}, // an outgoing pool connection
			],
		);
		const scan = await scanXmrigProcesses({procRoot: fake.root, endianness: 'LE'});
		expect(scan.available).toBe(true);
		expect(scan.scanned).toBe(3);
		expect(scan.processes).toEqual([
			{
				pid: 4242,
				comm: 'xmrig',
				argv: ['./xmrig', '-c', 'config.json'],
				exe: '/opt/xmrig/xmrig',
				cwd: '/opt/xmrig',
				uid: 1001,
				credentials: {uid: 1001, euid: 1001, suid: 1001, fsuid: 1001, gid: 1001, egid: 1001, fsgid: 1001, groups: []},
				listenRows: [
					{family: 4, address: '0.0.0.0', port: 22, state: 0x0a, uid: 0, inode: 900},
					{family: 4, address: '127.0.0.1', port: 18_088, state: 0x0a, uid: 1001, inode: 500},
					{family: 6, address: '::', port: 18_088, state: 0x0a, uid: 1001, inode: 501},
				],
				listening: [
					{family: 4, address: '127.0.0.1', port: 18_088, inode: 500},
					{family: 6, address: '::', port: 18_088, inode: 501},
				],
				listeningByOwner: null,
				notes: [],
			},
		]);
	});

	it('leaves out its own pid', async () => {
		fake = await makeFakeProc([{pid: 77, comm: 'xmrig', argv: ['xmrig'], exe: '/x/xmrig', cwd: '/'}]);
		expect((await scanXmrigProcesses({procRoot: fake.root, selfPid: 77})).processes).toEqual([]);
	});

	it("another user's process: fd unreadable → a note and the sockets its user owns as a guess", async () => {
		fake = await makeFakeProc(
			[
				{
					pid: 555,
					comm: 'xmrig',
					argv: ['/home/miner/xmrig'],
					exe: '/home/miner/xmrig',
					cwd: '/home/miner',
					uid: 1002,
					socketInodes: [610],
					hideFds: true,
				},
			],
			[
				{address: '127.0.0.1', port: 37_001, inode: 610, uid: 1002},
				{address: '0.0.0.0', port: 80, inode: 611, uid: 0},
			],
		);
		const root = fake.root;
		const scan = await asUnprivileged(() => scanXmrigProcesses({procRoot: root, endianness: 'LE'}));
		const [miner] = scan.processes;
		expect(miner?.listening).toBeNull();
		expect(miner?.listeningByOwner).toEqual([{family: 4, address: '127.0.0.1', port: 37_001, inode: 610}]);
		expect(miner?.notes.join(' ')).toMatch(/belongs to another user/);
	});

	it('no /proc at all (not Linux): unavailable, not an error', async () => {
		const scan = await scanXmrigProcesses({procRoot: '/definitely/not/here'});
		expect(scan).toEqual({procRoot: '/definitely/not/here', available: false, scanned: 0, processes: [], ownListenRows: null});
	});
});
