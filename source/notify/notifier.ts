/**
 * The notifier: the one place the parts of notifications meet (issue 38). The AlertCenter's trouble changes go to the
 * policy; the notices the policy makes go to the outbox, which writes each one before it is sent and delivers it
 * through the channels. Everything here runs on one unref'd timer, set to the next moment something is due (the
 * policy's group window or repeat, the outbox's next retry, the Alertmanager channels' refresh, the heartbeat), never a
 * busy tick, and never on the poll's path: a change only records itself and moves the timer. A slow or hanging
 * channel delays nothing but the next delivery (each send has the outbox's deadline).
 */
import type {Channel, Delivery, Notice, NoticeRig, TroubleChange} from './types.js';

/** The policy as the notifier drives it (notify/policy/). Pure: the time is given. */
export type NotifierPolicy = {
	/** A trouble opened or closed, or a piece of news. */
	take(change: TroubleChange, now: number): void;
	/** The notices due at `now` (taken: the next call does not give them again). */
	due(now: number): readonly Notice[];
	/** When the next notice may be due (epoch ms), or null for none pending. */
	nextDue(): number | null;
	/** The rigs muted until when (read from the outbox's store at each change). */
	setMutes?(mutes: ReadonlyMap<string, number>): void;
};

/** One answer of a channel to one notice, as the outbox tells it. */
export type DeliveryReport = {
	readonly notice: Notice;
	readonly channel: Pick<Channel, 'service' | 'shown'>;
	readonly delivery: Delivery;
	/** true when the outbox will not try this notice on this channel again (sent, a 4xx, the retries spent). */
	readonly final: boolean;
};

/** The outbox as the notifier drives it (notify/outbox/). */
export type NotifierOutbox = {
	/** Writes the notices (one per channel) before anything is sent. */
	put(notices: readonly Notice[], now: number): void;
	/** Sends what is due; resolves when this round's sends answered or the signal ended them. Never rejects. */
	deliver(now: number, signal: AbortSignal): Promise<void>;
	/** When the next retry is due (epoch ms), or null. */
	nextDue(): number | null;
	/** The rigs muted now, and until when (the store's). */
	mutes(now: number): ReadonlyMap<string, number>;
};

/** A dead man's switch (healthchecks-style): pinged while all is well, its fail form while a trouble is open. */
export type NotifierHeartbeat = {
	ping(failing: boolean, signal: AbortSignal): Promise<Delivery>;
};

export type NotifierOptions = {
	/** Subscribes to the AlertCenter's trouble changes; returns the unsubscribe. */
	readonly troubles: (listener: (change: TroubleChange) => void) => () => void;
	readonly policy: NotifierPolicy;
	readonly outbox: NotifierOutbox;
	readonly channels: readonly Channel[];
	readonly heartbeat?: NotifierHeartbeat | null;
	/** What the notifier has to say (the events pane's rigtop lines; rigtop watch's log). One line, no secret. */
	readonly say?: (severity: 'info' | 'warn' | 'error', line: string) => void;
	/** Each delivery's answer (rigtop watch logs each notice sent or failed). */
	readonly onDelivery?: (report: DeliveryReport) => void;
	readonly now?: () => number;
	/** The Alertmanager channels' refresh while troubles are open; default 60 s. */
	readonly refreshMs?: number;
	/** The heartbeat's interval; default 60 s. */
	readonly heartbeatMs?: number;
	/** How long a refresh or a heartbeat ping may take; default 10 s. */
	readonly requestTimeoutMs?: number;
};

export type Notifier = {
	/** The troubles open now (for a refresh, the heartbeat's fail form, and tests). */
	open(): readonly NoticeRig[];
	/** Runs what is due now (tests; the timer does it otherwise). Resolves when that round is done. */
	flush(): Promise<void>;
	/** Stops: what is due is handed to the outbox and sent until `deadlineMs` (default 5 s); the rest stays pending in the store. */
	close(deadlineMs?: number): Promise<void>;
};

export const DEFAULT_REFRESH_MS = 60_000;
export const DEFAULT_HEARTBEAT_MS = 60_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_CLOSE_DEADLINE_MS = 5000;
/** A timer is never set closer than this to the last round: a policy that keeps saying "now" cannot spin. */
const MIN_GAP_MS = 50;

/** A trouble's key among the open ones. */
const openKey = (change: TroubleChange) => `${change.url}\u0000${change.worker ?? ''}\u0000${change.trouble}`;

