/**
 * `mkdir -p` that always returns: the state folder (history, backups) and the compile cache's folder are made with
 * it. A module of its own, loading nothing but node:fs and node:path: the shipped entry (bin.ts) uses it before
 * anything else is loaded.
 */
import {mkdirSync, statSync} from 'node:fs';
import {mkdir, stat} from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes `directory` and its missing parents with `mode`, as `mkdir -p` does, in a bounded walk: up to the nearest
 * folder that exists, then down, making each missing one once. Node's own `mkdir(…, {recursive: true})` never
 * returns when a parent exists but cannot hold folders (a path under /proc, a symlink to an unmounted disk): the
 * kernel answers ENOENT, Node takes it for a missing parent, finds the parent there and tries again, forever, at a
 * full core. Here that ENOENT is thrown like any other failure; a folder that is there already is fine.
 */
export function makeDirectorySync(directory: string, mode: number): void {
	for (const folder of missingFolders(directory)) {
		try {
			mkdirSync(folder, {mode});
		} catch (error) {
			// Made meanwhile (another rigtop) is fine; a name taken by something else (a dangling symlink) is not.
			if (codeOf(error) !== 'EEXIST' || !isFolderSync(folder)) throw error;
		}
	}
}

/** makeDirectorySync without blocking (the config backups). */
export async function makeDirectory(directory: string, mode: number): Promise<void> {
	const missing: string[] = [];
	for (let at = path.resolve(directory); ; at = path.dirname(at)) {
		const found = await stat(at).then(
			(stats) => stats,
			(error: unknown) => {
				if (codeOf(error) !== 'ENOENT' || path.dirname(at) === at) throw error;
				return null;
			},
		);
		if (found) {
			if (!found.isDirectory()) throw notAFolder(at);
			break;
		}

		missing.unshift(at);
	}

	for (const folder of missing) {
		try {
			await mkdir(folder, {mode});
		} catch (error) {
			if (
				codeOf(error) !== 'EEXIST' ||
				!(await stat(folder).then(
					(stats) => stats.isDirectory(),
					() => false,
				))
			)
				throw error;
		}
	}
}

/** The folders missing on the way to `directory`, outermost first. */
function missingFolders(directory: string): string[] {
	const missing: string[] = [];
	for (let at = path.resolve(directory); ; at = path.dirname(at)) {
		let found;
		try {
			found = statSync(at);
		} catch (error) {
			if (codeOf(error) !== 'ENOENT' || path.dirname(at) === at) throw error;
			missing.unshift(at);
			continue;
		}

		if (!found.isDirectory()) throw notAFolder(at);
		return missing;
	}
}

function isFolderSync(at: string): boolean {
	try {
		return statSync(at).isDirectory();
	} catch {
		return false;
	}
}

/** The error mkdir gives for a name that something other than a folder has. */
function notAFolder(at: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`EEXIST: file already exists, mkdir '${at}'`), {code: 'EEXIST', errno: -17, syscall: 'mkdir', path: at});
}

function codeOf(error: unknown): string | undefined {
	const code = typeof error === 'object' && error !== null ? (error as {code?: unknown}).code : undefined;
	return typeof code === 'string' ? code : undefined;
}
