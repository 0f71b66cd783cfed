/**
 * Finds XMRig processes on this machine from a Linux /proc tree (the root is injectable, so tests
 * build fake trees): their command line, working directory, binary, owner (uids, gids, groups), and the TCP ports they
 * really listen on (socket inodes from `fd/*` matched against `net/tcp` and `net/tcp6` rows in state
 * LISTEN). Processes of other users often hide their `fd` directory: that is noted, never an error.
 */

import {readFileSync, readlinkSync} from 'node:fs';
import {readdir, readFile, readlink} from 'node:fs/promises';
import {endianness as hostEndianness} from 'node:os';
import path from 'node:path';
import {parseTcpTable} from '../sensors/proc.js';
import {normalizeIpv6} from './address.js';

export type Endianness = 'LE' | 'BE';

/** One row of /proc/net/tcp or tcp6. */
export type TcpRow = {
	readonly family: 4 | 6;
	/** Local address, IPv4 dotted or compressed IPv6 (no brackets). */
	readonly address: string;
	readonly port: number;
	/** Kernel TCP state; 0x0A is LISTEN. */
	readonly state: number;
	readonly uid: number;
	readonly inode: number;
};

export type ListeningSocket = {
	readonly family: 4 | 6;
	readonly address: string;
	readonly port: number;
	readonly inode: number;
};

export type ProcProcess = {
	readonly pid: number;
	/** /proc/PID/comm (the kernel's 15-character name). */
	readonly comm: string | null;
	/** /proc/PID/cmdline split at NULs; empty when unreadable. */
	readonly argv: readonly string[];
	/** The binary (readlink exe), without a " (deleted)" suffix; null when unreadable. */
	readonly exe: string | null;
	/** The working directory (readlink cwd); null when unreadable. */
	readonly cwd: string | null;
	/** Real uid from /proc/PID/status. */
	readonly uid: number | null;
	/** Its uids, gids and supplementary groups from /proc/PID/status; null when unreadable. */
	readonly credentials: Credentials | null;
	/**
	 * Every TCP socket in LISTEN state in the process's network namespace (its own or not), with the uid that owns it:
	 * who holds a port when the process's own sockets cannot be seen (lending.ts).
	 */
	readonly listenRows: readonly TcpRow[];
	/** Its listening TCP sockets; null when its `fd` directory cannot be read (another user's process). */
	readonly listening: readonly ListeningSocket[] | null;
	/**
	 * Only when `listening` is null and the owner is not root: listening sockets owned by the same
	 * user in the process's network namespace — a likely guess, not proof.
	 */
	readonly listeningByOwner: readonly ListeningSocket[] | null;
	/** Why something could not be read, in plain words. */
	readonly notes: readonly string[];
};

/** A process's identity from /proc/PID/status (`Uid:`/`Gid:` real, effective, saved, filesystem; `Groups:`). */
export type Credentials = {
	readonly uid: number;
	readonly euid: number;
	readonly suid: number;
	/** The uid the kernel checks file permissions against (it follows the effective uid unless setfsuid() changed it). */
	readonly fsuid: number;
	readonly gid: number;
	readonly egid: number;
	readonly fsgid: number;
	/** Supplementary groups; empty when the `Groups:` line is missing or empty. */
	readonly groups: readonly number[];
};

export type ProcScan = {
	readonly procRoot: string;
	/** Whether the /proc root could be listed at all (false on non-Linux systems). */
	readonly available: boolean;
	/** How many processes were looked at. */
	readonly scanned: number;
	/** The XMRig-looking ones. */
	readonly processes: readonly ProcProcess[];
	/**
	 * The LISTEN sockets of rigtop's own network namespace (`net/tcp*` at the root: /proc/net is /proc/self/net), where
	 * its connections go; null when the root has none (a fake tree). A process in another namespace holds none of them.
	 */
	readonly ownListenRows: readonly TcpRow[] | null;
};

