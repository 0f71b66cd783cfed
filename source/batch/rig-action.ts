/**
 * One rig's part of a batch, in the steps one rig gets today: read what the miner is (down → unreachable; a proxy
 * asked to pause → skipped; restricted, or a miner that cannot pause → failed), read its config, make only this edit on the whole document, then the safe apply of config/apply.ts
 * (conflict check, backup, PUT, read back) — or the pause/resume and its state read back. A cancel stops a rig only
 * before its write goes out; a rig whose write was sent is read back and reported either way.
 */
import {createHash} from 'node:crypto';
import diff from 'microdiff';
import {setTimeout as sleep} from 'node:timers/promises';
import {applyBuilt, keyLine, undoLast, type ApplyResult} from '../config/apply.js';
import {readBackup} from '../config/backups.js';
import {ConfigDocument} from '../config/document.js';
import {describeConfigError, layoutForVersion, problemLine} from '../config/errors.js';
import {jsonEqual, valueAt} from '../config/json-values.js';
import {patchText} from '../config/merge-patch.js';
import {CONFIG_ENDPOINT, type JsonValue} from '../config/types.js';
import {wordsFor} from '../config/words.js';
import {configRefusal, controlRefusal} from '../miner/abilities.js';
import type {MinerClient} from '../miner/client.js';
import {isMinerError} from '../miner/errors.js';
import type {MinerSnapshot} from '../miner/model.js';
import {changeLine, countOf, keysOfChange, otherKindSkip, planPatch, planSet, type PlanOptions} from './plan.js';
import type {BatchAction, BatchRig, RigResult, RigStatus, UndoRecord} from './types.js';

export type RigStepOptions = PlanOptions & {
	readonly dryRun: boolean;
	readonly backupDir?: string;
	/** How long each read-back waits for the change to show (default 5000 ms). */
	readonly verifyTimeoutMs?: number;
	readonly verifyIntervalMs?: number;
	/**
	 * The config each rig (by URL) was read as when the user saw its diff (the fleet config view): the edit is made on
	 * it, and the apply's conflict check is against it, as the config view's is against the config it edited.
	 */
	readonly bases?: ReadonlyMap<string, string>;
};

type Context = {
	readonly rig: BatchRig;
	readonly client: MinerClient;
	readonly cancel: AbortSignal;
	readonly options: RigStepOptions;
};

