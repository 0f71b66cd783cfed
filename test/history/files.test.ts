import {existsSync, openSync, readdirSync, readFileSync, closeSync, writeSync, writeFileSync, mkdirSync, statSync} from 'node:fs';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {HistoryReader} from '../../source/history/read.js';
import {loadSqlite} from '../../source/history/sqlite.js';
import {HistoryStore} from '../../source/history/store.js';
import {HistoryWriter} from '../../source/history/writer.js';
import {eventRecord, goodSample, manualClock, observation, openStore, sixFacts, tempDir, writeRun} from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

function temp() {
	const made = tempDir();
	cleanups.push(made.cleanup);
	return made.dir;
}

function storeFile(dir: string): string {
	return path.join(dir, 'rigtop', 'history.sqlite');
}

/** Opens, writes one poll, reads it back: the store works. */
function works(store: HistoryStore): boolean {
	const at = Date.now();
	const writer = new HistoryWriter(store, {now: () => at});
	if (!writer.write([observation(goodSample(at, 1234), sixFacts('works'))], [])) return false;
	const miner = writer.minerOf(0);
	if (miner === null) return false;
	const series = new HistoryReader(store).series(miner, {from: at - 1000, to: at + 1000, points: 2});
	return series.points.some((point) => point.avg === 1234);
}

/** 'ok', or what SQLite finds wrong (its check's first line, or the error the check itself met). */
function integrity(file: string): string {
	const {DatabaseSync} = loadSqlite();
	const db = new DatabaseSync(file, {readOnly: true});
	try {
		return (db.prepare('PRAGMA integrity_check').get() as {integrity_check: string}).integrity_check;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	} finally {
		db.close();
	}
}

function setAside(dir: string): string[] {
	return readdirSync(path.join(dir, 'rigtop')).filter((name) => /^history\.sqlite\.(damaged|foreign)-[\dT.Z-]+$/.test(name));
}

