/**
 * The batch commands from the shell: `rigtop pause|resume [URL…|--rigs FILE]`, `rigtop config set PATH=VALUE…
 * URL URL…|--rigs FILE`, `rigtop config apply PATCH.json …` and `rigtop config undo …`. The engine is source/batch/;
 * this prints one line per rig in the rigs' order and a summary (with --json, one JSON document of the same), keeps each
 * applied rig's undo record and writes each touched rig's history event. Never a token or a password (the diffs mask
 * secrets).
 */
import {readFile} from 'node:fs/promises';
import {batchWriter, runBatch, DEFAULT_PARALLEL} from '../../batch/batch.js';
import type {BatchAction, BatchRig, RigResult, RigStatus} from '../../batch/types.js';
import {defaultBackupDir} from '../../config/backups.js';
import {AssignmentError, parseAssignment, type Assignment} from '../../config/edits.js';
import type {JsonObject} from '../../config/types.js';
import {borrowedTokenLine, borrowedTokenOf} from '../../discovery/borrowed-token.js';
import {formatNoneFound} from '../../discovery/where.js';
import {UsageError} from '../../session/errors.js';
import {looksLikeUrl, normalizeMinerUrl} from '../../miner/target.js';
import {padText, textWidth} from '../../text/cells.js';
import {rigName} from '../../monitor/name.js';
import {whereResult} from '../../session/build.js';
import type {DiscoveryPlaces, TargetOptions} from '../../session/targets.js';
import type {Command} from '../command.js';
import {BATCH_USAGE} from './help.js';
import {jsonText} from '../../text/json-out.js';

export type BatchPlan = TargetOptions & {
	/** The words: `pause URL…`, `resume URL…`, `config set PATH=VALUE… URL…`, `config apply PATCH.json URL…`, `config undo URL…`. */
	readonly words: readonly string[];
	/** --url values. */
	readonly urls: readonly string[];
	readonly rigsFile: string | undefined;
	readonly dryRun: boolean;
	/** --parallel N (default 8). */
	readonly parallel: number | undefined;
	readonly yes: boolean;
	readonly add: boolean;
	readonly readOnly: boolean;
	/** --json: one JSON document on stdout (batchJson) instead of the lines. */
	readonly json?: boolean;
	/** false (--no-history): nothing is recorded in the history store. */
	readonly history?: boolean;
	// ---- optional, for tests and embedding ----
	readonly stdout?: {write(text: string): unknown};
	readonly stderr?: {write(text: string): unknown};
	readonly backupDir?: string;
	readonly historyFile?: string;
	readonly verifyTimeoutMs?: number;
	readonly verifyIntervalMs?: number;
	readonly requestTimeoutMs?: number;
	readonly discovery?: DiscoveryPlaces;
	/** Cancels the batch (else the first Ctrl+C does). */
	readonly signal?: AbortSignal;
};

type Parsed = {readonly action: BatchAction | 'undo'; readonly what: string; readonly addresses: readonly string[]};

const STATUS_WORDS: Readonly<Record<RigStatus, string>> = {
	applied: 'applied',
	already: 'already so',
	planned: 'would change',
	skipped: 'skipped',
	failed: 'failed',
	unreachable: 'unreachable',
	cancelled: 'cancelled',
};

async function readPatch(file: string): Promise<JsonObject> {
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		throw new UsageError(`cannot read the patch ${file}: ${code === 'ENOENT' ? 'it does not exist' : (code ?? 'error')}`);
	}

	let parsed: unknown;
	try {
		parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
	} catch {
		const {jsonProblem} = await import('../../text/json-errors.js');
		throw new UsageError(`the patch ${file} is ${jsonProblem(text) ?? 'not valid JSON'}`);
	}

	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new UsageError(`the patch ${file} must be a JSON object, e.g. {"cpu": {"huge-pages-jit": true}}`);
	}

	return parsed as JsonObject;
}

