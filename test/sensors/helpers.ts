/**
 * The sysfs test trees (test/fixtures/sysfs/, real layouts) and writable copies of them for tests that change files;
 * fake /proc trees for finding a miner's process and its threads' CPUs.
 */
import {cpSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {ReadText} from '../../source/sensors/sysfs.js';

export const SYSFS_FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'sysfs');

export function fixture(name: string): string {
	return path.join(SYSFS_FIXTURES, name);
}

/** A writable copy of a tree; `write` changes one of its files ("class/powercap/intel-rapl:0/energy_uj"). */
export function treeCopy(name: string): {root: string; write(relative: string, text: string): void; cleanup(): void} {
	const root = mkdtempSync(path.join(tmpdir(), 'rigtop-sysfs-'));
	cpSync(fixture(name), root, {recursive: true});
	return {
		root,
		write: (relative, text) => writeFileSync(path.join(root, relative), `${text}\n`),
		cleanup: () => rmSync(root, {recursive: true, force: true}),
	};
}

/**
 * Reads as a user who is not root: a file no one but its owner may read (mode 0400, as energy_uj since 2020, or 0000)
 * is refused with EACCES even when the tests run as root (for whom the kernel would not stop the read).
 */
export const nonRootRead: ReadText = async (file) => {
	if ((statSync(file).mode & 0o004) === 0) {
		throw Object.assign(new Error(`EACCES: permission denied, open '${file}'`), {code: 'EACCES'});
	}

	return readFile(file, 'utf8');
};

/** A clock the test moves. */
export function manualNow(start = 1_700_000_000_000): {now: () => number; advance(ms: number): void} {
	let at = start;
	return {now: () => at, advance: (ms) => (at += ms)};
}

/** A `task/TID/stat` line as the kernel writes it: `utime` and `stime` (fields 14–15), last on `cpu` (field 39). */
export function threadStatLine(tid: number, name: string, cpu: number, utime: number, stime = 0): string {
	// Fields 3 to 52; index 0 is field 3 (state).
	const fields = Array.from({length: 50}, (_, index): string => (index === 0 ? 'S' : '0'));
	fields[14 - 3] = String(utime);
	fields[15 - 3] = String(stime);
	fields[39 - 3] = String(cpu);
	return `${tid} (${name}) ${fields.join(' ')}\n`;
}

/** One LISTEN row of /proc/net/tcp (IPv4) or tcp6 for this port and socket inode. */
function listenRow(index: number, family: 4 | 6, port: number, inode: number, state = '0A'): string {
	const address = family === 4 ? '0100007F' : '00000000000000000000000001000000';
	const remote = family === 4 ? '00000000:0000' : '00000000000000000000000000000000:0000';
	const portHex = port.toString(16).toUpperCase().padStart(4, '0');
	return `   ${index}: ${address}:${portHex} ${remote} ${state} 00000000:00000000 00:00000000 00000000  1000        0 ${inode} 1 0000000000000000 100 0 0 10 0\n`;
}

export type FakeProc = {
	readonly root: string;
	/** A socket on `port` in state LISTEN (or `state`, hex) in net/tcp or net/tcp6. */
	listen(port: number, inode: number, options?: {family?: 4 | 6; state?: string}): void;
	/** A process holding these socket inodes (and a plain file) with these threads: [cpu, ticks] each. */
	process(pid: number, sockets: readonly number[], threads: readonly (readonly [number, number])[]): void;
	/** The process exits. */
	exit(pid: number): void;
	cleanup(): void;
};

/** A fake /proc tree: net/tcp and net/tcp6, and processes with `fd` links and `task/TID/stat`. */
export function fakeProc(): FakeProc {
	const root = mkdtempSync(path.join(tmpdir(), 'rigtop-proc-'));
	const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
	const rows: Record<4 | 6, string[]> = {4: [], 6: []};
	mkdirSync(path.join(root, 'net'));
	const writeNet = () => {
		writeFileSync(path.join(root, 'net', 'tcp'), header + rows[4].join(''));
		writeFileSync(path.join(root, 'net', 'tcp6'), header + rows[6].join(''));
	};
	writeNet();
	return {
		root,
		listen(port, inode, options = {}) {
			const family = options.family ?? 4;
			rows[family].push(listenRow(rows[family].length, family, port, inode, options.state));
			writeNet();
		},
		process(pid, sockets, threads) {
			const dir = path.join(root, String(pid));
			mkdirSync(path.join(dir, 'fd'), {recursive: true});
			symlinkSync('/dev/null', path.join(dir, 'fd', '0'));
			sockets.forEach((inode, index) => symlinkSync(`socket:[${inode}]`, path.join(dir, 'fd', String(index + 3))));
			threads.forEach(([cpu, ticks], index) => {
				const tid = pid + index;
				mkdirSync(path.join(dir, 'task', String(tid)), {recursive: true});
				writeFileSync(path.join(dir, 'task', String(tid), 'stat'), threadStatLine(tid, index === 0 ? 'xmrig' : 'xmrig (w) 1', cpu, ticks));
			});
		},
		exit(pid) {
			rmSync(path.join(root, String(pid)), {recursive: true, force: true});
		},
		cleanup: () => rmSync(root, {recursive: true, force: true}),
	};
}
