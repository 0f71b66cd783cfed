/**
 * Where the outbox keeps its rows: the history's store (its SQLite file, schema version 5), or — with the store off
 * (`--no-history`, a read-only folder, a full disk, one that turned off since) — a SQLite database in memory with the
 * same tables, so the outbox's code is one and notifications go on (not kept across a restart). docs/notify-delivery.md.
 */
import type {HistoryStore} from '../../history/store.js';
import {NOTIFY_SQL} from '../../history/store.js';
import {loadSqlite, type DatabaseSync, type SQLInputValue, type StatementSync} from '../../history/sqlite.js';
import {sqliteCode, StoreProblem} from '../../history/trouble.js';

type Params = readonly SQLInputValue[];

/** The few calls the outbox makes; every one never throws. */
export type OutboxDb = {
	/** Whether the rows are kept in the store's file (false: in memory). */
	readonly kept: boolean;
	/** One write transaction; false when it could not be made (busy, or the store turned off: see `off`). */
	write(work: () => void): boolean;
	run(sql: string, ...params: Params): {changes: number | bigint};
	get<T>(sql: string, ...params: Params): T | undefined;
	all<T>(sql: string, ...params: Params): T[];
	/** A read; `fallback` on failure. */
	read<T>(work: () => T, fallback: T): T;
};

/** The history store's file, while it is on and of version 5. */
export class FileDb implements OutboxDb {
	readonly kept = true;
	readonly #store: HistoryStore;
	constructor(store: HistoryStore) {
		this.#store = store;
	}

	/** Whether the store can hold the outbox now (on, written by this rigtop, version 5). */
	get usable(): boolean {
		return this.#store.enabled && !this.#store.readOnly && this.#store.hasNotify;
	}

	/** Why the store cannot hold it (one line), or null. */
	get offReason(): string | null {
		if (this.usable) return null;
		const reason = this.#store.offReason;
		if (reason !== null) return reason.replace(/^history off: /, '');
		if (this.#store.readOnly) return 'the store is open read-only';
		if (!this.#store.enabled) return 'the store was closed';
		return 'the store has no outbox';
	}

	write(work: () => void): boolean {
		if (!this.usable) return false;
		return this.#store.write(() => {
			try {
				work();
			} catch (error) {
				// SQLite's own trouble follows the store's rules (full, damaged…); anything else is the outbox's and must
				// not turn the history off: rolled back like a busy store, and the outbox goes on from memory.
				if (sqliteCode(error) !== null || error instanceof StoreProblem) throw error;
				throw new StoreProblem('busy', error instanceof Error ? error.message : String(error));
			}
		});
	}

	run(sql: string, ...params: Params): {changes: number | bigint} {
		return this.#store.run(sql, ...params);
	}

	get<T>(sql: string, ...params: Params): T | undefined {
		return this.#store.get<T>(sql, ...params);
	}

	all<T>(sql: string, ...params: Params): T[] {
		return this.#store.all<T>(sql, ...params);
	}

	read<T>(work: () => T, fallback: T): T {
		if (!this.usable) return fallback;
		return this.#store.read(work, fallback);
	}
}

/** The same tables in memory: the outbox while the store is off. */
export class MemoryDb implements OutboxDb {
	readonly kept = false;
	readonly #db: DatabaseSync;
	readonly #statements = new Map<string, StatementSync>();
	constructor() {
		const {DatabaseSync} = loadSqlite();
		this.#db = new DatabaseSync(':memory:');
		this.#db.exec(NOTIFY_SQL);
	}

	#statement(sql: string): StatementSync {
		let statement = this.#statements.get(sql);
		if (!statement) {
			statement = this.#db.prepare(sql);
			this.#statements.set(sql, statement);
		}

		return statement;
	}

	write(work: () => void): boolean {
		try {
			this.#db.exec('BEGIN IMMEDIATE');
			try {
				work();
				this.#db.exec('COMMIT');
				return true;
			} catch {
				this.#db.exec('ROLLBACK');
				return false;
			}
		} catch {
			return false;
		}
	}

	run(sql: string, ...params: Params): {changes: number | bigint} {
		return this.#statement(sql).run(...params);
	}

	get<T>(sql: string, ...params: Params): T | undefined {
		return this.#statement(sql).get(...params) as T | undefined;
	}

	all<T>(sql: string, ...params: Params): T[] {
		return this.#statement(sql).all(...params) as T[];
	}

	read<T>(work: () => T, fallback: T): T {
		try {
			return work();
		} catch {
			return fallback;
		}
	}

	close(): void {
		try {
			this.#db.close();
		} catch {
			// closed
		}
	}
}
