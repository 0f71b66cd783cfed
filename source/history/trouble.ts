/**
 * What went wrong with the history store, from SQLite's result code or the file system's error code,
 * and the one line a user reads about it. The store's rule per kind is in store.ts.
 */
import process from 'node:process';

export type Trouble =
	/** Not a SQLite file, or a damaged one (SQLITE_NOTADB, SQLITE_CORRUPT): set aside, start a fresh store. */
	| 'damaged'
	/** A SQLite file of some other program: set aside, start a fresh store. */
	| 'foreign'
	/** The disk (or the store's own size limit) is full: history off when making room did not help. */
	| 'full'
	/** The folder or the file cannot be made or written (permissions, a read-only file system): history off. */
	| 'not-writable'
	/** Another rigtop holds the write lock longer than the wait: the batch is kept for the next try. */
	| 'busy'
	/** A store written by a newer rigtop: left alone, history off. */
	| 'newer'
	/** Anything else (I/O error…): history off. */
	| 'other';

const SQLITE = {
	PERM: 3,
	BUSY: 5,
	LOCKED: 6,
	READONLY: 8,
	IOERR: 10,
	CORRUPT: 11,
	FULL: 13,
	CANTOPEN: 14,
	AUTH: 23,
	NOTADB: 26,
} as const;

/** The SQLite primary result code of a node:sqlite error, or null for any other error. */
export function sqliteCode(error: unknown): number | null {
	if (typeof error !== 'object' || error === null) return null;
	const errcode = (error as {errcode?: unknown}).errcode;
	return typeof errcode === 'number' ? errcode & 0xff : null;
}

/** The file system's error code (ENOENT, EACCES…), or null. */
export function fsCode(error: unknown): string | null {
	if (typeof error !== 'object' || error === null) return null;
	const code = (error as {code?: unknown}).code;
	return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : null;
}

export function classify(error: unknown): Trouble {
	if (error instanceof StoreProblem) return error.trouble;
	const sqlite = sqliteCode(error);
	if (sqlite !== null) {
		switch (sqlite) {
			case SQLITE.NOTADB:
			case SQLITE.CORRUPT:
				return 'damaged';
			case SQLITE.FULL:
				return 'full';
			case SQLITE.BUSY:
			case SQLITE.LOCKED:
				return 'busy';
			case SQLITE.READONLY:
			case SQLITE.CANTOPEN:
			case SQLITE.PERM:
			case SQLITE.AUTH:
				return 'not-writable';
			case SQLITE.IOERR: {
				// SQLITE_IOERR_WRITE and kin on a full disk carry ENOSPC in errno, which node:sqlite does not pass on; the
				// message does, on some builds.
				const message = error instanceof Error ? error.message : '';
				return /disk is full|no space/i.test(message) ? 'full' : 'other';
			}
			default:
				return 'other';
		}
	}

	switch (fsCode(error)) {
		case 'ENOSPC':
		case 'EDQUOT':
			return 'full';
		// ENOENT: a folder that cannot be made where its parent is (under /proc, behind a symlink to a missing disk).
		case 'ENOENT':
		case 'EACCES':
		case 'EPERM':
		case 'EROFS':
		case 'ENOTDIR':
		case 'EEXIST':
		case 'EISDIR':
			return 'not-writable';
		default:
			return 'other';
	}
}

/** A problem found by rigtop itself (a foreign or newer store). */
export class StoreProblem extends Error {
	override readonly name = 'StoreProblem';
	readonly trouble: Trouble;
	constructor(trouble: Trouble, message: string) {
		super(message);
		this.trouble = trouble;
	}
}

/** The folder a failed mkdir could not make, or null (for messages). */
export function unmadeFolder(error: unknown): string | null {
	if (typeof error !== 'object' || error === null) return null;
	const {syscall, path} = error as {syscall?: unknown; path?: unknown};
	return syscall === 'mkdir' && typeof path === 'string' ? path : null;
}

/** The error's own words, one line, without a stack. */
export function detail(error: unknown): string {
	const code = fsCode(error);
	const message = error instanceof Error ? error.message : String(error);
	const line = message.split('\n')[0] ?? message;
	if (code === null) return line;
	// Node's "EACCES: permission denied, open '/path'": the path is in the notice already.
	const words = new RegExp(`^${code}: ([^,]+)`).exec(line)?.[1];
	return words ? `${words}, ${code}` : `${line} (${code})`;
}

export const STORE_FILE_NAME = 'history.sqlite';

/** The store's path, ~ for the home directory (for messages). */
export function shownPath(file: string): string {
	const home = process.env['HOME'];
	return home && file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file;
}
