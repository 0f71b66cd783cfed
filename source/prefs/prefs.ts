/**
 * What rigtop remembers between runs, per user, as k9s and btop do: the fleet's sort and filter, the chart's span and
 * the poll interval, in `$XDG_STATE_HOME/rigtop/prefs.json`. Read once at start; written when something changes, a
 * second after the last change (never on every frame) and at quit, whole into a temporary file renamed over the old
 * one, so a crash leaves the old file or the new, never half of one. A damaged file is set aside at start as the
 * history store sets its own aside (`prefs.json.damaged-TIME`, next to it), with one notice saying where, and the
 * defaults are used; an unreadable one gives one notice and the defaults, and is never written over that session. A
 * state folder that cannot be written gives one notice and the session goes on remembering nothing.
 * No React, nothing from the screens: the fleet's sort is kept by its column's id, which the fleet checks when it
 * starts with it (a sort it has no column for restores nothing).
 */
import {readFileSync, renameSync} from 'node:fs';
import {mkdir, rename, rm, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {jsonProblem} from '../text/json-errors.js';

export const PREFS_FILE_NAME = 'prefs.json';

/** A second after the last change: `+` pressed five times, or a filter typed, is one write. */
export const PREFS_WRITE_DELAY_MS = 1000;

/** The shortest interval rigtop polls at (cli/options.ts's MIN_INTERVAL_SECONDS); a shorter one remembered is ignored. */
const MIN_INTERVAL_MS = 250;

export type Prefs = {
	/** The fleet's sort: a sortable column's id ('r10'), or 'listed'. */
	readonly fleet?: {readonly sort: string; readonly reversed: boolean; readonly filter: string};
	/** The chart's span (ms): one of the chart's spans (ui/screens/chart/reduce.ts). */
	readonly chartSpanMs?: number;
	readonly intervalMs?: number;
};

/** Where each run reads and writes. */
export function prefsPath(stateDir: string): string {
	return path.join(stateDir, PREFS_FILE_NAME);
}

function errorCode(error: unknown): string | null {
	const code = (error as {code?: unknown} | null)?.code;
	return typeof code === 'string' ? code : null;
}

/** "permission denied (EACCES)": an error as a few words and its code. */
function reasonOf(error: unknown): string {
	const code = errorCode(error);
	const message = error instanceof Error ? error.message : String(error);
	const words = code === null ? null : new RegExp(`^${code}: ([^,]+)`).exec(message)?.[1];
	if (words) return `${words} (${code})`;
	return (message.split('\n')[0] ?? message) || 'unknown error';
}

/** What a sort's id looks like ('listed', 'r10', 'hpw'): the fleet checks that it has the column. */
const SORT_ID = /^[a-z][a-z\d]{0,15}$/u;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The values of a parsed file that rigtop can use; anything else (a key it does not know, a wrong type) is left out. */
export function prefsFrom(value: unknown): Prefs {
	if (!isRecord(value)) return {};
	const prefs: {-readonly [K in keyof Prefs]: Prefs[K]} = {};
	const fleet = value['fleet'];
	const sort = isRecord(fleet) ? fleet['sort'] : undefined;
	if (isRecord(fleet) && typeof sort === 'string' && SORT_ID.test(sort)) {
		prefs.fleet = {
			sort,
			reversed: fleet['reversed'] === true,
			filter: typeof fleet['filter'] === 'string' ? fleet['filter'] : '',
		};
	}

	const span = value['chartSpanMs'];
	if (typeof span === 'number' && Number.isFinite(span) && span > 0) prefs.chartSpanMs = span;
	const interval = value['intervalMs'];
	if (typeof interval === 'number' && Number.isFinite(interval) && interval >= MIN_INTERVAL_MS) prefs.intervalMs = Math.round(interval);
	return prefs;
}

/** Why the file read at start cannot be used: damaged (its problem, one line) or unreadable (the reason). */
export type PrefsTrouble = {readonly kind: 'damaged' | 'unreadable'; readonly detail: string};

/** The file read at start: its prefs, or why it cannot be used (none of either when there is no file yet). */
export function readPrefs(file: string): {readonly prefs: Prefs; readonly trouble: PrefsTrouble | null} {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		if (errorCode(error) === 'ENOENT') return {prefs: {}, trouble: null};
		return {prefs: {}, trouble: {kind: 'unreadable', detail: reasonOf(error)}};
	}

	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return {prefs: {}, trouble: {kind: 'damaged', detail: jsonProblem(text) ?? 'not valid JSON'}};
	}

	// Valid JSON that is not an object (a list, a number) is no file rigtop wrote: damaged too, never quietly replaced.
	if (!isRecord(value)) return {prefs: {}, trouble: {kind: 'damaged', detail: 'not a JSON object'}};
	return {prefs: prefsFrom(value), trouble: null};
}

