/**
 * Config backups: one file per apply, the miner's document exactly as read, under
 * `$XDG_STATE_HOME/rigtop/backups/` (default `~/.local/state/rigtop/backups/`). Files hold the access
 * token, so they are mode 0600 in a 0700 directory, written atomically (temp file + rename). The last
 * 50 per miner are kept.
 */
import {randomBytes} from 'node:crypto';
import {constants as fsConstants} from 'node:fs';
import {access, chmod, link, open, readdir, readFile, rename, unlink} from 'node:fs/promises';
import path from 'node:path';
import {makeDirectory} from './make-directory.js';
import {hostOf, hostPort} from '../monitor/name.js';
import {rigtopStateDir} from './state-dir.js';

export const DEFAULT_KEEP = 50;

export type BackupInfo = {
	readonly path: string;
	readonly name: string;
	/** When the backup was written (from its name). */
	readonly time: Date;
};

/** Why a backup could not be written or read; apply never sends anything without a backup on disk. */
export type BackupErrorReason = 'disk-full' | 'not-writable' | 'not-found' | 'other';

export class BackupError extends Error {
	override readonly name = 'BackupError';
	readonly reason: BackupErrorReason;
	/** The directory or file concerned. */
	readonly location: string;

	constructor(reason: BackupErrorReason, message: string, location: string, cause?: unknown) {
		super(message, cause === undefined ? undefined : {cause});
		this.reason = reason;
		this.location = location;
	}
}

/** The backup directory: `$XDG_STATE_HOME/rigtop/backups`, else `~/.local/state/rigtop/backups`. */
export function defaultBackupDir(env: NodeJS.ProcessEnv = process.env): string {
	return path.join(rigtopStateDir(env), 'backups');
}

/** The file-name prefix for a miner: its host and port, e.g. `127.0.0.1_18090`, `--1_8080` for [::1]:8080. */
export function minerKey(minerUrl: string): string {
	// Named as everywhere (monitor/name.ts): host:port, the port implied by the scheme where none is written.
	const bracketed = hostOf(minerUrl);
	const port = hostPort(minerUrl).slice(bracketed.length + 1);
	const host = bracketed.replace(/^\[(.*)\]$/, '$1');

	const safe = (text: string) => text.replace(/[^A-Za-z0-9.-]/g, '-').replace(/^\.+/, '-');
	return port ? `${safe(host)}_${port}` : safe(host);
}

const TIME_PART = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})Z_(\d{3})\.json$/;

function timeStamp(date: Date): string {
	return date.toISOString().replaceAll(':', '-');
}

function parseName(prefix: string, name: string): Date | null {
	if (!name.startsWith(prefix)) return null;
	const match = TIME_PART.exec(name.slice(prefix.length));
	if (!match) return null;
	const [, day, hours, minutes, seconds, millis] = match;
	const time = new Date(`${day}T${hours}:${minutes}:${seconds}.${millis}Z`);
	return Number.isNaN(time.getTime()) ? null : time;
}

function errorCode(error: unknown): string | undefined {
	return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** Turns a file-system failure into a BackupError with the fix in plain words. */
export function backupFailure(error: unknown, location: string, doing: 'write' | 'read'): BackupError {
	const code = errorCode(error);
	if (code === 'ENOSPC' || code === 'EDQUOT') {
		return new BackupError(
			'disk-full',
			`could not save a backup of the miner's config in ${location}: the disk is full; free some space and try again`,
			location,
			error,
		);
	}

	if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
		return new BackupError(
			'not-writable',
			doing === 'write'
				? `could not save a backup of the miner's config in ${location}: that directory cannot be written (${code}); ` +
						'fix its permissions or set XDG_STATE_HOME to a writable directory'
				: `could not read the backup ${location} (${code}); check its permissions`,
			location,
			error,
		);
	}

	// A folder that cannot be made where its parent is (under /proc, behind a symlink to an unmounted disk).
	if (code === 'ENOENT' && doing === 'write') {
		return new BackupError(
			'not-writable',
			`could not save a backup of the miner's config in ${location}: that directory cannot be made (ENOENT); ` +
				'set XDG_STATE_HOME to a writable directory',
			location,
			error,
		);
	}

	if (code === 'ENOENT' && doing === 'read') return new BackupError('not-found', `the backup ${location} is gone`, location, error);
	const detail = code ?? (error instanceof Error ? error.message : String(error));
	return new BackupError('other', `could not ${doing} the backup in ${location} (${detail})`, location, error);
}

