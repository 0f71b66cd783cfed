/**
 * The safe apply: read the config again, refuse on a conflict, back the current document up, PUT the
 * whole document (what was read plus the edits, every other byte unchanged), then read it back until
 * every change shows or the verify time runs out, and report per key. Undo puts the last backup back
 * the same way. Never PUTs without a backup on disk.
 */
import diff from 'microdiff';
import {setTimeout as sleep} from 'node:timers/promises';
import {isMinerError} from '../miner/errors.js';
import {DEFAULT_KEEP, defaultBackupDir, latestBackup, readBackup, writeBackup} from './backups.js';
import {ConfigDocument} from './document.js';
import {applyEditsToText, displayValue, SECRET_CHANGED, type ConfigEdit, type PendingEdits} from './edits.js';
import {describeConfigError, explainConfigError, layoutOf, probeSummary, problemText, scrubSecrets} from './errors.js';
import type {ApiLayout, ConfigProblem} from './errors.js';
import {formatPath, jsonEqual, showPath, valueAt} from './json-values.js';
import {isApiGuarded, isRestrictedKey, isSecret, isTokenKey} from './schema.js';
import {CONFIG_ENDPOINT, SealedText} from './types.js';
import type {ConfigClient, ConfigPath, JsonValue} from './types.js';

export type KeyStatus = 'applied' | 'not-applied' | 'unknown';

/** The outcome for one changed key. Values are display text: JSON, or the mask for a secret. */
export type KeyResult = {
	/** Dotted path, e.g. `cpu.huge-pages`. */
	readonly path: string;
	readonly segments: ConfigPath;
	readonly status: KeyStatus;
	readonly before: string;
	readonly after: string;
	/** The value last read back from the miner (display text), or null when nothing could be read. */
	readonly seen: string | null;
	readonly secret: boolean;
	readonly guarded: boolean;
};

/** What is known about the PUT. */
export type PutState =
	/** Never sent (failure before it, or the connection was refused). */
	| 'not-sent'
	/** Sent, but no answer came: the miner may or may not have applied it. */
	| 'unanswered'
	/** The miner answered with an error: nothing was applied. */
	| 'refused'
	/** The miner answered 2xx. */
	| 'accepted';

export type ApplyResult =
	| {readonly status: 'nothing-to-apply'; readonly message: string}
	| {
			readonly status: 'conflict';
			/** What changed on the miner since the edits started, one line each, secrets masked. */
			readonly conflicts: readonly string[];
			/** The config the miner has now (to start the edits again from). */
			readonly current: SealedText;
			readonly message: string;
	  }
	| {
			readonly status: 'failed';
			readonly stage: 'read' | 'backup' | 'put';
			readonly problem: ConfigProblem;
			readonly put: PutState;
			/** Where the config as it was before is saved; null when no backup was written. */
			readonly backupPath: string | null;
			readonly keys: readonly KeyResult[];
			/** What happened and what that left, without the fix (`problem.fix`: shown on a line of its own). */
			readonly message: string;
	  }
	| {
			readonly status: 'done';
			/** Every change shows in the config read back. */
			readonly allApplied: boolean;
			readonly keys: readonly KeyResult[];
			readonly backupPath: string;
			/** The exact body sent. */
			readonly sent: SealedText;
			/** The config last read back after the PUT (what an undo checks against); null when none could be read. */
			readonly applied: SealedText | null;
			/** The client now uses a new token (a token change applied). */
			readonly tokenChanged: boolean;
			/** Extra facts worth saying (lost contact after an API change, restricted mode now on…). */
			readonly notes: readonly string[];
			/**
			 * This apply turned restricted mode on, and the miner confirms it: it refuses config reads and writes from
			 * now on, so it cannot be undone through the API (only in the miner's config file).
			 */
			readonly restrictedOn: boolean;
			readonly message: string;
	  };

export type SafePutOptions = {
	readonly client: ConfigClient;
	/** Backup directory (default: $XDG_STATE_HOME/rigtop/backups). */
	readonly backupDir?: string;
	/** How long to read the config back waiting for the changes to show (default 5000 ms). */
	readonly verifyTimeoutMs?: number;
	/** Pause between read-backs (default 200 ms). */
	readonly verifyIntervalMs?: number;
	/** Backups kept per miner (default 50). */
	readonly keepBackups?: number;
	/** Whether rigtop sends a token (sharpens the 401 message). */
	readonly tokenGiven?: boolean;
	readonly signal?: AbortSignal;
	/**
	 * A batch's cancel (source/batch/): checked just before the backup and the PUT, never after. Once the PUT is sent
	 * the apply runs to its read-back whatever it says, so a cancelled batch leaves no rig half-written or unreported.
	 */
	readonly cancel?: AbortSignal;
	readonly now?: () => Date;
};

