import type {MinerSnapshot, Rate} from '../miner/model.js';
import {formatDuration, formatHashrate, formatInteger, formatPercent} from '../format.js';
import type {EventKind, Severity} from './types.js';

/**
 * Events read from the difference between two snapshots of the same miner. Pure: everything that
 * must persist between polls (the hashrate-drop tracking) goes in and comes out through the context.
 * One event per change, never one per poll.
 */

/** An event before the monitor gives it a sequence number and a time. */
export type EventDraft = {readonly kind: EventKind; readonly severity: Severity; readonly message: string};

export type DropOptions = {
	/** The 10 s rate counts as dropped under this share of the reference average (default 0.7). */
	readonly share: number;
	/** Consecutive polls needed to report a drop, and again to report the recovery (default 3). */
	readonly polls: number;
	/** After a drop, the 10 s rate counts as recovered at or above this share of the average it dropped from (default 0.85). */
	readonly recoverShare: number;
};

export const defaultDropOptions: DropOptions = Object.freeze({share: 0.7, polls: 3, recoverShare: 0.85});

/** Hashrate-drop tracking carried from poll to poll. */
export type DropState = {
	/** Whether a drop has been reported and not yet a recovery. */
	readonly dropped: boolean;
	/** Consecutive polls below the line (while not dropped) or back above the recovery line (while dropped). */
	readonly streak: number;
	/** The average the rate fell from, taken when the first low poll of the streak was seen. */
	readonly baseline: number | null;
	/** Which of the miner's windows `baseline` came from. */
	readonly baselineWindow: '15m' | '60s' | null;
};

export const initialDropState: DropState = Object.freeze({dropped: false, streak: 0, baseline: null, baselineWindow: null});

export type EventContext = {
	/** Display name of the rig, for the 'started' message. */
	readonly name: string;
	readonly drop: DropState;
	/** Milliseconds between the two snapshots being read; 0 or absent when unknown. */
	readonly elapsedMs?: number;
	readonly dropOptions?: DropOptions;
};

export type DeriveResult = {
	readonly events: readonly EventDraft[];
	readonly drop: DropState;
	/** The miner process changed between the two snapshots: counters and windows started again. */
	readonly restarted: boolean;
};

const noEvents: readonly EventDraft[] = Object.freeze([]);

