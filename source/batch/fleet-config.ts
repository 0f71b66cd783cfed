/**
 * The fleet config view's session (`c` in the fleet with rigs marked): what it reads and writes, as the config view's
 * ConfigSession is for one rig. It reads each marked rig's config (a `read` batch: in parallel, at the batch's limit,
 * a down rig skipped), then sets one key on them (a `set` batch on the configs as read: each rig's own conflict check,
 * backup, whole document with only that edit, read-back), and undoes that batch (each rig's backup put back, if its
 * config is still what the apply left: undo-records.ts, the records `rigtop config undo --rigs` reads too). A
 * `Store<FleetConfigState>`: the view draws it and sends it the keys' effects; it never throws at the view.
 */
import {Listeners, type Store} from '../monitor/store.js';
import type {Assignment} from '../config/edits.js';
import {showPath} from '../config/json-values.js';
import {Batch, type BatchOptions} from './batch.js';
import type {BatchAction, BatchRig, BatchState, RigResult, UndoRecord} from './types.js';

/** A batch this session ran, as it goes: setting the key, or undoing that. */
export type FleetConfigRun = {
	readonly kind: 'set' | 'undo';
	/** "config set cpu.huge-pages-jit": the events' and the undo records' words. */
	readonly what: string;
	readonly batch: BatchState;
	/** The batch ended and its undo records are kept: its results are final (and `u` knows what it undoes). */
	readonly done: boolean;
};

export type FleetConfigState = {
	readonly rigs: readonly BatchRig[];
	/** The read of every rig's config as it goes (null before `open`). */
	readonly reading: BatchState | null;
	/** Each rig's read, once every rig has one (in the rigs' order): its config text, or why it was skipped. */
	readonly reads: readonly RigResult[] | null;
	/** The last batch run (the results pane), null once closed. */
	readonly run: FleetConfigRun | null;
	/** How many rigs the last apply (or undo) left an undo record for: what `u` puts back. */
	readonly undoable: number;
	/** A problem keeping the undo records (the apply stands); null when none. */
	readonly problem: string | null;
};

export type FleetConfigOptions = Pick<BatchOptions, 'parallel' | 'requestTimeoutMs' | 'verifyTimeoutMs' | 'verifyIntervalMs'> & {
	readonly rigs: readonly BatchRig[];
	readonly backupDir: string;
	/** The refusal words of the view's keys ("a adds it"). */
	readonly addHint: string;
	/** Each batch's results, once it ends (the live app writes each touched rig's event and polls it). */
	readonly onResults?: (results: readonly RigResult[], what: string) => void;
};

export class FleetConfigSession implements Store<FleetConfigState> {
	readonly #listeners = new Listeners();
	readonly #options: FleetConfigOptions;
	#state: FleetConfigState;
	#controller: AbortController | null = null;
	#records = new Map<string, UndoRecord>();
	#disposed = false;

	constructor(options: FleetConfigOptions) {
		this.#options = options;
		this.#state = {rigs: options.rigs, reading: null, reads: null, run: null, undoable: 0, problem: null};
	}

	subscribe(listener: () => void): () => void {
		return this.#listeners.add(listener);
	}

	getState(): FleetConfigState {
		return this.#state;
	}

