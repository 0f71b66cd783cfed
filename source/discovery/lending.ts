/**
 * Which token goes to a miner that discovery found, rather than one the user named (issue 36, item 2). A process
 * whose name says "xmrig" may be anyone's: rigtop lends it a token only where that gives nobody a secret they
 * could not already read.
 * - A token from a config file goes only to the process that names the file (its command line or XMRig's search
 *   chain), only on a port it holds, and only when its owner may read that file itself.
 * - A token on a process's own command line is its own.
 * - The user's own token (--token-file, RIGTOP_TOKEN, --token) goes only to a process of the user running rigtop or
 *   of root, or to one whose own config (or command line) holds that same token, readable by its owner.
 * - A port no process rigtop can see holds (hidepid, another namespace, nothing listening yet) gets no token.
 * An address the user gives with a token is not judged here: the user named both (explicit-urls.ts).
 */
import {realpath, stat} from 'node:fs/promises';
import path from 'node:path';
import {sendableToken} from '../miner/client.js';
import type {Credentials, ProcProcess, TcpRow} from './proc.js';

/** What a permission check needs of a file or directory (fs.Stats has it). */
export type FileMode = {readonly uid: number; readonly gid: number; readonly mode: number};

/**
 * Whether a process with these ids passes the kernel's permission check for `want` (4 read, 1 search) on a file: the
 * owner's bits when its filesystem uid owns it, else the group's when its filesystem gid or a supplementary group is
 * the file's, else the others' (the classes do not add up: an owner without the owner bit is refused). Root (fsuid 0)
 * reads and searches anything (CAP_DAC_READ_SEARCH). The filesystem uid and gid are what open() is checked against;
 * they follow the effective ids, so this is how XMRig itself would open the file.
 */
export function permits(credentials: Credentials, file: FileMode, want: 4 | 1): boolean {
	if (credentials.fsuid === 0) return true;
	if (file.uid === credentials.fsuid) return ((file.mode >> 6) & want) === want;
	if (file.gid === credentials.fsgid || credentials.groups.includes(file.gid)) return ((file.mode >> 3) & want) === want;
	return (file.mode & want) === want;
}

/** Each directory above a path, from the root down (`/a/b/c.json`: `/`, `/a`, `/a/b`). */
function ancestors(file: string): string[] {
	const dirs: string[] = [];
	for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
		dirs.unshift(dir);
		if (path.dirname(dir) === dir) return dirs;
	}
}

/**
 * Whether a process with these ids could open `file` for reading: read permission on the file, and search permission
 * on every directory above it, both as the path is written and as it resolves (symbolic links). Anything rigtop cannot
 * stat counts as not readable. `statOf` is for tests.
 */
export async function mayReadFile(
	credentials: Credentials,
	file: string,
	statOf: (file: string) => Promise<FileMode> = stat,
): Promise<boolean> {
	try {
		const real = await realpath(file).catch(() => file);
		const dirs = [...new Set([...ancestors(file), ...ancestors(real)])];
		const modes = await Promise.all(dirs.map(async (dir) => statOf(dir)));
		if (!modes.every((mode) => permits(credentials, mode, 1))) return false;
		return permits(credentials, await statOf(real), 4);
	} catch {
		return false;
	}
}

/** Who holds a port, as far as rigtop can see. */
export type PortHolder =
	/** One of the process's own sockets (its fds). */
	| {readonly kind: 'process'}
	/** Its sockets cannot be seen, but a socket of its own user listens there (a guess, and nothing that user lacks). */
	| {readonly kind: 'same-user'}
	/** A socket of another user, or (its sockets seen) of another process. */
	| {readonly kind: 'other'; readonly uid: number}
	/** Its own socket, but in another network namespace than rigtop's: rigtop's connection goes elsewhere. */
	| {readonly kind: 'elsewhere'}
	/** No listening socket rigtop can see. */
	| {readonly kind: 'none'};

/**
 * Whether a socket bound to `address` answers a connection to `host` (the URL's, brackets dropped): the same address,
 * or a wildcard (0.0.0.0 for IPv4; :: for both, Linux's default); `localhost` as 127.0.0.1 or ::1.
 */
export function answers(address: string, host: string | undefined): boolean {
	if (host === undefined) return true;
	const wanted = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
	const names = wanted === 'localhost' ? ['127.0.0.1', '::1'] : [wanted];
	return names.some(
		(name) => address === name || address === '::' || address === `::ffff:${name}` || (address === '0.0.0.0' && !name.includes(':')),
	);
}

/**
 * Who holds `port` at `host` (any address when not given) for a connection from rigtop: among `reached`, the LISTEN
 * sockets of rigtop's own network namespace (scanXmrigProcesses' ownListenRows), else — not known — the process's.
 */