export function deriveEvents(prev: MinerSnapshot | null, next: MinerSnapshot, ctx: EventContext): DeriveResult {
	const options = ctx.dropOptions ?? defaultDropOptions;
	if (prev === null) {
		const started = startedEvent(ctx.name, next);
		const step = stepDrop(ctx.drop, next, options);
		return {events: step.event ? [started, step.event] : [started], drop: step.state, restarted: false};
	}

	const restart = restartEvent(prev, next, ctx.elapsedMs ?? 0);
	if (restart) {
		// Counters, windows and allocations all start again: comparing them with the old process means nothing.
		return {events: [restart], drop: initialDropState, restarted: true};
	}

	let events: EventDraft[] | null = null;
	const add = (event: EventDraft | null): void => {
		if (event) (events ??= []).push(event);
	};

	add(poolEvent(prev, next));
	add(pauseEvent(prev, next));
	add(rejectedEvent(prev, next));
	add(hugepagesEvent(prev, next));
	const step = stepDrop(ctx.drop, next, options);
	add(step.event);
	return {events: events ?? noEvents, drop: step.state, restarted: false};
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
 * shorter than the time between the two reads; its id or version changed; or, where the miner
 * reports no uptime (before 2.15.4), its lifetime share counters went down.
 */
export function isRestart(prev: MinerSnapshot, next: MinerSnapshot, elapsedMs = 0): boolean {
	return restartReason(prev, next, elapsedMs) !== null;
}

function restartReason(prev: MinerSnapshot, next: MinerSnapshot, elapsedMs: number): string | null {
	if (prev.version !== null && next.version !== null && prev.version !== next.version) {
		return `miner restarted: ${minerLabel(prev)} ${prev.version} → ${next.version}`;
	}

	if (prev.id !== null && next.id !== null && prev.id !== next.id) return 'miner restarted (new id)';
	if (prev.uptime !== null && next.uptime !== null) {
		const elapsed = elapsedMs / 1000;
		// Uptime is whole seconds and read somewhere inside each request: allow a little slack.
		const slack = 5 + elapsed * 0.02;
		if (next.uptime < prev.uptime || next.uptime + slack < elapsed) {
			return `miner restarted (up ${formatDuration(next.uptime)})`;
		}

		return null;
	}

	if (next.results.total < prev.results.total || next.results.good < prev.results.good) return 'miner restarted';
	return null;
}

function restartEvent(prev: MinerSnapshot, next: MinerSnapshot, elapsedMs: number): EventDraft | null {
	const reason = restartReason(prev, next, elapsedMs);
	return reason === null ? null : {kind: 'restarted', severity: 'warn', message: reason};
}

function poolEvent(prev: MinerSnapshot, next: MinerSnapshot): EventDraft | null {
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

function pauseEvent(prev: MinerSnapshot, next: MinerSnapshot): EventDraft | null {
	if (prev.paused === false && next.paused === true) return {kind: 'paused', severity: 'info', message: 'paused'};
	if (prev.paused === true && next.paused === false) return {kind: 'resumed', severity: 'info', message: 'resumed'};
	return null;
}

function rejectedEvent(prev: MinerSnapshot, next: MinerSnapshot): EventDraft | null {
	const count = next.results.rejected - prev.results.rejected;
	if (count <= 0) return null;
	const tally = `(${formatInteger(next.results.rejected)} of ${formatInteger(next.results.total)})`;
	const message = count === 1 ? `share rejected ${tally}` : `${count} shares rejected ${tally}`;
	return {kind: 'rejected', severity: 'warn', message};
}

function hugepagesEvent(prev: MinerSnapshot, next: MinerSnapshot): EventDraft | null {
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

		return null;
	}

	if (before.kind === 'flag' && after.kind === 'flag' && before.enabled && !after.enabled) {
		return {kind: 'hugepages-lost', severity: 'warn', message: 'huge pages lost'};
	}

	return null;
}

type DropStep = {readonly state: DropState; readonly event: EventDraft | null};

/**
 * One poll of drop tracking. The 10 s rate is judged against the miner's 15 m average (or its 60 s
 * one while the 15 m window fills). A drop needs `polls` low polls in a row; the average it fell
 * from is kept, so a drop long enough to drag the average down is still not reported as recovered.
 * Polls while paused or without a pool are not judged: those have their own events.
 */
export function stepDrop(state: DropState, next: MinerSnapshot, options: DropOptions = defaultDropOptions): DropStep {
	const [rate, medium, long] = next.hashrate.total;
	const judged = rate !== null && next.paused !== true && next.connection.connected;
	if (!state.dropped) {
		const reference: Rate = long ?? medium;
		if (!judged || reference === null || reference <= 0 || rate >= options.share * reference) {
			return {state: initialDropState, event: null};
		}

		const continuing = state.streak > 0 && state.baseline !== null;
		const baseline = continuing && state.baseline !== null ? state.baseline : reference;
		const baselineWindow = continuing ? state.baselineWindow : long === null ? '60s' : '15m';
		const streak = state.streak + 1;
		if (streak < options.polls) {
			return {state: {dropped: false, streak, baseline, baselineWindow}, event: null};
		}

		return {
			state: {dropped: true, streak: 0, baseline, baselineWindow},
			event: {
				kind: 'hashrate-drop',
				severity: 'warn',
				message:
					`hashrate down to ${formatHashrate(rate)}, ${formatPercent(rate, baseline)} ` +
					`of the ${baselineWindow ?? '15m'} average (${formatHashrate(baseline)})`,
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
		event: {kind: 'hashrate-recovered', severity: 'info', message: `hashrate recovered: ${formatHashrate(rate)}`},
	};
}
