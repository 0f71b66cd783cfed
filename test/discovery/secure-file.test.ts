import {lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {restrictToOwner, writeSecureFile} from '../../source/discovery/secure-file.js';

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), 'rigtop-secure-'));
});
afterEach(async () => {
	await rm(dir, {recursive: true, force: true});
});

describe('writeSecureFile', () => {
	it('creates the file with mode 0600 even with a permissive umask', async () => {
		const file = path.join(dir, 'settings.json');
		const previous = process.umask(0);
		try {
			await writeSecureFile(file, '{"token": "abc"}\n');
		} finally {
			process.umask(previous);
		}
		expect((await stat(file)).mode & 0o777).toBe(0o600);
		expect(await readFile(file, 'utf8')).toBe('{"token": "abc"}\n');
	});

	it('replaces an existing world-readable file: new content, mode 0600, no temp files left', async () => {
		const file = path.join(dir, 'backup.json');
		await writeFile(file, 'old', {mode: 0o644});
		await writeSecureFile(file, Buffer.from('new'));
		expect((await stat(file)).mode & 0o777).toBe(0o600);
		expect(await readFile(file, 'utf8')).toBe('new');
		expect(await readdir(dir)).toEqual(['backup.json']);
	});

	it('replaces a symlink instead of writing through it', async () => {
		const victim = path.join(dir, 'victim');
		await writeFile(victim, 'keep me', {mode: 0o644});
		const link = path.join(dir, 'link.json');
		await symlink(victim, link);
		await writeSecureFile(link, 'secret');
		expect(await readFile(victim, 'utf8')).toBe('keep me');
		expect((await lstat(link)).isSymbolicLink()).toBe(false);
		expect((await stat(link)).mode & 0o777).toBe(0o600);
	});

	it('a failed write throws and leaves no temp file behind', async () => {
		await expect(writeSecureFile(path.join(dir, 'no-such-dir', 'x.json'), 'x')).rejects.toMatchObject({code: 'ENOENT'});
		const target = path.join(dir, 'is-a-dir');
		await mkdir(target);
		await expect(writeSecureFile(target, 'x')).rejects.toThrow(); // rename onto a directory fails
		expect(await readdir(dir)).toEqual(['is-a-dir']);
	});

	it('restrictToOwner makes an existing file 0600', async () => {
		const file = path.join(dir, 'open');
		await writeFile(file, 'x', {mode: 0o666});
		await restrictToOwner(file);
		expect((await stat(file)).mode & 0o777).toBe(0o600);
	});
});
