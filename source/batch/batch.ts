/**
 * A batch: one action on many rigs, at most `limit` at a time (default 8), each rig on its own client with its own
 * deadlines, so a slow or dead rig holds up no other. A `Store<BatchState>` (a screen follows each rig's progress with
 * `useStore`), cancelled through an AbortSignal: rigs not started end "not started (cancelled)", a rig before its
 * write ends "cancelled", and a rig whose write went out is read back and reported either way.
 */
import {hostname} from 'node:os';
import {MinerClient} from '../miner/client.js';
import {Listeners, type Store} from '../monitor/store.js';
import {runRig, type RigStepOptions} from './rig-action.js';
import type {BatchAction, BatchRig, BatchState, RigProgress, RigResult} from './types.js';

export const DEFAULT_PARALLEL = 8;

export type BatchOptions = RigStepOptions & {
	readonly rigs: readonly BatchRig[];
	readonly action: BatchAction;
	/** How many rigs at once (default 8). */
	readonly parallel?: number;
	readonly signal?: AbortSignal;
	/** Each request's deadline on each rig (default 8000 ms, as for one rig): a rig that does not answer is down. */
	readonly requestTimeoutMs?: number;
};

export class Batch implements Store<BatchState> {
	readonly #listeners = new Listeners();
	readonly #options: BatchOptions;
	#state: BatchState;

	constructor(options: BatchOptions) {
		this.#options = options;
		this.#state = {rigs: options.rigs.map((rig): RigProgress => ({rig, state: 'waiting'})), done: 0, cancelled: false, finished: false};
	}

	subscribe(listener: () => void): () => void {
		return this.#listeners.add(listener);
	}

	getState(): BatchState {
		return this.#state;
	}

	/** Runs every rig; resolves to the results in the rigs' order once each has one. */
	async run(): Promise<readonly RigResult[]> {
		const {rigs, signal} = this.#options;
		const cancel = signal ?? new AbortController().signal;
		const onCancel = () => this.#set({...this.#state, cancelled: true});
		cancel.addEventListener('abort', onCancel, {once: true});
		const results: (RigResult | undefined)[] = Array.from({length: rigs.length});
		let next = 0;
		const worker = async () => {
			for (;;) {
				const index = next++;
				const rig = rigs[index];
				if (rig === undefined) return;
				if (cancel.aborted) {
					results[index] = notStarted(rig);
				} else {
					this.#update(index, {rig, state: 'running'});
					results[index] = await this.#runOne(rig, cancel);
				}

				this.#update(index, {rig, state: 'done', result: results[index]}, 1);
			}
		};

		const parallel = Math.max(1, Math.floor(this.#options.parallel ?? DEFAULT_PARALLEL));
		try {
			await Promise.all(Array.from({length: Math.min(parallel, rigs.length)}, async () => worker()));
		} finally {
			cancel.removeEventListener('abort', onCancel);
		}

		this.#set({...this.#state, cancelled: cancel.aborted, finished: true});
		return results.map((item, index) => item ?? notStarted(rigs[index] as BatchRig));
	}

	async #runOne(rig: BatchRig, cancel: AbortSignal): Promise<RigResult> {
		const timeout = this.#options.requestTimeoutMs;
		const client = new MinerClient({url: rig.url, token: rig.token}, timeout === undefined ? {} : {deadlineMs: timeout});
		try {
			return await runRig(this.#options.action, {rig, client, cancel, options: this.#options});
		} finally {
			await client.close();
		}
	}

	#update(index: number, progress: RigProgress, done = 0): void {
		const rigs = this.#state.rigs.map((item, at) => (at === index ? progress : item));
		this.#set({...this.#state, rigs, done: this.#state.done + done});
	}

	#set(state: BatchState): void {
		this.#state = state;
		this.#listeners.notify();
	}
}

function notStarted(rig: BatchRig): RigResult {
	return {
		rig,
		status: 'cancelled',
		reason: 'not started (cancelled)',
		lines: [],
		sent: false,
		answered: false,
		snapshot: null,
		apply: null,
	};
}

/** Runs a batch to its end (the shell's way; a screen keeps the Batch to follow it). */
export async function runBatch(options: BatchOptions): Promise<readonly RigResult[]> {
	return new Batch(options).run();
}

/**
 * Who ran a batch, as its rigs' stored events say it ("rigtop pid 4242 on rig-host, 6 rigs"): true when read later by
 * another session or `rigtop history`, unlike "this rigtop". The shell's `rigtop pause --rigs` and the fleet's batches
 * (p / r on marked rigs, the fleet config view's apply and undo) all write it.
 */
export function batchWriter(rigs: number, pid: number = process.pid, host: string = hostname()): string {
	return `rigtop pid ${pid} on ${host}, ${rigs} ${rigs === 1 ? 'rig' : 'rigs'}`;
}
