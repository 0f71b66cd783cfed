/**
 * The history store: one SQLite file, `$XDG_STATE_HOME/rigtop/history.sqlite`, shared by every rigtop
 * of the user (a tmux pane, a cron --once, `rigtop history`). docs/history.md explains the design.
 *
 * - WAL journal, synchronous=NORMAL: a commit is in the WAL file before the call returns, so a killed
 *   process (kill -9) loses nothing it committed and never leaves a broken file; readers in other
 *   processes never block the writer. Writers take turns (BEGIN IMMEDIATE, a short busy wait).
 * - The file is rigtop's: `application_id` says so and `user_version` is the schema's version. A file
 *   that is not SQLite, is damaged, or belongs to another program is renamed aside
 *   (history.sqlite.damaged-TIME) with a one-line notice and a fresh store is started; a store from a
 *   newer rigtop is left alone and history turns off.
 * - Bounded: each tier keeps a time span and a row count per miner (tiers.ts), and the whole file is
 *   capped by SQLite itself (max_page_count): near the cap the miners seen longest ago are dropped;
 *   at the cap a write fails with SQLITE_FULL like on a full disk.
 * - Failing safe: a full disk, a read-only folder or an I/O error turns history off with one notice;
 *   monitoring never depends on it.
 */
import {chmodSync, closeSync, existsSync, fstatSync, openSync, readdirSync, renameSync, statSync, unlinkSync} from 'node:fs';
import path from 'node:path';
import {makeDirectorySync} from '../config/make-directory.js';
import {loadSqlite, type DatabaseSync, type SQLInputValue, type StatementSync} from './sqlite.js';
import {EVENT_KEEP_MS, EVENT_MAX_BYTES, EVENT_MAX_ROWS, EVENT_ROW_OVERHEAD, SAMPLE_TIER, SUMMARY_TIERS} from './tiers.js';
import {classify, detail, fsCode, shownPath, StoreProblem, unmadeFolder, type Trouble} from './trouble.js';

/** The store's page size, set when it is created. */
const PAGE_SIZE = 1024;
/** "rgtp": marks the file as rigtop's history store (PRAGMA application_id). */
export const APPLICATION_ID = 0x72677470;
/**
 * 2: a proxy's workers (the proxy_worker table, event.worker); 3: a local miner's sensor readings (columns of sample
 * and the summaries); 4: whether a miner's name is a rigs file's (miner.named); 5: the notifications' outbox, claims,
 * writers and mutes (notify/outbox/, docs/notify-delivery.md). A store of an older version gains them when opened for
 * writing.
 */
export const SCHEMA_VERSION = 5;
/** The whole store's bound by default: SQLite refuses to grow the file past it. */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** Above this share of the bound, miners seen longest ago are dropped (down to EVICT_TO). */
const EVICT_AT = 0.85;
const EVICT_TO = 0.7;
/** How long a write waits for another rigtop's write to finish before trying again at the next flush. */
const BUSY_WAIT_MS = 250;
/** Set-aside files kept (older ones are removed). */
const KEEP_SET_ASIDE = 3;

/** A summary tier's table (summary_1m, summary_10m): one bucket per row, a miner's rows in time order. */
function summaryTableSql(name: string): string {
	return `CREATE TABLE IF NOT EXISTS ${name} (
	miner INTEGER NOT NULL,
	t INTEGER NOT NULL,
	n INTEGER NOT NULL, live INTEGER NOT NULL, hr_n INTEGER NOT NULL,
	pool INTEGER NOT NULL, paused INTEGER NOT NULL, link INTEGER NOT NULL,
	hr_min REAL, hr_avg REAL, hr_max REAL, hr60 REAL, hr15 REAL,
	good INTEGER, total INTEGER, rejected INTEGER,
	sensors TEXT,
	PRIMARY KEY (miner, t)
) WITHOUT ROWID;`;
}

/**
 * Version 3: a local miner's sensor readings (source/sensors/), one TEXT column `sensors` of `sample` and of the
 * summaries, null where none was read (a rig on another machine, a proxy: one byte a row); tiers.ts has its form.
 */
const SENSOR_TABLES = ['sample', 'summary_1m', 'summary_10m'] as const;

