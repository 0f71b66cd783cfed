/**
 * One miner's config editing session, for the config view: reads the config, holds the pending
 * edits, applies them (conflict check, backup, PUT, read back) and undoes the last apply, all through
 * the engine (apply.ts). Plain TypeScript and subscribable (`subscribe` + `getState`, the state
 * object only changes when something changed), so components read it and never do I/O themselves.
 */
import {applyEdits, undoLast, type ApplyResult} from './apply.js';
import {defaultBackupDir} from './backups.js';
import {ConfigDocument} from './document.js';
import {PendingEdits, type EditOutcome} from './edits.js';
import {explainConfigError, problemText, type ConfigProblem} from './errors.js';
import {isAbortError} from '../miner/client.js';
import {Listeners, type Store} from '../monitor/store.js';
import {CONFIG_ENDPOINT} from './types.js';
import type {ConfigClient, ConfigPath, SealedText} from './types.js';

export type ConfigPhase = 'loading' | 'ready' | 'applying' | 'error';

/** What the last apply left, so `undo` can put the config as it was before it back. */
export type UndoTarget = {
	/** The backup written before that apply (the config as it was). */
	readonly backupPath: string;
	/** When that apply finished (epoch ms). */
	readonly at: number;
	/** The keys that apply changed (dotted), to say what an undo reverts. */
	readonly keys: readonly string[];
	/** Whether that was itself an undo (then `undo` re-applies what it undid). */
	readonly wasUndo: boolean;
};

export type ConfigSessionState = {
	readonly phase: ConfigPhase;
	/** What is running now: reading the config, applying edits, or undoing. */
	readonly busy: 'load' | 'apply' | 'undo' | null;
	/** The config as last read from the miner (the base of the edits); null before the first read. */
	readonly document: ConfigDocument | null;
	/** Pending edits over `document`; null before the first read. */
	readonly edits: PendingEdits | null;
	/** The outcome of the last apply or undo. */
	readonly lastResult: ApplyResult | null;
	/** Which action `lastResult` came from. */
	readonly lastAction: 'apply' | 'undo' | null;
	/** Counts results: a view shows a result panel while it has not seen this number. */
	readonly resultSeq: number;
	/** Why the last read failed, in plain words with the fix; null when it worked. */
	readonly problem: ConfigProblem | null;
	/** What `undo` would revert; null when nothing was applied in this session. */
	readonly lastApplied: UndoTarget | null;
	/** The last apply turned restricted mode on: the miner refuses an undo through its API (and every config read). */
	readonly undoBlocked: boolean;
	/** Writes (apply, undo) are off: --read-only. */
	readonly readOnly: boolean;
	/** When the config was last read from the miner (epoch ms). */
	readonly readAt: number | null;
	/** Whose token the writes use when the user gave none ("the command line of process 4242"): the questions say it. */
	readonly tokenFrom?: string;
};

export type ConfigSessionOptions = {
	readonly client: ConfigClient;
	/** Default: $XDG_STATE_HOME/rigtop/backups. */
	readonly backupDir?: string;
	readonly readOnly: boolean;
	/** Whether rigtop sends a token (sharpens the 401 message). */
	readonly tokenGiven?: boolean;
	/** Whose token it is when the user gave none (a running miner's: discovery/borrowed-token.ts). */
	readonly tokenFrom?: string | undefined;
	/** Called after every apply or undo that was attempted (the lead polls the monitor and logs it). */
	readonly onApplied?: (result: ApplyResult, action: 'apply' | 'undo') => void;
	/** Read-back timing (engine defaults: 5000 ms, every 200 ms). */
	readonly verifyTimeoutMs?: number;
	readonly verifyIntervalMs?: number;
	/** Backups kept per miner (default 50). */
	readonly keepBackups?: number;
	readonly now?: () => number;
};

/** Why a write was not even tried. */
export const READ_ONLY_MESSAGE = 'rigtop runs with --read-only: writes are off (no apply, undo, pause or resume)';

/** Why an edit, another write or leaving the config view waits: the one wording of `applying`. */
export const BUSY_MESSAGE = 'wait: a change is being applied';

/** Edits made on a read of the config the session no longer holds (it was read again meanwhile). */
export const STALE_EDITS_MESSAGE = "the miner's config was read again meanwhile: make the change again";

/** A change is being applied or undone: edits, writes and leaving the config view wait for it (BUSY_MESSAGE). */
export function applying(state: Pick<ConfigSessionState, 'busy'>): boolean {
	return state.busy === 'apply' || state.busy === 'undo';
}

