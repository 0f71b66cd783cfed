/**
 * Events of an xmrig-proxy read from two successive polls, beside the ones every program has (events.ts: down and
 * back, restarted, upstream lost): its upstreams in error and recovered, and each worker behind it joining, gone
 * (dropped from the list, or no connection left) and back, quiet (workerQuiet) and sharing again, its rate dropping
 * against its own history and recovering (the miner's drop detector on the worker's 10 min rate: its 1 min rate is the
 * difficulty of the shares of one minute, 0 in a minute without one, far too jumpy to judge). Pure: what lasts
 * from poll to poll goes in and out through ProxyEventState; the workers' rate references are the monitor's.
 *
 * The first list seen is the baseline (no "joined" for every worker at start; one listed without a connection is
 * gone already, unreported), and so is the list for a while after the proxy restarts (its miners log in again).
 * Many workers changing at once (an upstream lost, a switch rebooted) make one event of a kind, not hundreds.
 */
import {formatDuration, formatInteger} from '../text/format.js';
import type {MinerSnapshot} from '../miner/model.js';
import type {ProxyWorker} from '../miner/proxy-model.js';
import {workerQuiet} from '../miner/proxy-quiet.js';
import {initialDropState, stepDropRates, type DropOptions, type DropState, type DropWindows, type EventDraft} from './events.js';
import {kindRow, type EventKind} from './event-kinds.js';

type WorkerTrack = {
	/** 'silent': gone when first seen (not reported, so its return is a join); 'reported': its 'worker-gone' told. */
	readonly gone: 'no' | 'silent' | 'reported';
	/** Its 'worker-quiet' told, not yet its 'worker-sharing'. */
	readonly quiet: boolean;
	readonly drop: DropState;
	/** Since when it is missing from the list (epoch ms); absent while listed. */
	readonly absentSince?: number;
};

export type ProxyEventState = {
	/** Null until a workers list was seen. */
	readonly workers: ReadonlyMap<string, WorkerTrack> | null;
	/** Its 'upstream-error' told, not yet its recovery. */
	readonly upstreamError: boolean;
	/** Until when a list is a baseline (after a restart), epoch ms. */
	readonly settleUntil: number;
};

export const initialProxyEventState: ProxyEventState = Object.freeze({workers: null, upstreamError: false, settleUntil: 0});

/** After a proxy restarts, how long its miners have to log in again before a worker missing is gone. */
export const RESTART_SETTLE_MS = 60_000;
/**
 * A worker's drop is judged after this much of it connected and sharing, and of the proxy up: the 10 min window it is
 * judged by must hold no time without it.
 */
export const WORKER_DROP_GRACE_MS = 11 * 60_000;
/** A worker missing from the list this long is forgotten (its return is then a join). */
export const FORGET_ABSENT_MS = 24 * 60 * 60_000;
/** More events than this of one kind in one poll are told as one. */
export const WORKER_EVENTS_EACH_MAX = 5;

export type ProxyEventContext = {
	/** Epoch ms of this poll. */
	readonly now: number;
	readonly elapsedMs: number;
	/** The proxy restarted between the two polls (events.ts told it). */
	readonly restarted: boolean;
	readonly dropOptions: DropOptions;
	/** The worker's typical 1 min rate over the last hour as rigtop knows it (the monitor's reference), or null. */
	readonly referenceOf: (worker: string) => number | null;
};

export type ProxyEventResult = {
	readonly events: readonly EventDraft[];
	readonly state: ProxyEventState;
	/** The workers' 1 min rates this poll that count for their references (connected, sharing). */
	readonly judged: readonly {readonly worker: string; readonly rate: number}[];
};

