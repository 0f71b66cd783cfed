/** The sysfs test trees (test/fixtures/sysfs/, real layouts) and writable copies of them for tests that change files. */
import {cpSync, mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs';
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
