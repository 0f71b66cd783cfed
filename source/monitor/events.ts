import type {MinerSnapshot, Rate} from '../miner/model.js';
import {formatDuration, formatHashrate, formatInteger, formatPercent} from '../text/format.js';
import type {EventKind, Severity} from './types.js';

/**
 * Events read from the difference between two snapshots of the same miner. Pure: everything that
 * must persist between polls (the hashrate-drop tracking) goes in and comes out through the context.
 * One event per change, never one per poll.
 */

/** An event before the monitor gives it a sequence number and a time. */
export type EventDraft = {
	readonly kind: EventKind;
	readonly severity: Severity;
	readonly message: string;
	/** A proxy's worker the event is about. */
	readonly worker?: string;
	/** About this rigtop's own access, not the rig (MinerEvent's `watcher`). */
	readonly watcher?: true;
};

export type DropOptions = {
	/** The 10 s rate counts as dropped under this share of the reference average (default 0.7). */
	readonly share: number;
	/** Consecutive polls needed to report a drop, and again to report the recovery (default 3). */
	readonly polls: number;
	/** After a drop, the 10 s rate counts as recovered at or above this share of the average it dropped from (default 0.85). */
	readonly recoverShare: number;
};

export const defaultDropOptions: DropOptions = Object.freeze({share: 0.7, polls: 3, recoverShare: 0.85});

/**
 * How much mining a miner must show after a pause before its hashrate is judged again: the 10 s window must hold
 * no paused seconds (XMRig samples the rate about once a second, so a little more than 10 s).
 */
export const RESUME_GRACE_MS = 15_000;

/** Hashrate-drop tracking carried from poll to poll. */
export type DropState = {
	/** Whether a drop has been reported and not yet a recovery. */
	readonly dropped: boolean;
	/** Consecutive polls below the line (while not dropped) or back above the recovery line (while dropped). */
	readonly streak: number;
	/** The average the rate fell from, taken when the first low poll of the streak was seen. */
	readonly baseline: number | null;
	/**
	 * Which of the miner's windows `baseline` came from ('15m', '60s'; a proxy's worker '10m', '1m'); '1h': the reference
	 * rigtop keeps of the last hour (EventContext).
	 */
	readonly baselineWindow: string | null;
	/**
	 * Milliseconds of mining seen since the miner was last seen paused, while that is under RESUME_GRACE_MS (its
	 * windows still hold paused seconds, which is no drop); null when not waiting.
	 */
	readonly sinceResume: number | null;
};

export const initialDropState: DropState = Object.freeze({
	dropped: false,
	streak: 0,
	baseline: null,
	baselineWindow: null,
	sinceResume: null,
});

/** Zero-hashrate tracking carried from poll to poll (stepZero). */
export type ZeroState = {
	/** Whether a zero hashrate has been reported and not yet its all-clear. */
	readonly zero: boolean;
	/** Consecutive polls at zero (while not reported) or hashing (while reported). */
	readonly streak: number;
	/** Milliseconds of the streak at zero (while not reported): a zero is reported after ZERO_AFTER_MS too. */
	readonly ms: number;
};

export const initialZeroState: ZeroState = Object.freeze({zero: false, streak: 0, ms: 0});

/**
 * How long a miner must hash nothing before it is reported, besides the drop's count of polls: longer than a RandomX
 * dataset is made again on a slow CPU after the pool switched algorithm (the 10 s rate is absent meanwhile).
 */
export const ZERO_AFTER_MS = 60_000;

/** How long the miner has been paused, carried from poll to poll. */
export type PauseState = {
	/** Milliseconds the miner has been seen paused (0 when it is not paused). */
	readonly pausedMs: number;
	/** Whether this pause was reported as too long ('paused-long'). */
	readonly reported: boolean;
};

export const initialPauseState: PauseState = Object.freeze({pausedMs: 0, reported: false});

/** After how long a pause is reported (default 10 minutes; 0 turns it off). */
export const DEFAULT_PAUSED_ALERT_MS = 10 * 60_000;