export type ScanOptions = {
	/** Default '/proc'. */
	readonly procRoot?: string;
	/** A pid to leave out (rigtop's own). */
	readonly selfPid?: number;
	/** Byte order the kernel printed addresses in; default this machine's. */
	readonly endianness?: Endianness;
};

const LISTEN = 0x0a;
const BATCH = 64;

/** Base names that mention xmrig but are files, not the miner (`tail -f xmrig.log`, `start-xmrig.sh`). */
const NOT_A_BINARY = /\.(?:sh|bash|zsh|log|json|jsonc|txt|conf|cfg|ini|service|timer|py|pl|rb|md|ya?ml|tar|gz|zip|xz)$/i;

/** Whether a path's base name names xmrig (and is not a script, log or config file). */
export function mentionsXmrig(file: string | null | undefined): boolean {
	if (!file) return false;
	const base = path.posix.basename(file);
	return /xmrig/i.test(base) && !NOT_A_BINARY.test(base);
}

const INTERPRETER = /^(?:node|nodejs|sh|bash|dash|python\d*(?:\.\d+)?|perl)$/;

/**
 * Whether a process is an XMRig miner (or proxy): its kernel name, its binary, or its argv[0] names
 * xmrig. A script run by an interpreter shows up by its kernel name (a `#!` script named xmrig) —
 * unless the interpreter renames its main thread (Node 24 calls it "MainThread"), so a script named
 * xmrig run by a known interpreter counts too.
 */
export function looksLikeXmrig(process: {
	readonly comm: string | null;
	readonly argv: readonly string[];
	readonly exe: string | null;
}): boolean {
	if (mentionsXmrig(process.comm) || mentionsXmrig(process.exe) || mentionsXmrig(process.argv[0])) return true;
	const interpreter = path.posix.basename(process.argv[0] ?? '');
	return INTERPRETER.test(interpreter) && mentionsXmrig(process.argv[1]);
}

/**
 * Whether an XMRig process is xmrig-proxy: its argv[0], binary or kernel name says "proxy" (xmrig-proxy); a script
 * run by an interpreter, by its script's name.
 */
export function isProxyProcess(process: {
	readonly comm: string | null;
	readonly argv: readonly string[];
	readonly exe: string | null;
}): boolean {
	const interpreter = INTERPRETER.test(path.posix.basename(process.argv[0] ?? ''));
	const names = [interpreter ? process.argv[1] : process.argv[0], process.exe, process.comm];
	const named = names.find((name) => name !== undefined && name !== null && mentionsXmrig(name));
	return named !== undefined && named !== null && /proxy/i.test(path.posix.basename(named));
}

/** Decodes a /proc/net/tcp(6) hex address: IPv4 is one 32-bit word, IPv6 four, each in host byte order. */
export function decodeProcAddress(hex: string, byteOrder: Endianness = hostEndianness()): string | null {
	if (!/^(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{32})$/.test(hex)) return null;
	const bytes: number[] = [];
	for (let word = 0; word < hex.length; word += 8) {
		const wordBytes = [0, 2, 4, 6].map((offset) => Number.parseInt(hex.slice(word + offset, word + offset + 2), 16));
		bytes.push(...(byteOrder === 'LE' ? wordBytes.reverse() : wordBytes));
	}
	if (bytes.length === 4) return bytes.join('.');
	const groups: string[] = [];
	for (let index = 0; index < 16; index += 2) groups.push((((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0)).toString(16));
	return normalizeIpv6(groups.join(':'));
}

/** Parses the text of /proc/net/tcp (family 4) or /proc/net/tcp6 (family 6). Bad rows are skipped. */
export function parseProcNetTcp(text: string, family: 4 | 6, byteOrder: Endianness = hostEndianness()): TcpRow[] {
	return parseTcpTable(text, family).flatMap(({addressHex, port, state, uid, inode}) => {
		const address = decodeProcAddress(addressHex, byteOrder);
		return address === null ? [] : [{family, address, port, state, uid, inode}];
	});
}

function errorCode(error: unknown): string | undefined {
	return (error as NodeJS.ErrnoException | undefined)?.code;
}

function isDenied(error: unknown): boolean {
	const code = errorCode(error);
	return code === 'EACCES' || code === 'EPERM';
}

async function readText(file: string): Promise<string | null> {
	try {
		return await readFile(file, 'utf8');
	} catch {
		return null;
	}
}

function readTextSync(file: string): string | null {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return null;
	}
}

