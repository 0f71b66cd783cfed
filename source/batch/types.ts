/**
 * What a batch is made of: the rigs, the action, and what each rig ended as. A rig's result is one of
 * applied / already so / skipped (why) / failed (why) / cancelled, or planned under --dry-run, with its one-line
 * reason and the lines under it (the diff, the keys read back).
 */
import type {ApplyResult} from '../config/apply.js';
import type {Assignment} from '../config/edits.js';
import type {JsonObject} from '../config/types.js';
import type {MinerSnapshot} from '../miner/model.js';

/** One rig of a batch: its address, its token (never shown), and the name it goes by. */
export type BatchRig = {
	readonly url: string;
	readonly token: string | null;
	/** The rigs file's name, else host:port. */
	readonly name: string;
	/** 'proxy': an xmrig-proxy, as the rigs file or discovery says before it answers (its answer wins). */
	readonly kind?: 'miner' | 'proxy' | undefined;
	/** Whose token this is when the user gave none and a running miner's was borrowed ("the command line of process 4242"). */
	readonly tokenFrom?: string | undefined;
};

/** What an undo of a rig puts back: the backup its batch apply wrote, if the config is still what that apply left. */
export type UndoRecord = {
	readonly url: string;
	readonly backupPath: string;
	/** sha256 of the config the apply left (canonical JSON): the undo's conflict check, with no secret kept. */
	readonly appliedHash: string;
	/** What the apply was ("config set cpu.huge-pages"), for the undo's event. */
	readonly what: string;
	readonly at: number;
};

export type BatchAction =
	| {readonly kind: 'pause'}
	| {readonly kind: 'resume'}
	| {readonly kind: 'set'; readonly assignments: readonly Assignment[]}
	| {readonly kind: 'patch'; readonly patch: JsonObject}
	| {readonly kind: 'undo'; readonly records: ReadonlyMap<string, UndoRecord>}
	/** Only read each rig's config (the fleet config view's first step): a rig read is "already" with its text in `config`. */
	| {readonly kind: 'read'};

/**
 * What became of a rig, as Ansible's recap counts hosts: applied and planned (dry run) are "changed", already "ok",
 * skipped a rig the change is not for (a proxy for a miner's key or a pause, a rig with no batch change to undo), failed a
 * rig that should have taken it and did not (a PUT refused, a restricted API, a miner lacking the key, a read-back that
 * did not match), unreachable one not reached, cancelled one the user stopped.
 */
export type RigStatus = 'applied' | 'already' | 'planned' | 'skipped' | 'failed' | 'unreachable' | 'cancelled';

export type RigResult = {
	readonly rig: BatchRig;
	readonly status: RigStatus;
	/** One line: "paused", "down: could not connect…", "lacks cpu.huge-pages-jit (--add adds it)". */
	readonly reason: string;
	/** Lines under it: the diff (dry run), each key read back. Secrets masked. */
	readonly lines: readonly string[];
	/** A write (PUT or pause/resume) went out to this rig; it was read back and reported either way. */
	readonly sent: boolean;
	/** The rig answered (so the batch touched it, and its history gets the event). */
	readonly answered: boolean;
	/** What the miner said it is (its identity for the history), when it answered. */
	readonly snapshot: MinerSnapshot | null;
	/** The config apply's outcome, when one was tried. */
	readonly apply: ApplyResult | null;
	/** A read action's config text, as the miner sent it (secrets in it: never shown as it is). */
	readonly config?: string;
};

/** A rig as the batch goes: waiting for a slot, running, or done with its result. */
export type RigProgress =
	| {readonly rig: BatchRig; readonly state: 'waiting' | 'running'}
	| {readonly rig: BatchRig; readonly state: 'done'; readonly result: RigResult};

export type BatchState = {
	/** In the order the rigs were given (the rigs file's). */
	readonly rigs: readonly RigProgress[];
	readonly done: number;
	readonly cancelled: boolean;
	readonly finished: boolean;
};