/**
 * Version 2: a proxy's worker is a stored subject of its own — a row of `miner` (kind 'proxy-worker', no ids, a URL
 * of its own) whose polls and summaries are kept like a miner's — tied here to its proxy and its name. Events about a
 * worker are the proxy's, with the worker's name in `event.worker`.
 */
const PROXY_WORKER_SQL = `CREATE TABLE IF NOT EXISTS proxy_worker (
	miner INTEGER PRIMARY KEY,
	proxy INTEGER NOT NULL,
	name TEXT NOT NULL,
	UNIQUE (proxy, name)
);`;

/**
 * Version 5: notifications (issue 38, docs/notify-delivery.md). `notify_outbox`: one row per notice per channel,
 * written before it is sent (UNIQUE (channel, key): a key is never sent twice by anyone sharing the store); `channel`
 * is the channel's id (a hash of its URL: never the URL). `notify_claim`: who sends a trouble (a rig's URL and worker,
 * the trouble, since when), held by a writer with a lease. `notify_writer`: each rigtop that posts (its pid, host and
 * start id) and its lease, so a dead one's pending notices are recovered. `notify_mute`: a rig (name or URL) muted
 * until a time.
 */
export const NOTIFY_SQL = `CREATE TABLE IF NOT EXISTS notify_outbox (
	id INTEGER PRIMARY KEY,
	channel TEXT NOT NULL,
	key TEXT NOT NULL,
	notice TEXT NOT NULL,
	state TEXT NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	first_try INTEGER,
	next_try INTEGER NOT NULL,
	reason TEXT,
	writer TEXT NOT NULL,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	UNIQUE (channel, key)
);
CREATE INDEX IF NOT EXISTS notify_outbox_state ON notify_outbox (state, writer);
CREATE TABLE IF NOT EXISTS notify_claim (
	id INTEGER PRIMARY KEY,
	rig TEXT NOT NULL,
	trouble TEXT NOT NULL,
	since INTEGER NOT NULL,
	holder TEXT NOT NULL,
	lease INTEGER NOT NULL,
	ended INTEGER
);
CREATE INDEX IF NOT EXISTS notify_claim_rig ON notify_claim (rig, trouble, since);
CREATE TABLE IF NOT EXISTS notify_writer (
	writer TEXT PRIMARY KEY,
	pid INTEGER NOT NULL,
	host TEXT NOT NULL,
	started INTEGER NOT NULL,
	lease INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS notify_mute (
	rig TEXT PRIMARY KEY,
	until INTEGER NOT NULL
);`;