export type ApplyOptions = SafePutOptions & {
	/** The config text the edits were made on. */
	readonly baseText: string;
	readonly edits: PendingEdits | readonly Pick<ConfigEdit, 'path' | 'after'>[];
};

export type UndoOptions = SafePutOptions & {
	/** The config the last apply left on the miner (ApplyResult `applied`, else `sent`): the conflict check compares with it. */
	readonly applied: SealedText | string;
	/** Restore this backup instead of the newest one of this miner. */
	readonly backupPath?: string;
};

/** One change to check after the PUT. `after` undefined: the key must be gone. */
type Change = {readonly path: ConfigPath; readonly before: JsonValue | undefined; readonly after: JsonValue | undefined};

type Target = {readonly text: string; readonly changes: readonly Change[]};

const DEFAULT_VERIFY_MS = 5000;
const DEFAULT_INTERVAL_MS = 200;

/** Applies edits made on `baseText` to the miner, safely (see the file comment). */
export async function applyEdits(options: ApplyOptions): Promise<ApplyResult> {
	const list = 'list' in options.edits ? options.edits.list() : options.edits;
	return safePut(options, options.baseText, (current) => {
		const effective = list.filter((edit) => !jsonEqual(current.get(edit.path), edit.after));
		return {
			text: applyEditsToText(current.text, effective),
			changes: effective.map((edit) => ({path: edit.path, before: current.get(edit.path), after: edit.after})),
		};
	});
}

/**
 * Puts the newest backup of this miner back (or `backupPath`), the same safe way: conflict check
 * against what the last apply left, a backup of the current config first, then PUT and verify. The
 * backup written first becomes the newest, so a second undo re-applies what the first one undid.
 */
export async function undoLast(options: UndoOptions): Promise<ApplyResult> {
	let backupText: string;
	let backup: ConfigDocument;
	try {
		const file = options.backupPath ?? (await latestBackup(options.backupDir ?? defaultBackupDir(), options.client.url))?.path;
		if (!file) {
			const problem: ConfigProblem = {
				kind: 'backup',
				message: "there is no backup of this miner's config to go back to",
				fix: 'nothing was changed',
				detail: null,
			};
			return failedBeforePut('backup', problem);
		}

		backupText = await readBackup(file);
		backup = new ConfigDocument(backupText);
	} catch (error) {
		const problem = describeConfigError(error, {operation: 'read'});
		return failedBeforePut('backup', problem);
	}

	const applied = typeof options.applied === 'string' ? options.applied : options.applied.reveal();
	return safePut(options, applied, (current) => ({
		text: backupText,
		changes: leafChanges(current.value, backup.value),
	}));
}

/** One change a built document makes: `after` undefined means the key is removed. */
export type BuiltChange = Change;

/**
 * Applies a document built from the miner's current one (a JSON Merge Patch: source/config/merge-patch.ts), the
 * same safe way as `applyEdits`: `build` gets the config as read again and returns the whole text to send and the
 * changes in it, which are read back key by key.
 */
export async function applyBuilt(
	options: SafePutOptions & {readonly baseText: string},
	build: (current: ConfigDocument) => {readonly text: string; readonly changes: readonly BuiltChange[]},
): Promise<ApplyResult> {
	return safePut(options, options.baseText, build);
}

/** Every leaf that differs between two documents, as changes from `from` to `to`. */
function leafChanges(from: JsonValue, to: JsonValue): Change[] {
	if (from === null || to === null || typeof from !== 'object' || typeof to !== 'object') return [];
	return diff(from as Record<string, unknown>, to as Record<string, unknown>).map((difference) => ({
		path: difference.path,
		before: valueAt(from, difference.path),
		after: valueAt(to, difference.path),
	}));
}