/** Canonical JSON (keys sorted) of a config's value, hashed: what an undo compares without keeping any secret. */
export function configHash(value: JsonValue): string {
	const canonical = (item: JsonValue): string => {
		if (item === null || typeof item !== 'object') return JSON.stringify(item);
		if (Array.isArray(item)) return `[${(item as readonly JsonValue[]).map(canonical).join(',')}]`;
		const record = item as {readonly [key: string]: JsonValue};
		return `{${Object.keys(record)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(record[key] ?? null)}`)
			.join(',')}}`;
	};

	return createHash('sha256').update(canonical(value)).digest('hex');
}

function result(
	context: Context,
	status: RigStatus,
	reason: string,
	extra: Partial<Pick<RigResult, 'lines' | 'sent' | 'answered' | 'snapshot' | 'apply' | 'config'>> = {},
): RigResult {
	return {
		...(extra.config === undefined ? {} : {config: extra.config}),
		rig: context.rig,
		status,
		reason,
		lines: extra.lines ?? [],
		sent: extra.sent ?? false,
		answered: extra.answered ?? true,
		snapshot: extra.snapshot ?? null,
		apply: extra.apply ?? null,
	};
}

/** Runs the action on one rig; never throws (an unexpected error is this rig's failure). */
export async function runRig(action: BatchAction, context: Context): Promise<RigResult> {
	try {
		return saidOfRig(await steps(action, context));
	} catch (error) {
		if (context.cancel.aborted) return result(context, 'cancelled', 'cancelled before anything was sent', {answered: false});
		const message = error instanceof Error ? error.message : String(error);
		return saidOfRig(result(context, 'failed', message.split('\n')[0] ?? 'failed', {answered: false}));
	}
}

/**
 * A rig's reason and lines, written of a miner, said of an xmrig-proxy when it is one (what it answered, else the rigs
 * file's kind): "can cut rigtop off from the proxy's API", "the proxy's config changed since rigtop read it".
 */
function saidOfRig(rigResult: RigResult): RigResult {
	const proxy = rigResult.snapshot ? rigResult.snapshot.proxy !== null : rigResult.rig.kind === 'proxy';
	if (!proxy) return rigResult;
	return {
		...rigResult,
		reason: wordsFor('proxy', rigResult.reason),
		lines: rigResult.lines.map((line) => wordsFor('proxy', line)),
	};
}

async function steps(action: BatchAction, context: Context): Promise<RigResult> {
	const snapshot = await readSnapshot(context);
	if ('skip' in snapshot) return snapshot.skip;
	const miner = snapshot.snapshot;
	const tokenGiven = context.rig.token !== null;
	const subject = miner.kind === 'proxy' || miner.proxy !== null ? 'proxy' : 'miner';
	if (action.kind === 'pause' || action.kind === 'resume') {
		const refusal = controlRefusal(miner, {tokenGiven});
		// A proxy has no pause: not its change (skipped); a miner that cannot take it (restricted, no token, too old) failed.
		if (refusal !== null)
			return result(context, subject === 'proxy' ? 'skipped' : 'failed', `cannot ${action.kind}: ${refusal}`, {snapshot: miner});
		return control(action.kind, context, miner);
	}

	// A change none of whose keys is this rig's is skipped first: a restricted or token-less proxy asked for a miner's
	// key is not a failure of the run (issue 35, item 8).
	if (action.kind === 'set' || action.kind === 'patch') {
		const notFor = otherKindSkip(keysOfChange(action), subject);
		if (notFor !== null) return result(context, 'skipped', notFor, {snapshot: miner});
	}

	const refusal = configRefusal(miner, {tokenGiven});
	if (refusal !== null) return result(context, 'failed', `read-only: ${refusal}`, {snapshot: miner});
	let text: string;
	try {
		text = context.options.bases?.get(context.rig.url) ?? (await context.client.getText(CONFIG_ENDPOINT, context.cancel));
	} catch (error) {
		if (context.cancel.aborted) return result(context, 'cancelled', 'cancelled before anything was sent', {snapshot: miner});
		const problem = describeConfigError(error, {operation: 'read', layout: layoutForVersion(miner.version), tokenGiven});
		return result(context, 'failed', problemLine(problem), {snapshot: miner});
	}

	if (action.kind === 'read') return result(context, 'already', 'config read', {snapshot: miner, config: text});
	const document = new ConfigDocument(text);
	if (action.kind === 'undo') return undo(action.records.get(context.rig.url) ?? null, document, context, miner);
	const planOptions = {...context.options, subject} as const;
	const planned =
		action.kind === 'set' ? planSet(action.assignments, document, planOptions) : planPatch(action.patch, document, planOptions);
	if ('skip' in planned) return result(context, planned.status, planned.skip, {snapshot: miner});
	// A mixed change's keys only the other kind has: left out, said among the rig's lines.
	const aside = planned.aside === undefined ? [] : [planned.aside];
	if (planned.changes.length === 0) return result(context, 'already', 'already so', {snapshot: miner, lines: aside});
	const diffLines = [...planned.changes.map((change) => changeLine(change)), ...aside];
	if (context.options.dryRun)
		return result(context, 'planned', `would change ${countOf(planned.changes.length, 'key')}`, {lines: diffLines, snapshot: miner});
	if (context.cancel.aborted) return result(context, 'cancelled', 'cancelled before anything was sent', {snapshot: miner});
	const applied = await applyBuilt({...applyOptions(context, tokenGiven), baseText: text}, (current) => {
		// The conflict check has passed, so `current` means what `document` did: the same changes, made on its text.
		const effective = planned.changes.filter((change) => !jsonEqual(valueAt(current.value, change.path), change.after));
		return {
			text: patchText(current.text, effective),
			changes: effective.map((change) => ({...change, before: valueAt(current.value, change.path)})),
		};
	});
	const outcome = applyOutcome(applied, context, miner);
	return aside.length === 0 ? outcome : {...outcome, lines: [...outcome.lines, ...aside]};
}

function applyOptions(context: Context, tokenGiven: boolean) {
	const {options} = context;
	return {
		client: context.client,
		cancel: context.cancel,
		tokenGiven,
		...(options.backupDir === undefined ? {} : {backupDir: options.backupDir}),
		...(options.verifyTimeoutMs === undefined ? {} : {verifyTimeoutMs: options.verifyTimeoutMs}),
		...(options.verifyIntervalMs === undefined ? {} : {verifyIntervalMs: options.verifyIntervalMs}),
	};
}

/** Reads what the miner is; a rig that does not answer is unreachable. */
async function readSnapshot(context: Context): Promise<{snapshot: MinerSnapshot} | {skip: RigResult}> {
	if (context.cancel.aborted) return {skip: result(context, 'cancelled', 'not started (cancelled)', {answered: false})};
	try {
		const {MinerReader} = await import('../miner/reader.js');
		return {snapshot: await new MinerReader(context.client).read(context.cancel, {perThread: false})};
	} catch (error) {
		if (context.cancel.aborted) return {skip: result(context, 'cancelled', 'cancelled before anything was sent', {answered: false})};
		if (isMinerError(error) && (error.kind === 'unreachable' || error.kind === 'timeout')) {
			return {skip: result(context, 'unreachable', `down: ${error.message}`, {answered: false})};
		}

		const problem = describeConfigError(error, {operation: 'read', tokenGiven: context.rig.token !== null, doing: 'read it'});
		return {skip: result(context, 'failed', problemLine(problem), {answered: false})};
	}
}

/** A config apply's outcome as this rig's result. */
function applyOutcome(applied: ApplyResult, context: Context, snapshot: MinerSnapshot): RigResult {
	const extra = {snapshot, apply: applied};
	switch (applied.status) {
		case 'nothing-to-apply':
			return result(context, 'already', 'already so', extra);
		case 'conflict':
			return result(context, 'failed', applied.message, {...extra, lines: applied.conflicts});
		case 'failed': {
			const sent = applied.stage === 'put' && applied.put !== 'not-sent';
			if (applied.problem.kind === 'cancelled') return result(context, 'cancelled', 'cancelled before anything was sent', extra);
			return result(context, 'failed', `${applied.message} — ${applied.problem.fix}`, {...extra, sent, lines: applied.keys.map(keyLine)});
		}

		case 'done': {
			const lines = applied.keys.map(keyLine);
			if (applied.allApplied) return result(context, 'applied', `read back; backup ${applied.backupPath}`, {...extra, sent: true, lines});
			return result(context, 'failed', applied.message, {...extra, sent: true, lines});
		}
	}
}

/** Pause or resume, then the state read back until it shows (or the verify time runs out). */
async function control(method: 'pause' | 'resume', context: Context, snapshot: MinerSnapshot): Promise<RigResult> {
	const want = method === 'pause';
	const state = (paused: boolean) => (paused ? 'paused' : 'running');
	if (snapshot.paused === want) return result(context, 'already', `already ${state(want)}`, {snapshot});
	if (context.options.dryRun)
		return result(context, 'planned', `would ${method} (now ${snapshot.paused === null ? 'unknown' : state(!want)})`, {snapshot});
	if (context.cancel.aborted) return result(context, 'cancelled', 'cancelled before anything was sent', {snapshot});
	try {
		// No cancel from here on: the call is on its way, and is read back whatever the batch does.
		await context.client.rpc(method);
	} catch (error) {
		if (isMinerError(error) && error.status !== null) {
			const problem = describeConfigError(error, {
				operation: 'write',
				summaryReadable: true,
				layout: layoutForVersion(snapshot.version),
				tokenGiven: context.rig.token !== null,
				doing: `${method} it`,
			});
			return result(context, 'failed', `${method} refused: ${problemLine(problem)}`, {snapshot});
		}
		// No answer: it may have arrived; the read-back says.
	}

	const {MinerReader} = await import('../miner/reader.js');
	const reader = new MinerReader(context.client);
	const deadline = Date.now() + (context.options.verifyTimeoutMs ?? 5000);
	let last: MinerSnapshot | null = null;
	for (;;) {
		try {
			last = await reader.read(undefined, {perThread: false});
			if (last.paused === want) return result(context, 'applied', `${state(want)} (read back)`, {sent: true, snapshot: last});
		} catch {
			// Read again until the time is up.
		}

		if (Date.now() >= deadline) break;
		await sleep(context.options.verifyIntervalMs ?? 200);
	}

	const seen =
		last === null ? 'its state could not be read back' : `the miner still shows ${last.paused === null ? 'no state' : state(last.paused)}`;
	return result(context, 'failed', `${method} sent, but ${seen}`, {sent: true, snapshot: last ?? snapshot});
}

/** Puts back the backup this rig's last batch apply wrote, if its config is still what that apply left. */
async function undo(record: UndoRecord | null, document: ConfigDocument, context: Context, snapshot: MinerSnapshot): Promise<RigResult> {
	if (record === null) return result(context, 'skipped', 'no batch change of this rig to undo', {snapshot});
	if (configHash(document.value) !== record.appliedHash) {
		return result(context, 'failed', `its config changed since the batch (${record.what}); nothing was applied`, {snapshot});
	}

	let backup: ConfigDocument;
	try {
		backup = new ConfigDocument(await readBackup(record.backupPath));
	} catch (error) {
		return result(context, 'failed', error instanceof Error ? error.message : String(error), {snapshot});
	}

	const from = document.value as Record<string, unknown>;
	const to = backup.value as Record<string, unknown>;
	const lines = diff(from, to).map((change) =>
		changeLine({
			path: change.path,
			before: valueAt(document.value, change.path),
			after: valueAt(backup.value, change.path),
		}),
	);
	if (lines.length === 0) return result(context, 'already', 'already so', {snapshot});
	if (context.options.dryRun) return result(context, 'planned', `would put back ${record.backupPath}`, {lines, snapshot});
	if (context.cancel.aborted) return result(context, 'cancelled', 'cancelled before anything was sent', {snapshot});
	const applied = await undoLast({
		...applyOptions(context, context.rig.token !== null),
		applied: document.text,
		backupPath: record.backupPath,
	});
	return applyOutcome(applied, context, snapshot);
}
