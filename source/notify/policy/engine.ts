/**
 * The policy (docs/notify-policy.md): the AlertCenter's trouble changes in, notices out, as Alertmanager does it. Pure:
 * the time is given (`now`) in every call, nothing runs by itself; the caller asks `nextDue` when to call `due` again.
 *
 * - A group: troubles of one kind that open within the group window after the first are told as one notice when the
 *   window ends ("3 rigs down"). A trouble that opened and closed inside the window is not told at all: a blip under
 *   the window is no page.
 * - A repeat while the group has rigs still open ("still 2 rigs down (for 4h)"), every repeat interval (0: never).
 * - One resolved notice per group, when its last rig is back, naming how long each was out.
 * - A rig that flaps (count opens of one trouble within the flap window) is told once as flapping; its opens and
 *   closes after that are not told, until no change for a flap window: then one notice of how it settled.
 * - One-shot news (a restart, another miner at the address) is grouped the same way and told as info, never resolved;
 *   a rig's new process as it comes back from an outage it was told of is part of its all-clear, no news of its own.
 * - A muted rig (`muted(ref, now)`) is left out of every notice; a notice of muted rigs only is not made.
 *
 * Every notice's key is made of what it tells (kind, trouble, each rig's trouble and since): two engines fed the
 * same changes make the same keys, and the outbox refuses a key twice.
 */
import {createHash} from 'node:crypto';
import type {RigRef, TroubleChange} from '../../alerts/types.js';
import {kindRow, kindsWhere, type Severity} from '../../monitor/event-kinds.js';
import type {Notice, NoticeKind, NoticeRig, Priority} from '../types.js';
import {DEFAULT_POLICY, type PolicyOptions} from './options.js';
import {bounded, countPhrase, durationWords, flappingTitle, forHowLong, outLine, rigName, settledTitle} from './words.js';

/** Whether a rig is muted now (rigtop notify mute RIG 1h). */
export type MutedTest = (ref: RigRef, now: number) => boolean;

/** A trouble open now, of one rig: a NoticeRig that says its trouble (what a stateful channel's refresh takes). */
export type OpenNow = NoticeRig & {readonly trouble: string; readonly severity: Severity};

export type PolicySettings = Partial<PolicyOptions> & {readonly muted?: MutedTest};

type Member = {
	readonly ref: RigRef;
	readonly since: number;
	until: number | null;
	message: string;
	severity: Severity;
	/** In a notice already (so in the group's resolved one). */
	told: boolean;
};

type Group = {
	readonly trouble: string;
	/** One-shot news: told once, never repeated or resolved. */
	readonly news: boolean;
	/** The first member's since: the window runs from it. */
	readonly opened: number;
	readonly sendAt: number;
	/** By the member's trouble id (its rig, worker and trouble). */
	readonly members: Map<string, Member>;
	told: boolean;
	toldAt: number;
	repeats: number;
};

type Flapper = {
	readonly ref: RigRef;
	readonly trouble: string;
	/** When it began flapping; the notices' keys hold it. */
	readonly since: number;
	/** The last open or close seen; it settles a flap window after. */
	last: number;
	/** The time of the open now open, if it is. */
	openSince: number | null;
	message: string;
	severity: Severity;
};

const RANK: Readonly<Record<Severity, number>> = {info: 0, warn: 1, error: 2};
const PRIORITY: Readonly<Record<Severity, Priority>> = {info: 'low', warn: 'default', error: 'high'};

/** One rig's one trouble: its rig (and worker) and the trouble's name. */
function troubleId(ref: RigRef, trouble: string): string {
	return `${ref.url}\u0000${ref.worker ?? ''}\u0000${trouble}`;
}

/**
 * The troubles that are an outage of the rig (down, error: the catalogue's rows that begin one). A rig back from one
 * with a new miner process is told back; its restart is part of that news, not a notice of its own.
 */
const OUTAGES: ReadonlySet<string> = new Set(kindsWhere((row) => row.outage === 'begins').map((kind) => kindRow(kind)?.begins ?? kind));

function refOf(change: RigRef): RigRef {
	return change.worker === undefined ? {rig: change.rig, url: change.url} : {rig: change.rig, url: change.url, worker: change.worker};
}

export class NoticePolicy {
	readonly #options: PolicyOptions;
	readonly #muted: MutedTest;
	/** In the order they were made: the notices come out in it. */
	readonly #groups: Group[] = [];
	/** The group each open trouble (by id) is a member of. */
	readonly #open = new Map<string, Group>();
	/** Each trouble's recent opens (ms), for flapping. */
	readonly #opens = new Map<string, number[]>();
	readonly #flappers = new Map<string, Flapper>();
	/** When a rig (by troubleId with no trouble) came back from an outage it was told of: its new process is no news. */
	readonly #back = new Map<string, number>();
	/** Made by a change, handed out by the next due. */
	#ready: Notice[] = [];