export type EventContext = {
	/** The rig's name with its worker id beside it (nameWithWorker), for the 'started' message. */
	readonly name: string;
	readonly drop: DropState;
	readonly pause?: PauseState;
	/** Whether huge pages were reported lost (or short when first seen) and not yet restored, this session. */
	readonly hugepagesLost?: boolean;
	/** Whether this miner process's huge pages have been judged once (hugepagesEvent); false again after a restart. */
	readonly hugepagesSeen?: boolean;
	/**
	 * The miner's typical 10 s rate over the last hour as rigtop knows it (stored history and this session's polls,
	 * monitor/reference.ts), or null. Unlike the miner's own windows it survives a restart of the miner or of its
	 * threads, so a miner that comes back slower is judged against what it did before.
	 */
	readonly reference?: number | null;
	/** Zero-hashrate tracking (stepZero); absent: none reported. */
	readonly zero?: ZeroState;
	/** How long a zero lasts before it is reported; default ZERO_AFTER_MS. */
	readonly zeroAfterMs?: number;
	/** After how long a pause is reported; default DEFAULT_PAUSED_ALERT_MS, 0 never. */
	readonly pausedAlertMs?: number;
	/** Milliseconds between the two snapshots being read; 0 or absent when unknown. */
	readonly elapsedMs?: number;
	readonly dropOptions?: DropOptions;
	/** Where the miner answers (host:port), for the 'replaced' message. */
	readonly address?: string;
};

export type DeriveResult = {
	readonly events: readonly EventDraft[];
	readonly drop: DropState;
	readonly zero: ZeroState;
	readonly pause: PauseState;
	readonly hugepagesLost: boolean;
	readonly hugepagesSeen: boolean;
	/** The miner process changed between the two snapshots: counters and windows started again. */
	readonly restarted: boolean;
	/** Another miner (a new id) answers at the address now: its counters are its own, not a jump of the old ones. */
	readonly replaced?: boolean;
};

const noEvents: readonly EventDraft[] = Object.freeze([]);

export function deriveEvents(prev: MinerSnapshot | null, next: MinerSnapshot, ctx: EventContext): DeriveResult {
	const options = ctx.dropOptions ?? defaultDropOptions;
	const elapsedMs = ctx.elapsedMs ?? 0;
	const reference = ctx.reference ?? null;
	const lost = ctx.hugepagesLost ?? false;
	if (prev === null) {
		const started = startedEvent(ctx.name, next);
		const step = stepDrop(ctx.drop, next, options, elapsedMs, reference);
		const hugepages = firstHugepages(next, lost, step.state);
		return {
			events: [started, ...(hugepages.event ? [hugepages.event] : []), ...(step.event ? [step.event] : [])],
			drop: step.state,
			zero: ctx.zero ?? initialZeroState,
			pause: initialPauseState,
			hugepagesLost: hugepages.lost,
			hugepagesSeen: hugepages.seen,
			restarted: false,
		};
	}

	const replaced = replacedEvent(prev, next, elapsedMs, ctx.address);
	if (replaced) {
		// Nothing of the old miner carries over: its counters, windows and allocations are another miner's.
		return {
			events: [replaced],
			drop: initialDropState,
			zero: initialZeroState,
			pause: initialPauseState,
			hugepagesLost: false,
			// Its huge pages are judged afresh: short ones are this miner's to report, once.
			hugepagesSeen: false,
			restarted: false,
			replaced: true,
		};
	}

	const restart = restartEvent(prev, next, elapsedMs);
	if (restart) {
		// Counters, windows and allocations all start again: comparing them with the old process means nothing. Its
		// rate is judged again (against the reference, which still knows the old one) after the grace of a resume, and
		// so are its huge pages (a loss reported this session stays open until they are back).
		return {
			events: [restart],
			drop: {...initialDropState, sinceResume: 0},
			zero: initialZeroState,
			pause: initialPauseState,
			hugepagesLost: lost,
			hugepagesSeen: false,
			restarted: true,
		};
	}

	let events: EventDraft[] | null = null;
	const add = (event: EventDraft | null): void => {
		if (event) (events ??= []).push(event);
	};

	add(poolEvent(prev, next));
	const pause = stepPause(ctx.pause ?? initialPauseState, prev, next, elapsedMs, ctx.pausedAlertMs ?? DEFAULT_PAUSED_ALERT_MS);
	add(pause.event);
	add(rejectedEvent(prev, next));
	const judged = stepDrop(ctx.drop, next, options, elapsedMs, reference);
	const zero = stepZero(
		ctx.zero ?? initialZeroState,
		next,
		{before: ctx.drop, after: judged.state},
		options.polls,
		elapsedMs,
		ctx.zeroAfterMs ?? ZERO_AFTER_MS,
	);
	const step = zero.drop === null ? judged : {state: zero.drop, event: null};
	const first = (ctx.hugepagesSeen ?? true) ? null : firstHugepages(next, lost, step.state);
	const hugepages = first === null ? hugepagesEvent(prev, next, lost) : first.event;
	add(hugepages);
	add(step.event);
	add(zero.event);
	const hugepagesLost = hugepages === null ? lost : hugepages.kind === 'hugepages-lost';
	return {
		events: events ?? noEvents,
		drop: step.state,
		zero: zero.state,
		pause: pause.state,
		hugepagesLost,
		hugepagesSeen: first?.seen ?? true,
		restarted: false,
	};
}