/** What changed between the document the edits started from and the miner's current one. */
export function conflictLines(expected: JsonValue, current: JsonValue): string[] {
	return leafChanges(expected, current).map((change) => {
		const id = showPath(change.path);
		if (isSecret(change.path)) return `${id}: changed on the miner`;
		return `${id}: ${displayValue(change.path, change.before)} → ${displayValue(change.path, change.after)} (changed on the miner)`;
	});
}

function secretsOf(...documents: readonly (ConfigDocument | null | undefined)[]): string[] {
	const found = new Set<string>();
	for (const document of documents) {
		if (!document) continue;
		for (const entry of document.entries()) {
			if (!entry.secret) continue;
			const value = document.get(entry.path);
			if (typeof value === 'string') found.add(value);
		}
	}

	return [...found];
}

function cleanProblem(problem: ConfigProblem, secrets: readonly string[]): ConfigProblem {
	return {
		...problem,
		message: scrubSecrets(problem.message, secrets),
		fix: scrubSecrets(problem.fix, secrets),
		detail: problem.detail === null ? null : scrubSecrets(problem.detail, secrets),
	};
}

/** Whether an error says the connection was never made, so a request was certainly not delivered. */
function neverConnected(error: unknown): boolean {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const code = 'code' in current ? current.code : undefined;
		if (
			code === 'ECONNREFUSED' ||
			code === 'ENOTFOUND' ||
			code === 'EAI_AGAIN' ||
			code === 'EHOSTUNREACH' ||
			code === 'ENETUNREACH' ||
			code === 'UND_ERR_CONNECT_TIMEOUT'
		) {
			return true;
		}

		const errors = 'errors' in current && Array.isArray(current.errors) ? current.errors : [];
		if (errors.length > 0 && errors.every((inner) => neverConnected(inner))) return true;
		current = 'cause' in current ? current.cause : undefined;
	}

	return false;
}

type Failed = Extract<ApplyResult, {status: 'failed'}>;

/** The batch was cancelled before this rig's PUT: nothing was sent. */
const cancelledProblem: ConfigProblem = {
	kind: 'cancelled',
	message: 'cancelled before anything was sent',
	fix: 'nothing changed',
	detail: null,
};

/** A failure before anything was sent: no backup written, no key touched. */
function failedBeforePut(stage: 'read' | 'backup', problem: ConfigProblem, message = problemText(problem)): Failed {
	return {status: 'failed', stage, problem, put: 'not-sent', backupPath: null, keys: [], message};
}

/** A failure at the PUT: the backup is on disk, and `keys` says what is known of each change. */
function failedAtPut(problem: ConfigProblem, put: PutState, backupPath: string, keys: readonly KeyResult[], message: string): Failed {
	return {status: 'failed', stage: 'put', problem, put, backupPath, keys, message};
}

/**
 * The safe write, in its steps: read the config again, stop on a conflict, build the text to send, back
 * the current config up, PUT, read back, and say per key what happened.
 */
async function safePut(options: SafePutOptions, expectedText: string, build: (current: ConfigDocument) => Target): Promise<ApplyResult> {
	const expected = new ConfigDocument(expectedText);
	const layout = layoutOf(expected.value);
	const current = await readAgain(options, expected, layout);
	if (!(current instanceof ConfigDocument)) return current;
	const conflict = conflictOf(expected, current);
	if (conflict) return conflict;
	const target = build(current);
	if (target.changes.length === 0 || target.text === current.text)
		return {status: 'nothing-to-apply', message: 'nothing to apply: the miner already has these values'};
	const secrets = secretsOf(expected, current, new ConfigDocument(target.text));
	if (options.cancel?.aborted) return failedBeforePut('read', cancelledProblem);
	const backupPath = await backUp(options, current, layout, secrets);
	if (typeof backupPath !== 'string') return backupPath;
	if (options.cancel?.aborted) return {...failedBeforePut('backup', cancelledProblem), backupPath};
	const sent = await put(options, target.text);
	if (sent.put === 'not-sent' || sent.put === 'refused') return await putRefused(options, sent, target, layout, secrets, backupPath);
	const verified = await verify(options.client, target.changes, layout, options);
	return outcome(sent, target, verified, layout, secrets, backupPath);
}