/** The tables of version 5 (a version 5 store without one is damaged). */
export const NOTIFY_TABLES = ['notify_outbox', 'notify_claim', 'notify_writer', 'notify_mute'] as const;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS miner (
	miner INTEGER PRIMARY KEY,
	api_id TEXT UNIQUE,
	worker TEXT,
	host TEXT NOT NULL,
	url TEXT NOT NULL,
	name TEXT NOT NULL,
	named INTEGER NOT NULL DEFAULT 0,
	kind TEXT,
	first_seen INTEGER NOT NULL,
	last_seen INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS miner_worker ON miner (worker, host);
CREATE INDEX IF NOT EXISTS miner_url ON miner (url);
CREATE TABLE IF NOT EXISTS sample (
	miner INTEGER NOT NULL,
	t INTEGER NOT NULL,
	link INTEGER NOT NULL,
	hr10 REAL, hr60 REAL, hr15 REAL,
	good INTEGER, total INTEGER, rejected INTEGER,
	pool INTEGER, paused INTEGER,
	sensors TEXT,
	PRIMARY KEY (miner, t)
) WITHOUT ROWID;
${summaryTableSql('summary_1m')}
${summaryTableSql('summary_10m')}
CREATE TABLE IF NOT EXISTS event (
	id INTEGER PRIMARY KEY,
	miner INTEGER NOT NULL,
	t INTEGER NOT NULL,
	kind TEXT NOT NULL,
	severity TEXT NOT NULL,
	text TEXT NOT NULL,
	writer INTEGER NOT NULL,
	worker TEXT
);
CREATE INDEX IF NOT EXISTS event_miner_t ON event (miner, t);
${PROXY_WORKER_SQL}
${NOTIFY_SQL}
`;

export type HistoryStoreOptions = {
	/** The store's file. */
	readonly file: string;
	/** Bound of the whole file, bytes (default 256 MiB). */
	readonly maxBytes?: number;
	/** One-line notices: a file set aside, history turned off. */
	readonly notify?: (line: string) => void;
	/**
	 * Read only (`rigtop history`): never creates, migrates or sets aside anything; a missing or unusable store
	 * is reported through `offReason`.
	 */
	readonly readOnly?: boolean;
	/** The clock (tests); default Date.now. */
	readonly now?: () => number;
};

type Params = readonly SQLInputValue[];

/**
 * An open store (or one that is off: every method then does nothing and reads return nothing). Methods never
 * throw: trouble is handled by the rules above and told through `notify`.
 */
export class HistoryStore {
	readonly file: string;
	readonly maxBytes: number;
	readonly readOnly: boolean;
	readonly #notify: (line: string) => void;
	readonly #now: () => number;
	#db: DatabaseSync | null = null;
	#statements = new Map<string, StatementSync>();
	#offReason: string | null = null;
	/** Changes whenever a fresh file replaces the open one: miner ids of the old file mean nothing in it. */
	#generation = 0;
	#setAsideThisRun = 0;
	#inode: {dev: number; ino: number} | null = null;
	/** The open file's schema version (a read-only store of version 1 has no workers). */
	#version = SCHEMA_VERSION;

	private constructor(options: HistoryStoreOptions) {
		this.file = options.file;
		this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
		this.readOnly = options.readOnly === true;
		this.#notify = options.notify ?? (() => undefined);
		this.#now = options.now ?? Date.now;
	}

	/** Opens (creating when needed) the store. Never throws: a store that cannot be used is returned off. */
	static open(options: HistoryStoreOptions): HistoryStore {
		const store = new HistoryStore(options);
		store.#openFile(true);
		return store;
	}

	/** Whether history is being kept. */
	get enabled(): boolean {
		return this.#db !== null;
	}

	/** Why history is off (one line), or null while on. */
	get offReason(): string | null {
		return this.#offReason;
	}

	get generation(): number {
		return this.#generation;
	}

	/** Whether the open file knows a proxy's workers (version 2 and later). */
	get hasWorkers(): boolean {
		return this.#db !== null && this.#version >= 2;
	}

	/** Whether the open file has the sensor columns (version 3 and later; a read-only older store reads them as none). */
	get hasSensors(): boolean {
		return this.#db !== null && this.#version >= 3;
	}

	/** Whether the open file has the notifications' tables (version 5 and later; a read-only older store has none). */
	get hasNotify(): boolean {
		return this.#db !== null && this.#version >= 5;
	}

	/** The open connection, for the writer and the reader of this module (null while off). */
	get db(): DatabaseSync | null {
		return this.#db;
	}

	/** A cached prepared statement. */
	statement(sql: string): StatementSync {
		const db = this.#db;
		if (!db) throw new StoreProblem('other', 'the history store is closed');
		let statement = this.#statements.get(sql);
		if (!statement) {
			statement = db.prepare(sql);
			this.#statements.set(sql, statement);
		}

		return statement;
	}

	run(sql: string, ...params: Params): {changes: number | bigint; lastInsertRowid: number | bigint} {
		return this.statement(sql).run(...params);
	}

	get<T>(sql: string, ...params: Params): T | undefined {
		return this.statement(sql).get(...params) as T | undefined;
	}

	all<T>(sql: string, ...params: Params): T[] {
		return this.statement(sql).all(...params) as T[];
	}

	/**
	 * Runs `work` in one write transaction and applies the store's rules to any failure: busy → false (try again
	 * later); damaged → the file is set aside, a fresh one opened, false; full → room is made and `work` tried
	 * once more, else history off; anything else → history off. True when committed.
	 */
	write(work: () => void): boolean {
		for (let attempt = 0; attempt < 2; attempt++) {
			if (!this.#db || this.readOnly) return false;
			try {
				this.#transaction(work);
				return true;
			} catch (error) {
				const trouble = classify(error);
				if (trouble === 'full' && attempt === 0 && this.#makeRoom(true)) continue;
				this.#fail(trouble, error);
				return false;
			}
		}

		return false;
	}

	/** Runs a read; on failure applies the same rules as write() and returns `fallback`. */
	read<T>(work: () => T, fallback: T): T {
		if (!this.#db) return fallback;
		try {
			return work();
		} catch (error) {
			this.#fail(classify(error), error);
			return fallback;
		}
	}

	/**
	 * Keeps the store within its bounds: per-miner tiers by age and row count, events likewise, and the whole
	 * file under its bound. Also notices when the file was moved or deleted under rigtop (another rigtop set it
	 * aside, the user removed it) and opens the file now at the path.
	 */
	maintain(now: number, miners?: readonly number[]): void {
		if (!this.#db || this.readOnly) return;
		if (this.#replacedOnDisk()) {
			this.#closeDb();
			this.#generation++;
			this.#openFile(false);
			return;
		}

		this.write(() => {
			const ids = miners ?? this.all<{miner: number}>('SELECT miner FROM miner').map((row) => row.miner);
			for (const miner of ids) this.#prune(miner, now);
		});
		this.#makeRoom(false);
	}

	/** Bytes the store's pages hold (its live data, free pages excluded). */
	usedBytes(): number {
		return this.read(() => {
			const pages = this.get<{page_count: number}>('PRAGMA page_count')?.page_count ?? 0;
			const free = this.get<{freelist_count: number}>('PRAGMA freelist_count')?.freelist_count ?? 0;
			const size = this.get<{page_size: number}>('PRAGMA page_size')?.page_size ?? 4096;
			return (pages - free) * size;
		}, 0);
	}

	/** Writes what the WAL holds into the main file (the file is whole either way; this only tidies). */
	checkpoint(): void {
		this.read(() => this.#db?.exec('PRAGMA wal_checkpoint(PASSIVE)'), undefined);
	}

	close(): void {
		this.#closeDb();
	}

	// ---- opening ----

	#openFile(first: boolean): void {
		try {
			this.#db = this.#connect();
			this.#offReason = null;
		} catch (error) {
			this.#closeDb();
			const trouble = classify(error);
			if ((trouble === 'damaged' || trouble === 'foreign') && !this.readOnly && this.#setAsideThisRun < 2) {
				this.#setAside(trouble, error);
				this.#generation += first ? 0 : 1;
				this.#openFile(first);
				return;
			}

			this.#off(this.#reasonText(trouble, error));
		}
	}

	#connect(): DatabaseSync {
		const {DatabaseSync} = loadSqlite();
		const directory = path.dirname(this.file);
		if (this.readOnly) {
			if (!existsSync(this.file)) throw new StoreProblem('other', `no history is stored yet (${shownPath(this.file)} does not exist)`);
			const db = new DatabaseSync(this.file, {readOnly: true});
			try {
				db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
				this.#db = db;
				this.#statements = new Map();
				this.#checkIdentity(db, false);
				return db;
			} catch (error) {
				db.close();
				throw error;
			}
		}

		makeDirectorySync(directory, 0o700);
		withoutOthers(directory);
		// Created here with 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database file's mode.
		const fd = openSync(this.file, 'a', 0o600);
		try {
			const stat = fstatSync(fd);
			// Others lose what they had; the owner gains nothing (a read-only file stays one).
			if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(this.file, stat.mode & 0o700);
			this.#inode = {dev: stat.dev, ino: stat.ino};
		} finally {
			closeSync(fd);
		}

		const db = new DatabaseSync(this.file);
		try {
			db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
			this.#db = db;
			this.#statements = new Map();
			const fresh = this.#checkIdentity(db, true);
			if (fresh) {
				// Before the first table: lets the file give pages back after large deletes (PRAGMA incremental_vacuum).
				// 1 KiB pages: a commit of a few polls writes one page to the WAL, so the smaller the page, the fewer bytes
				// written a day (measured: 4 KiB pages wrote 2.3 times as much; docs/history.md). Before auto_vacuum,
				// which fixes the page size.
				db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
				db.exec('PRAGMA auto_vacuum = INCREMENTAL');
			}

			db.exec('PRAGMA journal_mode = WAL');
			db.exec('PRAGMA synchronous = NORMAL');
			db.exec('PRAGMA journal_size_limit = 4194304');
			const pageSize = (db.prepare('PRAGMA page_size').get() as {page_size: number}).page_size;
			db.exec(`PRAGMA max_page_count = ${Math.max(16, Math.floor(this.maxBytes / pageSize))}`);
			if (fresh) {
				this.#transaction(() => {
					db.exec(SCHEMA);
					db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
					db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
				});
				this.#version = SCHEMA_VERSION;
			}

			return db;
		} catch (error) {
			this.#statements = new Map();
			this.#db = null;
			db.close();
			throw error;
		}
	}

	/** Checks the file is rigtop's; returns true when it is empty (to be created). Throws StoreProblem otherwise. */
	#checkIdentity(db: DatabaseSync, mayCreate: boolean): boolean {
		const appId = (db.prepare('PRAGMA application_id').get() as {application_id: number}).application_id;
		const version = (db.prepare('PRAGMA user_version').get() as {user_version: number}).user_version;
		const objects = (db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as {n: number}).n;
		if (appId === 0 && version === 0 && objects === 0) {
			if (!mayCreate) throw new StoreProblem('other', 'no history is stored yet');
			return true;
		}

		if (appId !== APPLICATION_ID) throw new StoreProblem('foreign', 'the file belongs to another program');
		if (version > SCHEMA_VERSION) {
			throw new StoreProblem('newer', `it was written by a newer rigtop (store version ${version}; this rigtop knows ${SCHEMA_VERSION})`);
		}

		// A table that is missing means damage.
		const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {name: string}[];
		const needed = [
			'miner',
			'sample',
			'summary_1m',
			'summary_10m',
			'event',
			...(version >= 2 ? ['proxy_worker'] : []),
			...(version >= 5 ? NOTIFY_TABLES : []),
		];
		for (const name of needed) {
			if (!tables.some((table) => table.name === name)) throw new StoreProblem('damaged', `its ${name} table is missing`);
		}

		this.#version = version;
		// Version 1 → 2: the proxies' workers; 2 → 3: the sensor columns; 3 → 4: miner.named; 4 → 5: the notifications' tables (ALTER TABLE … ADD COLUMN changes the schema
		// only: the rows stay as they are and read the new columns as null). Read only (`rigtop history`), an older store
		// is read as it is.
		if (version < SCHEMA_VERSION && mayCreate) {
			this.#transaction(() => {
				// Another rigtop may have migrated it between the read above and this transaction.
				const now = (db.prepare('PRAGMA user_version').get() as {user_version: number}).user_version;
				if (now < 2) {
					db.exec('ALTER TABLE event ADD COLUMN worker TEXT');
					db.exec(PROXY_WORKER_SQL);
				}

				if (now < 3) for (const table of SENSOR_TABLES) db.exec(`ALTER TABLE ${table} ADD COLUMN sensors TEXT`);
				// 3 → 4: a name that is not the worker id or host:port was a rigs file's (the older rigtops named a rig so).
				if (now < 4) {
					db.exec('ALTER TABLE miner ADD COLUMN named INTEGER NOT NULL DEFAULT 0');
					db.exec(`UPDATE miner SET named = 1 WHERE NOT (name = coalesce(worker, '') OR substr(name, 1, length(host) + 1) = host || ':')`);
				}

				// 4 → 5: new tables only (CREATE … IF NOT EXISTS: another rigtop may have made them).
				if (now < 5) db.exec(NOTIFY_SQL);
				if (now < SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
			});
			this.#version = SCHEMA_VERSION;
		}

		return false;
	}

	// ---- failures ----

	#fail(trouble: Trouble, error: unknown): void {
		if (trouble === 'busy') return;
		this.#closeDb();
		if (trouble === 'damaged' && !this.readOnly && this.#setAsideThisRun < 2) {
			this.#setAside(trouble, error);
			this.#generation++;
			this.#openFile(false);
			return;
		}

		this.#off(this.#reasonText(trouble, error));
	}

	#reasonText(trouble: Trouble, error: unknown): string {
		const where = shownPath(this.file);
		switch (trouble) {
			case 'full':
				return `history off: the disk is full (or the store reached its bound, ${sizeText(this.maxBytes)}) writing ${where}`;
			case 'not-writable': {
				const folder = unmadeFolder(error);
				if (folder !== null)
					return `history off: the folder ${shownPath(folder)} cannot be made (${fsCode(error) ?? detail(error)}); set XDG_STATE_HOME to a writable folder`;
				return `history off: ${where} cannot be written (${detail(error)}); fix its folder's permissions or set XDG_STATE_HOME`;
			}

			case 'newer':
			case 'foreign':
			case 'damaged':
				return `history off: ${where} cannot be used: ${detail(error)}`;
			default:
				if (this.readOnly && error instanceof StoreProblem) return error.message;
				return `history off: ${where}: ${detail(error)}`;
		}
	}

	#off(reason: string): void {
		const first = this.#offReason === null;
		this.#offReason = reason;
		if (first && !this.readOnly) this.#notify(reason);
	}

	#setAside(trouble: Trouble, error: unknown): void {
		this.#setAsideThisRun++;
		const stamp = new Date().toISOString().replaceAll(':', '-');
		const aside = `${this.file}.${trouble === 'foreign' ? 'foreign' : 'damaged'}-${stamp}`;
		try {
			renameSync(this.file, aside);
			for (const suffix of ['-wal', '-journal']) {
				try {
					renameSync(`${this.file}${suffix}`, `${aside}${suffix}`);
				} catch {
					// none
				}
			}

			try {
				unlinkSync(`${this.file}-shm`);
			} catch {
				// none
			}
		} catch (renameError) {
			this.#off(this.#reasonText(classify(renameError), renameError));
			return;
		}

		this.#pruneSetAside();
		const why = trouble === 'foreign' ? 'a file of another program' : `damaged (${detail(error)})`;
		this.#notify(`history: the store was ${why}: set aside as ${shownPath(aside)}; started a fresh one`);
	}

	#pruneSetAside(): void {
		const directory = path.dirname(this.file);
		const prefix = `${path.basename(this.file)}.`;
		try {
			const stamped = readdirSync(directory)
				.filter((name) => name.startsWith(prefix) && /^(damaged|foreign)-[\dT.Z-]+$/.test(name.slice(prefix.length)))
				.map((name) => ({name, stamp: name.slice(prefix.length).replace(/^[a-z]+-/, '')}))
				.sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : 0));
			for (const {name} of stamped.slice(0, Math.max(0, stamped.length - KEEP_SET_ASIDE))) {
				for (const suffix of ['', '-wal', '-journal']) {
					try {
						unlinkSync(path.join(directory, `${name}${suffix}`));
					} catch {
						// gone
					}
				}
			}
		} catch {
			// Keeping a few more set-aside files is harmless.
		}
	}

	#replacedOnDisk(): boolean {
		if (this.#inode === null) return false;
		try {
			const stat = statSync(this.file);
			return stat.ino !== this.#inode.ino || stat.dev !== this.#inode.dev;
		} catch {
			return true;
		}
	}

	#closeDb(): void {
		const db = this.#db;
		this.#db = null;
		this.#statements = new Map();
		if (db) {
			try {
				db.close();
			} catch {
				// already unusable
			}
		}
	}

	#transaction(work: () => void): void {
		const db = this.#db;
		if (!db) throw new StoreProblem('other', 'the history store is closed');
		db.exec('BEGIN IMMEDIATE');
		try {
			work();
			db.exec('COMMIT');
		} catch (error) {
			try {
				db.exec('ROLLBACK');
			} catch {
				// SQLite already rolled back (on SQLITE_FULL, for one).
			}

			throw error;
		}
	}

	// ---- bounds ----

	#prune(miner: number, now: number): void {
		this.run('DELETE FROM sample WHERE miner = ? AND t < ?', miner, now - SAMPLE_TIER.keepMs);
		this.run(
			'DELETE FROM sample WHERE miner = ? AND t <= (SELECT t FROM sample WHERE miner = ? ORDER BY t DESC LIMIT 1 OFFSET ?)',
			miner,
			miner,
			SAMPLE_TIER.maxRows,
		);
		for (const tier of SUMMARY_TIERS) {
			this.run(`DELETE FROM ${tier.table} WHERE miner = ? AND t < ?`, miner, now - tier.keepMs);
			this.run(
				`DELETE FROM ${tier.table} WHERE miner = ? AND t <= (SELECT t FROM ${tier.table} WHERE miner = ? ORDER BY t DESC LIMIT 1 OFFSET ?)`,
				miner,
				miner,
				tier.maxRows,
			);
		}

		this.run('DELETE FROM event WHERE miner = ? AND t < ?', miner, now - EVENT_KEEP_MS);
		this.run(
			'DELETE FROM event WHERE miner = ? AND id IN (SELECT id FROM event WHERE miner = ? ORDER BY t DESC, id DESC LIMIT -1 OFFSET ?)',
			miner,
			miner,
			EVENT_MAX_ROWS,
		);
		this.run(
			`DELETE FROM event WHERE miner = ? AND id IN (
				SELECT id FROM (SELECT id, sum(length(CAST(text AS BLOB)) + ?) OVER (ORDER BY t DESC, id DESC) AS bytes FROM event WHERE miner = ?)
				WHERE bytes > ?)`,
			miner,
			EVENT_ROW_OVERHEAD,
			miner,
			EVENT_MAX_BYTES,
		);
		// A miner with nothing left (not seen for the longest span kept) goes too.
		this.run(
			'DELETE FROM miner WHERE miner = ? AND last_seen < ? AND NOT EXISTS (SELECT 1 FROM summary_1m WHERE miner = ?) AND NOT EXISTS (SELECT 1 FROM summary_10m WHERE miner = ?) AND NOT EXISTS (SELECT 1 FROM sample WHERE miner = ?) AND NOT EXISTS (SELECT 1 FROM event WHERE miner = ?)',
			miner,
			now - SAMPLE_TIER.keepMs,
			miner,
			miner,
			miner,
			miner,
		);
		if (this.hasWorkers)
			this.run('DELETE FROM proxy_worker WHERE miner = ? AND NOT EXISTS (SELECT 1 FROM miner WHERE miner = ?)', miner, miner);
	}

	/**
	 * Near the bound (or, with `urgent`, at it), drops whole miners, the one seen longest ago first, never one seen
	 * in the last hour, until the store is well under the bound. True when something was dropped.
	 */
	#makeRoom(urgent: boolean): boolean {
		if (!this.#db || this.readOnly) return false;
		try {
			if (!urgent && this.usedBytes() < this.maxBytes * EVICT_AT) return false;
			const recent = this.#now() - 60 * 60_000;
			const candidates = this.all<{miner: number}>('SELECT miner FROM miner WHERE last_seen < ? ORDER BY last_seen', recent);
			let dropped = false;
			for (const {miner} of candidates) {
				this.#transaction(() => {
					for (const table of ['sample', 'summary_1m', 'summary_10m', 'event', 'miner'])
						this.run(`DELETE FROM ${table} WHERE miner = ?`, miner);
					// A worker's tie to its proxy goes with either.
					if (this.hasWorkers) this.run('DELETE FROM proxy_worker WHERE miner = ? OR proxy = ?', miner, miner);
				});
				dropped = true;
				if (this.usedBytes() < this.maxBytes * EVICT_TO) break;
			}

			if (dropped) this.#db.exec('PRAGMA incremental_vacuum');
			return dropped;
		} catch {
			return false;
		}
	}
}

/**
 * Takes group's and others' rights off a directory of ours (it holds the miners' history); the owner's rights are
 * left as they are (a folder made read-only stays read-only). A folder someone else owns is left alone.
 */
function withoutOthers(directory: string): void {
	try {
		const stat = statSync(directory);
		if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(directory, stat.mode & 0o700);
	} catch {
		// The open that follows reports what matters.
	}
}

function sizeText(bytes: number): string {
	return bytes >= 2 ** 20 ? `${Math.round(bytes / 2 ** 20)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