export function startedEvent(name: string, snapshot: MinerSnapshot): EventDraft {
	const version = snapshot.version ? `, ${minerLabel(snapshot)} ${snapshot.version}` : '';
	return {kind: 'started', severity: 'info', message: `watching ${name}${version}`};
}

function minerLabel(snapshot: MinerSnapshot): string {
	switch (snapshot.kind) {
		case 'nvidia':
			return 'xmrig-nvidia';
		case 'amd':
			return 'xmrig-amd';
		case 'proxy':
			return 'xmrig-proxy';
		default:
			return 'XMRig';
	}
}

/**
 * Whether `next` comes from a different miner process than `prev`: its uptime went down, or is
 * shorter than the time between the two reads; another miner answers (a new id); its version changed;
 * or, where the miner reports no uptime (before 2.15.4), its lifetime share counters went down.
 */
export function isRestart(prev: MinerSnapshot, next: MinerSnapshot, elapsedMs = 0): boolean {
	return isReplaced(prev, next, elapsedMs) || restartReason(prev, next, elapsedMs) !== null;
}

/** Uptime is whole seconds and read somewhere inside each request: a little slack on comparing it with the time between reads. */
function uptimeSlack(elapsedS: number): number {
	return 5 + elapsedS * 0.02;
}

/**
 * Whether another miner answers in `next` than in `prev`. XMRig derives its id from the API port, the MAC and the
 * program's kind (or takes `api.id`), so a new id at the same address is another machine or program — unless the
 * process is plainly the same one (its uptime went on by the time between the reads: `api.id` changed live). No id
 * on either side (2.x, or no network interface: ""): no evidence, never claimed.
 */
export function isReplaced(prev: MinerSnapshot, next: MinerSnapshot, elapsedMs = 0): boolean {
	if (prev.id === null || next.id === null || prev.id === next.id) return false;
	if (prev.uptime === null || next.uptime === null) return true;
	const elapsed = elapsedMs / 1000;
	const sameProcess = next.uptime >= prev.uptime && Math.abs(next.uptime - prev.uptime - elapsed) <= uptimeSlack(elapsed);
	return !sameProcess;
}

function replacedEvent(prev: MinerSnapshot, next: MinerSnapshot, elapsedMs: number, address: string | undefined): EventDraft | null {
	if (!isReplaced(prev, next, elapsedMs)) return null;
	const who = [next.workerId, next.version === null ? null : `${minerLabel(next)} ${next.version}`].filter(
		(part): part is string => part !== null && part.trim() !== '',
	);
	const where = address === undefined || address === '' ? 'this address' : address;
	return {
		kind: 'replaced',
		severity: 'warn',
		message: `a different ${programNoun(next)} now answers at ${where}${who.length > 0 ? `: ${who.join(', ')}` : ''}`,
	};
}

/** What the program is called in a sentence: "proxy" for xmrig-proxy, else "miner". */
function programNoun(snapshot: MinerSnapshot): string {
	return snapshot.kind === 'proxy' ? 'proxy' : 'miner';
}