	/** Reads every rig's config afresh (on opening, and after a batch's results are closed). */
	async open(): Promise<void> {
		this.#set({reads: null, reading: null, run: null});
		const results = await this.#runBatch({kind: 'read'}, this.#options.rigs, false, (batch) => {
			this.#set({reading: batch});
		});
		this.#set({reads: results});
	}

	/** Sets the key on every rig read (those not read are reported skipped again, by the batch). */
	async apply(assignment: Assignment, options: {readonly addKeys: boolean; readonly confirmApiChanges: boolean}): Promise<void> {
		const reads = this.#state.reads ?? [];
		const bases = new Map(reads.flatMap((read) => (read.config === undefined ? [] : [[read.rig.url, read.config] as const])));
		const what = `config set ${showPath(assignment.path)}`;
		const results = await this.#runBatch(
			{kind: 'set', assignments: [assignment]},
			this.#options.rigs,
			false,
			(batch) => {
				this.#set({run: {kind: 'set', what, batch, done: false}});
			},
			{...options, bases},
		);
		await this.#keep(results, what);
	}

	/**
	 * Undoes the last apply of this view: each rig with a record, with its own conflict check. The undo is spent: a rig
	 * put back has nothing left to undo here (its record still goes to batch-undo.json, where `rigtop config undo` finds it).
	 */
	async undo(): Promise<void> {
		const records = new Map(this.#records);
		const rigs = this.#options.rigs.filter((rig) => records.has(rig.url));
		if (rigs.length === 0) return;
		const what = 'config undo';
		const results = await this.#runBatch({kind: 'undo', records}, rigs, false, (batch) => {
			this.#set({run: {kind: 'undo', what, batch, done: false}});
		});
		await this.#keep(results, what);
	}

	/** Esc while a batch runs: rigs not started are left alone, a rig already written is read back. */
	cancel(): void {
		this.#controller?.abort();
	}

	dispose(): void {
		this.#disposed = true;
		this.cancel();
	}

	async #runBatch(
		action: BatchAction,
		rigs: readonly BatchRig[],
		dryRun: boolean,
		follow: (batch: BatchState) => void,
		extra: {readonly addKeys?: boolean; readonly confirmApiChanges?: boolean; readonly bases?: ReadonlyMap<string, string>} = {},
	): Promise<readonly RigResult[]> {
		const controller = new AbortController();
		this.#controller = controller;
		const {parallel, requestTimeoutMs, verifyTimeoutMs, verifyIntervalMs} = this.#options;
		const batch = new Batch({
			rigs,
			action,
			signal: controller.signal,
			dryRun,
			addKeys: extra.addKeys ?? false,
			confirmApiChanges: extra.confirmApiChanges ?? false,
			backupDir: this.#options.backupDir,
			addHint: this.#options.addHint,
			...(extra.bases ? {bases: extra.bases} : {}),
			...(parallel === undefined ? {} : {parallel}),
			...(requestTimeoutMs === undefined ? {} : {requestTimeoutMs}),
			...(verifyTimeoutMs === undefined ? {} : {verifyTimeoutMs}),
			...(verifyIntervalMs === undefined ? {} : {verifyIntervalMs}),
		});
		const stop = batch.subscribe(() => {
			if (!this.#disposed) follow(batch.getState());
		});
		follow(batch.getState());
		try {
			return await batch.run();
		} finally {
			stop();
			if (this.#controller === controller) this.#controller = null;
		}
	}

	/** The undo records of the rigs written to (here and in batch-undo.json, as the shell's), and the results told. */
	async #keep(results: readonly RigResult[], what: string): Promise<void> {
		const at = Date.now();
		const {recordOf, saveUndoRecords} = await import('./undo-records.js');
		const records = results.flatMap((result) => recordOf(result, what, at) ?? []);
		let problem: string | null = null;
		if (records.length > 0) {
			// An apply's records are what u undoes. An undo spends those of the rigs it put back (u again would redo, not
			// undo); a rig whose undo did not go through keeps its record.
			if (what === 'config undo') for (const record of records) this.#records.delete(record.url);
			else this.#records = new Map(records.map((record) => [record.url, record]));
			try {
				await saveUndoRecords(this.#options.backupDir, records);
			} catch (error) {
				problem = `the batch's undo record was not saved: ${error instanceof Error ? error.message : String(error)}`;
			}
		}

		const run = this.#state.run;
		this.#set({undoable: this.#records.size, problem, ...(run ? {run: {...run, done: true}} : {})});
		this.#options.onResults?.(results, what);
	}

	#set(change: Partial<FleetConfigState>): void {
		if (this.#disposed) return;
		this.#state = {...this.#state, ...change};
		this.#listeners.notify();
	}
}