/** The subset of ConfigSession the view uses (tests may pass any object of this shape). */
export type ConfigStore = Store<ConfigSessionState> &
	Pick<ConfigSession, 'ensureLoaded' | 'open' | 'load' | 'reload' | 'adopt' | 'discard' | 'apply' | 'undo'>;

export class ConfigSession implements Store<ConfigSessionState> {
	readonly #options: ConfigSessionOptions;
	readonly #listeners = new Listeners();
	readonly #abort = new AbortController();
	#state: ConfigSessionState;
	/** The config the last apply left on the miner (never shown; the undo conflict check needs it). */
	#applied: SealedText | null = null;
	#loading: Promise<void> | null = null;
	#disposed = false;

	constructor(options: ConfigSessionOptions) {
		this.#options = options;
		this.#state = {
			phase: 'loading',
			busy: null,
			document: null,
			edits: null,
			lastResult: null,
			lastAction: null,
			resultSeq: 0,
			problem: null,
			lastApplied: null,
			undoBlocked: false,
			readOnly: options.readOnly,
			readAt: null,
			...(options.tokenFrom === undefined ? {} : {tokenFrom: options.tokenFrom}),
		};
	}

	subscribe = (listener: () => void): (() => void) => {
		return this.#listeners.add(listener);
	};

	getState = (): ConfigSessionState => this.#state;

	/** Reads the config unless it was read already or is being read. */
	ensureLoaded(): Promise<void> {
		if (this.#loading) return this.#loading;
		if (this.#state.document !== null) return Promise.resolve();
		return this.load();
	}

	/**
	 * A new visit of the config view: the config is read again (the view waits for it rather than show what
	 * was read before), and the last visit's result is let go. The undo target stays for the whole rigtop session
	 * (apply, watch the hashrate on the dashboard, come back and undo): `u` asks first, naming the apply and its
	 * time, and the undo checks the miner's config against what that apply left, so a config changed since (by
	 * hand, another tool) is a conflict that changes nothing, never overwritten.
	 */
	open(): Promise<void> {
		if (applying(this.#state)) return Promise.resolve();
		this.#update({document: null, edits: null, lastResult: null, lastAction: null, problem: null, readAt: null});
		return this.load();
	}

	/** Reads the config from the miner. Pending edits are dropped (they were made on the old text). */
	load(): Promise<void> {
		if (this.#loading) return this.#loading;
		if (this.#state.busy !== null) return Promise.resolve();
		this.#update({phase: 'loading', busy: 'load'});
		this.#loading = this.#read().finally(() => {
			this.#loading = null;
		});
		return this.#loading;
	}

	/** Reads the config again (after a conflict: redo the changes on what the miner has now). */
	reload(): Promise<void> {
		return this.load();
	}

	/**
	 * Takes pending edits made elsewhere, as they are: the one way an edit reaches the session. The config view's
	 * reducer checks an edit by making it (PendingEdits is immutable), and the session keeps that result rather than
	 * compute the edit again. Refused,
	 * with the reason, as any edit is (read-only, not read yet, a change being applied), and when they were made on
	 * another read of the config than the one held now.
	 */
	adopt(edits: PendingEdits): EditOutcome {
		return this.#edit((current) => (edits.base === current.base ? {ok: true, edits} : {ok: false, message: STALE_EDITS_MESSAGE}));
	}

	/** Drops the pending change to one key, or all of them. */
	discard(path?: ConfigPath): void {
		const {edits} = this.#state;
		if (!edits || edits.size === 0) return;
		const next = edits.discard(path);
		if (next.size !== edits.size) this.#update({edits: next});
	}

	/**
	 * Applies the pending edits the safe way. Resolves to the result, or null when nothing was tried
	 * (read-only, busy, nothing read yet, no edits). On success the view continues from the config
	 * read back; after a conflict or failure the edits stay.
	 */
	async apply(): Promise<ApplyResult | null> {
		const {document, edits, busy, readOnly} = this.#state;
		if (readOnly || busy !== null || !document || !edits || edits.size === 0) return null;
		this.#update({phase: 'applying', busy: 'apply'});
		const result = await this.#run(() => applyEdits({...this.#engineOptions(), baseText: document.text, edits}));
		this.#finish(result, 'apply');
		return result;
	}

	/**
	 * Puts the config as it was before the last apply back (the same safe way: conflict check against
	 * what that apply left, a backup first, PUT, read back). Null when nothing was tried.
	 */
	async undo(): Promise<ApplyResult | null> {
		const {lastApplied, busy, readOnly} = this.#state;
		const applied = this.#applied;
		if (readOnly || busy !== null || !lastApplied || !applied) return null;
		this.#update({phase: 'applying', busy: 'undo'});
		const result = await this.#run(() => undoLast({...this.#engineOptions(), applied, backupPath: lastApplied.backupPath}));
		this.#finish(result, 'undo');
		return result;
	}

	/** Stops any request in flight; the session stays as it is and no longer notifies. */
	dispose(): void {
		this.#disposed = true;
		this.#abort.abort();
		this.#listeners.clear();
	}

	#engineOptions() {
		const options = this.#options;
		return {
			client: options.client,
			backupDir: options.backupDir ?? defaultBackupDir(),
			signal: this.#abort.signal,
			...(options.tokenGiven === undefined ? {} : {tokenGiven: options.tokenGiven}),
			...(options.verifyTimeoutMs === undefined ? {} : {verifyTimeoutMs: options.verifyTimeoutMs}),
			...(options.verifyIntervalMs === undefined ? {} : {verifyIntervalMs: options.verifyIntervalMs}),
			...(options.keepBackups === undefined ? {} : {keepBackups: options.keepBackups}),
		};
	}

	async #run(work: () => Promise<ApplyResult>): Promise<ApplyResult> {
		try {
			return await work();
		} catch (error) {
			// The engine reports failures as results; anything thrown is unexpected: say so, lose nothing.
			const text = error instanceof Error ? error.message : String(error);
			const problem: ConfigProblem = {
				kind: 'other',
				message: `the change could not be completed: ${text}`,
				fix: 'read the config again (R) and check it before changing more',
				detail: null,
			};
			return {
				status: 'failed',
				stage: 'put',
				problem,
				put: 'unanswered',
				backupPath: null,
				keys: [],
				message: problemText(problem),
			};
		}
	}

	#finish(result: ApplyResult, action: 'apply' | 'undo'): void {
		if (this.#disposed) return;
		const now = this.#now();
		const state = this.#state;
		const patch: {-readonly [K in keyof ConfigSessionState]?: ConfigSessionState[K]} = {
			phase: 'ready',
			busy: null,
			lastResult: result,
			lastAction: action,
			resultSeq: state.resultSeq + 1,
		};
		if (result.status === 'done') {
			const left = result.applied ?? result.sent;
			if (result.restrictedOn) {
				// The miner now refuses every config read and write: an undo could only be refused (the result says how
				// to turn it back in the config file), so none is offered.
				this.#applied = null;
				patch.lastApplied = null;
				patch.undoBlocked = true;
			} else {
				this.#applied = left;
				patch.lastApplied = {backupPath: result.backupPath, at: now, keys: result.keys.map((key) => key.path), wasUndo: action === 'undo'};
				patch.undoBlocked = false;
			}

			// Continue from what the miner has now (the read back, or what was sent when it can no longer be read),
			// with no pending edits.
			const document = parseOrNull(left.reveal());
			if (document) {
				patch.document = document;
				patch.edits = new PendingEdits(document);
				patch.readAt = now;
			}
		}

		this.#update(patch);
		this.#options.onApplied?.(result, action);
	}

	async #read(): Promise<void> {
		const {client, tokenGiven} = this.#options;
		const signal = this.#abort.signal;
		try {
			const text = await client.getText(CONFIG_ENDPOINT, signal);
			const document = new ConfigDocument(text);
			if (this.#disposed) return;
			this.#update({phase: 'ready', busy: null, document, edits: new PendingEdits(document), problem: null, readAt: this.#now()});
		} catch (error) {
			if (this.#disposed || isAbortError(error)) return;
			const problem = await explainConfigError(error, {client, operation: 'read', tokenGiven: tokenGiven ?? null, signal}).catch(
				(): ConfigProblem => ({kind: 'other', message: 'could not read the config', fix: 'try again', detail: null}),
			);
			if (this.#disposed) return;
			this.#update({phase: this.#state.document ? 'ready' : 'error', busy: null, problem});
		}
	}

	#edit(change: (edits: PendingEdits) => EditOutcome): EditOutcome {
		const {edits, readOnly, busy} = this.#state;
		if (readOnly) return {ok: false, message: READ_ONLY_MESSAGE};
		if (!edits) return {ok: false, message: "the miner's config has not been read yet"};
		if (applying({busy})) return {ok: false, message: BUSY_MESSAGE};
		const outcome = change(edits);
		if (outcome.ok && outcome.edits !== edits) this.#update({edits: outcome.edits});
		return outcome;
	}

	#now(): number {
		return this.#options.now ? this.#options.now() : Date.now();
	}

	#update(patch: Partial<ConfigSessionState>): void {
		if (this.#disposed) return;
		this.#state = {...this.#state, ...patch};
		this.#listeners.notify();
	}
}

function parseOrNull(text: string): ConfigDocument | null {
	try {
		return new ConfigDocument(text);
	} catch {
		return null;
	}
}
