/**
 * What a rigtop that died left pending becomes when it is sent by the next one: only what is still true. A trouble
 * notice whose trouble has since closed becomes one 'collapsed' notice ("rig-03 was down 02:10–02:40"); a resolved
 * notice whose trouble notice was never sent is merged into it; a repeat of a trouble already told in the same batch
 * goes. Never a stale "down" for a rig that is up. docs/notify-delivery.md.
 */
import {formatDuration, formatTimeSpan, formatWhen} from '../../text/format.js';
import type {Notice, NoticeRig} from '../types.js';
import {rigName, troublePhrase} from '../policy/words.js';
import {rigKey} from './claims.js';

/**
 * When a rig's trouble ended (epoch ms), or null while it is still open: from the history's events of that miner (the
 * event table holds the all-clear) or the caller's first poll. May be async (the first poll).
 */
export type TroubleEnd = (rig: NoticeRig, trouble: string) => number | null | Promise<number | null>;

/** One pending notice and what became of it. */
export type CollapseStep =
	| {readonly keep: Notice}
	/** Replaced by `into` (a collapsed notice made from it, or one made earlier in the batch: then `into` is null and `by` names it). */
	| {readonly drop: Notice; readonly by: string | null; readonly into: Notice | null};

const happening = (rig: NoticeRig, trouble: string): string => `${rigKey(rig)}\u0000${trouble}\u0000${rig.since}`;

/** The happenings a notice tells as open (a trouble, repeat, flapping) — for "was its trouble told?" */
export function toldHappenings(notice: Notice): string[] {
	if (notice.kind === 'trouble' || notice.kind === 'repeat' || notice.kind === 'flapping' || notice.kind === 'collapsed')
		return notice.rigs.map((rig) => happening(rig, notice.trouble));
	return [];
}

/**
 * The plan for one channel's pending notices (oldest first). `told`: the happenings already sent on this channel.
 * Each step keeps a notice as it is, or drops it for a collapsed one (appearing in the returned order where the first
 * notice it replaces was).
 */
export async function collapsePending(
	pending: readonly Notice[],
	told: ReadonlySet<string>,
	ended: TroubleEnd,
	now: number,
): Promise<CollapseStep[]> {
	const steps: CollapseStep[] = [];
	/** Happenings this batch tells: by which notice, and whether as still open (then its all-clear is wanted). */
	const covered = new Map<string, {by: string; open: boolean}>();
	// A resolved notice in the batch says when its rigs' troubles ended, whatever else is known.
	const ends = new Map<string, number>();
	for (const notice of pending) {
		if (notice.kind === 'resolved') for (const rig of notice.rigs) ends.set(happening(rig, notice.trouble), rig.until ?? notice.at);
	}

	for (const notice of pending) {
		switch (notice.kind) {
			case 'trouble':
			case 'repeat':
			case 'flapping': {
				const rigs: NoticeRig[] = [];
				let closed = 0;
				let coveredBy: string | null = null;
				for (const rig of notice.rigs) {
					const by = covered.get(happening(rig, notice.trouble));
					if (by !== undefined) {
						coveredBy ??= by.by;
						continue;
					}

					const end = rig.until ?? ends.get(happening(rig, notice.trouble)) ?? (await safeEnd(ended, rig, notice.trouble));
					if (end !== null) closed++;
					rigs.push(end === null ? rig : {...rig, until: end});
				}

				if (rigs.length === 0) {
					steps.push({drop: notice, by: coveredBy, into: null});
					break;
				}

				const into = closed === 0 && rigs.length === notice.rigs.length ? notice : collapsedNotice(notice, rigs, now);
				for (const rig of rigs) covered.set(happening(rig, notice.trouble), {by: into.key, open: rig.until === undefined});
				steps.push(into === notice ? {keep: notice} : {drop: notice, by: into.key, into});
				break;
			}

			case 'resolved': {
				// Its rigs whose trouble was told as open (before, or in this batch) want the all-clear; those this batch
				// tells as closed ("was down …") need nothing more; those never told are told now as what they were.
				const wanted: NoticeRig[] = [];
				const never: NoticeRig[] = [];
				let by: string | null = null;
				for (const rig of notice.rigs) {
					const key = happening(rig, notice.trouble);
					const batch = covered.get(key);
					if (batch?.open === true || (batch === undefined && told.has(key))) wanted.push(rig);
					else if (batch === undefined) never.push(rig);
					else by ??= batch.by;
				}

				if (never.length === 0 && wanted.length === notice.rigs.length) steps.push({keep: notice});
				else if (never.length === 0 && wanted.length === 0) steps.push({drop: notice, by, into: null});
				else if (never.length === 0) steps.push({keep: {...notice, rigs: wanted}});
				else {
					const rigs = [...wanted, ...never].map((rig) => ({...rig, until: rig.until ?? notice.at}));
					const into = collapsedNotice(notice, rigs, now);
					steps.push({drop: notice, by: into.key, into});
				}

				break;
			}

			default:
				steps.push({keep: notice});
		}
	}

	return steps;
}

async function safeEnd(ended: TroubleEnd, rig: NoticeRig, trouble: string): Promise<number | null> {
	try {
		return await ended(rig, trouble);
	} catch {
		// Unknown: told as still open, which is what was last known.
		return null;
	}
}

/** "rig-03 was down 02:10–02:40 (30m)", "rig-07 down since 02:10". */
function rigLine(rig: NoticeRig, words: string, now: number): string {
	if (rig.until === undefined) return `${rigName(rig)} ${words} since ${formatWhen(rig.since, now)}`;
	return `${rigName(rig)} was ${words} ${formatTimeSpan(rig.since, rig.until, now)} (${formatDuration(Math.max(0, rig.until - rig.since) / 1000)})`;
}

/** The collapsed notice telling `rigs` (each closed, with `until`, or still open). Its key is the first one's, marked. */
export function collapsedNotice(from: Notice, rigs: readonly NoticeRig[], now: number): Notice {
	const words = troublePhrase(from.trouble);
	const open = rigs.filter((rig) => rig.until === undefined);
	const closed = rigs.length - open.length;
	const lines = rigs.map((rig) => rigLine(rig, words, now));
	let title: string;
	if (rigs.length === 1) title = lines[0] ?? '';
	else if (open.length === 0) title = `${rigs.length} rigs were ${words}`;
	else title = `${open.length} ${open.length === 1 ? 'rig' : 'rigs'} ${words}, ${closed} back`;
	return {
		key: `${from.key}~collapsed`,
		kind: 'collapsed',
		trouble: from.trouble,
		severity: open.length === 0 ? 'info' : from.severity,
		priority: open.length === 0 ? 'default' : from.priority,
		title,
		body: rigs.length === 1 ? '' : lines.join('\n'),
		rigs,
		at: now,
	};
}