export function deriveProxyEvents(next: MinerSnapshot, given: ProxyEventState, ctx: ProxyEventContext): ProxyEventResult {
	const proxy = next.proxy;
	if (proxy === null) return {events: [], state: given, judged: []};
	const events: EventDraft[] = [];
	let state = ctx.restarted ? {...given, settleUntil: ctx.now + RESTART_SETTLE_MS} : given;

	const upstreams = proxy.upstreams;
	if (upstreams !== null) {
		const inError = upstreams.error > 0;
		if (inError && !state.upstreamError) {
			events.push({
				kind: 'upstream-error',
				severity: 'warn',
				message: `upstreams in error: ${formatInteger(upstreams.error)} of ${formatInteger(upstreams.total)}`,
			});
		} else if (!inError && state.upstreamError) {
			events.push({
				kind: 'upstream-recovered',
				severity: 'info',
				message: `upstreams recovered: none in error, ${formatInteger(upstreams.active)} of ${formatInteger(upstreams.total)} active`,
			});
		}

		state = {...state, upstreamError: inError};
	}

	const list = proxy.workers;
	if (list === null) return {events, state, judged: []};
	const baseline = state.workers === null;
	const settling = ctx.now < state.settleUntil;
	let before: ReadonlyMap<string, WorkerTrack> = state.workers ?? new Map<string, WorkerTrack>();
	// A new process: every window starts empty, each worker's rate is judged again after the grace.
	if (ctx.restarted) before = new Map([...before].map(([name, track]) => [name, {...track, drop: {...initialDropState, sinceResume: 0}}]));
	const after = new Map<string, WorkerTrack>();
	const perWorker: EventDraft[] = [];
	const judged: {worker: string; rate: number}[] = [];
	const tell = (kind: EventKind, severity: EventDraft['severity'], worker: string, message: string) => {
		perWorker.push({kind, severity, message, worker});
	};

	for (const worker of list) {
		const known = before.get(worker.name);
		const connected = worker.connections > 0;
		if (!known) {
			if (!baseline && !settling && connected) tell('worker-joined', 'info', worker.name, `worker ${worker.name} joined`);
			after.set(worker.name, {gone: connected ? 'no' : 'silent', quiet: false, drop: {...initialDropState, sinceResume: 0}});
			continue;
		}

		let {gone, quiet, drop} = known;
		if (!connected && gone === 'no') {
			if (!settling) {
				tell('worker-gone', 'warn', worker.name, `worker ${worker.name} gone: no connection left`);
				gone = 'reported';
			}
		} else if (connected && gone !== 'no') {
			if (gone === 'reported') tell('worker-back', 'info', worker.name, `worker ${worker.name} back`);
			else tell('worker-joined', 'info', worker.name, `worker ${worker.name} joined`);
			gone = 'no';
			drop = {...initialDropState, sinceResume: 0};
		}

		const silent = workerQuiet(worker, proxy, ctx.now);
		if (silent && !quiet && !settling) {
			tell(
				'worker-quiet',
				'warn',
				worker.name,
				`worker ${worker.name} quiet: no share for ${formatDuration((ctx.now - (worker.lastShareAt ?? ctx.now)) / 1000)}`,
			);
			quiet = true;
		} else if (quiet && connected && !silent) {
			tell('worker-sharing', 'info', worker.name, `worker ${worker.name} sharing again`);
			quiet = false;
			// Its 1 min window still holds the silence: judged again once it is full of sharing.
			drop = {...initialDropState, sinceResume: 0};
		}

		const step = stepWorkerDrop(worker, drop, connected && !quiet, ctx);
		if (step.event) perWorker.push({...step.event, worker: worker.name});
		drop = step.state;
		const rate = worker.hashrate[0];
		// Its 1 min rate feeds its reference (the rate stored, the rate its stored hour is made of).
		if (connected && !quiet && rate !== null && rate > 0) judged.push({worker: worker.name, rate});
		after.set(worker.name, {gone, quiet, drop});
	}

	// Dropped from the list: gone (told once); kept while settling after a restart, as the list fills again, and
	// forgotten a day after (a proxy whose miners come and go under new names would otherwise keep every name).
	for (const [name, track] of before) {
		if (after.has(name)) continue;
		if (track.gone === 'no' && !settling) {
			tell('worker-gone', 'warn', name, `worker ${name} gone: dropped from the proxy's list`);
			after.set(name, {...track, gone: 'reported', absentSince: ctx.now});
		} else if (ctx.now - (track.absentSince ?? ctx.now) < FORGET_ABSENT_MS) {
			after.set(name, track.absentSince === undefined ? {...track, absentSince: ctx.now} : track);
		}
	}

	events.push(...grouped(perWorker));
	return {events, state: {...state, workers: after}, judged};
}

function stepWorkerDrop(worker: ProxyWorker, drop: DropState, connected: boolean, ctx: ProxyEventContext) {
	const windows: DropWindows = {medium: '1h', long: '12h', graceMs: WORKER_DROP_GRACE_MS, subject: `worker ${worker.name}: 10m `};
	const [, rate, medium, long] = worker.hashrate;
	return stepDropRates(
		drop,
		{rate, medium, long, paused: false, connected},
		ctx.dropOptions,
		ctx.elapsedMs,
		ctx.referenceOf(worker.name),
		windows,
	);
}

/** More than WORKER_EVENTS_EACH_MAX events of one kind in one poll: one event naming a few and counting the rest. */
function grouped(events: readonly EventDraft[]): EventDraft[] {
	const byKind = new Map<EventKind, EventDraft[]>();
	for (const event of events) {
		const list = byKind.get(event.kind);
		if (list) list.push(event);
		else byKind.set(event.kind, [event]);
	}

	const out: EventDraft[] = [];
	for (const [kind, list] of byKind) {
		const first = list[0];
		if (list.length <= WORKER_EVENTS_EACH_MAX || !first) {
			out.push(...list);
			continue;
		}

		const names = list.slice(0, 3).map((event) => event.worker ?? '');
		out.push({
			kind,
			severity: first.severity,
			message: `${formatInteger(list.length)} workers ${kindRow(kind)?.group ?? kind}: ${names.join(', ')} and ${formatInteger(list.length - names.length)} more`,
		});
	}

	return out;
}