function readBytesSync(file: string): Buffer | null {
	try {
		return readFileSync(file);
	} catch {
		return null;
	}
}

function readLinkSync(file: string): string | null {
	try {
		return readlinkSync(file);
	} catch {
		return null;
	}
}

async function readLink(file: string): Promise<string | null> {
	try {
		return await readlink(file);
	} catch {
		return null;
	}
}

/** The socket inodes among a process's open files; null when its fd directory is not readable. */
async function socketInodes(fdDir: string): Promise<{inodes: Set<number>; denied: boolean}> {
	let names: string[];
	try {
		names = await readdir(fdDir);
	} catch (error) {
		return {inodes: new Set(), denied: isDenied(error)};
	}
	const inodes = new Set<number>();
	let denied = false;
	for (const name of names) {
		try {
			const target = await readlink(path.join(fdDir, name));
			const match = /^socket:\[(\d+)\]$/.exec(target);
			if (match?.[1]) inodes.add(Number.parseInt(match[1], 10));
		} catch (error) {
			if (isDenied(error)) denied = true; // a closed fd (ENOENT) is normal; a refused one is not
		}
	}
	return {inodes, denied: denied && inodes.size === 0};
}

async function tcpRows(pidDir: string, byteOrder: Endianness): Promise<TcpRow[]> {
	const [tcp, tcp6] = await Promise.all([readText(path.join(pidDir, 'net', 'tcp')), readText(path.join(pidDir, 'net', 'tcp6'))]);
	return [...parseProcNetTcp(tcp ?? '', 4, byteOrder), ...parseProcNetTcp(tcp6 ?? '', 6, byteOrder)];
}

function toSocket(row: TcpRow): ListeningSocket {
	return {family: row.family, address: row.address, port: row.port, inode: row.inode};
}

function parseUid(status: string | null): number | null {
	const match = /^Uid:\s+(\d+)/m.exec(status ?? '');
	return match?.[1] ? Number.parseInt(match[1], 10) : null;
}

/** The ids of a /proc/PID/status text; null without a `Uid:` line. A missing `Gid:` line counts as no group (-1). */
export function parseCredentials(status: string | null): Credentials | null {
	const ids = (name: string): number[] | null => {
		const match = new RegExp(`^${name}:[ \\t]*([0-9 \\t]*)$`, 'm').exec(status ?? '');
		if (!match) return null;
		return (match[1] ?? '')
			.trim()
			.split(/\s+/)
			.filter((field) => field !== '')
			.map((field) => Number.parseInt(field, 10));
	};
	const uids = ids('Uid');
	if (uids === null || uids.length === 0) return null;
	const gids = ids('Gid') ?? [];
	const [uid = -1, euid = uid, suid = euid, fsuid = euid] = uids;
	const [gid = -1, egid = gid, , fsgid = egid] = gids;
	return {uid, euid, suid, fsuid, gid, egid, fsgid, groups: ids('Groups') ?? []};
}