	constructor(settings: PolicySettings = {}) {
		this.#options = {
			groupMs: settings.groupMs ?? DEFAULT_POLICY.groupMs,
			repeatMs: settings.repeatMs ?? DEFAULT_POLICY.repeatMs,
			flap: settings.flap ?? DEFAULT_POLICY.flap,
		};
		this.#muted = settings.muted ?? (() => false);
	}

	get options(): PolicyOptions {
		return this.#options;
	}

	/** Takes one change and returns the notices due now (this change's and any whose time came). */
	change(change: TroubleChange, now: number): Notice[] {
		const before = this.due(now);
		if (change.open === null) this.#news(change);
		else if (change.open) this.#opened(change, now);
		else this.#closed(change, now);
		return [...before, ...this.due(now)];
	}

	/**
	 * Takes one change and keeps what it makes for the next `due` (nextDue says when: at once): the notifier's form,
	 * which records a change on the poll's path and sends on its own timer.
	 */
	take(change: TroubleChange, now: number): void {
		const made = this.change(change, now);
		this.#ready.push(...made);
	}

	/**
	 * Everything still held, told now (at close): each group whose window is not over yet goes out as it stands, with
	 * whatever else is due. A flapping rig's settling is not waited for.
	 */
	flush(now: number): Notice[] {
		const out = this.due(now);
		for (const group of [...this.#groups]) if (!group.told) this.#tell(group, now, out);
		return out;
	}

	/** The notices due at `now`: groups whose window ended, repeats, rigs settled, and what changes made. */
	due(now: number): Notice[] {
		const out = this.#ready;
		this.#ready = [];
		for (const group of [...this.#groups]) {
			if (!group.told) {
				if (now >= group.sendAt) this.#tell(group, now, out);
				continue;
			}

			const next = this.#nextRepeat(group);
			if (next !== null && now >= next) this.#repeat(group, now, out);
		}

		for (const [id, flapper] of [...this.#flappers])
			if (now >= flapper.last + this.#options.flap.windowMs) this.#settle(id, flapper, now, out);
		this.#forget(now);
		return out;
	}

	/**
	 * When the engine next has something to send (epoch ms; at or before `now`: call due now), or null: nothing pending.
	 * Notices a change made (take) are due from when they were made.
	 */
	nextDue(now?: number): number | null {
		if (this.#ready.length > 0) return Math.min(now ?? Number.POSITIVE_INFINITY, ...this.#ready.map((notice) => notice.at));
		let next: number | null = null;
		const take = (at: number | null) => {
			if (at !== null && (next === null || at < next)) next = at;
		};

		for (const group of this.#groups) take(group.told ? this.#nextRepeat(group) : group.sendAt);
		for (const flapper of this.#flappers.values()) take(flapper.last + this.#options.flap.windowMs);
		return next;
	}

	/**
	 * The troubles open now that were told and are not muted, flapping ones included: what a channel that holds state
	 * (Alertmanager) is pushed again (Channel.refresh), and what a heartbeat's /fail is for.
	 */
	openNow(now: number): OpenNow[] {
		const open: OpenNow[] = [];
		for (const group of this.#groups) {
			if (!group.told || group.news) continue;
			for (const member of group.members.values()) {
				if (member.until !== null || !member.told || this.#muted(member.ref, now)) continue;
				open.push({...member.ref, trouble: group.trouble, severity: member.severity, since: member.since, message: member.message});
			}
		}

		for (const flapper of this.#flappers.values()) {
			if (flapper.openSince === null || this.#muted(flapper.ref, now)) continue;
			open.push({...flapper.ref, trouble: flapper.trouble, severity: flapper.severity, since: flapper.openSince, message: flapper.message});
		}

		return open;
	}

	#news(change: TroubleChange): void {
		const ref = refOf(change);
		const back = this.#back.get(troubleId(ref, ''));
		if (back !== undefined) this.#back.delete(troubleId(ref, ''));
		if (back !== undefined && kindRow(change.trouble)?.newProcess === true && change.at - back <= this.#options.groupMs) return;
		const group = this.#pending(change.trouble, true, change.at);
		const id = troubleId(ref, change.trouble);
		const member = group.members.get(id);
		if (member === undefined)
			group.members.set(id, {ref, since: change.at, until: null, message: change.message, severity: change.severity, told: false});
		else member.message = change.message;
	}

	#opened(change: TroubleChange, now: number): void {
		const ref = refOf(change);
		const id = troubleId(ref, change.trouble);
		const flapper = this.#flappers.get(id);
		if (flapper !== undefined) {
			flapper.last = change.at;
			flapper.openSince ??= change.at;
			flapper.message = change.message;
			flapper.severity = change.severity;
			return;
		}

		const member = this.#open.get(id)?.members.get(id);
		if (member !== undefined && member.until === null) {
			member.message = change.message;
			return;
		}

		const {count, windowMs} = this.#options.flap;
		const opens = [...(this.#opens.get(id) ?? []).filter((at) => at > change.at - windowMs), change.at];
		this.#opens.set(id, opens);
		if (count > 0 && opens.length >= count) {
			this.#opens.delete(id);
			const flapping: Flapper = {
				ref,
				trouble: change.trouble,
				since: change.at,
				last: change.at,
				openSince: change.at,
				message: change.message,
				severity: change.severity,
			};
			this.#flappers.set(id, flapping);
			if (!this.#muted(ref, now)) {
				const rig: NoticeRig = {...ref, since: change.at, message: change.message};
				this.#ready.push(
					this.#notice(
						'flapping',
						change.trouble,
						change.severity,
						'high',
						flappingTitle(ref, change.trouble, opens.length, windowMs),
						now,
						[rig],
						{
							body: `${change.message}\nnot told again until it settles: no change for ${durationWords(windowMs)}`,
							stamp: [change.at],
						},
					),
				);
			}

			return;
		}

		const group = this.#pending(change.trouble, false, change.at);
		group.members.set(id, {ref, since: change.at, until: null, message: change.message, severity: change.severity, told: false});
		this.#open.set(id, group);
	}

	#closed(change: TroubleChange, now: number): void {
		const ref = refOf(change);
		const id = troubleId(ref, change.trouble);
		const flapper = this.#flappers.get(id);
		if (flapper !== undefined) {
			flapper.last = change.at;
			flapper.openSince = null;
			flapper.message = change.message;
			return;
		}

		const group = this.#open.get(id);
		this.#open.delete(id);
		const member = group?.members.get(id);
		if (group === undefined || member === undefined) return;
		if (!group.told) {
			// A blip inside the window: never told.
			group.members.delete(id);
			if (group.members.size === 0) this.#drop(group);
			return;
		}

		member.until = change.at;
		if (member.told && OUTAGES.has(change.trouble)) this.#back.set(troubleId(ref, ''), change.at);
		if ([...group.members.values()].every((each) => each.until !== null)) {
			this.#drop(group);
			const told = byName(group).filter((each) => each.told);
			if (told.length === 0) return;
			const rigs = told.map((each): NoticeRig => ({...each.ref, since: each.since, until: each.until ?? change.at, message: each.message}));
			this.#ready.push(
				this.#notice(
					'resolved',
					group.trouble,
					'info',
					'low',
					`resolved: ${countPhrase(
						told.map((each) => each.ref),
						group.trouble,
					)}`,
					now,
					rigs,
					{
						body: bounded(told.map((each) => outLine(each.ref, group.trouble, each.since, each.until ?? change.at, now))),
						stamp: [group.opened],
					},
				),
			);
		}
	}

	/** The group of this kind still in its window at `at`, or a new one. */
	#pending(trouble: string, news: boolean, at: number): Group {
		const found = this.#groups.find((group) => !group.told && group.news === news && group.trouble === trouble && at < group.sendAt);
		if (found !== undefined) return found;
		const group: Group = {
			trouble,
			news,
			opened: at,
			sendAt: at + this.#options.groupMs,
			members: new Map(),
			told: false,
			toldAt: 0,
			repeats: 0,
		};
		this.#groups.push(group);
		return group;
	}

	#tell(group: Group, now: number, out: Notice[]): void {
		group.told = true;
		group.toldAt = now;
		const shown = byName(group).filter((member) => !this.#muted(member.ref, now));
		for (const member of shown) member.told = true;
		if (group.news) this.#drop(group);
		if (shown.length === 0) return;
		const severity = worst(shown);
		const rigs = shown.map((member): NoticeRig => ({...member.ref, since: member.since, message: member.message}));
		const title = countPhrase(
			shown.map((member) => member.ref),
			group.trouble,
		);
		const body = bounded(shown.map((member) => `${rigName(member.ref)}: ${member.message}`));
		out.push(
			group.news
				? this.#notice('info', group.trouble, severity, 'low', title, now, rigs, {body, stamp: [group.opened]})
				: this.#notice('trouble', group.trouble, severity, PRIORITY[severity], title, now, rigs, {body, stamp: [group.opened]}),
		);
	}

	#nextRepeat(group: Group): number | null {
		if (group.news || this.#options.repeatMs <= 0) return null;
		return group.toldAt + (group.repeats + 1) * this.#options.repeatMs;
	}

	#repeat(group: Group, now: number, out: Notice[]): void {
		// A caller late by more than one interval sends one repeat, not a catch-up of them.
		while ((this.#nextRepeat(group) ?? Number.POSITIVE_INFINITY) <= now) group.repeats++;
		const shown = byName(group).filter((member) => member.until === null && !this.#muted(member.ref, now));
		if (shown.length === 0) return;
		for (const member of shown) member.told = true;
		const severity = worst(shown);
		const earliest = Math.min(...shown.map((member) => member.since));
		const rigs = shown.map((member): NoticeRig => ({...member.ref, since: member.since, message: member.message}));
		const title = `still ${countPhrase(
			shown.map((member) => member.ref),
			group.trouble,
		)} (${forHowLong(now - earliest)})`;
		const body = bounded(shown.map((member) => `${rigName(member.ref)}: ${member.message} (${forHowLong(now - member.since)})`));
		out.push(
			this.#notice('repeat', group.trouble, severity, PRIORITY[severity], title, now, rigs, {body, stamp: [group.opened, group.repeats]}),
		);
	}

	#settle(id: string, flapper: Flapper, now: number, out: Notice[]): void {
		this.#flappers.delete(id);
		const open = flapper.openSince !== null;
		const muted = this.#muted(flapper.ref, now);
		if (open) {
			// Still open: a group of its own, told by this notice, repeated and resolved as any other.
			const group: Group = {
				trouble: flapper.trouble,
				news: false,
				opened: flapper.openSince ?? flapper.since,
				sendAt: now,
				members: new Map(),
				told: true,
				toldAt: now,
				repeats: 0,
			};
			group.members.set(id, {
				ref: flapper.ref,
				since: flapper.openSince ?? flapper.since,
				until: null,
				message: flapper.message,
				severity: flapper.severity,
				told: !muted,
			});
			this.#groups.push(group);
			this.#open.set(id, group);
		}

		if (muted) return;
		const since = flapper.openSince ?? flapper.since;
		const rig: NoticeRig = open
			? {...flapper.ref, since, message: flapper.message}
			: {...flapper.ref, since, until: flapper.last, message: flapper.message};
		const title = settledTitle(flapper.ref, flapper.trouble, open);
		const body = `${flapper.message}\nno change for ${durationWords(now - flapper.last)}`;
		out.push(
			open
				? this.#notice('trouble', flapper.trouble, flapper.severity, PRIORITY[flapper.severity], title, now, [rig], {
						body,
						stamp: [flapper.since, 1],
					})
				: this.#notice('resolved', flapper.trouble, 'info', 'low', title, now, [rig], {body, stamp: [flapper.since, 0]}),
		);
	}

	#drop(group: Group): void {
		const at = this.#groups.indexOf(group);
		if (at !== -1) this.#groups.splice(at, 1);
	}

	/** Opens too old to count for flapping. */
	#forget(now: number): void {
		const since = now - this.#options.flap.windowMs;
		for (const [id, opens] of this.#opens) if (opens.every((at) => at <= since)) this.#opens.delete(id);
	}

	#notice(
		kind: NoticeKind,
		trouble: string,
		severity: Severity,
		priority: Priority,
		title: string,
		now: number,
		rigs: readonly NoticeRig[],
		more: {readonly body: string; readonly stamp: readonly number[]},
	): Notice {
		const key = noticeKey(kind, trouble, more.stamp, rigs);
		return {key, kind, trouble, severity, priority, title, body: more.body, rigs, at: now};
	}
}

const NAME_ORDER = new Intl.Collator('en', {numeric: true});

/** A group's members in the order a notice names them (rig-2 before rig-10), whatever order they came in. */
function byName(group: Group): Member[] {
	return [...group.members.values()].sort(
		(a, b) =>
			NAME_ORDER.compare(rigName(a.ref), rigName(b.ref)) ||
			NAME_ORDER.compare(a.ref.url, b.ref.url) ||
			NAME_ORDER.compare(a.ref.worker ?? '', b.ref.worker ?? ''),
	);
}

function worst(members: readonly Member[]): Severity {
	let severity: Severity = 'info';
	for (const member of members) if (RANK[member.severity] > RANK[severity]) severity = member.severity;
	return severity;
}

/**
 * A notice's key: its kind and trouble, the group's stamp (its first open, the repeat's number) and each rig's trouble
 * with its since (and until), hashed: the same changes make the same key in any engine.
 */
export function noticeKey(kind: NoticeKind, trouble: string, stamp: readonly number[], rigs: readonly NoticeRig[]): string {
	const hash = createHash('sha256');
	hash.update(JSON.stringify([kind, trouble, stamp, rigs.map((rig) => [rig.url, rig.worker ?? null, rig.since, rig.until ?? null])]));
	return `${kind}:${trouble}:${hash.digest('hex').slice(0, 24)}`;
}
