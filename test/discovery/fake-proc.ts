/**
 * Builds fake /proc trees in a temp directory, in the kernel's own formats: NUL-separated cmdline,
 * comm with a newline, exe/cwd/fd symlinks (`socket:[INODE]` targets need not exist), status with
 * Uid, Gid and Groups lines, and net/tcp + net/tcp6 tables.
 */

import {chmod, mkdir, mkdtemp, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';

export type FakeSocket = {
	/** IPv4 dotted (tcp) or a full 8-group IPv6 address (tcp6). */
	readonly address: string;
	readonly port: number;
	readonly inode: number;
	/** Default 0x0A (LISTEN). */
	readonly state?: number;
	readonly uid?: number;
};

export type FakeProcess = {
	readonly pid: number;
	readonly comm: string;
	readonly argv: readonly string[];
	readonly exe?: string;
	readonly cwd?: string;
	readonly uid?: number;
	/** Its group (default: the same number as its uid) and supplementary groups (default none). */
	readonly gid?: number;
	readonly groups?: readonly number[];
	/** A `Uid:` line of four different ids (real, effective, saved, filesystem), instead of `uid` four times. */
	readonly uids?: readonly [number, number, number, number];
	/** Socket inodes the process holds (fd symlinks). */
	readonly socketInodes?: readonly number[];
	/** Make the fd directory unreadable (mode 000), like another user's process. */
	readonly hideFds?: boolean;
};

/** IPv4 as the kernel prints it on a little-endian machine: the 32-bit word in host order. */
export function ipv4Hex(address: string): string {
	return address
		.split('.')
		.map((part) => Number(part).toString(16).padStart(2, '0').toUpperCase())
		.reverse()
		.join('');
}

/** IPv6 (all 8 groups written out) as the kernel prints it on a little-endian machine. */
export function ipv6Hex(address: string): string {
	const bytes = address.split(':').flatMap((group) => {
		const value = Number.parseInt(group, 16);
		return [value >> 8, value & 0xff];
	});
	let hex = '';
	for (let word = 0; word < 16; word += 4) {
		hex += bytes
			.slice(word, word + 4)
			.reverse()
			.map((byte) => byte.toString(16).padStart(2, '0').toUpperCase())
			.join('');
	}
	return hex;
}

const HEADER_V4 =
	'  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode                                                     ';
const HEADER_V6 =
	'  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';

/** A net/tcp or net/tcp6 table in the kernel's format. */
export function netTcpText(sockets: readonly FakeSocket[], family: 4 | 6): string {
	const rows = sockets
		.filter((socket) => (family === 4 ? !socket.address.includes(':') : socket.address.includes(':')))
		.map((socket, index) => {
			const local = `${family === 4 ? ipv4Hex(socket.address) : ipv6Hex(socket.address)}:${socket.port.toString(16).toUpperCase().padStart(4, '0')}`;
			const remote = family === 4 ? '00000000:0000' : `${'0'.repeat(32)}:0000`;
			const state = (socket.state ?? 0x0a).toString(16).toUpperCase().padStart(2, '0');
			const uid = String(socket.uid ?? 0).padStart(5);
			return `${String(index).padStart(4)}: ${local} ${remote} ${state} 00000000:00000000 00:00000000 00000000 ${uid}        0 ${socket.inode} 1 0000000000000000 100 0 0 10 0`;
		});
	return [family === 4 ? HEADER_V4 : HEADER_V6, ...rows, ''].join('\n');
}

export type FakeProc = {readonly root: string; remove(): Promise<void>};

/**
 * Writes a fake /proc with the given processes (each gets the same network namespace tables, as
 * processes of one machine do) and some unrelated processes.
 */
export async function makeFakeProc(processes: readonly FakeProcess[], sockets: readonly FakeSocket[] = []): Promise<FakeProc> {
	const root = await mkdtemp(path.join(tmpdir(), 'rigtop-proc-'));
	await chmod(root, 0o755);
	for (const fake of processes) {
		const dir = path.join(root, String(fake.pid));
		await mkdir(path.join(dir, 'net'), {recursive: true});
		await writeFile(path.join(dir, 'comm'), `${fake.comm}\n`);
		await writeFile(path.join(dir, 'cmdline'), fake.argv.map((arg) => `${arg}\0`).join(''));
		const uid = fake.uid ?? 1000;
		const gid = fake.gid ?? uid;
		await writeFile(
			path.join(dir, 'status'),
			`Name:\t${fake.comm}\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t${(fake.uids ?? [uid, uid, uid, uid]).join('\t')}\n` +
				`Gid:\t${gid}\t${gid}\t${gid}\t${gid}\nFDSize:\t64\nGroups:\t${(fake.groups ?? []).join(' ')} \n`,
		);
		if (fake.exe !== undefined) await symlink(fake.exe, path.join(dir, 'exe'));
		if (fake.cwd !== undefined) await symlink(fake.cwd, path.join(dir, 'cwd'));
		const fdDir = path.join(dir, 'fd');
		await mkdir(fdDir);
		await symlink('/dev/null', path.join(fdDir, '0'));
		await symlink('pipe:[4242]', path.join(fdDir, '1'));
		await symlink('anon_inode:[eventpoll]', path.join(fdDir, '2'));
		for (const [index, inode] of (fake.socketInodes ?? []).entries())
			await symlink(`socket:[${inode}]`, path.join(fdDir, String(index + 10)));
		if (fake.hideFds) await chmod(fdDir, 0o000);
		await writeFile(path.join(dir, 'net', 'tcp'), netTcpText(sockets, 4));
		await writeFile(path.join(dir, 'net', 'tcp6'), netTcpText(sockets, 6));
	}
	// A kernel thread and a non-process entry, as in a real /proc.
	await mkdir(path.join(root, '2'));
	await writeFile(path.join(root, '2', 'comm'), 'kthreadd\n');
	await writeFile(path.join(root, '2', 'cmdline'), '');
	await writeFile(path.join(root, 'uptime'), '12345.67 2345.67\n');
	return {
		root,
		async remove() {
			for (const fake of processes) if (fake.hideFds) await chmod(path.join(root, String(fake.pid), 'fd'), 0o755).catch(() => undefined);
			await rm(root, {recursive: true, force: true});
		},
	};
}

/**
 * Runs `body` as an unprivileged user when the tests run as root (root reads any directory, so a
 * mode-000 fd directory would not stop it), restoring root afterwards. Files `body` needs must be
 * world-readable.
 */
export async function asUnprivileged<T>(body: () => Promise<T>): Promise<T> {
	const isRoot = typeof process.geteuid === 'function' && process.geteuid() === 0;
	if (!isRoot || typeof process.seteuid !== 'function') return body();
	process.seteuid(65_534);
	try {
		return await body();
	} finally {
		process.seteuid(0);
	}
}