/** 1. Read the config again: the miner is there and says what it has now. */
async function readAgain(options: SafePutOptions, expected: ConfigDocument, layout: ApiLayout | null): Promise<ConfigDocument | Failed> {
	const {client, signal} = options;
	try {
		return new ConfigDocument(await client.getText(CONFIG_ENDPOINT, signal));
	} catch (error) {
		const problem = cleanProblem(
			await explainConfigError(error, {
				client,
				operation: 'read',
				layout,
				tokenGiven: options.tokenGiven ?? null,
				...(signal ? {signal} : {}),
			}),
			secretsOf(expected),
		);
		return failedBeforePut('read', problem, `${problemText(problem)}; nothing was changed`);
	}
}

/** 2. A conflict: the miner's config changed (in meaning) since the edits started. */
function conflictOf(expected: ConfigDocument, current: ConfigDocument): ApplyResult | null {
	if (jsonEqual(expected.value, current.value)) return null;
	const conflicts = conflictLines(expected.value, current.value);
	return {
		status: 'conflict',
		conflicts,
		current: new SealedText(current.text),
		message:
			`the miner's config changed since rigtop read it (${conflicts.length} ${conflicts.length === 1 ? 'difference' : 'differences'}); ` +
			'nothing was applied: re-read the config and make the changes again',
	};
}

/** 3. Back up the config as it is now: its path, or why not. No backup on disk, no PUT. */
async function backUp(
	options: SafePutOptions,
	current: ConfigDocument,
	layout: ApiLayout | null,
	secrets: readonly string[],
): Promise<string | Failed> {
	try {
		return await writeBackup(options.backupDir ?? defaultBackupDir(), options.client.url, current.text, {
			keep: options.keepBackups ?? DEFAULT_KEEP,
			...(options.now ? {now: options.now} : {}),
		});
	} catch (error) {
		const problem = cleanProblem(describeConfigError(error, {operation: 'write', layout}), secrets);
		return failedBeforePut('backup', problem);
	}
}

type Sent = {readonly put: PutState; readonly error: unknown};

/** 4. PUT the whole document, and what is known of its fate. */
async function put(options: SafePutOptions, text: string): Promise<Sent> {
	try {
		await options.client.putJsonText(CONFIG_ENDPOINT, text, options.signal);
		return {put: 'accepted', error: null};
	} catch (error) {
		// A status code means the miner answered (and refused); a socket that never connected means
		// nothing was delivered; anything else (reset, timeout, a cut answer, an abort) leaves it open.
		if (isMinerError(error) && error.status !== null) return {put: 'refused', error};
		return {put: neverConnected(error) ? 'not-sent' : 'unanswered', error};
	}
}

function savedIn(backupPath: string): string {
	return `your config as it was is saved in ${backupPath}`;
}

/** The per-key report: each change with the status `statusOf` gives it and the value last read back. */
function keyResults(target: Target, statusOf: (change: Change) => KeyStatus, seenDocument: ConfigDocument | null): KeyResult[] {
	return target.changes.map((change): KeyResult => {
		const seen = seenDocument ? valueAt(seenDocument.value, change.path) : undefined;
		return {
			path: formatPath(change.path),
			segments: change.path,
			status: statusOf(change),
			before: displayValue(change.path, change.before),
			after: displayValue(change.path, change.after),
			seen: seenDocument ? displayValue(change.path, seen) : null,
			secret: isSecret(change.path),
			guarded: isApiGuarded(change.path),
		};
	});
}

/** The PUT never reached the miner, or the miner refused it: nothing changed, the backup is on disk. */
async function putRefused(
	options: SafePutOptions,
	sent: Sent,
	target: Target,
	layout: ApiLayout | null,
	secrets: readonly string[],
	backupPath: string,
): Promise<Failed> {
	const {client, signal} = options;
	const problem = cleanProblem(
		sent.put === 'refused'
			? await explainConfigError(sent.error, {
					client,
					operation: 'write',
					layout,
					tokenGiven: options.tokenGiven ?? null,
					...(signal ? {signal} : {}),
				})
			: {...describeConfigError(sent.error, {operation: 'write', layout}), fix: 'check that the miner is running, then try again'},
		secrets,
	);
	const lead =
		sent.put === 'not-sent'
			? 'the miner could not be reached to send the change: nothing was sent and nothing changed'
			: problemText(problem);
	return failedAtPut(
		problem,
		sent.put,
		backupPath,
		keyResults(target, () => 'not-applied', null),
		`${lead}; ${savedIn(backupPath)}`,
	);
}