/** The name a damaged file is set aside as, next to it: the history store's naming (`history.sqlite.damaged-TIME`). */
export function damagedName(file: string, now: Date = new Date()): string {
	return `${file}.damaged-${now.toISOString().replaceAll(':', '-')}`;
}

/**
 * Sets a damaged file aside before anything new is written; the notice says where it went. What must survive a
 * one-line event cut at 80 columns comes first: that the defaults are used, and the set-aside file's name.
 * When it cannot be moved, nothing is written over it this session (`keep` is false).
 */
function setAside(file: string, problem: string): {readonly notice: string; readonly keep: boolean} {
	const aside = damagedName(file);
	try {
		renameSync(file, aside);
	} catch (error) {
		return {
			notice: `using defaults, saving nothing this session: the remembered settings ${file} are damaged (${problem}) and could not be set aside: ${reasonOf(error)}`,
			keep: false,
		};
	}

	return {
		notice: `using defaults; kept ${path.basename(aside)} in ${path.dirname(aside)}: the remembered settings were damaged (${problem})`,
		keep: true,
	};
}

export type PrefsOptions = {
	/** The state folder (`$XDG_STATE_HOME/rigtop`). */
	readonly stateDir: string;
	readonly writeDelayMs?: number;
};

/**
 * The remembered settings of one run: `initial` as read at start (and `notice`, when the file could not be used),
 * `update` for each change (a write follows, debounced), `close` at quit (writes what is pending). When a write fails
 * it tells `onNotice` once and writes no more.
 */
export class PrefsFile {
	readonly initial: Prefs;
	readonly file: string;
	/** Why the file read at start could not be used (damaged, unreadable), or null. */
	readonly notice: string | null;
	/** Where the one notice of a failed write goes (the session's notices, once the screens run). */
	onNotice: (line: string) => void = () => {};
	readonly #stateDir: string;
	readonly #delayMs: number;
	#current: Prefs;
	#written: string;
	#timer: ReturnType<typeof setTimeout> | null = null;
	#writing: Promise<void> = Promise.resolve();
	/** A write failed, or the file read at start must not be written over (its notice said so): no more writes or notices. */
	#failed = false;
	#told: boolean;

	constructor(options: PrefsOptions) {
		this.#stateDir = options.stateDir;
		this.#delayMs = options.writeDelayMs ?? PREFS_WRITE_DELAY_MS;
		this.file = prefsPath(options.stateDir);
		const {prefs, trouble} = readPrefs(this.file);
		if (trouble?.kind === 'damaged') {
			const {notice, keep} = setAside(this.file, trouble.detail);
			this.notice = notice;
			this.#failed = !keep;
		} else if (trouble?.kind === 'unreadable') {
			// A file that cannot be read may still be one worth keeping (a mode or owner to fix): never written over.
			this.notice = `using defaults, saving nothing this session: could not read the remembered settings ${this.file}: ${trouble.detail}`;
			this.#failed = true;
		} else {
			this.notice = null;
		}

		this.#told = this.notice !== null;
		this.initial = prefs;
		this.#current = prefs;
		this.#written = JSON.stringify(prefs);
	}

	/** What would be written now. */
	get current(): Prefs {
		return this.#current;
	}

	/** Merges a change in; the file is written a moment after the last change, if anything differs from what it holds. */
	update(change: Prefs): void {
		this.#current = {...this.#current, ...change};
		if (this.#failed || JSON.stringify(this.#current) === this.#written) return;
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = setTimeout(() => {
			this.#timer = null;
			void this.#write();
		}, this.#delayMs);
		// A pending write never keeps rigtop running: close() writes it.
		this.#timer.unref();
	}

	/** Writes what is pending now; resolves when every write has finished (or failed). */
	async close(): Promise<void> {
		if (this.#timer !== null) {
			clearTimeout(this.#timer);
			this.#timer = null;
			void this.#write();
		}

		await this.#writing;
	}

	#write(): Promise<void> {
		this.#writing = this.#writing.then(async () => {
			const text = JSON.stringify(this.#current);
			if (this.#failed || text === this.#written) return;
			const temporary = `${this.file}.${process.pid}.tmp`;
			try {
				await mkdir(this.#stateDir, {recursive: true, mode: 0o700});
				await writeFile(temporary, `${JSON.stringify(this.#current, null, '\t')}\n`, {mode: 0o600});
				await rename(temporary, this.file);
				this.#written = text;
			} catch (error) {
				this.#failed = true;
				await rm(temporary, {force: true}).catch(() => undefined);
				// One notice a session: one said at start (a damaged file set aside) was it.
				if (this.#told) return;
				this.#told = true;
				this.onNotice(`could not remember the settings in ${this.file}: ${reasonOf(error)}; they last for this session`);
			}
		});
		return this.#writing;
	}
}