/** Reads everything discovery needs about one process that looks like XMRig. */
async function inspect(procRoot: string, pid: number, comm: string | null, argv: string[], byteOrder: Endianness): Promise<ProcProcess> {
	const pidDir = path.join(procRoot, String(pid));
	const [exeLink, cwd, status, sockets] = await Promise.all([
		readLink(path.join(pidDir, 'exe')),
		readLink(path.join(pidDir, 'cwd')),
		readText(path.join(pidDir, 'status')),
		socketInodes(path.join(pidDir, 'fd')),
	]);
	const exe = exeLink?.replace(/ \(deleted\)$/, '') ?? null;
	const uid = parseUid(status);
	const credentials = parseCredentials(status);
	const notes: string[] = [];
	const rows = (await tcpRows(pidDir, byteOrder)).filter((row) => row.state === LISTEN);
	let listening: ListeningSocket[] | null = null;
	let listeningByOwner: ListeningSocket[] | null = null;
	if (sockets.denied) {
		notes.push(
			`rigtop may not look at the open sockets of process ${pid} (it belongs to another user), so its listening port is a guess at best; ` +
				'run rigtop as the same user (or root), or pass the URL',
		);
		if (uid !== null && uid !== 0) listeningByOwner = rows.filter((row) => row.uid === uid).map(toSocket);
	} else {
		listening = rows.filter((row) => sockets.inodes.has(row.inode)).map(toSocket);
	}
	if (cwd === null) notes.push(`the working directory of process ${pid} is not readable, so a relative -c path cannot be followed`);
	return {pid, comm, argv, exe, cwd, uid, credentials, listenRows: rows, listening, listeningByOwner, notes};
}

/** Scans a /proc tree for XMRig processes. Never throws: an absent /proc gives `available: false`. */
export async function scanXmrigProcesses(options: ScanOptions = {}): Promise<ProcScan> {
	const procRoot = options.procRoot ?? '/proc';
	const byteOrder = options.endianness ?? hostEndianness();
	let entries: string[];
	try {
		entries = await readdir(procRoot);
	} catch {
		return {procRoot, available: false, scanned: 0, processes: [], ownListenRows: null};
	}
	const pids = entries
		.filter((name) => /^\d+$/.test(name))
		.map(Number)
		.filter((pid) => pid !== options.selfPid)
		.sort((a, b) => a - b);
	const processes: ProcProcess[] = [];
	let scanned = 0;
	// The three small files of every process are read synchronously: /proc answers from kernel memory, and a
	// thread-pool round trip per file cost several times the read itself (14 ms against 2.5 ms for a scan).
	const candidates: {pid: number; comm: string | null; argv: string[]}[] = [];
	for (const pid of pids) {
		const pidDir = path.join(procRoot, String(pid));
		const commText = readTextSync(path.join(pidDir, 'comm'));
		const cmdline = readBytesSync(path.join(pidDir, 'cmdline'));
		if (commText === null && cmdline === null) continue; // gone meanwhile
		scanned++;
		const comm = commText === null ? null : commText.replace(/\n$/, '');
		const argv = cmdline === null ? [] : splitCmdline(cmdline);
		const exe = readLinkSync(path.join(pidDir, 'exe'))?.replace(/ \(deleted\)$/, '') ?? null;
		if (looksLikeXmrig({comm, argv, exe})) candidates.push({pid, comm, argv});
	}

	for (let start = 0; start < candidates.length; start += BATCH) {
		const batch = candidates.slice(start, start + BATCH);
		const found = await Promise.all(batch.map(async ({pid, comm, argv}) => inspect(procRoot, pid, comm, argv, byteOrder)));
		for (const process of found) if (process) processes.push(process);
	}
	const own = await Promise.all([readText(path.join(procRoot, 'net', 'tcp')), readText(path.join(procRoot, 'net', 'tcp6'))]);
	const ownListenRows =
		own[0] === null && own[1] === null
			? null
			: [...parseProcNetTcp(own[0] ?? '', 4, byteOrder), ...parseProcNetTcp(own[1] ?? '', 6, byteOrder)].filter(
					(row) => row.state === LISTEN,
				);
	return {procRoot, available: true, scanned, processes, ownListenRows};
}

/** /proc/PID/cmdline: NUL-separated, NUL-terminated. */
export function splitCmdline(raw: Uint8Array | string): string[] {
	const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
	const parts = text.split('\0');
	if (parts.at(-1) === '') parts.pop();
	return parts;
}