/** 6. What the read-back shows, key by key, after a PUT that was answered or went unanswered. */
function outcome(
	sent: Sent,
	target: Target,
	verified: Verified,
	layout: ApiLayout | null,
	secrets: readonly string[],
	backupPath: string,
): ApplyResult {
	const statusOf = (change: Change): KeyStatus => {
		if (verified.restrictedOn && isRestrictedKey(change.path)) return 'applied';
		if (!verified.document) return 'unknown';
		if (jsonEqual(valueAt(verified.document.value, change.path), change.after)) return 'applied';
		// Only a miner that answered the PUT and, at the last read, still showed the old value has
		// certainly not applied it; after a lost answer or a lost contact it is not known.
		return sent.put === 'accepted' && !verified.lostContact ? 'not-applied' : 'unknown';
	};

	const keys = keyResults(target, statusOf, verified.document);
	const notes = verified.notes.map((note) => scrubSecrets(note, secrets));
	if (sent.put === 'unanswered') {
		const problem = cleanProblem(
			{
				...describeConfigError(sent.error, {operation: 'write', layout}),
				fix: 'check the keys marked applied / unknown below, and read the config again before changing more',
			},
			secrets,
		);
		const learned = verified.document
			? `; reading it back afterwards: ${keys.filter((key) => key.status === 'applied').length} of ${keys.length} changes show`
			: '';
		return failedAtPut(
			problem,
			sent.put,
			backupPath,
			keys,
			`the PUT was sent but no answer came: the miner may or may not have applied it; ${savedIn(backupPath)}${learned}`,
		);
	}

	const applied = keys.filter((key) => key.status === 'applied').length;
	const allApplied = applied === keys.length;
	const failedNames = keys.filter((key) => key.status !== 'applied').map((key) => key.path);
	const message = allApplied
		? `applied ${keys.length} ${keys.length === 1 ? 'change' : 'changes'}; ${savedIn(backupPath)}`
		: `${applied} of ${keys.length} changes applied (not confirmed: ${failedNames.join(', ')}); ${savedIn(backupPath)}`;
	return {
		status: 'done',
		allApplied,
		keys,
		backupPath,
		sent: new SealedText(target.text),
		applied: verified.document ? new SealedText(verified.document.text) : null,
		tokenChanged: verified.tokenChanged,
		notes,
		restrictedOn: verified.restrictedOn,
		message: [message, ...notes].join('; '),
	};
}

type Verified = {
	/** The last config read back after the PUT, or null. */
	readonly document: ConfigDocument | null;
	/** Restricted mode was turned on and the miner confirms it (config refused, summary readable). */
	readonly restrictedOn: boolean;
	/** The last read-back failed (the document, if any, is from an earlier read). */
	readonly lostContact: boolean;
	readonly tokenChanged: boolean;
	readonly notes: readonly string[];
};

function isAuthError(error: unknown): boolean {
	return isMinerError(error) && (error.kind === 'forbidden' || error.kind === 'unauthorized');
}