function restartReason(prev: MinerSnapshot, next: MinerSnapshot, elapsedMs: number): string | null {
	const noun = programNoun(next);
	if (prev.version !== null && next.version !== null && prev.version !== next.version) {
		return `${noun} restarted: ${minerLabel(prev)} ${prev.version} → ${next.version}`;
	}

	if (prev.uptime !== null && next.uptime !== null) {
		const elapsed = elapsedMs / 1000;
		const slack = uptimeSlack(elapsed);
		if (next.uptime < prev.uptime || next.uptime + slack < elapsed) {
			return `${noun} restarted (up ${formatDuration(next.uptime)})`;
		}

		return null;
	}

	if (next.results.total < prev.results.total || next.results.good < prev.results.good) return `${noun} restarted`;
	return null;
}

function restartEvent(prev: MinerSnapshot, next: MinerSnapshot, elapsedMs: number): EventDraft | null {
	const reason = restartReason(prev, next, elapsedMs);
	return reason === null ? null : {kind: 'restarted', severity: 'warn', message: reason};
}

/**
 * An xmrig-proxy's pools are its upstreams: connected while one is active. Its `failures` are the upstreams in error
 * now, not a counter, so they say nothing of a reconnect between two polls.
 */
function upstreamEvent(prev: MinerSnapshot, next: MinerSnapshot): EventDraft | null {
	const before = prev.connection.connected;
	const after = next.connection.connected;
	if (before && !after) return {kind: 'pool-lost', severity: 'warn', message: 'no upstream active: every pool connection lost'};
	if (!before && after) return {kind: 'pool-connected', severity: 'info', message: 'upstream connected'};
	return null;
}

function poolEvent(prev: MinerSnapshot, next: MinerSnapshot): EventDraft | null {
	if (next.kind === 'proxy') return upstreamEvent(prev, next);
	const before = prev.connection;
	const after = next.connection;
	if (before.connected && !after.connected) {
		const pool = after.pool ?? before.pool;
		return {kind: 'pool-lost', severity: 'warn', message: pool ? `pool lost: ${pool}` : 'pool lost'};
	}

	if (!after.connected) return null;
	if (!before.connected) {
		return {kind: 'pool-connected', severity: 'info', message: after.pool ? `pool connected: ${after.pool}` : 'pool connected'};
	}

	if (after.pool !== null && before.pool !== null && after.pool !== before.pool) {
		return {kind: 'pool-connected', severity: 'info', message: `pool switched: ${before.pool} → ${after.pool}`};
	}

	// Lost and regained between two polls: the failure counter moved on, or the connection is younger.
	const failed = before.failures !== null && after.failures !== null && after.failures > before.failures;
	const younger = before.uptime !== null && after.uptime !== null && after.uptime < before.uptime;
	if (failed || younger) {
		return {kind: 'pool-connected', severity: 'info', message: after.pool ? `pool reconnected: ${after.pool}` : 'pool reconnected'};
	}

	return null;
}

/**
 * Paused and resumed, and a pause that lasts: reported once when it has lasted `alertMs` (the miner earns nothing
 * while paused, whoever paused it), and its resume then says for how long.
 */
function stepPause(
	state: PauseState,
	prev: MinerSnapshot,
	next: MinerSnapshot,
	elapsedMs: number,
	alertMs: number,
): {readonly state: PauseState; readonly event: EventDraft | null} {
	if (next.paused !== true) {
		if (prev.paused === true) {
			const message = state.reported ? `resumed after ${formatDuration((state.pausedMs + elapsedMs) / 1000)} paused` : 'resumed';
			return {state: initialPauseState, event: {kind: 'resumed', severity: 'info', message}};
		}

		return {state: state === initialPauseState ? state : initialPauseState, event: null};
	}

	if (prev.paused !== true) return {state: initialPauseState, event: {kind: 'paused', severity: 'info', message: 'paused'}};
	const pausedMs = state.pausedMs + elapsedMs;
	if (!state.reported && alertMs > 0 && pausedMs >= alertMs) {
		return {
			state: {pausedMs, reported: true},
			event: {kind: 'paused-long', severity: 'warn', message: `paused for ${formatDuration(pausedMs / 1000)}`},
		};
	}

	return {state: {pausedMs, reported: state.reported}, event: null};
}

