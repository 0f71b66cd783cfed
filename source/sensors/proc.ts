/**
 * The miner's process as the sensor reader sees it, for the CPUs its threads last ran on when they are not pinned:
 * a /proc root (default /proc, RIGTOP_PROC or an option in tests), the process that listens on the miner's HTTP port
 * (the socket's inode in `net/tcp` and `net/tcp6`, found among the `fd` links of every process), and the CPU each of
 * its threads last ran on (`task/TID/stat`, field 39 "processor"). Reads never throw: what cannot be read is null.
 */
import {readdirSync, readlinkSync} from 'node:fs';
import {readdir, readFile} from 'node:fs/promises';
import path from 'node:path';

/** Where /proc is read: the option, else RIGTOP_PROC, else /proc. */
export function procRoot(option?: string): string {
	const root = option ?? process.env['RIGTOP_PROC'];
	return root === undefined || root === '' ? '/proc' : root;
}

const LISTEN = 0x0a;

/** One row of /proc/net/tcp or tcp6 as the kernel writes it, the local address still in hex (host byte order). */
export type RawTcpRow = {
	/** 8 hex digits (tcp) or 32 (tcp6). */
	readonly addressHex: string;
	readonly port: number;
	/** Kernel TCP state; 0x0A is LISTEN. */
	readonly state: number;
	readonly uid: number;
	readonly inode: number;
};

/**
 * The rows of /proc/net/tcp (family 4) or /proc/net/tcp6 (family 6); bad rows, and an address of the other family's
 * length, are skipped. Discovery decodes the addresses (discovery/proc.ts); the sampler needs only ports and inodes.
 */
export function parseTcpTable(text: string, family: 4 | 6): RawTcpRow[] {
	const rows: RawTcpRow[] = [];
	const addressShape = family === 4 ? /^[0-9A-Fa-f]{8}$/ : /^[0-9A-Fa-f]{32}$/;
	for (const line of text.split('\n')) {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
		const fields = line.trim().split(/\s+/);
		if (fields.length < 10 || !/^\d+:$/.test(fields[0] ?? '')) continue;
		const [addressHex = '', portHex] = (fields[1] ?? '').split(':');
		const port = Number.parseInt(portHex ?? '', 16);
		const state = Number.parseInt(fields[3] ?? '', 16);
		const uid = Number.parseInt(fields[7] ?? '', 10);
		const inode = Number.parseInt(fields[9] ?? '', 10);
		if (!addressShape.test(addressHex) || ![port, state, uid, inode].every(Number.isFinite)) continue;
		rows.push({addressHex, port, state, uid, inode});
	}
	return rows;
}

async function text(file: string): Promise<string | null> {
	try {
		return await readFile(file, 'utf8');
	} catch {
		return null;
	}
}

async function list(folder: string): Promise<string[] | null> {
	try {
		return await readdir(folder);
	} catch {
		return null;
	}
}

/** The inodes of the sockets listening on this TCP port (IPv4 and IPv6), from `net/tcp` and `net/tcp6`. */
export async function listeningInodes(root: string, port: number): Promise<Set<number>> {
	const [tcp, tcp6] = await Promise.all([text(path.join(root, 'net', 'tcp')), text(path.join(root, 'net', 'tcp6'))]);
	// A busy machine has thousands of connections: only the lines with the port in them are parsed.
	const portHex = `:${port.toString(16).toUpperCase().padStart(4, '0')} `;
	const withPort = (table: string | null) =>
		(table ?? '')
			.split('\n')
			.filter((line) => line.includes(portHex))
			.join('\n');
	const rows = [...parseTcpTable(withPort(tcp), 4), ...parseTcpTable(withPort(tcp6), 6)];
	return new Set(rows.filter((row) => row.state === LISTEN && row.port === port && row.inode > 0).map((row) => row.inode));
}

/**
 * Whether one of the process's open files is one of these sockets (false where its `fd` folder may not be read).
 * Synchronous, as discovery's scan of /proc: the kernel answers from memory, and a thread-pool round trip per link
 * cost several times the read itself.
 */
function holdsSocket(root: string, pid: string, inodes: ReadonlySet<number>): boolean {
	const fdDir = path.join(root, pid, 'fd');
	let names: string[];
	try {
		names = readdirSync(fdDir);
	} catch {
		return false;
	}
	for (const name of names) {
		let target: string;
		try {
			target = readlinkSync(path.join(fdDir, name));
		} catch {
			continue; // closed meanwhile, or refused
		}
		const match = /^socket:\[(\d+)\]$/.exec(target);
		if (match?.[1] && inodes.has(Number(match[1]))) return true;
	}
	return false;
}

/**
 * The process listening on this TCP port on this machine, or null: none, one rigtop may not look into (another
 * user's, unless rigtop runs as root), or `selfPid` (a miner simulated inside rigtop is not a miner's process).
 */
export async function listeningPid(root: string, port: number, selfPid: number): Promise<number | null> {
	const inodes = await listeningInodes(root, port);
	if (inodes.size === 0) return null;
	const pids = ((await list(root)) ?? []).filter((name) => /^\d+$/.test(name) && Number(name) !== selfPid);
	const found = pids.find((pid) => holdsSocket(root, pid, inodes));
	return found === undefined ? null : Number(found);
}

/** One thread's `stat`: the CPU it last ran on (field 39) and the CPU time it has used (utime + stime, fields 14–15). */
export type ThreadStat = {readonly cpu: number; readonly ticks: number};

/** Parses a `/proc/PID/task/TID/stat` line; null where it is not one. The name in parentheses may hold spaces and ")". */
export function parseThreadStat(line: string): ThreadStat | null {
	const close = line.lastIndexOf(')');
	if (close === -1) return null;
	// The fields after the name start at field 3 (state).
	const fields = line
		.slice(close + 1)
		.trim()
		.split(/\s+/);
	const [utime, stime, cpu] = [fields[14 - 3], fields[15 - 3], fields[39 - 3]];
	if (![utime, stime, cpu].every((field) => field !== undefined && /^\d+$/.test(field))) return null;
	return {cpu: Number(cpu), ticks: Number(utime) + Number(stime)};
}

/**
 * The CPUs the process's busiest threads last ran on, ascending: its `count` threads that used the most CPU time
 * (the mining threads, when the miner says how many it runs), else every thread that used at least a tenth of the
 * busiest one's. Null when the process is gone or its threads cannot be read.
 */
export async function threadCpus(root: string, pid: number, count: number | null): Promise<number[] | null> {
	const taskDir = path.join(root, String(pid), 'task');
	const tids = await list(taskDir);
	if (tids === null) return null;
	const stats = (await Promise.all(tids.map(async (tid) => text(path.join(taskDir, tid, 'stat')))))
		.map((line) => (line === null ? null : parseThreadStat(line)))
		.filter((stat) => stat !== null);
	if (stats.length === 0) return null;
	const busiest = stats.toSorted((a, b) => b.ticks - a.ticks);
	const most = busiest[0]?.ticks ?? 0;
	const working = count !== null && count > 0 ? busiest.slice(0, count) : busiest.filter((stat) => stat.ticks * 10 >= most);
	return [...new Set(working.map((stat) => stat.cpu))].sort((a, b) => a - b);
}