export function startNotifier(options: NotifierOptions): Notifier {
	const now = options.now ?? Date.now;
	const refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
	const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
	const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
	const say = options.say ?? (() => undefined);
	const refreshing = options.channels.filter((channel) => channel.refresh !== undefined);
	const open = new Map<string, NoticeRig>();
	const stopping = new AbortController();
	let timer: NodeJS.Timeout | null = null;
	let round: Promise<void> | null = null;
	let again = false;
	let closed = false;
	let nextRefresh: number | null = null;
	let nextHeartbeat: number | null = options.heartbeat ? now() : null;
	let lastRound = 0;
	/** The heartbeat's last answer, so that a change (failing, back) is said once, not at every ping. */
	let heartbeatOk: boolean | null = null;

	const mutedNow = (at: number): ReadonlyMap<string, number> => {
		try {
			return options.outbox.mutes(at);
		} catch {
			return new Map();
		}
	};

	const unsubscribe = options.troubles((change) => {
		if (closed) return;
		const at = now();
		if (change.open === true) {
			open.set(openKey(change), {
				rig: change.rig,
				url: change.url,
				...(change.worker === undefined ? {} : {worker: change.worker}),
				since: change.at,
				message: change.message,
			});
			if (refreshing.length > 0 && nextRefresh === null) nextRefresh = at + refreshMs;
		} else if (change.open === false) {
			open.delete(openKey(change));
			if (open.size === 0) nextRefresh = null;
		}

		options.policy.setMutes?.(mutedNow(at));
		options.policy.take(change, at);
		// The heartbeat tells a trouble opened (its fail form) or the last one closed at once, not a minute later.
		if (options.heartbeat && change.open !== null) nextHeartbeat = at;
		schedule();
	});

	function schedule(): void {
		if (closed) return;
		if (round !== null) {
			again = true;
			return;
		}

		const candidates = [options.policy.nextDue(), options.outbox.nextDue(), nextRefresh, nextHeartbeat].filter(
			(at): at is number => at !== null && Number.isFinite(at),
		);
		if (timer !== null) clearTimeout(timer);
		timer = null;
		if (candidates.length === 0) return;
		const at = Math.max(Math.min(...candidates), lastRound + MIN_GAP_MS);
		timer = setTimeout(
			() => {
				timer = null;
				void run();
			},
			Math.max(0, at - now()),
		);
		timer.unref();
	}

	async function run(): Promise<void> {
		if (round !== null) {
			again = true;
			return round;
		}

		round = (async () => {
			try {
				await once(stopping.signal);
			} finally {
				lastRound = now();
				round = null;
			}
		})();
		await round;
		if (again) {
			again = false;
		}

		schedule();
	}

	/** One round: the policy's due notices into the outbox, the outbox's due sends, a refresh and a ping if due. */
	async function once(signal: AbortSignal): Promise<void> {
		const at = now();
		const work: Promise<unknown>[] = [];
		try {
			const policyDue = options.policy.nextDue();
			if (policyDue !== null && policyDue <= at) {
				options.policy.setMutes?.(mutedNow(at));
				const notices = options.policy.due(at);
				if (notices.length > 0) options.outbox.put(notices, at);
			}
		} catch (error) {
			say('error', `notifications: ${error instanceof Error ? error.message : String(error)}`);
		}

		const outboxDue = options.outbox.nextDue();
		if (outboxDue !== null && outboxDue <= at) work.push(options.outbox.deliver(at, signal));
		if (nextRefresh !== null && nextRefresh <= at) {
			nextRefresh = open.size > 0 ? at + refreshMs : null;
			work.push(refresh(signal));
		}

		if (options.heartbeat && nextHeartbeat !== null && nextHeartbeat <= at) {
			nextHeartbeat = at + heartbeatMs;
			work.push(ping(options.heartbeat, signal));
		}

		await Promise.allSettled(work);
	}

	async function refresh(signal: AbortSignal): Promise<void> {
		const muted = mutedNow(now());
		const rigs = [...open.values()].filter((rig) => !muted.has(rig.rig));
		await Promise.allSettled(
			refreshing.map(async (channel) => {
				const delivery = await channel.refresh?.(rigs, AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]));
				if (delivery && !delivery.ok) say('warn', `${channel.service} ${channel.shown}: refresh failed: ${delivery.reason}`);
			}),
		);
	}

	async function ping(heartbeat: NotifierHeartbeat, signal: AbortSignal): Promise<void> {
		const failing = open.size > 0;
		let delivery: Delivery;
		try {
			delivery = await heartbeat.ping(failing, AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]));
		} catch (error) {
			delivery = {ok: false, retry: true, ms: 0, reason: error instanceof Error ? error.message : String(error)};
		}

		if (delivery.ok !== heartbeatOk) {
			if (!delivery.ok) say('warn', `heartbeat failed: ${delivery.reason}`);
			else if (heartbeatOk === false) say('info', 'heartbeat answered again');
			heartbeatOk = delivery.ok;
		}
	}

	schedule();
	return {
		open: () => [...open.values()],
		async flush() {
			if (timer !== null) clearTimeout(timer);
			timer = null;
			await run();
		},
		async close(deadlineMs = DEFAULT_CLOSE_DEADLINE_MS) {
			if (closed) return;
			unsubscribe();
			// What is due now goes out, up to the deadline; the rest stays pending in the store for the next start.
			const deadline = setTimeout(() => stopping.abort(), deadlineMs);
			deadline.unref();
			try {
				if (round !== null) await round;
				const at = now();
				options.policy.setMutes?.(mutedNow(at));
				const notices = options.policy.due(at);
				if (notices.length > 0) options.outbox.put(notices, at);
				const outboxDue = options.outbox.nextDue();
				if (outboxDue !== null && outboxDue <= at && !stopping.signal.aborted) await options.outbox.deliver(at, stopping.signal);
			} catch (error) {
				say('error', `notifications: ${error instanceof Error ? error.message : String(error)}`);
			} finally {
				closed = true;
				clearTimeout(deadline);
				if (timer !== null) clearTimeout(timer);
				timer = null;
				stopping.abort();
			}
		},
	};
}

/** A delivery as a log line: its level, message and fields (rigtop watch's and the exporter's log). No secret: `shown` only. */
export function deliveryLine(report: DeliveryReport): {
	level: 'info' | 'warn' | 'error';
	message: string;
	fields: Readonly<Record<string, string | number>>;
} {
	const fields = {
		notice: report.notice.kind,
		trouble: report.notice.trouble,
		channel: report.channel.shown,
		service: report.channel.service,
		ms: Math.round(report.delivery.ms),
		...(report.delivery.status === undefined ? {} : {status: report.delivery.status}),
	};
	if (report.delivery.ok) return {level: 'info', message: `sent: ${report.notice.title}`, fields};
	return {level: report.final ? 'error' : 'warn', message: `not sent: ${report.notice.title}: ${report.delivery.reason}`, fields};
}
