/**
 * Making rigtop's folders (state, compile cache): Node's `mkdir(…, {recursive: true})` never returns for a folder
 * whose parent exists but cannot hold folders (under /proc, behind a dangling symlink); rigtop's own walk fails at
 * once instead. (Before the fix these tests hung at a full core: the sync call blocks the test's process, the async
 * one never settles.)
 */
import {existsSync, mkdirSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {makeDirectory, makeDirectorySync} from '../../source/config/make-directory.js';
import {tempDir} from './helpers/fixtures.js';

let temp: ReturnType<typeof tempDir>;

beforeEach(() => {
	temp = tempDir('rigtop-state-dir-');
});

afterEach(() => {
	temp.remove();
});

const both = [
	['makeDirectorySync', async (dir: string, mode: number) => makeDirectorySync(dir, mode)],
	['makeDirectory', makeDirectory],
] as const;

describe.each(both)('%s', (_name, make) => {
	it('makes the missing folders with the mode, and leaves an existing one as it is', async () => {
		const deep = path.join(temp.dir, 'a', 'b', 'c');
		await make(deep, 0o700);
		for (const folder of [path.join(temp.dir, 'a'), path.join(temp.dir, 'a', 'b'), deep]) {
			expect(statSync(folder).isDirectory()).toBe(true);
			expect(statSync(folder).mode & 0o077).toBe(0);
		}

		await make(deep, 0o700);
		await make(temp.dir, 0o700);
		expect(statSync(deep).isDirectory()).toBe(true);
	});

	it.skipIf(!existsSync('/proc/self'))('fails at once under /proc (ENOENT), where Node’s recursive mkdir spins forever', async () => {
		const error = await Promise.resolve(make('/proc/rigtop-nope/rigtop/backups', 0o700)).catch((caught: unknown) => caught);
		expect(error).toMatchObject({code: 'ENOENT', syscall: 'mkdir', path: '/proc/rigtop-nope'});
	});

	it('fails at once behind a symlink to a folder that is not there (an unmounted disk)', async () => {
		const dangling = path.join(temp.dir, 'state');
		symlinkSync(path.join(temp.dir, 'unmounted', 'state'), dangling);
		const error = await Promise.resolve(make(path.join(dangling, 'rigtop'), 0o700)).catch((caught: unknown) => caught);
		// The symlink's own name is taken, by no folder.
		expect(error).toMatchObject({code: 'EEXIST', syscall: 'mkdir', path: dangling});
		expect(existsSync(path.join(temp.dir, 'unmounted'))).toBe(false);
	});

	it('fails with ENOTDIR where a file stands in the way, and EEXIST where the folder itself is a file', async () => {
		const file = path.join(temp.dir, 'a-file');
		writeFileSync(file, 'not a folder');
		await expect(Promise.resolve(make(path.join(file, 'rigtop'), 0o700))).rejects.toMatchObject({code: 'ENOTDIR'});
		mkdirSync(path.join(temp.dir, 'dir'));
		const taken = path.join(temp.dir, 'dir', 'taken');
		writeFileSync(taken, '');
		await expect(Promise.resolve(make(taken, 0o700))).rejects.toMatchObject({code: 'EEXIST', path: taken});
		expect(statSync(taken).isFile()).toBe(true);
	});
});