describe('history store: damaged and foreign files', () => {
	it('sets a file that is not SQLite aside with one notice and starts a fresh store', () => {
		const dir = temp();
		mkdirSync(path.join(dir, 'rigtop'), {recursive: true});
		const garbage = 'this is not a database\n'.repeat(500);
		writeFileSync(storeFile(dir), garbage);
		const {store, notices} = openStore(dir);
		cleanups.unshift(() => store.close());
		expect(store.enabled).toBe(true);
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(
			/^history: the store was damaged \(file is not a database\): set aside as .*\/rigtop\/history\.sqlite\.damaged-.+; started a fresh one$/,
		);
		const [aside] = setAside(dir);
		expect(aside).toBeDefined();
		expect(readFileSync(path.join(dir, 'rigtop', aside ?? ''), 'utf8')).toBe(garbage);
		expect(works(store)).toBe(true);
	});

	it('sets a store with damaged pages aside when a write meets them, and goes on in a fresh one', () => {
		const dir = temp();
		const clock = manualClock();
		const {pages, pageSize} = (() => {
			const {store} = openStore(dir);
			const writer = new HistoryWriter(store, {now: clock.now});
			writeRun(writer, clock, clock.now(), clock.now() + 30 * 60_000, 1000, () => 1000);
			// The pages of the polls' table and of the miners' (the schema stays readable: the store opens): every one
			// of them where SQLite has its dbstat table (Node 22.13's has not), else their root pages, which every
			// read and write of the table goes through.
			const tables = "('sample', 'miner', 'sqlite_autoindex_miner_1')";
			let pages: number[];
			try {
				pages = store.all<{pageno: number}>(`SELECT pageno FROM dbstat WHERE name IN ${tables}`).map((row) => row.pageno);
			} catch {
				pages = store.all<{rootpage: number}>(`SELECT rootpage FROM sqlite_master WHERE name IN ${tables}`).map((row) => row.rootpage);
			}

			const found = {pages, pageSize: store.get<{page_size: number}>('PRAGMA page_size')?.page_size ?? 0};
			store.close();
			return found;
		})();

		const file = storeFile(dir);
		expect(pages.length).toBeGreaterThanOrEqual(3);
		const fd = openSync(file, 'r+');
		const noise = Buffer.alloc(pageSize, 0xa5);
		for (const page of pages) writeSync(fd, noise, 0, pageSize, (page - 1) * pageSize);
		closeSync(fd);
		expect(integrity(file)).not.toBe('ok');

		const {store, notices} = openStore(dir);
		cleanups.unshift(() => store.close());
		expect(store.enabled).toBe(true); // the header and schema read fine
		expect(notices).toEqual([]);
		const writer = new HistoryWriter(store, {now: clock.now});
		clock.advance(1000);
		const wrote = writer.write([observation(goodSample(clock.now(), 1000), sixFacts('id-a'))], [eventRecord(clock.now(), 'up', 'back up')]);
		expect(wrote).toBe(false); // met the damage; the batch is kept by the recorder for the fresh store
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatch(
			/^history: the store was damaged \(database disk image is malformed\): set aside as .*history\.sqlite\.damaged-/,
		);
		expect(setAside(dir)).toHaveLength(1);
		expect(store.enabled).toBe(true);
		expect(writer.write([observation(goodSample(clock.now(), 1000), sixFacts('id-a'))], [])).toBe(true);
		expect(integrity(file)).toBe('ok');
		expect(works(store)).toBe(true);
	});

	it('sets a store whose schema is damaged aside when it opens', () => {
		const dir = temp();
		{
			const {store} = openStore(dir);
			expect(works(store)).toBe(true);
			store.close();
		}

		const file = storeFile(dir);
		const size = statSync(file).size;
		const pageSize = readFileSync(file).readUInt16BE(16); // the header's page size
		// Everything after the first page (the schema goes on past it) overwritten with noise.
		const fd = openSync(file, 'r+');
		const noise = Buffer.alloc(size - pageSize, 0xa5);
		writeSync(fd, noise, 0, noise.length, pageSize);
		closeSync(fd);
		const {store, notices} = openStore(dir);
		cleanups.unshift(() => store.close());
		expect(notices).toEqual([expect.stringMatching(/^history: the store was damaged \(database disk image is malformed\): set aside as/)]);
		expect(works(store)).toBe(true);
	});

	it('sets another program’s SQLite file aside', () => {
		const dir = temp();
		mkdirSync(path.join(dir, 'rigtop'), {recursive: true});
		const {DatabaseSync} = loadSqlite();
		const other = new DatabaseSync(storeFile(dir));
		other.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')");
		other.close();
		const {store, notices} = openStore(dir);
		cleanups.unshift(() => store.close());
		expect(notices).toEqual([
			expect.stringMatching(/^history: the store was a file of another program: set aside as .*history\.sqlite\.foreign-/),
		]);
		expect(works(store)).toBe(true);
		const [aside] = setAside(dir);
		const kept = new DatabaseSync(path.join(dir, 'rigtop', aside ?? ''), {readOnly: true});
		expect(kept.prepare('SELECT text FROM notes').get()).toEqual({text: 'keep me'});
		kept.close();
	});

	it('leaves a store written by a newer rigtop alone and turns history off', () => {
		const dir = temp();
		{
			const {store} = openStore(dir);
			store.close();
		}

		const {DatabaseSync} = loadSqlite();
		const db = new DatabaseSync(storeFile(dir));
		db.exec('PRAGMA user_version = 99');
		db.close();
		const before = readFileSync(storeFile(dir));
		const {store, notices} = openStore(dir);
		cleanups.unshift(() => store.close());
		expect(store.enabled).toBe(false);
		expect(notices).toEqual([
			expect.stringMatching(/^history off: .*history\.sqlite cannot be used: it was written by a newer rigtop \(store version 99/),
		]);
		expect(readFileSync(storeFile(dir)).equals(before)).toBe(true);
		expect(setAside(dir)).toEqual([]);
	});

	it('keeps the last three set-aside files', () => {
		const dir = temp();
		mkdirSync(path.join(dir, 'rigtop'), {recursive: true});
		for (let i = 0; i < 5; i++) {
			writeFileSync(storeFile(dir), `garbage ${i}`.repeat(300));
			const {store} = openStore(dir);
			store.close();
		}

		expect(setAside(dir)).toHaveLength(3);
	});

	it('reading (rigtop history) never sets anything aside', () => {
		const dir = temp();
		mkdirSync(path.join(dir, 'rigtop'), {recursive: true});
		writeFileSync(storeFile(dir), 'not a database'.repeat(400));
		const store = HistoryStore.open({file: storeFile(dir), readOnly: true});
		expect(store.enabled).toBe(false);
		expect(store.offReason).toMatch(/not a database/);
		expect(setAside(dir)).toEqual([]);
		const missing = HistoryStore.open({file: path.join(dir, 'none', 'history.sqlite'), readOnly: true});
		expect(missing.offReason).toMatch(/no history is stored yet/);
		expect(existsSync(path.join(dir, 'none'))).toBe(false);
	});
});

describe('history store: a full disk', () => {
	it('turns history off with one notice when the store cannot grow (SQLite’s page limit), without throwing or damaging the file', () => {
		const dir = temp();
		const clock = manualClock();
		const {store, notices} = openStore(dir, {maxBytes: 96 * 1024, now: clock.now});
		cleanups.unshift(() => store.close());
		expect(store.enabled).toBe(true);
		const writer = new HistoryWriter(store, {now: clock.now});
		let wrote = 0;
		for (let i = 0; i < 5000 && store.enabled; i++) {
			clock.advance(1000);
			if (
				writer.write(
					[observation(goodSample(clock.now(), 1000 + i), sixFacts('id-a'))],
					[eventRecord(clock.now(), 'note', `event ${i} ${'x'.repeat(200)}`)],
				)
			)
				wrote++;
		}

		expect(store.enabled).toBe(false);
		expect(wrote).toBeGreaterThan(10);
		expect(notices).toEqual([expect.stringMatching(/^history off: the disk is full \(or the store reached its bound, 96 KiB\) writing /)]);
		// Later writes and reads are no-ops, not errors.
		expect(writer.write([observation(goodSample(clock.now() + 1000, 1), sixFacts('id-a'))], [])).toBe(false);
		expect(new HistoryReader(store).miners()).toEqual([]);
		store.close();
		// What was written is whole and readable.
		expect(integrity(storeFile(dir))).toBe('ok');
		const again = HistoryStore.open({file: storeFile(dir), readOnly: true});
		const [miner] = new HistoryReader(again).miners();
		expect(miner?.apiId).toBe('id-a');
		again.close();
	});
});