export function portHolder(process: ProcProcess, port: number, host?: string, reached?: readonly TcpRow[] | null): PortHolder {
	const rows = (reached ?? process.listenRows).filter((row) => row.port === port && answers(row.address, host));
	const own = process.listening?.filter((socket) => socket.port === port && answers(socket.address, host)) ?? [];
	if (own.some((socket) => rows.some((row) => row.inode === socket.inode))) return {kind: 'process'};
	if (own.length > 0) return {kind: 'elsewhere'};
	const first = rows[0];
	if (first === undefined) return {kind: 'none'};
	const owner = process.credentials?.euid ?? process.uid;
	if (process.listening === null && owner !== null && rows.every((row) => row.uid === owner)) return {kind: 'same-user'};
	return {kind: 'other', uid: rows.find((row) => row.uid !== owner)?.uid ?? first.uid};
}

/** The user name of a uid in a passwd text, else `uid N`. */
export function userNameOf(passwdText: string | null, uid: number): string {
	for (const line of (passwdText ?? '').split('\n')) {
		const fields = line.split(':');
		if (fields.length >= 3 && fields[2] === String(uid) && fields[0]) return `user ${fields[0]}`;
	}
	return `uid ${uid}`;
}

/** What one discovered process may be sent. */
export type LendingInput = {
	readonly process: ProcProcess;
	/** The port the target is on, and its host (the URL's), when known. */
	readonly port: number;
	readonly host?: string;
	/** The LISTEN sockets of rigtop's own network namespace, when known (portHolder). */
	readonly reached?: readonly TcpRow[] | null;
	/** The user's own token, if given. */
	readonly explicit: string | null;
	/** The token the process's config chain sets, and where: its command line, or a file its owner can read or not. */
	readonly own:
		| {readonly token: string; readonly from: 'cmdline'}
		| {readonly token: string; readonly from: 'file'; readonly path: string; readonly ownerReads: boolean}
		| null;
	/** The (effective) uid running rigtop; null when not known. */
	readonly selfUid: number | null;
	/** `user bob` or `uid 1234`, for the process's owner. */
	readonly ownerName: string;
	/** How the port is shown, e.g. `:18999`. */
	readonly shownPort: string;
};

/** The token to send (`explicit` for the user's, `own` for the process's, null for none), and why none when refused. */
export type Lending = {readonly send: 'explicit' | 'own' | null; readonly refused: string | null};

/** Whether every uid of the process is rigtop's user or root: the user's own process, or the system's. */
function trusted(process: ProcProcess, selfUid: number | null): boolean {
	const ids = process.credentials;
	if (ids === null) return false;
	return [ids.uid, ids.euid, ids.suid, ids.fsuid].every((uid) => uid === 0 || uid === selfUid);
}

export function judgeLending(input: LendingInput): Lending {
	const {process, explicit, own} = input;
	const wanted = explicit ?? own?.token ?? null;
	if (wanted === null) return {send: null, refused: null};
	const pid = process.pid;
	const whose = explicit !== null ? 'your token' : 'its token';
	const holder = portHolder(process, input.port, input.host, input.reached);
	if (holder.kind === 'none') {
		const why =
			process.listening === null
				? `rigtop sees no socket listening on ${input.shownPort} (hidden from it, or in another namespace)`
				: `process ${pid} does not listen on ${input.shownPort} (yet)`;
		return {send: null, refused: `${why}; not sending ${whose} to a port no process rigtop can see holds`};
	}
	if (holder.kind === 'elsewhere') {
		const why = `process ${pid} listens on ${input.shownPort} in another network namespace (a container?), not where rigtop connects`;
		return {send: null, refused: `${why}; not sending ${whose}`};
	}
	if (holder.kind === 'other')
		return {
			send: null,
			refused: `${input.shownPort} is held by a socket of uid ${holder.uid}, not by process ${pid}; not sending ${whose}`,
		};
	// Its own token: on its command line, or in a file it may read itself.
	const ownUsable = own !== null && (own.from === 'cmdline' || own.ownerReads);
	if (explicit !== null) {
		if (trusted(process, input.selfUid) || (ownUsable && own.token === explicit)) return {send: 'explicit', refused: null};
		return {send: null, refused: `process ${pid} of ${input.ownerName} listens on ${input.shownPort}; not sending your token`};
	}
	if (ownUsable) {
		// A token no HTTP header can carry is refused by the client for the whole run: a stranger's process naming one on
		// its command line would stop rigtop watching every other miner. It is this miner's problem, said on its row.
		if (!sendableToken(own.token)) {
			return {
				send: null,
				refused: `process ${pid}'s token holds characters an HTTP header cannot carry (printable ASCII only); not sending it`,
			};
		}

		return {send: 'own', refused: null};
	}

	const file = own?.from === 'file' ? own.path : 'its config';
	return {
		send: null,
		refused: `process ${pid} of ${input.ownerName} names ${file}, which its user cannot read; not lending the token in it`,
	};
}
