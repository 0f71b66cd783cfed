/**
 * Node's built-in SQLite (`node:sqlite`), loaded without its ExperimentalWarning reaching the screen.
 *
 * Node 22 marks `node:sqlite` experimental: the first time the module loads, Node calls
 * `process.emitWarning('SQLite is an experimental feature…', 'ExperimentalWarning')`, and the default
 * handler prints it to stderr on the next tick — over the live dashboard's alternate screen, or in the
 * middle of a --once report. Node 26 prints nothing.
 *
 * The warning is emitted synchronously while the module loads (lib/sqlite.js calls
 * emitExperimentalWarning at its top), so the module is loaded with `process.getBuiltinModule()` — a
 * synchronous call, not a static import that would run before any of rigtop's code — while
 * `process.emitWarning` is replaced by a filter that drops that one warning (its type and its exact
 * text) and passes every other warning on unchanged. The original function is back as soon as the
 * module has loaded. No flag (`--disable-warning`, `--no-warnings`) is needed, no listener of
 * anybody else is removed, and every other warning of the process still prints.
 */
import process from 'node:process';
import type * as Sqlite from 'node:sqlite';

export type {DatabaseSync, StatementSync, SQLInputValue} from 'node:sqlite';

type SqliteModule = typeof Sqlite;

let loaded: SqliteModule | null = null;

/** Whether `warning` is the ExperimentalWarning Node 22 gives for node:sqlite. */
export function isSqliteExperimentalWarning(warning: unknown, type: unknown): boolean {
	const text = warning instanceof Error ? warning.message : String(warning);
	const name = warning instanceof Error ? warning.name : typeof type === 'string' ? type : (type as {type?: unknown} | undefined)?.type;
	return name === 'ExperimentalWarning' && /^SQLite is an experimental feature\b/.test(text);
}

/** node:sqlite, loaded once; throws when this Node has none (rigtop's floor, 22.13, has it unflagged). */
export function loadSqlite(): SqliteModule {
	if (loaded) return loaded;
	const original = process.emitWarning;
	const filtered = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
		if (isSqliteExperimentalWarning(warning, rest[0])) return;
		Reflect.apply(original, process, [warning, ...rest]);
	} as typeof process.emitWarning;
	process.emitWarning = filtered;
	try {
		const module = process.getBuiltinModule('node:sqlite') as SqliteModule | undefined;
		if (!module) throw new Error('this Node has no node:sqlite');
		loaded = module;
		return module;
	} finally {
		// Only undo our own replacement: something that replaced it meanwhile keeps its own.
		if (process.emitWarning === filtered) process.emitWarning = original;
	}
}