function rejectedEvent(prev: MinerSnapshot, next: MinerSnapshot): EventDraft | null {
	// An xmrig-proxy's rejects are every miner's behind it: one event per rejected share would flood the log (a reject
	// burst, judged against all its shares, is the alert center's).
	if (next.proxy !== null) return null;
	const count = next.results.rejected - prev.results.rejected;
	if (count <= 0) return null;
	const tally = `(${formatInteger(next.results.rejected)} of ${formatInteger(next.results.total)})`;
	const message = count === 1 ? `share rejected ${tally}` : `${count} shares rejected ${tally}`;
	return {kind: 'rejected', severity: 'warn', message};
}

/** Huge pages lost (fewer allocated than before, short of the total), and restored once a loss was reported. */
function hugepagesEvent(prev: MinerSnapshot, next: MinerSnapshot, lost: boolean): EventDraft | null {
	const before = prev.hugepages;
	const after = next.hugepages;
	if (before === null || after === null) return null;
	if (before.kind === 'pages' && after.kind === 'pages') {
		if (after.allocated < before.allocated && after.allocated < after.total) {
			return {
				kind: 'hugepages-lost',
				severity: 'warn',
				message: `huge pages lost: ${formatInteger(before.allocated)} → ${formatInteger(after.allocated)} of ${formatInteger(after.total)} allocated`,
			};
		}

		if (lost && after.allocated > before.allocated && after.allocated >= after.total) {
			return {
				kind: 'hugepages-restored',
				severity: 'info',
				message: `huge pages restored: ${formatInteger(before.allocated)} → ${formatInteger(after.allocated)} of ${formatInteger(after.total)} allocated`,
			};
		}

		return null;
	}

	if (before.kind === 'flag' && after.kind === 'flag') {
		if (before.enabled && !after.enabled) return {kind: 'hugepages-lost', severity: 'warn', message: 'huge pages lost'};
		if (lost && !before.enabled && after.enabled) return {kind: 'hugepages-restored', severity: 'info', message: 'huge pages restored'};
	}

	return null;
}

/**
 * A miner process's huge pages the first time they are known while it mines (its windows show hashing: before that
 * its memory may not be allocated yet), past the first seconds of the session or of the process (`drop`'s grace, so
 * that the alert center, which starts after the session's first poll, hears of it): short of what it wants is
 * reported once, whether or not this rigtop saw them go ("huge pages: 0 of 1 168 allocated"); all of them after a
 * reported loss is their restore. `seen` stays false until they could be judged.
 */
function firstHugepages(
	next: MinerSnapshot,
	lost: boolean,
	drop: DropState,
): {readonly event: EventDraft | null; readonly lost: boolean; readonly seen: boolean} {
	const pages = next.hugepages;
	const mining = next.hashrate.total.some((rate) => rate !== null && rate > 0);
	if (pages === null || !mining || drop.sinceResume !== null || (pages.kind === 'pages' && pages.total <= 0)) {
		return {event: null, lost, seen: false};
	}

	const short = pages.kind === 'pages' ? pages.allocated < pages.total : !pages.enabled;
	if (short === lost) return {event: null, lost, seen: true};
	if (short) {
		const message =
			pages.kind === 'pages'
				? `huge pages: ${formatInteger(pages.allocated)} of ${formatInteger(pages.total)} allocated`
				: 'huge pages: not in use';
		return {event: {kind: 'hugepages-lost', severity: 'warn', message}, lost: true, seen: true};
	}

	const message =
		pages.kind === 'pages'
			? `huge pages restored: ${formatInteger(pages.allocated)} of ${formatInteger(pages.total)} allocated`
			: 'huge pages restored';
	return {event: {kind: 'hugepages-restored', severity: 'info', message}, lost: false, seen: true};
}