async function parse(words: readonly string[]): Promise<Parsed> {
	const [first, second, ...rest] = words;
	if (first === 'pause' || first === 'resume') {
		return {action: {kind: first}, what: first, addresses: words.slice(1)};
	}

	if (first !== 'config') throw new UsageError(`unknown batch command ${jsonText(first ?? '')}`);
	if (second === 'set') {
		const assignments: Assignment[] = [];
		const addresses: string[] = [];
		for (const word of rest) {
			if (!word.includes('=')) {
				addresses.push(word);
				continue;
			}

			try {
				assignments.push(parseAssignment(word));
			} catch (error) {
				if (error instanceof AssignmentError) throw new UsageError(error.message);
				throw error;
			}
		}

		if (assignments.length === 0) throw new UsageError('config set needs at least one PATH=VALUE, e.g. cpu.huge-pages=false');
		return {action: {kind: 'set', assignments}, what: `config set ${assignments.map((item) => item.path).join(', ')}`, addresses};
	}

	if (second === 'apply') {
		const [file, ...addresses] = rest;
		if (file === undefined) throw new UsageError('config apply needs a patch file: rigtop config apply PATCH.json --rigs FILE');
		const patch = await readPatch(file);
		const keys = Object.keys(patch);
		return {action: {kind: 'patch', patch}, what: `config apply ${keys.join(', ')}`, addresses};
	}

	if (second === 'undo') return {action: 'undo', what: 'config undo', addresses: rest};
	throw new UsageError(`unknown config command ${jsonText(second ?? '')}: use get, set, apply or undo`);
}

/**
 * One line per rig: the name padded to the longest (in terminal cells: ui/cells.ts), the status, the reason; a dry run's
 * diff under it.
 */
export function reportLines(results: readonly RigResult[]): string[] {
	const width = Math.max(...results.map((result) => textWidth(result.rig.name)));
	const lines: string[] = [];
	for (const result of results) {
		const status = saysItAll(result) ? '' : STATUS_WORDS[result.status];
		const text = [status, result.status === 'applied' && result.lines.length > 0 ? result.lines.join('; ') : result.reason]
			.filter((part) => part !== '')
			.join('  ');
		lines.push(`${padText(result.rig.name, width)}  ${text}`);
		if (result.status !== 'applied') for (const line of result.lines) lines.push(`${' '.repeat(width)}    ${line}`);
	}

	lines.push(summaryLine(results));
	return lines;
}

/** The result of each rig as the JSON documents of `--json` name it: the status's word in one token. */
const RESULT_WORDS: Readonly<Record<RigStatus, string>> = {
	applied: 'applied',
	already: 'already',
	planned: 'planned',
	skipped: 'skipped',
	failed: 'failed',
	unreachable: 'unreachable',
	cancelled: 'cancelled',
};

/**
 * `--json`: the batch as one document, as `--once --json` is one: what ran, each rig in the rigs' order (its url and
 * name, its result, whether it is well, the reason, `error` the reason when it is not, the diff or keys read back,
 * whether a write went out), and the counts. Secrets are masked in the lines as in the text.
 */
export function batchJson(results: readonly RigResult[], what: string, dryRun: boolean) {
	const count = (status: RigStatus) => results.filter((result) => result.status === status).length;
	return {
		at: new Date().toISOString(),
		command: what,
		dryRun,
		ok: allWell(results),
		rigs: results.map((result) => {
			// A rig skipped (the change is not its) is well: it is no error.
			const well = result.status === 'applied' || result.status === 'already' || result.status === 'planned' || result.status === 'skipped';
			return {
				url: result.rig.url,
				name: result.rig.name,
				result: RESULT_WORDS[result.status],
				ok: well,
				reason: result.reason,
				error: well ? null : result.reason,
				lines: result.lines,
				sent: result.sent,
			};
		}),
		summary: {
			rigs: results.length,
			...Object.fromEntries((Object.keys(RESULT_WORDS) as RigStatus[]).map((status) => [RESULT_WORDS[status], count(status)])),
		},
		recap: recapOf(results),
	};
}

/** The rigs counted as Ansible's recap counts hosts (types.ts, RigStatus); a cancelled rig is counted apart. */
export type Recap = {
	readonly ok: number;
	readonly changed: number;
	readonly skipped: number;
	readonly failed: number;
	readonly unreachable: number;
	readonly cancelled: number;
};

