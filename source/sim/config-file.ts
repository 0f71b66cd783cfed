/**
 * The config document both simulators keep as the programs do: the text applied (what GET /1/config serves) and the
 * file "on disk" that an accepted PUT writes. With the watcher on (the simulator's option and the document's own
 * "watch"), the file, not the request, is read again ~delayMs after the last write (XMRig's 500 ms debounce); with
 * it off, or when the file cannot be written, the PUT applies at once. A file the program cannot load leaves the old
 * config.
 */
import {saveConfigFile, type PutOutcome} from './pipeline.js';

export type CheckedConfig<S> = {readonly ok: true; readonly settings: S} | {readonly ok: false; readonly parseError: string | null};

export type ConfigFileOptions<S> = {
	/** A file the document is written to on every accepted PUT; unwritable → applied in memory only. */
	readonly path: string | undefined;
	/** The simulator's watch option (default true in both). */
	readonly watch: boolean;
	readonly delayMs: number;
	/** What the program makes of a document: its settings, or why it refuses it. */
	readonly check: (text: string) => CheckedConfig<S>;
	/** Applies a loaded document's settings (its text is `applied` when this runs). */
	readonly apply: (settings: S) => void;
};

export class ConfigFile<S extends {readonly watch: boolean}> {
	readonly #options: ConfigFileOptions<S>;
	#applied: string;
	#disk: string;
	#timer: NodeJS.Timeout | null = null;

	/** `text` is the document in force at the start, applied and on disk. */
	constructor(options: ConfigFileOptions<S>, text: string) {
		this.#options = options;
		this.#applied = text;
		this.#disk = text;
	}

	/** The document applied now. */
	get applied(): string {
		return this.#applied;
	}

	/** The file on disk (what a PUT wrote; equals `applied` once applied). */
	get disk(): string {
		return this.#disk;
	}

	/**
	 * A PUT: refused as the program refuses it, else saved (`stored` turns the body into what the program writes)
	 * and applied, now or when the watcher fires.
	 */
	put(sent: string, stored: (text: string) => string = (text) => text): PutOutcome {
		const check = this.#options.check(sent);
		if (!check.ok) return {ok: false, parseError: check.parseError};
		const text = stored(sent);
		const saved = this.#write(text);
		if (this.#options.watch && check.settings.watch && saved) {
			this.cancel();
			this.#timer = setTimeout(() => {
				this.#timer = null;
				this.#load();
			}, this.#options.delayMs);
			this.#timer.unref();
			return {ok: true};
		}
		this.#apply(text, check.settings);
		return {ok: true};
	}

	/** An outside edit of the file: applied at once (one the program cannot load is ignored). */
	edit(text: string): void {
		this.cancel();
		this.#write(text);
		this.#load();
	}

	/** Forgets a pending watcher apply (the process restarted, or the file changed again). */
	cancel(): void {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = null;
	}

	/** The host applied this text itself (a restarted process that read the file). */
	markApplied(text: string): void {
		this.#applied = text;
	}

	#write(text: string): boolean {
		if (!saveConfigFile(this.#options.path, text)) return false;
		this.#disk = text;
		return true;
	}

	#load(): void {
		const check = this.#options.check(this.#disk);
		if (check.ok) this.#apply(this.#disk, check.settings);
	}

	#apply(text: string, settings: S): void {
		this.#applied = text;
		this.#options.apply(settings);
	}
}