/**
 * One poll of zero-hashrate tracking: a miner with a pool, not paused and past the drop's grace (a resume, a restart,
 * the session's start), whose 10 s rate is 0 or absent for `polls` polls and ZERO_AFTER_MS is reported once
 * ('zero-hashrate'); `polls` polls hashing again are its all-clear ('hashrate-back'). Polls paused or without a pool
 * are not judged (their own events say why it hashes nothing; a zero reported stays open), nor is a proxy (its rate
 * is its workers'). A miner down is not polled, and its 'up' closes the trouble (the monitor starts this again).
 *
 * A drop to zero is told once, as a zero: a poll at zero is no poll of the drop detector (its state is kept as it was,
 * neither counted nor reset), and when the zero is reported the drop's tracking starts again (the row clears a drop
 * told before, whose all-clear would never come). While the zero is open the drop is not judged; once the miner
 * hashes again, it is, afresh. `drop`: the drop detector's state before and after this poll's step; the answer's `drop`
 * is the state to keep instead of the step's (null: the step's).
 */
export function stepZero(
	given: ZeroState,
	next: MinerSnapshot,
	drop: {readonly before: DropState; readonly after: DropState},
	polls: number,
	elapsedMs: number,
	afterMs: number = ZERO_AFTER_MS,
): {readonly state: ZeroState; readonly event: EventDraft | null; readonly drop: DropState | null} {
	if (next.proxy !== null) return {state: initialZeroState, event: null, drop: null};
	const rate = next.hashrate.total[0];
	const judged = next.paused !== true && next.connection.connected && drop.after.sinceResume === null;
	if (!judged) return {state: given.streak === 0 && given.ms === 0 ? given : {...given, streak: 0, ms: 0}, event: null, drop: null};
	const none = rate === null || rate <= 0;
	if (!given.zero) {
		if (!none) return {state: given === initialZeroState ? given : initialZeroState, event: null, drop: null};
		const streak = given.streak + 1;
		const ms = given.ms + elapsedMs;
		// The drop's state as it was before this poll: a zero poll is not one of its polls.
		const held: DropState = drop.before.sinceResume === null ? drop.before : {...drop.before, sinceResume: null};
		if (streak < polls || ms < afterMs) return {state: {zero: false, streak, ms}, event: null, drop: held};
		const pool = next.connection.pool;
		return {
			state: {zero: true, streak: 0, ms: 0},
			event: {
				kind: 'zero-hashrate',
				severity: 'warn',
				message: `no hashrate for ${formatDuration(ms / 1000)}: ${pool ? `connected to ${pool}` : 'connected'}, not paused`,
			},
			drop: initialDropState,
		};
	}

	if (none) return {state: given.streak === 0 ? given : {...given, streak: 0}, event: null, drop: initialDropState};
	const streak = given.streak + 1;
	if (streak < polls) return {state: {...given, streak}, event: null, drop: initialDropState};
	return {
		state: initialZeroState,
		event: {kind: 'hashrate-back', severity: 'info', message: `hashrate back: ${formatHashrate(rate)}`},
		drop: initialDropState,
	};
}

type DropStep = {readonly state: DropState; readonly event: EventDraft | null};

/**
 * One poll of drop tracking. The 10 s rate is judged against the miner's 15 m average (or its 60 s
 * one while the 15 m window fills), or against `reference` — what rigtop knows of the last hour — where that is
 * higher: the miner's windows start again when its threads or the process restart, so a miner that comes back
 * slower looks steady against them. A drop needs `polls` low polls in a row; the average it fell
 * from is kept, so a drop long enough to drag the average down is still not reported as recovered.
 * Polls while paused or without a pool are not judged: those have their own events. Nor are the polls
 * of the first RESUME_GRACE_MS of mining after a pause, whose 10 s window still holds paused seconds:
 * a pause is no drop, and the baseline is taken afresh once they are past.
 */