export function recapOf(results: readonly RigResult[]): Recap {
	const count = (...statuses: RigStatus[]) => results.filter((result) => statuses.includes(result.status)).length;
	return {
		ok: count('already'),
		changed: count('applied', 'planned'),
		skipped: count('skipped'),
		failed: count('failed'),
		unreachable: count('unreachable'),
		cancelled: count('cancelled'),
	};
}

/**
 * The exit code of a batch, dry run or not: 1 when a rig failed (or the batch was cancelled before a rig's end), else 3
 * when a rig was not reached, else 0 (rigs skipped, the change not being theirs, fail nothing). 2 is bad usage.
 */
export function recapExitCode(recap: Recap): number {
	if (recap.failed > 0 || recap.cancelled > 0) return 1;
	return recap.unreachable > 0 ? 3 : 0;
}

/** "already paused", "would change 2 keys", "not started (cancelled)": the reason alone says what became of the rig. */
function saysItAll(result: RigResult): boolean {
	return result.status === 'already' || result.status === 'planned' || result.reason === 'not started (cancelled)';
}

/** "5 rigs: ok=1 changed=2 skipped=1 failed=0 unreachable=1" (and " cancelled=N" when the batch was cancelled). */
export function summaryLine(results: readonly RigResult[]): string {
	const recap = recapOf(results);
	const counts = `ok=${recap.ok} changed=${recap.changed} skipped=${recap.skipped} failed=${recap.failed} unreachable=${recap.unreachable}`;
	return `${results.length} ${results.length === 1 ? 'rig' : 'rigs'}: ${counts}${recap.cancelled > 0 ? ` cancelled=${recap.cancelled}` : ''}`;
}

/** Nothing failed, none unreachable, none cancelled (skipped rigs are well: the change was not theirs). */
function allWell(results: readonly RigResult[]): boolean {
	return recapExitCode(recapOf(results)) === 0;
}

export const run: Command<BatchPlan> = async (plan) => runBatchCommand(plan);

