/**
 * What the fleet config view shows of the marked rigs' configs as read (pure): every key any of them has, with the
 * values each rig has ("cpu.huge-pages-jit: false on 5, true on 2, missing on 1"), and, for a value typed, each rig's
 * diff as its apply will make it (batch/plan.ts, the same planning the batch runs): old → new, already so, lacks the key,
 * or why it is skipped.
 */
import {otherKindSkip, previewSet} from '../../../batch/plan.js';
import type {BatchRig, RigResult, RigStatus} from '../../../batch/types.js';
import {ConfigDocument} from '../../../config/document.js';
import type {Assignment} from '../../../config/edits.js';
import type {ConfigPath, JsonValue} from '../../../config/types.js';

/** One rig as read: its config, or why there is none (down, restricted, an unreadable config). */
export type RigRead = {
	readonly rig: BatchRig;
	readonly document: ConfigDocument | null;
	readonly status: RigStatus;
	/** Why there is no config ("down: …"), or "config read". */
	readonly reason: string;
	/** What the rig said it is: a key only the other kind has is not its (skipped, never added). */
	readonly subject?: 'miner' | 'proxy' | undefined;
};

function subjectOf(result: RigResult): 'miner' | 'proxy' | undefined {
	if (result.snapshot) return result.snapshot.kind === 'proxy' || result.snapshot.proxy !== null ? 'proxy' : 'miner';
	return result.rig.kind;
}

/** A key any rig has: the values the rigs have, most rigs first, and how many rigs read lack it. */
export type KeyRow = {
	readonly id: string;
	readonly path: ConfigPath;
	readonly values: readonly {readonly text: string; readonly count: number}[];
	readonly missing: number;
	/** The value most rigs have (the editor starts with it), as read and as written. */
	readonly common: JsonValue | undefined;
	readonly commonText: string;
	readonly secret: boolean;
};

/** Each read as a document (a config that does not parse is this rig's failure). */
export function rigReads(results: readonly RigResult[]): readonly RigRead[] {
	return results.map((result) => {
		const subject = subjectOf(result);
		if (result.config === undefined) return {rig: result.rig, document: null, status: result.status, reason: result.reason, subject};
		try {
			return {rig: result.rig, document: new ConfigDocument(result.config), status: result.status, reason: result.reason, subject};
		} catch (error) {
			return {rig: result.rig, document: null, status: 'failed', reason: error instanceof Error ? error.message : String(error), subject};
		}
	});
}

/**
 * Every plain key of the rigs read, in the order the first rig that has it lists it: a value, not a section, and not
 * an item of a list of values (cpu.rx.0: the list is set whole in the config view); a pool's keys are (pools.0.url).
 */
export function keyRows(reads: readonly RigRead[]): readonly KeyRow[] {
	const documents = reads.flatMap((read) => (read.document ? [read.document] : []));
	const order: {id: string; path: ConfigPath; secret: boolean}[] = [];
	const seen = new Set<string>();
	for (const document of documents) {
		for (const entry of document.entries()) {
			if (entry.kind === 'object' || entry.kind === 'array' || typeof entry.key === 'number' || seen.has(entry.id)) continue;
			seen.add(entry.id);
			order.push({id: entry.id, path: entry.path, secret: entry.secret});
		}
	}

	return order.map(({id, path, secret}) => {
		const counts = new Map<string, {count: number; value: JsonValue | undefined}>();
		let missing = 0;
		for (const document of documents) {
			const entry = document.entry(path);
			if (entry === undefined) {
				missing++;
				continue;
			}

			const text = entry.display;
			const had = counts.get(text);
			counts.set(text, {count: (had?.count ?? 0) + 1, value: had?.value ?? document.get(path)});
		}

		const values = [...counts].map(([text, {count}]) => ({text, count})).sort((a, b) => b.count - a.count);
		const first = values[0]?.text;
		return {
			id,
			path,
			values,
			missing,
			common: first === undefined ? undefined : counts.get(first)?.value,
			commonText: first ?? '',
			secret,
		};
	});
}

/** "false on 5, true on 2, missing on 1". */
export function valuesText(row: KeyRow): string {
	const parts = row.values.map((value) => `${value.text} on ${value.count}`);
	if (row.missing > 0) parts.push(`missing on ${row.missing}`);
	return parts.join(', ');
}

/** One rig's line of the diff: what its apply will do. */
export type RigDiff = {
	readonly name: string;
	readonly kind: 'change' | 'already' | 'lacks' | 'skipped' | 'failed' | 'unreachable';
	readonly text: string;
};

export type DiffPlan = {
	readonly rigs: readonly RigDiff[];
	/**
	 * How many rigs change (the apply's rigs), already are so, lack the key, are skipped (not of the key's kind), refuse
	 * it (or could not be read: restricted…) or are unreachable (down): the batch's recap words for the last two.
	 */
	readonly counts: Readonly<Record<RigDiff['kind'], number>>;
};

/** Each rig's diff for this assignment (addKeys: a rig lacking the key gets it), as the batch's own planning says. */
export function diffPlan(reads: readonly RigRead[], assignment: Assignment, addKeys: boolean, addHint: string): DiffPlan {
	const counts = {change: 0, already: 0, lacks: 0, skipped: 0, failed: 0, unreachable: 0};
	const rigs = reads.map((read): RigDiff => {
		const name = read.rig.name;
		// A key only the other kind has is not this rig's: skipped, even where its config could not be read (restricted).
		const notFor = read.subject === undefined ? null : otherKindSkip([assignment.path], read.subject);
		if (notFor !== null) {
			counts.skipped++;
			return {name, kind: 'skipped', text: notFor};
		}

		if (!read.document) {
			const kind = read.status === 'failed' ? 'failed' : read.status === 'unreachable' ? 'unreachable' : 'skipped';
			counts[kind]++;
			return {name, kind, text: `${kind}: ${read.reason}`};
		}

		// The http.* / api.* question is the view's (asked twice before the apply): not a refusal here.
		const preview = previewSet([assignment], read.document, {
			addKeys,
			confirmApiChanges: true,
			addHint,
			...(read.subject === undefined ? {} : {subject: read.subject}),
		});
		const kind =
			preview.status === 'planned'
				? 'change'
				: preview.status === 'already'
					? 'already'
					: preview.why === 'lacks'
						? 'lacks'
						: preview.status === 'skipped'
							? 'skipped'
							: 'failed';
		counts[kind]++;
		const text = kind === 'change' ? preview.lines.join('; ') : kind === 'failed' ? `refused: ${preview.reason}` : preview.reason;
		return {name, kind, text};
	});
	return {rigs, counts};
}