export function stepDrop(
	given: DropState,
	next: MinerSnapshot,
	options: DropOptions = defaultDropOptions,
	elapsedMs = 0,
	reference: number | null = null,
): DropStep {
	// A proxy is judged on its 1 min rate against its 10 min one (it has no 10 s, 60 s or 15 m window), and says so.
	if (next.proxy !== null) {
		const [minute, tenMinutes] = next.proxy.hashrate;
		const input = {rate: minute, medium: null, long: tenMinutes, paused: false, connected: next.connection.connected};
		return stepDropRates(given, input, options, elapsedMs, reference, {
			medium: '1m',
			long: '10m',
			graceMs: RESUME_GRACE_MS,
			subject: '1m ',
		});
	}

	const [rate, medium, long] = next.hashrate.total;
	return stepDropRates(
		given,
		{rate, medium, long, paused: next.paused === true, connected: next.connection.connected},
		options,
		elapsedMs,
		reference,
		MINER_DROP_WINDOWS,
	);
}

/** What the drop detector reads of one poll: the rate judged, the averages it is judged against, and whether it mines. */
export type DropInput = {
	readonly rate: Rate;
	/** The shorter average (a miner's 60 s window), used while the longer one fills. */
	readonly medium: Rate;
	/** The longer average (a miner's 15 min window). */
	readonly long: Rate;
	readonly paused: boolean;
	/** With a pool (a proxy's worker: a connection open, sharing). */
	readonly connected: boolean;
};

/** The names of the averages in the drop's message, and the grace after a resume or a start. */
export type DropWindows = {
	readonly medium: string;
	readonly long: string;
	readonly graceMs: number;
	/** Said before the message ("worker rig-01: "). */
	readonly subject?: string;
};

export const MINER_DROP_WINDOWS: DropWindows = Object.freeze({medium: '60s', long: '15m', graceMs: RESUME_GRACE_MS});

/** stepDrop on rates already read (a miner's windows, or a proxy's worker's: proxy-events.ts). */
export function stepDropRates(
	given: DropState,
	next: DropInput,
	options: DropOptions,
	elapsedMs: number,
	reference: number | null,
	windows: DropWindows,
): DropStep {
	const {rate, medium, long} = next;
	const subject = windows.subject ?? '';
	if (next.paused) {
		// Judged again only after the grace of mining; a drop reported before the pause stays open until then.
		const waiting: DropState = given.dropped ? {...given, streak: 0, sinceResume: 0} : {...initialDropState, sinceResume: 0};
		return {state: waiting, event: null};
	}

	let state = given;
	if (state.sinceResume !== null) {
		const sinceResume = state.sinceResume + elapsedMs;
		if (sinceResume < windows.graceMs) return {state: {...state, sinceResume}, event: null};
		state = {...state, sinceResume: null};
	}

	const judged = rate !== null && next.connected;
	if (!state.dropped) {
		const windowAverage: Rate = long ?? medium;
		const hour = reference !== null && reference > 0 && (windowAverage === null || reference > windowAverage);
		const average: Rate = hour ? reference : windowAverage;
		if (!judged || average === null || average <= 0 || rate >= options.share * average) {
			return {state: initialDropState, event: null};
		}

		const continuing = state.streak > 0 && state.baseline !== null;
		const baseline = continuing && state.baseline !== null ? state.baseline : average;
		const baselineWindow = continuing ? state.baselineWindow : hour ? '1h' : long === null ? windows.medium : windows.long;
		const streak = state.streak + 1;
		if (streak < options.polls) {
			return {state: {dropped: false, streak, baseline, baselineWindow, sinceResume: null}, event: null};
		}

		return {
			state: {dropped: true, streak: 0, baseline, baselineWindow, sinceResume: null},
			event: {
				kind: 'hashrate-drop',
				severity: 'warn',
				message:
					`${subject}hashrate down to ${formatHashrate(rate)}, ${formatPercent(rate, baseline)} ` +
					`of the ${baselineWindow ?? windows.long} average (${formatHashrate(baseline)})`,
			},
		};
	}

	const baseline = state.baseline ?? 0;
	if (!judged || rate < options.recoverShare * baseline) {
		return {state: state.streak === 0 ? state : {...state, streak: 0}, event: null};
	}

	const streak = state.streak + 1;
	if (streak < options.polls) return {state: {...state, streak}, event: null};
	return {
		state: initialDropState,
		event: {kind: 'hashrate-recovered', severity: 'info', message: `${subject}hashrate recovered: ${formatHashrate(rate)}`},
	};
}
