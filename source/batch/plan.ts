/**
 * What a config action will do to one rig's config, decided without sending anything (pure): the changes of a
 * `config set` (PATH=VALUE) or a JSON Merge Patch on the document read, or why the rig is refused (a key it lacks
 * without --add, an http.* / api.* key without --yes, a value the schema refuses), and the diff lines shown for it.
 * The batch's rig action (rig-action.ts) applies what this plans; the fleet config view shows it as each rig's diff.
 */
import type {ConfigDocument} from '../config/document.js';
import {assignmentValue, diffLine, displayValue, PendingEdits, SECRET_CHANGED, type Assignment} from '../config/edits.js';
import {formatPath, showPath} from '../config/json-values.js';
import {patchChanges, type PatchChange} from '../config/merge-patch.js';
import {isApiGuarded, isSecret, validate} from '../config/schema.js';
import {didYouMean} from '../config/suggest.js';
import type {ConfigPath, JsonObject} from '../config/types.js';

/** What the planning reads of the batch's options. */
export type PlanOptions = {
	/** --add: a key the rig's config lacks may be added. */
	readonly addKeys: boolean;
	/** --yes: http.* / api.* changes are confirmed. */
	readonly confirmApiChanges: boolean;
	/** What a refusal says undoes it: "--add adds it", "--yes confirms it" from the shell; the fleet view names its keys. */
	readonly addHint?: string;
	readonly confirmHint?: string;
	/** What the rig is (what it answered): a key only the other kind has is not this rig's to take (skipped). */
	readonly subject?: 'miner' | 'proxy';
};

/** Top-level keys only xmrig-proxy has (its config as it writes it): not a miner's. */
const PROXY_ONLY = new Set([
	'access-log-file',
	'access-password',
	'algo-ext',
	'bind',
	'custom-diff',
	'custom-diff-stats',
	'mode',
	'reuse-timeout',
	'workers',
]);
/** Top-level keys only XMRig has (the 6.x sections, 2.x's CPU keys): not an xmrig-proxy's. */
const MINER_ONLY = new Set([
	'cpu',
	'randomx',
	'opencl',
	'cuda',
	'donate-over-proxy',
	'pause-on-battery',
	'pause-on-active',
	'print-time',
	'health-print-time',
	'dmi',
	'autosave',
	'title',
	'algo',
	'asm',
	'av',
	'huge-pages',
	'hw-aes',
	'cpu-priority',
	'cpu-affinity',
	'max-cpu-usage',
	'safe',
	'threads',
]);

/** Whether a key (as typed or planned) is only the other kind's: a miner's for a proxy, a proxy's for a miner. */
export function otherKindsKey(path: string, subject: 'miner' | 'proxy' | undefined): boolean {
	if (subject === undefined) return false;
	const top = path.split('.')[0] ?? '';
	return subject === 'proxy' ? MINER_ONLY.has(top) : PROXY_ONLY.has(top);
}

/**
 * A change none of whose keys is this rig's (every one only the other kind has: a proxy asked for `cpu.yield`): the
 * rig is skipped, before anything else is asked of it — a restricted or token-less rig too, whose config could not
 * be written anyway. Null when one key at least is its own (a mixed change: its own keys are applied, plan() says
 * the others were not for it).
 */
export function otherKindSkip(keys: readonly string[], subject: 'miner' | 'proxy' | undefined): string | null {
	if (keys.length === 0 || !keys.every((key) => otherKindsKey(key, subject))) return null;
	return `not for this rig: ${otherKindWords(subject)} ${keys.join(', ')}`;
}

/** The keys a config action names (a set's paths, a patch's top-level keys): what otherKindSkip decides on. */
export function keysOfChange(change: {readonly assignments: readonly Assignment[]} | {readonly patch: JsonObject}): readonly string[] {
	return 'assignments' in change ? change.assignments.map((assignment) => assignment.path) : Object.keys(change.patch);
}