/** 5. Read back until every change shows or the time is up, following a token change and restricted mode turned on. */
async function verify(
	client: ConfigClient,
	changes: readonly Change[],
	layout: ApiLayout | null,
	options: SafePutOptions,
): Promise<Verified> {
	const timeoutMs = options.verifyTimeoutMs ?? DEFAULT_VERIFY_MS;
	const intervalMs = options.verifyIntervalMs ?? DEFAULT_INTERVAL_MS;
	const {signal} = options;
	const deadline = Date.now() + timeoutMs;
	const tokenChange = changes.find((change) => isTokenKey(change.path));
	const oldToken = typeof tokenChange?.before === 'string' ? tokenChange.before : null;
	const newToken = typeof tokenChange?.after === 'string' ? tokenChange.after : null;
	const restrictedChange = changes.find((change) => isRestrictedKey(change.path) && change.after === true);
	let usingNewToken = false;
	let document: ConfigDocument | null = null;
	let lastError: unknown = null;

	const readOnce = async (): Promise<ConfigDocument | null> => {
		try {
			const read = new ConfigDocument(await client.getText(CONFIG_ENDPOINT, signal));
			lastError = null;
			return read;
		} catch (error) {
			lastError = error;
			return null;
		}
	};

	const allShow = (read: ConfigDocument) => changes.every((change) => jsonEqual(valueAt(read.value, change.path), change.after));
	let restrictedOn = false;
	for (;;) {
		let read = await readOnce();
		if (!read && tokenChange && isAuthError(lastError)) {
			// The token changed on the miner (or not yet): try the other one.
			usingNewToken = !usingNewToken;
			client.setToken(usingNewToken ? newToken : oldToken);
			read = await readOnce();
			if (!read && isAuthError(lastError)) {
				usingNewToken = !usingNewToken;
				client.setToken(usingNewToken ? newToken : oldToken);
			}
		}

		if (read) {
			document = read;
			if (allShow(read)) break;
		} else if (restrictedChange && isMinerError(lastError) && lastError.kind === 'forbidden') {
			const probe = await probeSummary(client, signal);
			if (probe.readable === true) {
				restrictedOn = true;
				break;
			}
		}

		if (Date.now() >= deadline || signal?.aborted) break;
		try {
			await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())), undefined, signal ? {signal} : {});
		} catch {
			break;
		}
	}

	const tokenApplied =
		tokenChange !== undefined && document !== null && jsonEqual(valueAt(document.value, tokenChange.path), tokenChange.after);
	if (tokenChange) client.setToken(tokenApplied ? newToken : oldToken);
	const notes: string[] = [];
	if (tokenApplied) notes.push('rigtop now uses the new access token');
	if (restrictedOn) {
		notes.push(
			'restricted mode is on now: the miner no longer lets rigtop read or change its config ' +
				`(set ${layout === 'api' ? 'api' : 'http'}.restricted back to false in its config file to undo)`,
		);
	}

	if (!restrictedOn && lastError !== null) {
		const guarded = changes.filter((change) => isApiGuarded(change.path)).map((change) => formatPath(change.path));
		const problem = describeConfigError(lastError, {operation: 'read', layout});
		const port = changes.find((change) => change.path.at(-1) === 'port' && isApiGuarded(change.path))?.after;
		const moved = typeof port === 'number' && port > 0 ? `; if it applied, the API now listens on port ${port}: point rigtop there` : '';
		notes.push(
			guarded.length > 0
				? `rigtop lost contact with the miner's API after the change to ${guarded.join(', ')} (that change can move or close it): ${problem.message}${moved}`
				: `reading the config back failed: ${problem.message}`,
		);
	}

	return {
		document: restrictedOn ? null : document,
		restrictedOn,
		lostContact: !restrictedOn && lastError !== null,
		tokenChanged: tokenApplied,
		notes,
	};
}

/**
 * One key of an apply as read back, as a batch's rig line and every apply's event say it: "cpu.huge-pages: true →
 * false", a secret only "changed", and "NOT applied (the miner has …)" or "(could not be checked)" when so.
 */
export function keyLine(key: KeyResult): string {
	const change = key.secret ? `${showPath(key.path)}: ${SECRET_CHANGED}` : `${showPath(key.path)}: ${key.before} → ${key.after}`;
	if (key.status === 'applied') return change;
	if (key.status === 'unknown') return `${change}  (could not be checked)`;
	return `${change}  NOT applied${key.seen === null ? '' : key.secret ? ' (the miner has another value)' : ` (the miner has ${key.seen})`}`;
}

/**
 * The event an apply or undo leaves in the miner's events (and so its history, the event view and the chart's marks),
 * the same from the config view and from `rigtop config set`: kind 'action', "config apply: applied 1 change:
 * donate-level: 1 → 4; …" or "config undo: …". It names each key changed as a batch's event does (keyLine), never the
 * token or a pool password (a secret is only "changed").
 */
export function appliedEvent(result: ApplyResult, action: 'apply' | 'undo'): {readonly severity: 'info' | 'warn'; readonly text: string} {
	const severity = result.status === 'done' && result.allApplied ? 'info' : 'warn';
	// A failure's message leaves its fix (and so what it left: "nothing was sent…") to a line of its own.
	let text = result.status === 'failed' ? `${result.message} — ${result.problem.fix}` : result.message;
	if (result.status === 'done' && result.keys.length > 0) {
		const keys = result.keys.map((key) => keyLine(key)).join('; ');
		const counted = /^(applied \d+ changes?|\d+ of \d+ changes applied)/.exec(text)?.[1];
		text = counted === undefined ? `${keys}; ${text}` : `${counted}: ${keys}${text.slice(counted.length)}`;
	}

	return {severity, text: `config ${action === 'undo' ? 'undo' : 'apply'}: ${text}`};
}