/** Every backup of one miner in a directory, oldest first. A missing directory means none. */
export async function listBackups(dir: string, minerUrl: string): Promise<BackupInfo[]> {
	let names: string[];
	try {
		names = await readdir(dir);
	} catch (error) {
		if (errorCode(error) === 'ENOENT') return [];
		throw backupFailure(error, dir, 'read');
	}

	const prefix = `${minerKey(minerUrl)}_`;
	const found: BackupInfo[] = [];
	for (const name of names) {
		const time = parseName(prefix, name);
		if (time) found.push({path: path.join(dir, name), name, time});
	}

	// Names sort by time (ISO time, then a 3-digit sequence for backups within the same millisecond).
	return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The newest backup of one miner, or null. */
export async function latestBackup(dir: string, minerUrl: string): Promise<BackupInfo | null> {
	return (await listBackups(dir, minerUrl)).at(-1) ?? null;
}

/** The text of a backup file, byte for byte. */
export async function readBackup(file: string): Promise<string> {
	try {
		return await readFile(file, 'utf8');
	} catch (error) {
		throw backupFailure(error, file, 'read');
	}
}

export type WriteBackupOptions = {
	readonly now?: () => Date;
	/** How many backups of this miner to keep (default 50). */
	readonly keep?: number;
};

/**
 * Writes one backup atomically with mode 0600 (directory 0700) and prunes this miner's oldest
 * backups beyond `keep`. Returns the file's path once it is safely on disk. Throws BackupError.
 */
export async function writeBackup(dir: string, minerUrl: string, text: string, options: WriteBackupOptions = {}): Promise<string> {
	const now = options.now ?? (() => new Date());
	const keep = Math.max(1, options.keep ?? DEFAULT_KEEP);
	try {
		await makeDirectory(dir, 0o700);
		await chmod(dir, 0o700);
	} catch (error) {
		throw backupFailure(error, dir, 'write');
	}

	const stem = `${minerKey(minerUrl)}_${timeStamp(now())}`;
	const temporary = path.join(dir, `.${stem}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
	let target: string;
	try {
		const handle = await open(temporary, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o600);
		try {
			await handle.chmod(0o600);
			await handle.writeFile(text, 'utf8');
			await handle.sync();
		} finally {
			await handle.close();
		}

		target = await placeUnderFreeName(temporary, dir, stem);
	} catch (error) {
		await unlink(temporary).catch(() => undefined);
		throw backupFailure(error, dir, 'write');
	}

	await prune(dir, minerUrl, keep);
	return target;
}

/**
 * Gives the written temp file its final name without ever replacing another backup: a hard link
 * fails when the name is taken (two applies in one millisecond, or two rigtops), then the next
 * sequence number is tried. File systems without hard links fall back to a checked rename.
 */
async function placeUnderFreeName(temporary: string, dir: string, stem: string): Promise<string> {
	for (let sequence = 0; sequence < 1000; sequence++) {
		const target = path.join(dir, `${stem}_${String(sequence).padStart(3, '0')}.json`);
		try {
			await link(temporary, target);
			await unlink(temporary);
			return target;
		} catch (error) {
			const code = errorCode(error);
			if (code === 'EEXIST') continue;
			if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
			const taken = await access(target).then(
				() => true,
				() => false,
			);
			if (taken) continue;
			await rename(temporary, target);
			return target;
		}
	}

	throw Object.assign(new Error('too many backups within one millisecond'), {code: 'EEXIST'});
}

async function prune(dir: string, minerUrl: string, keep: number): Promise<void> {
	try {
		const all = await listBackups(dir, minerUrl);
		for (const old of all.slice(0, Math.max(0, all.length - keep))) await unlink(old.path).catch(() => undefined);
	} catch {
		// Pruning is housekeeping: the new backup is on disk, which is what matters.
	}
}