export function countOf(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The diff line the one-rig path prints (`cpu.huge-pages: true → false`; a secret only "changed"; a removed key "(absent)"). */
export function changeLine(change: PatchChange): string {
	const id = formatPath(change.path);
	if (isSecret(change.path)) return `${showPath(id)}: ${SECRET_CHANGED}`;
	if (change.after === undefined)
		return `${showPath(id)}: ${displayValue(change.path, change.before)} → ${displayValue(change.path, undefined)}`;
	return diffLine({path: change.path, id, before: change.before, after: change.after, secret: false});
}

/**
 * Why a rig is not changed: `other-kind` a key only the other kind has (skipped: not this rig's change), `lacks` a key
 * of its own kind it lacks (failed unless --add), `api` an http or api key changed unconfirmed, `refused` a value refused.
 */
export type PlanWhy = 'other-kind' | 'lacks' | 'api' | 'refused';

export type Plan =
	| {
			readonly changes: readonly PatchChange[];
			/** A mixed change's keys only the other kind has, left out: "not for this rig: only XMRig's config has cpu.yield". */
			readonly aside?: string;
	  }
	| {readonly skip: string; readonly status: 'skipped' | 'failed'; readonly why: PlanWhy};

/** The words of a key only the other kind has. */
function otherKindWords(subject: 'miner' | 'proxy' | undefined): string {
	return subject === 'proxy' ? "only XMRig's config has" : "only xmrig-proxy's config has";
}

/**
 * Refusals every config action shares: every key only the other kind has (skipped: otherKindSkip), a key the rig
 * lacks (without --add: failed, the rig should have it), an API key (without --yes). A mixed change's keys only the
 * other kind has are left out and said aside; its own keys are the rig's change.
 */
function refusals(
	allChanges: readonly PatchChange[],
	missing: readonly {id: string; said: string}[],
	options: PlanOptions,
	keys: readonly string[],
): Plan {
	const skip = otherKindSkip(keys, options.subject);
	if (skip !== null) return {status: 'skipped', why: 'other-kind', skip};
	const own = missing.filter((item) => !otherKindsKey(item.id, options.subject));
	if (own.length > 0) return {status: 'failed', why: 'lacks', skip: `lacks ${own.map((item) => item.said).join('; ')}`};
	const others = missing.map((item) => showPath(item.id));
	const changes = allChanges.filter((change) => !otherKindsKey(formatPath(change.path), options.subject));

	const guarded = changes.filter((change) => isApiGuarded(change.path)).map((change) => showPath(change.path));
	if (guarded.length > 0 && !options.confirmApiChanges) {
		return {
			status: 'failed',
			why: 'api',
			skip: `${guarded.join(', ')} can cut rigtop off from the miner's API: ${options.confirmHint ?? '--yes confirms it'}`,
		};
	}

	if (others.length === 0) return {changes};
	return {changes, aside: `not for this rig: ${otherKindWords(options.subject)} ${others.join(', ')}`};
}

/** A refused value's message, which quotes the value: for a secret (the token, a pool password) the value is left out. */
function shownProblem(path: ConfigPath, message: string): string {
	return isSecret(path) ? `${showPath(path)} does not take that value (not shown: it is a secret)` : message;
}

export function planSet(assignments: readonly Assignment[], document: ConfigDocument, options: PlanOptions): Plan {
	let edits = new PendingEdits(document.text);
	const missing: {id: string; said: string}[] = [];
	const problems: string[] = [];
	const existing = document.entries().map((entry) => entry.id);
	for (const assignment of assignments) {
		const path = document.resolve(assignment.path);
		// --add adds a key under an object the config has (resolve() allows a new last segment), never a whole new branch.
		if (!path) {
			missing.push({id: assignment.path, said: `${showPath(assignment.path)}${didYouMean(assignment.path, existing)}`});
			continue;
		}

		if (!document.has(path) && (!options.addKeys || otherKindsKey(assignment.path, options.subject))) {
			// A key only the other kind has is not added: the rig is skipped, with or without --add.
			missing.push({id: assignment.path, said: `${showPath(assignment.path)} (${options.addHint ?? '--add adds it'})`});
			continue;
		}

		const outcome = edits.set(path, assignmentValue(path, assignment, document.get(path)));
		if (outcome.ok) edits = outcome.edits;
		else problems.push(shownProblem(path, outcome.message));
	}

	if (problems.length > 0) return {status: 'failed', why: 'refused', skip: problems.join('; ')};
	return refusals(
		edits.list().map((edit) => ({path: edit.path, before: edit.before, after: edit.after})),
		missing,
		options,
		assignments.map((assignment) => assignment.path),
	);
}

export function planPatch(patch: JsonObject, document: ConfigDocument, options: PlanOptions): Plan {
	const changes = patchChanges(document.value, patch);
	const missing = changes
		.filter((change) => change.before === undefined)
		.filter((change) => !options.addKeys || otherKindsKey(formatPath(change.path), options.subject))
		.map((change) => ({id: formatPath(change.path), said: `${showPath(change.path)} (${options.addHint ?? '--add adds it'})`}));
	const problems = changes.flatMap((change) => {
		if (change.after === undefined) return [];
		const problem = validate(change.path, change.after, change.before);
		return problem === null ? [] : [shownProblem(change.path, problem)];
	});
	if (problems.length > 0) return {status: 'failed', why: 'refused', skip: problems.join('; ')};
	return refusals(changes, missing, options, Object.keys(patch));
}

/** What a `set` would do to a rig's config as read, without sending anything: what its apply will refuse or change. */
export function previewSet(
	assignments: readonly Assignment[],
	document: ConfigDocument,
	options: PlanOptions,
): {
	readonly status: 'planned' | 'already' | 'skipped' | 'failed';
	readonly reason: string;
	readonly lines: readonly string[];
	readonly why?: PlanWhy;
} {
	const planned = planSet(assignments, document, options);
	if ('skip' in planned) return {status: planned.status, reason: planned.skip, lines: [], why: planned.why};
	if (planned.changes.length === 0) return {status: 'already', reason: 'already so', lines: []};
	const lines = planned.changes.map(changeLine);
	return {
		status: 'planned',
		reason: `would change ${countOf(planned.changes.length, 'key')}`,
		lines: planned.aside === undefined ? lines : [...lines, planned.aside],
	};
}
