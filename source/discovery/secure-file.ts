/**
 * Writes files that hold a secret (an access token: rigtop's own settings, config backups) so that
 * only their owner can read them, at every moment: the data goes to a temporary file created with
 * mode 0600 in the same directory (fchmod'd again, whatever the umask), is flushed to disk, and is
 * then renamed over the target in one step. A reader never sees a half-written or readable file.
 */

import {randomBytes} from 'node:crypto';
import {chmod, open, rename, unlink} from 'node:fs/promises';
import path from 'node:path';

export const SECRET_FILE_MODE = 0o600;

/** Atomically writes `data` to `file` with mode 0600. Throws the file system's error (the temp file is removed). */
export async function writeSecureFile(file: string, data: string | Uint8Array): Promise<void> {
	const directory = path.dirname(file);
	const temporary = path.join(directory, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
	const handle = await open(temporary, 'wx', SECRET_FILE_MODE);
	try {
		try {
			await handle.chmod(SECRET_FILE_MODE);
			await handle.writeFile(data);
			await handle.sync();
		} finally {
			await handle.close();
		}
		await rename(temporary, file);
	} catch (error) {
		await unlink(temporary).catch(() => undefined);
		throw error;
	}
	await syncDirectory(directory);
}

/** Makes an existing file readable by its owner only. */
export async function restrictToOwner(file: string): Promise<void> {
	await chmod(file, SECRET_FILE_MODE);
}

/** Flushes the directory entry of the rename (best effort: not every file system allows it). */
async function syncDirectory(directory: string): Promise<void> {
	try {
		const handle = await open(directory, 'r');
		try {
			await handle.sync();
		} finally {
			await handle.close();
		}
	} catch {
		// EISDIR/EINVAL/EPERM on some platforms and file systems: the data itself is already synced.
	}
}
