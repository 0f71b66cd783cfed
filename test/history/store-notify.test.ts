/**
 * Schema version 5: the notifications' tables (docs/notify-delivery.md). A version 4 store gains them when a rigtop
 * opens it for writing, whichever rigtop comes first; `rigtop history` (read only) reads either as it is.
 */
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {HistoryReader} from '../../source/history/read.js';
import {loadSqlite} from '../../source/history/sqlite.js';
import {HistoryStore, NOTIFY_TABLES, SCHEMA_VERSION} from '../../source/history/store.js';
import {HistoryWriter} from '../../source/history/writer.js';
import {goodSample, observation, openStore, sixFacts, tempDir} from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

type Named = {name: string};

/** A store as rigtop wrote it before version 5: one miner's poll, no notifications' tables, user_version 4. */
function versionFour(): {dir: string; file: string} {
	const temp = tempDir();
	cleanups.push(temp.cleanup);
	const {store} = openStore(temp.dir);
	new HistoryWriter(store).write([observation(goodSample(Date.now(), 1000), sixFacts('id-a'))], []);
	const file = store.file;
	store.close();
	const db = new (loadSqlite().DatabaseSync)(file);
	for (const table of NOTIFY_TABLES) db.exec(`DROP TABLE ${table}`);
	db.exec('PRAGMA user_version = 4');
	db.close();
	return {dir: temp.dir, file};
}

function tables(store: HistoryStore): string[] {
	return store
		.all<Named>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'notify_%' ORDER BY name")
		.map((row) => row.name);
}

describe('history store: version 5 (notifications)', () => {
	it('a new store has the outbox, claims, writers and mutes', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const {store} = openStore(temp.dir);
		cleanups.push(() => store.close());
		expect(SCHEMA_VERSION).toBe(5);
		expect(store.hasNotify).toBe(true);
		expect(tables(store)).toEqual(['notify_claim', 'notify_mute', 'notify_outbox', 'notify_writer']);
	});

	it('a version 4 store gains them when opened for writing, its rows kept; a second rigtop opening it after finds it done', () => {
		const {dir, file} = versionFour();
		const before = HistoryStore.open({file, readOnly: true});
		expect(before.enabled).toBe(true);
		expect(before.hasNotify).toBe(false);
		before.close();

		const first = openStore(dir);
		cleanups.push(() => first.store.close());
		expect(first.notices).toEqual([]);
		expect(first.store.hasNotify).toBe(true);
		expect(first.store.get<{user_version: number}>('PRAGMA user_version')?.user_version).toBe(5);
		expect(tables(first.store)).toEqual(['notify_claim', 'notify_mute', 'notify_outbox', 'notify_writer']);
		expect(new HistoryReader(first.store).miners().map((miner) => miner.apiId)).toEqual(['id-a']);

		const second = openStore(dir);
		cleanups.push(() => second.store.close());
		expect(second.notices).toEqual([]);
		expect(second.store.hasNotify).toBe(true);
	});

	it('two rigtops migrating at once (both read version 4 before either wrote): the second finds the tables made and does not fail', () => {
		const {file} = versionFour();
		const {DatabaseSync} = loadSqlite();
		// The first has migrated; the second's transaction runs as it would after reading 4: CREATE … IF NOT EXISTS.
		const first = HistoryStore.open({file});
		cleanups.push(() => first.close());
		const db = new DatabaseSync(file);
		db.exec('PRAGMA user_version = 4');
		db.close();
		const second = HistoryStore.open({file});
		cleanups.push(() => second.close());
		expect(second.enabled).toBe(true);
		expect(second.get<{user_version: number}>('PRAGMA user_version')?.user_version).toBe(5);
	});

	it('`rigtop history` (read only) reads a version 5 store and never writes it', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const {store} = openStore(temp.dir);
		new HistoryWriter(store).write([observation(goodSample(Date.now(), 1000), sixFacts('id-a'))], []);
		store.run(
			"INSERT INTO notify_outbox (channel, key, notice, state, next_try, writer, created, updated) VALUES ('c', 'k', '{}', 'sent', 0, 'w', 0, 0)",
		);
		store.close();
		const reading = HistoryStore.open({file: path.join(temp.dir, 'rigtop', 'history.sqlite'), readOnly: true});
		cleanups.push(() => reading.close());
		expect(reading.offReason).toBe(null);
		expect(reading.hasNotify).toBe(true);
		expect(new HistoryReader(reading).miners().map((miner) => miner.apiId)).toEqual(['id-a']);
		expect(reading.write(() => undefined)).toBe(false);
	});

	it('a version 5 store without its outbox is damaged: set aside, a fresh one started (the store’s rule)', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const {store} = openStore(temp.dir);
		const file = store.file;
		store.close();
		const db = new (loadSqlite().DatabaseSync)(file);
		db.exec('DROP TABLE notify_outbox');
		db.close();
		const again = openStore(temp.dir);
		cleanups.push(() => again.store.close());
		expect(again.notices).toEqual([expect.stringMatching(/damaged \(its notify_outbox table is missing\): set aside as .*damaged-/)]);
		expect(again.store.hasNotify).toBe(true);
	});
});
