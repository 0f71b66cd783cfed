import {existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {
	BackupError,
	backupFailure,
	defaultBackupDir,
	latestBackup,
	listBackups,
	minerKey,
	readBackup,
	writeBackup,
} from '../../source/config/backups.js';
import {tempDir, v6Config} from './helpers/fixtures.js';

const url = 'http://127.0.0.1:18090';
let temp: ReturnType<typeof tempDir>;

beforeEach(() => {
	temp = tempDir('rigtop-backups-');
});

afterEach(() => {
	temp.remove();
});

/** A clock that moves 1 ms per call from a fixed start. */
function clock(start = Date.UTC(2026, 10, 21, 19, 3, 0, 123)): () => Date {
	let now = start;
	return () => new Date(now++);
}

describe('where backups go', () => {
	it('honours XDG_STATE_HOME, else ~/.local/state', () => {
		expect(defaultBackupDir({XDG_STATE_HOME: '/var/tmp/state'})).toBe('/var/tmp/state/rigtop/backups');
		expect(defaultBackupDir({XDG_STATE_HOME: 'relative/state'})).toBe(path.join(homedir(), '.local/state/rigtop/backups'));
		expect(defaultBackupDir({})).toBe(path.join(homedir(), '.local/state/rigtop/backups'));
	});

	it('names files by miner host and port, sanitized', () => {
		expect(minerKey('http://127.0.0.1:18090')).toBe('127.0.0.1_18090');
		expect(minerKey('http://[::1]:8080')).toBe('--1_8080');
		expect(minerKey('http://rig-01.lan:80')).toBe('rig-01.lan_80');
		expect(minerKey('http://rig-01.lan')).toBe('rig-01.lan_80');
		expect(minerKey('not a url/../x')).toBe('not-a-url-..-x');
	});
});

describe('writeBackup', () => {
	it('writes the text byte for byte, mode 0600 in a 0700 directory, named by miner and time', async () => {
		const dir = path.join(temp.dir, 'state', 'rigtop', 'backups');
		const text = v6Config();
		const file = await writeBackup(dir, url, text, {now: clock()});
		expect(path.basename(file)).toBe('127.0.0.1_18090_2026-11-21T19-03-00.123Z_000.json');
		expect(readFileSync(file, 'utf8')).toBe(text);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
		expect(await readBackup(file)).toBe(text);
		// No temp file is left behind.
		expect(readdirSync(dir)).toEqual([path.basename(file)]);
	});

	it('is mode 0600 (directory 0700) even with a permissive umask', async () => {
		const dir = path.join(temp.dir, 'open');
		const previous = process.umask(0);
		let file: string;
		try {
			file = await writeBackup(dir, url, '{"token": "abc"}', {now: clock()});
		} finally {
			process.umask(previous);
		}

		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
	});

	it('never overwrites: two backups in the same millisecond get two names; the latest is the last written', async () => {
		const fixed = () => new Date(Date.UTC(2026, 0, 1));
		const first = await writeBackup(temp.dir, url, '{"n": 1}', {now: fixed});
		const second = await writeBackup(temp.dir, url, '{"n": 2}', {now: fixed});
		expect(first).not.toBe(second);
		expect(path.basename(second)).toMatch(/_001\.json$/);
		expect((await latestBackup(temp.dir, url))?.path).toBe(second);
		expect(readFileSync(first, 'utf8')).toBe('{"n": 1}');
	});

	it('keeps the last N per miner and leaves other miners and other files alone', async () => {
		const now = clock();
		const other = await writeBackup(temp.dir, 'http://127.0.0.1:1809', '{"other": true}', {now});
		writeFileSync(path.join(temp.dir, 'notes.txt'), 'mine');
		const written: string[] = [];
		for (let index = 0; index < 8; index++) written.push(await writeBackup(temp.dir, url, `{"n": ${index}}`, {now, keep: 5}));
		const kept = await listBackups(temp.dir, url);
		expect(kept.map((backup) => backup.path)).toEqual(written.slice(3));
		expect(kept[0]?.time.toISOString()).toBe('2026-11-21T19:03:00.127Z');
		expect(existsSync(other)).toBe(true);
		expect(existsSync(path.join(temp.dir, 'notes.txt'))).toBe(true);
		expect(await listBackups(temp.dir, 'http://127.0.0.1:1809')).toHaveLength(1);
	});

	it('keeps 50 by default', async () => {
		const now = clock();
		for (let index = 0; index < 53; index++) await writeBackup(temp.dir, url, '{}', {now});
		const kept = await listBackups(temp.dir, url);
		expect(kept).toHaveLength(50);
		expect(kept[0]?.time.toISOString()).toBe('2026-11-21T19:03:00.126Z');
	});

	it('fails with a plain, typed error when the directory cannot be written, leaving nothing behind', async () => {
		const blocker = path.join(temp.dir, 'a-file');
		writeFileSync(blocker, 'not a directory');
		const error = await writeBackup(path.join(blocker, 'backups'), url, v6Config()).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(BackupError);
		expect(error).toMatchObject({reason: 'not-writable', location: path.join(blocker, 'backups')});
		expect((error as Error).message).toMatch(
			/could not save a backup of the miner's config in .*: that directory cannot be written \(ENOTDIR\)/,
		);
		expect((error as Error).message).not.toContain('testtoken');
		expect(readdirSync(temp.dir)).toEqual(['a-file']);
	});

	it.skipIf(!existsSync('/proc/self'))('fails at once where the folder cannot be made (under /proc), naming it and the fix', async () => {
		// Node's recursive mkdir never settled here (it spun a core); nothing may be sent without a backup.
		const dir = '/proc/rigtop-nope/rigtop/backups';
		const error = await writeBackup(dir, url, v6Config()).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(BackupError);
		expect(error).toMatchObject({reason: 'not-writable', location: dir});
		expect((error as Error).message).toBe(
			"could not save a backup of the miner's config in /proc/rigtop-nope/rigtop/backups: that directory cannot be made (ENOENT); " +
				'set XDG_STATE_HOME to a writable directory',
		);
	});

	it.skipIf(!existsSync('/dev/full'))('maps a full disk (a real ENOSPC) to a plain message', () => {
		let enospc: unknown;
		try {
			writeFileSync('/dev/full', 'x'.repeat(8192));
		} catch (error) {
			enospc = error;
		}

		const failure = backupFailure(enospc, '/some/dir', 'write');
		expect(failure.reason).toBe('disk-full');
		expect(failure.message).toBe(
			"could not save a backup of the miner's config in /some/dir: the disk is full; free some space and try again",
		);
	});
});

describe('reading backups', () => {
	it('lists nothing for a missing directory and says when a file is gone', async () => {
		expect(await listBackups(path.join(temp.dir, 'missing'), url)).toEqual([]);
		expect(await latestBackup(path.join(temp.dir, 'missing'), url)).toBeNull();
		await expect(readBackup(path.join(temp.dir, 'gone.json'))).rejects.toMatchObject({reason: 'not-found'});
	});

	it('ignores files that only look similar', async () => {
		writeFileSync(path.join(temp.dir, '127.0.0.1_18090_garbage.json'), '{}');
		writeFileSync(path.join(temp.dir, '127.0.0.1_180901_2026-11-21T19-03-00.123Z_000.json'), '{}');
		expect(await listBackups(temp.dir, url)).toEqual([]);
	});
});
