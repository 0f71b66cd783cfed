/**
 * Whether a rig's stored name is a rigs file's (miner.named, schema version 4): a rig named after its worker id keeps
 * that name when a run without the rigs file (--once, pause by address) touches it; a version 3 store, opened for
 * writing, marks its rows named after the worker id or host:port as not a rigs file's, and the others as one's.
 */
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {loadSqlite} from '../../source/history/sqlite.js';
import {SCHEMA_VERSION} from '../../source/history/store.js';
import {HistoryWriter} from '../../source/history/writer.js';
import {goodSample, observation, openStore, sixFacts, tempDir} from './helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const URL = 'http://10.0.0.5:8080';
type Row = {name: string; named: number};
/** What an observation says of a rig (its slot, address and name; the worker id goes in its facts). */
const whoOf = ({slot, url, name}: {slot: number; url: string; name: string}) => ({slot, url, name});

describe('a rigs-file name equal to the worker id', () => {
	it('is kept when a run by address touches the rig, in a real SQLite file', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const {store} = openStore(temp.dir);
		cleanups.push(() => store.close());
		const t = Date.now();
		const facts = sixFacts('id-7', 'rig-07');
		// A --rigs run: the file names it rig-07, as its worker id.
		new HistoryWriter(store).write([observation(goodSample(t, 1000), facts, {url: URL, name: 'rig-07', named: true})], []);
		// A --once (or pause) by address: the name it would give is host:port.
		new HistoryWriter(store).write([observation(goodSample(t + 1000, 1000), facts, {url: URL, name: '10.0.0.5:8080'})], []);
		expect(store.all<Row>('SELECT name, named FROM miner')).toEqual([{name: 'rig-07', named: 1}]);
		// A rig never named by a rigs file follows its address.
		const other = sixFacts('id-8', 'rig-08');
		new HistoryWriter(store).write([observation(goodSample(t, 1000), other, {url: 'http://10.0.0.6:8080', name: '10.0.0.6:8080'})], []);
		expect(store.get<Row>("SELECT name, named FROM miner WHERE worker = 'rig-08'")).toEqual({name: '10.0.0.6:8080', named: 0});
	});
});

describe('a store of version 3 (before miner.named)', () => {
	it('opened for writing, becomes version 4: names like the worker id or host:port are not a rigs file’s, others are', () => {
		const temp = tempDir();
		cleanups.push(temp.cleanup);
		const file = path.join(temp.dir, 'rigtop', 'history.sqlite');
		// Written by this rigtop, then made a version 3 store: the column dropped, the version set back.
		const {store: fresh} = openStore(temp.dir);
		const t = Date.now();
		const rigs = [
			{slot: 0, url: 'http://10.0.0.1:8080', name: 'alpha', worker: 'w-1'},
			{slot: 1, url: 'http://10.0.0.2:8080', name: 'w-2', worker: 'w-2'},
			{slot: 2, url: 'http://10.0.0.3:8080', name: '10.0.0.3:8080', worker: 'w-3'},
		];
		for (const rig of rigs)
			new HistoryWriter(fresh).write([observation(goodSample(t, 1000), sixFacts(`id-${rig.slot}`, rig.worker), whoOf(rig))], []);
		expect(fresh.all<Row>('SELECT name FROM miner')).toHaveLength(3);
		fresh.close();
		const {DatabaseSync} = loadSqlite();
		const db = new DatabaseSync(file);
		db.exec('ALTER TABLE miner DROP COLUMN named; PRAGMA user_version = 3');
		db.close();

		const {store, notices} = openStore(temp.dir);
		cleanups.push(() => store.close());
		expect(notices).toEqual([]);
		expect(store.enabled).toBe(true);
		expect(store.get<{user_version: number}>('PRAGMA user_version')?.user_version).toBe(SCHEMA_VERSION);
		expect(store.all<Row>('SELECT name, named FROM miner ORDER BY miner')).toEqual([
			{name: 'alpha', named: 1},
			{name: 'w-2', named: 0},
			{name: '10.0.0.3:8080', named: 0},
		]);
		// A run by address now: the rigs file's name stays, the others follow the address.
		for (const rig of rigs) {
			new HistoryWriter(store).write(
				[observation(goodSample(t + 1000, 1000), sixFacts(`id-${rig.slot}`, rig.worker), {...whoOf(rig), name: rig.url.slice(7)})],
				[],
			);
		}

		expect(store.all<Row>('SELECT name, named FROM miner ORDER BY miner').map((row) => row.name)).toEqual([
			'alpha',
			'10.0.0.2:8080',
			'10.0.0.3:8080',
		]);
	});
});