/** Runs a batch command; resolves to the exit code. */
export async function runBatchCommand(plan: BatchPlan): Promise<number> {
	const stdout = plan.stdout ?? process.stdout;
	const stderr = plan.stderr ?? process.stderr;
	const say = (stream: {write(text: string): unknown}, lines: readonly string[]) => {
		if (lines.length > 0) stream.write(`${lines.join('\n')}\n`);
	};

	let parsed: Parsed;
	try {
		parsed = await parse(plan.words);
		for (const address of [...parsed.addresses, ...plan.urls]) {
			try {
				normalizeMinerUrl(address);
			} catch (error) {
				// With --rigs, a word that is no address is a rig's name there (session/build.ts, namedRigs, says if it is not).
				if (plan.rigsFile !== undefined && !looksLikeUrl(address)) continue;
				throw new UsageError(`${address.slice(0, 60)}: ${error instanceof Error ? error.message : String(error)}`);
			}
		}

		if (plan.parallel !== undefined && !(Number.isInteger(plan.parallel) && plan.parallel >= 1)) {
			throw new UsageError(`--parallel takes a whole number of rigs at once, 1 or more (default ${DEFAULT_PARALLEL})`);
		}
	} catch (error) {
		if (error instanceof UsageError) {
			say(stderr, [`rigtop: ${error.message}`, '', ...BATCH_USAGE]);
			return 2;
		}

		throw error;
	}

	if (plan.readOnly && !plan.dryRun) {
		say(stderr, [`rigtop: ${parsed.what} writes to the rigs, but --read-only turns every write off; nothing was sent`]);
		return 1;
	}

	let rigs: BatchRig[];
	try {
		const found = await whereResult({
			...plan,
			mode: 'where',
			urls: [...parsed.addresses, ...plan.urls],
			demo: false,
			intervalMs: 0,
			pausedAlertMs: 0,
			history: false,
		});
		for (const line of [...found.warnings, ...found.problems]) say(stderr, [`rigtop: ${line}`]);
		if (found.targets.length === 0) {
			say(stderr, formatNoneFound(found));
			return 2;
		}

		rigs = found.targets.map((target) => {
			const tokenFrom = borrowedTokenOf(target);
			return {
				url: target.url,
				token: target.token,
				name: rigName(target.name, target.url),
				...(target.kind === undefined ? {} : {kind: target.kind}),
				...(tokenFrom === null ? {} : {tokenFrom}),
			};
		});
	} catch (error) {
		if (error instanceof UsageError) {
			say(stderr, [`rigtop: ${error.message}`]);
			return 2;
		}

		throw error;
	}

	const backupDir = plan.backupDir ?? defaultBackupDir();
	let action: BatchAction;
	if (parsed.action === 'undo') {
		const {readUndoRecords} = await import('../../batch/undo-records.js');
		action = {kind: 'undo', records: await readUndoRecords(backupDir)};
	} else {
		action = parsed.action;
	}

	// A token the user did not give (a running miner's): said before any write, whatever --yes says; a dry run writes nothing.
	if (!plan.dryRun) {
		for (const rig of rigs) {
			if (rig.tokenFrom !== undefined) say(stderr, [`rigtop: ${borrowedTokenLine(rig.tokenFrom, rigs.length > 1 ? rig.name : undefined)}`]);
		}
	}

	const controller = new AbortController();
	const onInterrupt = () => {
		stderr.write('rigtop: cancelling: rigs not started are left alone; a rig already written is read back\n');
		controller.abort();
	};

	if (plan.signal === undefined) process.once('SIGINT', onInterrupt);
	let results: readonly RigResult[];
	try {
		results = await runBatch({
			rigs,
			action,
			signal: plan.signal ?? controller.signal,
			dryRun: plan.dryRun,
			addKeys: plan.add,
			confirmApiChanges: plan.yes,
			backupDir,
			...(plan.parallel === undefined ? {} : {parallel: plan.parallel}),
			...(plan.verifyTimeoutMs === undefined ? {} : {verifyTimeoutMs: plan.verifyTimeoutMs}),
			...(plan.verifyIntervalMs === undefined ? {} : {verifyIntervalMs: plan.verifyIntervalMs}),
			...(plan.requestTimeoutMs === undefined ? {} : {requestTimeoutMs: plan.requestTimeoutMs}),
		});
	} finally {
		process.off('SIGINT', onInterrupt);
	}

	if (!plan.dryRun) await keepRecords(results, parsed.what, plan, backupDir, (line) => say(stderr, [`rigtop: ${line}`]));
	if (plan.json) stdout.write(`${jsonText(batchJson(results, parsed.what, plan.dryRun), 2)}\n`);
	else say(stdout, reportLines(results));
	return recapExitCode(recapOf(results));
}

/** The undo records of the rigs written to, and each touched rig's history event; a problem is one line, the outcome stands. */
async function keepRecords(
	results: readonly RigResult[],
	what: string,
	plan: BatchPlan,
	backupDir: string,
	warn: (line: string) => void,
): Promise<void> {
	const at = Date.now();
	if (what.startsWith('config')) {
		try {
			const {recordOf, saveUndoRecords} = await import('../../batch/undo-records.js');
			await saveUndoRecords(
				backupDir,
				results.flatMap((result) => recordOf(result, what, at) ?? []),
			);
		} catch (error) {
			warn(`the batch's undo record was not saved: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	if (plan.history === false) return;
	const touched = results.filter((result) => result.answered);
	if (touched.length === 0) return;
	const [{recordActionEvents}, {defaultStoreFile}] = await Promise.all([
		import('../../history/action-event.js'),
		import('../../history/attach.js'),
	]);
	const by = batchWriter(results.length);
	try {
		recordActionEvents({
			file: plan.historyFile ?? defaultStoreFile(),
			secrets: results.flatMap((result) => (result.rig.token === null ? [] : [result.rig.token])),
			notify: warn,
			events: touched.map((result) => ({
				url: result.rig.url,
				name: result.rig.name,
				snapshot: result.snapshot,
				at,
				severity: result.status === 'applied' || result.status === 'already' ? 'info' : 'warn',
				text: `batch ${what} (${by}): ${saysItAll(result) ? result.reason : `${STATUS_WORDS[result.status]}: ${result.reason}`}`,
			})),
		});
	} catch (error) {
		warn(`the batch was not recorded in the history: ${error instanceof Error ? error.message : String(error)}`);
	}
}
